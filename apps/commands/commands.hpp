// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "apps/cli/cli_fwd.hpp"

namespace weightspace::app {

// Each subcommand registers its options and a callback that runs it; a callback reports
// failures by throwing CommandError.
void add_replay_command(CLI::App& app);
void add_episode_command(CLI::App& app);
void add_parse_command(CLI::App& app);
void add_grade_command(CLI::App& app);
void add_batch_command(CLI::App& app);
void add_merge_command(CLI::App& app);
void add_bench_command(CLI::App& app);
void add_verify_command(CLI::App& app);
void add_games_command(CLI::App& app);
void add_conform_command(CLI::App& app);
// apps/sweep/: nightly regression sweeps and their results database.
void add_sweep_command(CLI::App& app);
void add_runs_command(CLI::App& app);
void add_compare_command(CLI::App& app);
void add_report_command(CLI::App& app);
// apps/serve/: grading over HTTP.
void add_serve_command(CLI::App& app);

}  // namespace weightspace::app
