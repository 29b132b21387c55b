// SPDX-License-Identifier: GPL-3.0-or-later
#include "apps/batch/resume.hpp"

#include <spdlog/spdlog.h>

#include <filesystem>
#include <fstream>

#include "apps/batch/batch_output.hpp"
#include "apps/cli/errors.hpp"

namespace weightspace::app {

// Drops a torn last line (a run killed mid-write) so the file ends after its last record.
void drop_torn_line(const std::string& path) {
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  if (!in) throw CommandError("cannot read " + path + " to resume it");
  const std::streamoff size = in.tellg();
  std::streamoff keep = size;
  char c = '\n';
  while (keep > 0) {
    in.seekg(keep - 1);
    in.get(c);
    if (c == '\n') break;
    --keep;
  }
  if (keep == size) return;
  spdlog::warn("{}: dropping an incomplete last line ({} bytes) before resuming", path, size - keep);
  std::filesystem::resize_file(path, static_cast<std::uintmax_t>(keep));
}

std::uint64_t replay_output(const std::string& out, bool timings,
                            const std::function<std::optional<BatchRecord>()>& next, BatchGrader& grader,
                            ResultSinks& sinks) {
  std::ifstream in(out, std::ios::binary);
  std::string line;
  std::uint64_t count = 0;
  while (std::getline(in, line)) {
    ++count;
    const std::string place = out + " line " + std::to_string(count);
    bool line_timings = false;
    BatchResult written;
    try {
      written = parse_batch_line(line, line_timings);
    } catch (const EditError& error) {
      throw UsageError(place + " is not a weightspace batch record (" + error.what() + "); cannot resume");
    }
    if (line_timings != timings) {
      throw UsageError(place + (line_timings ? " has" : " has no") + " timings; resume with the same --no-timings setting");
    }
    const std::optional<BatchRecord> record = next();
    if (!record) throw UsageError(out + " holds more records than the inputs make; cannot resume");
    if (!same_record(written, *record)) {
      throw UsageError(place + " is record " + written.record.id + " on " + written.record.request.game +
                       ", but the inputs' record " + std::to_string(count) + " is " + record->id + " on " +
                       record->request.game + ": not the same inputs and options; cannot resume");
    }
    grader.remember(written);
    sinks.replay(written);
  }
  return count;
}

}  // namespace weightspace::app
