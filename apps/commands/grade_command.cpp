// SPDX-License-Identifier: GPL-3.0-or-later
// `weightspace grade`: verify.grade_answer for one answer; prints the reward JSON.

#include <CLI/CLI.hpp>

#include <iostream>
#include <utility>

#include "apps/batch/answer_input.hpp"
#include "apps/commands/commands.hpp"
#include "apps/cli/files.hpp"
#include "apps/cli/grade_options.hpp"

namespace weightspace::app {

void add_grade_command(CLI::App& app) {
  struct Options {
    GradeRequest request;
    AnswerSource source;
    RunFlags flags;
    std::string out;
    std::string episodes = "1000";
  };
  auto options = std::make_shared<Options>();
  auto* command = app.add_subcommand("grade", "Grade one answer exactly as verify.py does; print reward.json");
  command->add_option("--game", options->request.game, "Game name (see `weightspace games`)")->required();
  command->add_option("--source", options->request.source, "original or synth")
      ->check(CLI::IsMember({"original", "synth"}));
  command->add_option("--episodes", options->episodes,
                      "Episodes to play, read as Python's int() (the grader's default is 1000)");
  options->source.add_options(*command);
  options->flags.add_options(*command);
  command->add_option("--out", options->out, "Write the reward JSON to this file (atomically) instead of stdout");
  command->callback([options] {
    options->request.episodes = parse_episodes("--episodes", options->episodes);
    if (!options->out.empty() && !options->flags.episodes_out.empty() &&
        same_file(options->out, options->flags.episodes_out)) {
      throw UsageError("--out and --episodes-out name the same file: " + options->out);
    }
    const AnswerSource::Loaded loaded = options->source.load();
    Reward reward;
    if (loaded.error) {
      // The grader would crash before grading; weightspace scores 0 and says why.
      reward.game = options->request.game;
      reward.source = options->request.source;
      reward.episodes = BigInt(options->request.episodes);
      reward.error = loaded.error->error();
    } else {
      Grade graded = grade_and_report(options->request, loaded.answer, options->flags);
      // Past this machine's limits is no score: no reward.json, a non-zero exit naming the limit.
      if (graded.refused) throw CommandError(graded.reward.error->message);
      reward = std::move(graded.reward);
    }
    if (reward.error) std::cerr << error_place_line(options->source.path(), loaded.answer, *reward.error) << '\n';
    warn_if_unknown_game(options->request);
    const std::string text = reward_json(reward);
    if (options->out.empty()) {
      std::cout << text << '\n';
    } else {
      write_file(options->out, text);
    }
  });
}

}  // namespace weightspace::app
