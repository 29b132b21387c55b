// SPDX-License-Identifier: GPL-3.0-or-later
// `weightspace conform`: replay a trace recorded from a Python game (tools/record_trace.py, or
// a golden file) with the registered C++ port and show where they part, if they do.
#include <CLI/CLI.hpp>

#include <iostream>
#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "apps/commands/commands.hpp"
#include "apps/cli/files.hpp"
#include "conform/conform.hpp"
#include "games/registry.hpp"

namespace weightspace::app {
namespace {

struct ConformOptions {
  std::string game;  // SOURCE/NAME
  std::string trace;
  bool every_divergence = false;
};

void print_report(const ConformReport& report, const std::string& game, bool every_divergence) {
  for (const auto& problem : report.problems) std::cout << "trace: " << problem << '\n';
  bool shown = false;
  for (const auto& episode : report.episodes) std::cout << summary_line(episode) << '\n';
  for (const auto& episode : report.episodes) {
    if (!episode.divergence || (shown && !every_divergence)) continue;
    std::cout << '\n' << describe_divergence(episode);
    shown = true;
  }
  std::cout << game << ": " << report.episodes_ok() << " of " << report.episodes.size()
            << " episodes conform" << (report.problems.empty() ? "" : ", trace header problems above")
            << '\n';
}

}  // namespace

void add_conform_command(CLI::App& app) {
  auto options = std::make_shared<ConformOptions>();
  auto* command = app.add_subcommand(
      "conform", "Replay a recorded Python trace with a registered game; exit 0 only if every step matches");
  command->add_option("--game", options->game, "SOURCE/NAME, e.g. original/breakout (see `weightspace games`)")
      ->required();
  command->add_option("--trace", options->trace, "Trace file from tools/record_trace.py ('-' = stdin)")
      ->required();
  command->add_flag("--all", options->every_divergence, "Show every divergent episode, not only the first");
  command->callback([options] {
    const auto slash = options->game.find('/');
    if (slash == std::string::npos) throw CommandError("--game wants SOURCE/NAME, e.g. original/breakout");
    const std::string source = options->game.substr(0, slash);
    const std::string name = options->game.substr(slash + 1);
    nlohmann::json trace;
    try {
      trace = nlohmann::json::parse(read_input(options->trace));
    } catch (const nlohmann::json::exception& error) {
      throw CommandError(options->trace + ": not JSON: " + error.what());
    }
    ConformReport report;
    const bool found = with_game(source, name, [&](const auto& entry) {
      using G = typename std::remove_cvref_t<decltype(entry)>::type;
      try {
        report = conform<G>(trace, entry.score_cap);
      } catch (const nlohmann::json::exception& error) {
        throw CommandError(options->trace + ": not a trace in the golden format: " + error.what());
      }
    });
    if (!found) throw CommandError("unknown game '" + options->game + "' (see `weightspace games`)");
    print_report(report, options->game, options->every_divergence);
    if (!report.ok()) throw CommandError(options->game + " does not conform to " + options->trace);
  });
}

}  // namespace weightspace::app
