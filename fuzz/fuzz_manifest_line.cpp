// SPDX-License-Identifier: GPL-3.0-or-later
// libFuzzer target: parse_manifest_line (one JSONL line of a `weightspace batch` manifest) on
// arbitrary bytes, as RecordStream calls it for each line. It reports what is wrong with a line
// in the entry (a failed record) and must never throw; a line it accepts names its content.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "apps/batch/batch_inputs.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace weightspace::app;
  const std::string_view line(reinterpret_cast<const char*>(data), size);
  const ManifestEntry entry = parse_manifest_line(line);
  if (entry.error) {
    if (entry.error->kind().empty() || entry.games) __builtin_trap();
    return 0;
  }
  if (entry.content == ManifestEntry::Content::None) __builtin_trap();
  if (entry.games && entry.games->empty()) __builtin_trap();
  // Every text the entry holds was in the line (a slice or a JSON string's unescaped text).
  if (entry.content == ManifestEntry::Content::Trajectory && entry.content_value.size() > size) __builtin_trap();
  return 0;
}
