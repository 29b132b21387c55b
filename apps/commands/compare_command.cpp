// SPDX-License-Identifier: GPL-3.0-or-later
// `weightspace compare BASE NEW`: exit 0 without a regression, 1 with one, 2 when the two
// cannot be compared (bad input of any kind, an unreadable database).
#include <CLI/CLI.hpp>

#include <iostream>

#include "apps/commands/commands.hpp"
#include "apps/sweep/compare.hpp"
#include "apps/sweep/run_data.hpp"

namespace weightspace::app {

namespace {

struct Options {
  std::string base;
  std::string now;
  std::string db = "weightspace.sqlite";
  std::string name;
  double speed_tolerance = 10.0;  // percent
  double instruction_tolerance = 100.0 * kInstructionTolerance;  // percent
  bool json = false;
};

bool is_run_id(const std::string& operand) {
  return !operand.empty() && operand.size() < 19 && operand.find_first_not_of("0123456789") == std::string::npos;
}

// Loads both sides. Keywords are resolved among the runs of one name: --name, else that of a
// run given by id, else that of the newest finished run; "previous" is the run before the
// other side (when that is a run), else before the latest.
std::pair<RunRecords, RunRecords> load_sides(const Options& options) {
  std::optional<Store> store;
  auto open = [&]() -> Store& {
    if (!store) store.emplace(options.db, sqlite::Database::Mode::Existing);
    return *store;
  };
  const std::string* operands[] = {&options.base, &options.now};
  std::string name = options.name;
  for (const std::string* operand : operands) {
    if (name.empty() && is_run_id(*operand) && !is_batch_file(*operand)) {
      if (const std::optional<RunInfo> run = open().run(std::stoll(*operand))) name = run->name;
    }
  }
  bool keywords = false;
  for (const std::string* operand : operands) keywords = keywords || (!is_batch_file(*operand) && !is_run_id(*operand));
  if (name.empty() && keywords) {
    if (const auto latest = open().latest_finished(std::nullopt)) name = open().run(*latest)->name;
  }
  std::optional<std::int64_t> ids[2];
  for (int pass = 0; pass < 2; ++pass) {  // "previous" last: it depends on the other side
    for (int side = 0; side < 2; ++side) {
      const std::string& operand = *operands[side];
      if (is_batch_file(operand) || (operand == "previous") != (pass == 1)) continue;
      ids[side] = resolve_run(open(), operand, name, ids[1 - side]);
    }
  }
  auto load = [&](int side) { return ids[side] ? load_run(open(), *ids[side]) : read_batch_file(*operands[side]); };
  return {load(0), load(1)};
}

void run_compare(const Options& options) {
  std::pair<RunRecords, RunRecords> sides;
  try {
    sides = load_sides(options);
  } catch (const CommandError& error) {
    throw UsageError(error.what());  // whatever stops the comparison is exit 2, never 1
  }
  const auto& [base, now] = sides;
  const Comparison comparison = compare_runs(base, now, options.speed_tolerance / 100.0, options.instruction_tolerance / 100.0);
  if (options.json) {
    std::cout << comparison_json(base, now, comparison).dump(1, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
  } else {
    std::cout << comparison_table(base, now, comparison);
  }
  if (comparison.regression()) {
    std::cout.flush();
    throw CommandError("regression: " + base.label + " -> " + now.label);
  }
}

}  // namespace

void add_compare_command(CLI::App& app) {
  auto options = std::make_shared<Options>();
  auto* command = app.add_subcommand(
      "compare", "Compare two sweep runs (or batch JSONL files): exit 0 no regression, 1 regression, 2 bad input");
  command->add_option("base", options->base, "A run id, latest, previous, baseline, or a batch *.jsonl file")->required();
  command->add_option("new", options->now, "The same kinds; compared with BASE")->required();
  command->add_option("--db", options->db, "The results database (default: weightspace.sqlite)");
  command->add_option("--name", options->name, "The sweep name latest, previous and baseline are taken among");
  command->add_option("--speed-tol", options->speed_tolerance,
                      "Percent of steps/s a thread count may lose before it is a regression (same machine only)")
      ->check(CLI::Range(0.0, 100.0));
  command->add_option("--instructions-tol", options->instruction_tolerance,
                      "Percent more instructions the speed workload may take before it is a regression (default 1)")
      ->check(CLI::Range(0.0, 100.0));
  command->add_flag("--json", options->json, "Machine-readable output");
  command->callback([options] { run_compare(*options); });
}

}  // namespace weightspace::app
