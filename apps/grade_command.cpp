// SPDX-License-Identifier: GPL-3.0-or-later
// `weightspace grade`: verify.grade_answer for one answer; prints the reward JSON.
#include <iostream>

#include "apps/answer_input.hpp"
#include "apps/commands.hpp"
#include "apps/files.hpp"
#include "apps/grade_options.hpp"

namespace weightspace::app {

void add_grade_command(CLI::App& app) {
  struct Options {
    GradeRequest request;
    AnswerSource source;
    RunFlags flags;
    std::string out;
  };
  auto options = std::make_shared<Options>();
  auto* command = app.add_subcommand("grade", "Grade one answer exactly as verify.py does; print reward.json");
  command->add_option("--game", options->request.game, "Game name (see `weightspace games`)")->required();
  command->add_option("--source", options->request.source, "original or synth")
      ->check(CLI::IsMember({"original", "synth"}));
  command->add_option("--episodes", options->request.episodes, "Episodes to play (the grader's default is 1000)")
      ->check(CLI::Range(std::int64_t{0}, kMaxEpisodes));
  options->source.add_options(*command);
  options->flags.add_options(*command);
  command->add_option("--out", options->out, "Write the reward JSON to this file (atomically) instead of stdout");
  command->callback([options] {
    const AnswerSource::Loaded loaded = options->source.load();
    Reward reward;
    if (loaded.error) {
      // The grader would crash before grading; weightspace scores 0 and says why.
      reward.game = options->request.game;
      reward.source = options->request.source;
      reward.episodes = options->request.episodes;
      reward.error = loaded.error->what();
      reward.error_kind = loaded.error->kind();
    } else {
      reward = grade_and_report(options->request, loaded.answer, options->flags).reward;
    }
    const std::string text = reward_json(reward);
    if (options->out.empty()) {
      std::cout << text << '\n';
    } else {
      write_atomically(options->out, text);
    }
  });
}

}  // namespace weightspace::app
