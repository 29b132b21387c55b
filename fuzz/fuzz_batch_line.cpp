// SPDX-License-Identifier: GPL-3.0-or-later
// libFuzzer target: parse_batch_line, the reader of `weightspace batch` output lines that
// `batch --resume`, `merge` and `compare` use, on arbitrary bytes. Only EditError may escape.
// A line it accepts is one batch_line can write again, and what batch_line writes reads back
// to itself: `merge` takes a shard's line as unedited exactly when it is batch_line's text.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "apps/batch/batch_output.hpp"

namespace {

void check(std::string_view line, std::string* version) {
  using namespace weightspace::app;
  bool timings = false;
  const weightspace::BatchResult result = parse_batch_line(line, timings, version);
  const std::string written = batch_line(result, timings);
  bool again_timings = false;
  const weightspace::BatchResult reread = parse_batch_line(written, again_timings, version);
  const std::string again = batch_line(reread, again_timings);
  if (again != written || again_timings != timings) __builtin_trap();
  // What merge and a resume write from a line beside the JSONL: its CSV row and reward file.
  if (csv_row(result, timings).empty() || reward_file_name(1, result).find('/') != std::string::npos) __builtin_trap();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view line(reinterpret_cast<const char*>(data), size);
  // As resume and merge read it (this version's lines only), then as compare does (any version).
  try {
    check(line, nullptr);
  } catch (const weightspace::EditError& error) {
    if (error.kind().empty()) __builtin_trap();
  }
  std::string version;
  try {
    check(line, &version);
  } catch (const weightspace::EditError& error) {
    if (error.kind().empty()) __builtin_trap();
  }
  return 0;
}
