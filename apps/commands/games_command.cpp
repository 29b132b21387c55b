// SPDX-License-Identifier: GPL-3.0-or-later
// `weightspace games`: the registered games, as a table or as JSON.
#include <CLI/CLI.hpp>

#include <cstdio>
#include <iostream>

#include <nlohmann/json.hpp>

#include "apps/commands/commands.hpp"
#include "engine/python_json.hpp"
#include "games/registry.hpp"

namespace weightspace::app {

void add_games_command(CLI::App& app) {
  auto json = std::make_shared<bool>(false);
  auto* command = app.add_subcommand("games", "List the registered games");
  command->add_flag("--json", *json, "One JSON object per game");
  command->callback([json] {
    for (const GameInfo& game : registered_games()) {
      if (*json) {
        nlohmann::ordered_json line{{"source", game.source}, {"name", game.name}, {"channels", game.channels},
                                    {"score_cap", game.score_cap}, {"description", game.description}};
        std::cout << line.dump() << '\n';
      } else {
        std::printf("%-9s %-15s %2d channels  cap %-7s %s\n", std::string(game.source).c_str(),
                    std::string(game.name).c_str(), game.channels,
                    python_float_repr(game.score_cap).c_str(), std::string(game.description).c_str());
      }
    }
  });
}

}  // namespace weightspace::app
