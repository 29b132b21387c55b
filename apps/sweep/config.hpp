// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace weightspace::app {

// Which run a sweep's report compares with (the config's `baseline`).
struct Baseline {
  enum class Kind {
    Pinned,    // "pinned" (the default): the run pinned with `weightspace runs --pin`, else the previous one
    Previous,  // "previous": the newest finished run of the same name before this one
    Run,       // a run id
  };
  Kind kind = Kind::Pinned;
  std::int64_t run = 0;
  std::string place;  // CONFIG:LINE:COLUMN of the key, for errors found later (a run not in the store)
};

struct AnswerSet {
  std::string name;
  std::vector<std::string> paths;  // as the config writes them: relative to its folder, or absolute
};

// The longest [speed] min_time accepted, in seconds (a repetition of a minute is plenty).
inline constexpr double kMaxSpeedMinTime = 60.0;

// A sweep config (TOML; docs/user-guide.md "sweep"): answer sets graded on every game x source x
// episode count, and the thread counts timed for the speed part.
struct SweepConfig {
  std::string path;         // as given
  std::string absolute_path;
  std::string folder;       // the config's folder, "" for the working directory
  std::string text;         // the file as read
  std::string name;         // `name`, default the file name without .toml
  Baseline baseline;
  std::vector<AnswerSet> answers;
  std::vector<std::string> games;  // empty: "all" (every game registered for the source)
  std::vector<std::string> sources = {"original"};
  std::vector<std::int64_t> episodes = {1000};
  int threads = 0;  // the main pass (0: all cores); never changes a result
  int batch = 32;
  std::size_t cache = 4096;
  std::vector<int> speed_threads;  // empty: no speed part
  std::int64_t speed_records = 50;  // the pinned workload's size (speed_workload.hpp)
  int speed_repeat = 9;  // repetitions per thread count, interleaved across thread counts
  double speed_min_time = 0.5;  // seconds: a repetition grades the workload again until this long
  bool speed_instructions = false;  // also count the workload's instructions under valgrind

  // The games graded on `source`, in the order the config lists them.
  std::vector<std::string> games_for(const std::string& source) const;
  // An answer set path as the process opens it (joined to the config's folder).
  std::string resolve(const std::string& relative) const;
};

// Reads and checks a config. Every mistake is a UsageError "CONFIG:LINE:COLUMN: what is wrong"
// (TOML syntax, unknown keys with the close names, wrong types, values out of range, answer set
// paths that do not exist).
SweepConfig load_config(const std::string& path);

// Whether an answer set path (as SweepConfig::resolve gives it) exists.
using PathExists = std::function<bool(const std::string&)>;
// load_config without the file system: `text` is the config at `path` (its folder resolves the
// answer set paths), `exists` answers for those paths. absolute_path is left empty. The same
// UsageErrors, in the same order, as load_config.
SweepConfig parse_config(const std::string& path, std::string text, const PathExists& exists);

// The `baseline` of a config text a store kept (not checked beyond that key).
Baseline stored_baseline(const std::string& text, const std::string& path);

}  // namespace weightspace::app
