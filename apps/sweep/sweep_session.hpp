// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <nlohmann/json.hpp>

#include <string>

#include "apps/cluster/shard.hpp"

namespace weightspace::app {

// What `weightspace sweep` was asked: the config, where its database and report go, and
// whether to continue an unfinished run.
struct SweepRequest {
  std::string config;  // as given: the --resume hint repeats it
  std::string db;      // empty: weightspace.sqlite beside the config
  std::string report;  // empty: report.html beside the database
  bool no_report = false;
  bool resume = false;
  bool quiet = false;
  int trend = 30;
  ShardFlags shard;
};

// Runs a sweep: grades the config's records into a new (or, with `resume`, its unfinished)
// run of the results store, times its thread counts, marks the run finished and writes its
// report. SIGINT and SIGTERM stop it between records, leaving the run "interrupted" for
// --resume. Returns the summary the command prints; throws UsageError or CommandError.
// The shard flags fall back to `environment` (the scheduler's variables).
nlohmann::json run_sweep(const SweepRequest& request, const Environment& environment);

}  // namespace weightspace::app
