// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "apps/batch/answer_input.hpp"
#include "apps/cluster/shard.hpp"

namespace weightspace::app {

// `weightspace batch` as called (the flags, docs/user-guide.md).
struct BatchRunOptions {
  std::vector<std::string> inputs;
  std::vector<std::string> games;
  std::string source = "original";
  std::string episodes = "1000";
  int threads = 0;
  int lockstep = 32;  // episodes stepped together per thread (--lockstep)
  std::string memo = "auto";  // the policy memo (--memo: apps/cli/memo_uses.hpp)
  std::size_t cache = 4096;
  std::string out;
  bool resume = false;
  bool no_timings = false;
  bool quiet = false;
  std::string csv;
  std::string rewards_dir;
  std::size_t max_input_bytes = default_max_input_bytes();
  ShardFlags shard;
  bool dry_run = false;
};

// Grades every record of the inputs (or, sharded, this shard's: apps/cluster/) with the engine's
// BatchGrader into the sinks the options name (apps/batch/sinks.hpp), after what an interrupted
// --out holds already with --resume (apps/batch/resume.hpp), showing progress on stderr. With
// --dry-run, only lists the records it would grade.
void grade_batch(const BatchRunOptions& options);

}  // namespace weightspace::app
