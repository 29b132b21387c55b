// SPDX-License-Identifier: GPL-3.0-or-later
// libFuzzer target: the sweep results store on mutated databases. The input bytes become a file
// (in /dev/shm, one per process) that is opened as a store, and read as `weightspace runs`,
// `compare` and `report` read it: the runs, each run's records, speed rows and mean scores,
// the rewards parsed back, two runs compared. SQLite's own failures (a corrupt page, not a
// database, ...) must come out as the CommandError naming the file; nothing else may escape.
#include <unistd.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "apps/cli/errors.hpp"
#include "apps/sweep/compare.hpp"
#include "apps/sweep/run_data.hpp"
#include "apps/sweep/store.hpp"

namespace {

using namespace weightspace::app;

const std::string& store_path() {
  static const std::string path = [] {
    const std::filesystem::path shm("/dev/shm");
    std::error_code error;
    const std::filesystem::path folder =
        std::filesystem::is_directory(shm, error) ? shm : std::filesystem::temp_directory_path();
    return (folder / ("weightspace-fuzz-store-" + std::to_string(getpid()) + ".sqlite")).string();
  }();
  return path;
}

void remove_store(const std::string& path) {
  for (const char* suffix : {"", "-wal", "-shm", "-journal"}) std::remove((path + suffix).c_str());
}

void write_store(const std::string& path, const std::uint8_t* data, std::size_t size) {
  remove_store(path);
  std::FILE* file = std::fopen(path.c_str(), "wb");
  if (file == nullptr) __builtin_trap();
  if (size > 0 && std::fwrite(data, 1, size, file) != size) __builtin_trap();
  if (std::fclose(file) != 0) __builtin_trap();
}

// What `runs` shows of a run and what `report` reads of it.
void read_run(Store& store, const RunInfo& run) {
  static_cast<void>(store.pinned(run.name));
  static_cast<void>(store.unfinished(run.name));
  static_cast<void>(store.previous_finished(run.name, run.id));
  static_cast<void>(store.mean_scores(run.id));
  const RunRecords side = load_run(store, run.id);
  for (const StoredRecord& record : side.records) static_cast<void>(parse_reward(record));
  for (const SpeedRow& row : side.speed) static_cast<void>(row.steps_per_second());
}

void read_store(const std::string& path) {
  Store store(path, weightspace::app::sqlite::Database::Mode::Existing);
  const std::vector<RunInfo> runs = store.runs();
  // A mutated store can hold many runs; a few show every path the others would take.
  const std::size_t shown = std::min<std::size_t>(runs.size(), 4);
  for (std::size_t i = 0; i < shown; ++i) read_run(store, runs[i]);
  static_cast<void>(store.latest_finished(std::nullopt));
  if (runs.empty()) return;
  const RunRecords base = load_run(store, runs[shown - 1].id);
  const RunRecords now = load_run(store, runs.front().id);
  static_cast<void>(compare_runs(base, now, 0.10, kInstructionTolerance));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string& path = store_path();
  write_store(path, data, size);
  try {
    read_store(path);
  } catch (const CommandError& error) {
    // SQLite's failures name the store; a problem with one of its records names the record.
    if (std::string(error.what()).empty()) __builtin_trap();
  }
  remove_store(path);
  return 0;
}
