// SPDX-License-Identifier: GPL-3.0-or-later
// `weightspace report RUN`: the self-contained HTML report of a stored run.
#include <CLI/CLI.hpp>
#include <spdlog/spdlog.h>

#include "apps/commands/commands.hpp"
#include "apps/sweep/config.hpp"
#include "apps/report/report_document.hpp"
#include "apps/sweep/run_data.hpp"

namespace weightspace::app {

namespace {

struct Options {
  std::string run = "latest";
  std::string baseline;
  std::string db = "weightspace.sqlite";
  std::string name;
  std::string out = "report.html";
  std::string data;
  int trend = 30;
};

void run_report(const Options& options) {
  Store store(options.db, sqlite::Database::Mode::Existing);
  std::string name = options.name;
  if (name.empty()) {
    if (const auto latest = store.latest_finished(std::nullopt)) name = store.run(*latest)->name;
  }
  const std::int64_t id = resolve_run(store, options.run, name, std::nullopt);
  const RunInfo run = *store.run(id);
  std::optional<std::int64_t> baseline;
  if (options.baseline.empty()) {
    // The rule of the run's own config, as the sweep that made it applied it.
    baseline = baseline_for(store, run, stored_baseline(run.config_text, run.config_path));
  } else if (options.baseline != "none") {
    baseline = resolve_run(store, options.baseline, run.name, id);
  }
  write_report(store, id, baseline, options.trend, options.out, options.data);
  spdlog::info("report of run {}{} written to {}", id,
               baseline ? " against run " + std::to_string(*baseline) : std::string(" (no baseline)"), options.out);
}

}  // namespace

void add_report_command(CLI::App& app) {
  auto options = std::make_shared<Options>();
  auto* command = app.add_subcommand("report", "Write the self-contained HTML report of a sweep run");
  command->add_option("run", options->run, "A run id, latest (the default), previous or baseline");
  command->add_option("--baseline", options->baseline,
                      "The run to compare with: an id, previous, baseline or none (default: the rule of the run's config)");
  command->add_option("--db", options->db, "The results database (default: weightspace.sqlite)");
  command->add_option("--name", options->name, "The sweep name latest, previous and baseline are taken among");
  command->add_option("-o,--out", options->out, "The HTML file to write (default: report.html)");
  command->add_option("--data", options->data, "Also write the report's data (JSON) here");
  command->add_option("--trend", options->trend, "Runs in the trend charts")->check(CLI::Range(1, 10000));
  command->callback([options] { run_report(*options); });
}

}  // namespace weightspace::app
