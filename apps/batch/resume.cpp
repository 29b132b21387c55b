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

namespace {

// The lines of `out` a resume keeps: every line that ends with a newline (a last line
// without one was torn by a kill mid-write).
template <typename Each>
std::uint64_t for_each_line(const std::string& out, Each&& each) {
  std::ifstream in(out, std::ios::binary);
  if (!in) throw CommandError("cannot read " + out + " to resume it");
  std::string line;
  std::uint64_t count = 0;
  while (std::getline(in, line)) {
    if (in.eof()) break;  // no newline after it: torn
    ++count;
    each(line, count);
  }
  return count;
}

BatchResult parse_line(const std::string& line, const std::string& place, bool& timings) {
  try {
    return parse_batch_line(line, timings);
  } catch (const EditError& error) {
    throw UsageError(place + " is not a weightspace batch record (" + error.what() + "); cannot resume");
  }
}

std::string episodes_text(const BatchRecord& record) { return std::to_string(record.request.episodes); }

}  // namespace

std::string record_difference(const BatchResult& written, const BatchRecord& record) {
  const BatchRecord& old = written.record;
  struct Field {
    const char* name;
    std::string before;
    std::string now;
  };
  const Field fields[] = {
      {"id", old.id, record.id},
      {"input", old.input, record.input},
      {"game", old.request.game, record.request.game},
      {"source", old.request.source, record.request.source},
      {"episodes", episodes_text(old), episodes_text(record)},
  };
  for (const Field& field : fields) {
    if (field.before != field.now) {
      return std::string(field.name) + " is " + field.before + " there, " + field.now + " now";
    }
  }
  return "";
}

std::uint64_t check_output(const std::string& out, bool timings,
                           const std::function<std::optional<BatchRecord>()>& next, BatchGrader& grader) {
  return for_each_line(out, [&](const std::string& line, std::uint64_t count) {
    const std::string place = out + " line " + std::to_string(count);
    bool line_timings = false;
    const BatchResult written = parse_line(line, place, line_timings);
    if (line_timings != timings) {
      throw UsageError(place + (line_timings ? " has" : " has no") + " timings; resume with the same --no-timings setting");
    }
    const std::optional<BatchRecord> record = next();
    if (!record) throw UsageError(out + " holds more records than the inputs make; cannot resume");
    const std::string difference = record_difference(written, *record);
    if (!difference.empty()) {
      throw UsageError(place + " (record " + written.record.id + " on " + written.record.request.game +
                       ") is not the inputs' record " + std::to_string(count) + ": its " + difference +
                       " (not the same inputs and options; cannot resume)");
    }
    grader.remember(written);
  });
}

void replay_output(const std::string& out, ResultSinks& sinks) {
  for_each_line(out, [&](const std::string& line, std::uint64_t count) {
    bool timings = false;
    sinks.replay(parse_line(line, out + " line " + std::to_string(count), timings));
  });
}

}  // namespace weightspace::app
