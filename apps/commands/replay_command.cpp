// SPDX-License-Identifier: GPL-3.0-or-later
// `weightspace replay`: play a recorded action list on one seeded game and print every state,
// for conformance checks against MinAtar (one JSON object per line).
#include <CLI/CLI.hpp>

#include <iostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "apps/commands/commands.hpp"
#include "apps/cli/files.hpp"
#include "games/cells.hpp"
#include "games/observe.hpp"
#include "games/environment.hpp"
#include "games/registry.hpp"

namespace weightspace::app {
namespace {

struct ReplayOptions {
  std::string game;
  std::string source = "original";
  bool ramping = false;
  std::uint32_t seed = 0;
  std::string actions;
  std::string actions_file;
  bool observation = false;
};

std::vector<int> parse_actions(const std::string& text, const std::string& where) {
  std::vector<int> actions;
  std::size_t i = 0;
  while (i < text.size()) {
    const char c = text[i];
    if (c == ',' || std::isspace(static_cast<unsigned char>(c))) {
      ++i;
      continue;
    }
    std::size_t end = i;
    while (end < text.size() && text[end] != ',' && !std::isspace(static_cast<unsigned char>(text[end]))) ++end;
    const std::string token = text.substr(i, end - i);
    if (token.size() != 1 || token[0] < '0' || token[0] > '5') {
      throw CommandError(where + ": action " + std::to_string(actions.size() + 1) + " is '" + token +
                         "'; actions are integers 0 to 5");
    }
    actions.push_back(token[0] - '0');
    i = end;
  }
  return actions;
}

template <Game G>
std::vector<int> state_indices(const G& game, bool observation) {
  if (!observation) return raw_state(game);
  ActiveInputs active;
  observe(game, active);
  return {active.view().begin(), active.view().end()};
}

template <Game G>
void replay(const ReplayOptions& options, const std::vector<int>& actions) {
  Environment<G> env(options.ramping);
  env.start_episode(options.seed);
  nlohmann::ordered_json line;
  line["step"] = 0;
  line["state"] = state_indices(env.game(), options.observation);
  std::cout << line.dump() << '\n';
  for (std::size_t k = 0; k < actions.size(); ++k) {
    const StepResult result = env.act(actions[k]);
    line = nlohmann::ordered_json();
    line["step"] = k + 1;
    line["action"] = actions[k];
    line["reward"] = result.reward;
    line["terminal"] = result.terminal;
    line["state"] = state_indices(env.game(), options.observation);
    std::cout << line.dump() << '\n';
  }
}

}  // namespace

void add_replay_command(CLI::App& app) {
  auto options = std::make_shared<ReplayOptions>();
  auto* command = app.add_subcommand("replay", "Play an action list on one seeded game; print each state as JSON lines");
  command->add_option("--game", options->game, "Game name (see `weightspace games`)")->required();
  command->add_option("--source", options->source, "Game source: original (MinAtar ports) or synth")->check(CLI::IsMember({"original", "synth"}));
  command->add_flag("--ramping", options->ramping, "Difficulty ramping on (the grader runs with it off)");
  command->add_option("--seed", options->seed, "Environment seed (the grader uses 1729 + episode)")->required();
  auto* inline_actions = command->add_option("--actions", options->actions, "Actions, comma- or space-separated");
  auto* file_actions = command->add_option("--actions-file", options->actions_file, "File of actions ('-' = stdin)");
  inline_actions->excludes(file_actions);
  command->add_flag("--observation", options->observation, "Print the grader's 600-input observation instead of the raw state");
  command->callback([options, inline_actions, file_actions] {
    if (inline_actions->count() == 0 && file_actions->count() == 0) {
      throw CommandError("replay needs --actions or --actions-file");
    }
    const std::string where = inline_actions->count() ? "--actions" : options->actions_file;
    const std::string text = inline_actions->count() ? options->actions : read_input(options->actions_file);
    const std::vector<int> actions = parse_actions(text, where);
    const bool found = with_game(options->source, options->game, [&](const auto& entry) {
      replay<typename std::remove_cvref_t<decltype(entry)>::type>(*options, actions);
    });
    if (!found) throw CommandError("unknown game '" + options->source + "/" + options->game + "'");
  });
}

}  // namespace weightspace::app
