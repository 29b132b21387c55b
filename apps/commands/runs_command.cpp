// SPDX-License-Identifier: GPL-3.0-or-later
// `weightspace runs`: the runs of a results database, and pinning a run as the baseline.
#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <cstdio>
#include <iostream>

#include "apps/cli/suggest.hpp"
#include "apps/commands/commands.hpp"
#include "apps/sweep/compare.hpp"
#include "apps/sweep/store.hpp"
#include "apps/sweep/sweep_lock.hpp"

namespace weightspace::app {

namespace {

struct Options {
  std::string db = "weightspace.sqlite";
  std::string name;
  int limit = 0;
  bool json = false;
  std::int64_t pin = 0;
  std::int64_t unpin = 0;
};

// A run left "running" by a sweep that no longer holds the database's sweep lock was killed.
std::string shown_status(const RunInfo& run, bool sweep_alive) {
  if (run.status == "running" && !sweep_alive) return "killed";
  return run.status;
}

std::string duration(const RunInfo& run) {
  if (!run.finished_at) return "-";
  char text[32];
  std::snprintf(text, sizeof text, "%.1f s", seconds_between(run.started_at, *run.finished_at));
  return text;
}

void run_runs(const Options& options) {
  Store store(options.db, sqlite::Database::Mode::Existing);
  for (const auto& [id, pin] : {std::pair{options.pin, true}, std::pair{options.unpin, false}}) {
    if (id == 0) continue;
    const std::optional<RunInfo> run = store.run(id);
    if (!run) throw UsageError("no run " + std::to_string(id) + " in " + options.db);
    if (pin && run->status != "finished") {
      throw UsageError("run " + std::to_string(id) + " is " + run->status + "; only a finished run can be the baseline");
    }
    store.pin(id, pin);
    spdlog::info("run {} is {} the baseline of \"{}\"", id, pin ? "now" : "no longer", run->name);
  }
  std::vector<RunInfo> runs = store.runs(options.name.empty() ? std::nullopt : std::optional(options.name));
  if (runs.empty() && !options.name.empty()) {
    // A --name no run has is most likely a typo: say so, with the names there are.
    std::vector<std::string> names;
    for (const RunInfo& run : store.runs(std::nullopt)) {
      if (std::find(names.begin(), names.end(), run.name) == names.end()) names.push_back(run.name);
    }
    std::string list;
    for (const std::string& name : names) list += (list.empty() ? "" : ", ") + name;
    throw UsageError("no runs of sweep name '" + options.name + "' in " + options.db +
                     did_you_mean(options.name, names) +
                     (names.empty() ? "; the database has no runs" : "; the names are " + list));
  }
  if (options.limit > 0 && runs.size() > static_cast<std::size_t>(options.limit)) runs.resize(options.limit);
  const bool sweep_alive = SweepLock::holder(store.path()).has_value();
  if (options.json) {
    nlohmann::json list = nlohmann::json::array();
    for (const RunInfo& run : runs) {
      nlohmann::json entry = run_json(run);
      entry["status"] = shown_status(run, sweep_alive);
      list.push_back(entry);
    }
    std::cout << list.dump(1, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
    return;
  }
  std::vector<std::vector<std::string>> rows = {
      {"id", "name", "status", "started", "duration", "records", "failed", "version", "revision", "machine", ""}};
  for (const RunInfo& run : runs) {
    rows.push_back({std::to_string(run.id), run.name, shown_status(run, sweep_alive), run.started_at, duration(run),
                    std::to_string(run.records), std::to_string(run.failed), run.version, run.git_revision,
                    run.machine.hostname + " (" + run.machine.describe() + ")", run.pinned ? "baseline" : ""});
  }
  std::vector<std::size_t> widths(rows.front().size(), 0);
  for (const auto& row : rows) {
    for (std::size_t i = 0; i < row.size(); ++i) widths[i] = std::max(widths[i], row[i].size());
  }
  for (const auto& row : rows) {
    std::string line;
    for (std::size_t i = 0; i < row.size(); ++i) {
      line += row[i];
      if (i + 1 < row.size()) line += std::string(widths[i] - row[i].size() + 2, ' ');
    }
    line.erase(line.find_last_not_of(' ') + 1);
    std::cout << line << "\n";
  }
  if (runs.empty()) std::cout << "(no runs)\n";
}

}  // namespace

void add_runs_command(CLI::App& app) {
  auto options = std::make_shared<Options>();
  auto* command = app.add_subcommand("runs", "List the sweep runs of a results database, newest first; pin a baseline");
  command->add_option("--db", options->db, "The results database (default: weightspace.sqlite)");
  command->add_option("--name", options->name, "Only the runs of this sweep name");
  command->add_option("--limit", options->limit, "At most this many runs (0: all)")->check(CLI::NonNegativeNumber);
  command->add_flag("--json", options->json, "A JSON array instead of the table");
  command->add_option("--pin", options->pin, "Pin finished run ID as the baseline of its sweep name (unpins the other)")
      ->check(CLI::PositiveNumber);
  command->add_option("--unpin", options->unpin, "Unpin run ID")->check(CLI::PositiveNumber);
  command->callback([options] { run_runs(*options); });
}

}  // namespace weightspace::app
