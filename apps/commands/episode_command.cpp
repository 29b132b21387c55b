// SPDX-License-Identifier: GPL-3.0-or-later
// `weightspace episode`: one grader episode of a weights file, for checks against
// verify.evaluate's loop body.
#include <CLI/CLI.hpp>

#include <iostream>

#include "apps/commands/commands.hpp"
#include "apps/cli/files.hpp"
#include "apps/batch/weights_json.hpp"
#include "engine/episode.hpp"
#include "engine/python_json.hpp"
#include "games/registry.hpp"

namespace weightspace::app {

void add_episode_command(CLI::App& app) {
  struct Options {
    std::string game;
    std::string source = "original";
    std::string weights_path;
    std::int64_t index = 0;
  };
  auto options = std::make_shared<Options>();
  auto* command = app.add_subcommand("episode", "Play grader episode INDEX (env seed 1729+i, action seed 7919+i)");
  command->add_option("--game", options->game, "Game name (see `weightspace games`)")->required();
  command->add_option("--source", options->source, "Game source: original (MinAtar ports) or synth")->check(CLI::IsMember({"original", "synth"}));
  command->add_option("--weights", options->weights_path, "Weights JSON (as written by `parse --weights-out`)")->required();
  command->add_option("--index", options->index, "Episode index")->required()->check(CLI::Range(std::int64_t{0}, kMaxEpisodes - 1));
  command->callback([options] {
    const Weights weights = read_weights_json(read_input(options->weights_path), options->weights_path);
    EpisodeResult result;
    const bool found = with_game(options->source, options->game, [&](const auto& entry) {
      result = run_episode<typename std::remove_cvref_t<decltype(entry)>::type>(weights, options->index);
    });
    if (!found) throw CommandError("unknown game '" + options->source + "/" + options->game + "'");
    std::cout << "{\"index\":" << options->index << ",\"score\":" << python_json_float(result.score)
              << ",\"length\":" << result.length << "}\n";
  });
}

}  // namespace weightspace::app
