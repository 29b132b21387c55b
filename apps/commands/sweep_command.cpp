// SPDX-License-Identifier: GPL-3.0-or-later
// `weightspace sweep CONFIG`: grades a sweep config's answer sets with the batch engine into a
// run of the results store, times the speed part, and writes the HTML report
// (apps/sweep/sweep_session.hpp).
#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <csignal>
#include <iostream>
#include <memory>

#include "apps/commands/commands.hpp"
#include "apps/sweep/sweep_session.hpp"

namespace weightspace::app {

void add_sweep_command(CLI::App& app) {
  auto options = std::make_shared<SweepRequest>();
  auto* command = app.add_subcommand(
      "sweep", "Run a sweep config (TOML): grade its answer sets on its games, sources and episode counts into the "
               "results database, time its thread counts, write the HTML report");
  command->add_option("config", options->config, "The sweep config (docs/user-guide.md, \"sweep\")")->required();
  command->add_option("--db", options->db, "The results database (default: weightspace.sqlite beside the config)");
  command->add_option("--report", options->report, "Write the HTML report here (default: report.html beside the database)");
  command->add_flag("--no-report", options->no_report, "Write no HTML report");
  command->add_flag("--resume", options->resume,
                    "Continue the newest unfinished run of this config (killed, interrupted or failed); start a new "
                    "one if there is none");
  command->add_option("--trend", options->trend, "Runs in the report's trend charts")->check(CLI::Range(1, 10000));
  command->add_flag("--quiet", options->quiet, "No progress and no summary on stderr");
  options->shard.add_options(*command, "--db");
  command->callback([options] {
    std::signal(SIGPIPE, SIG_IGN);
    const nlohmann::json summary = run_sweep(*options, process_environment);
    std::cout << summary.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
  });
}

}  // namespace weightspace::app
