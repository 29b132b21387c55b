// SPDX-License-Identifier: GPL-3.0-or-later
// `weightspace verify`: a drop-in for verify.py's main(). Same environment variables, same
// files, same reward.json text; written atomically. It exits non-zero only when it could not
// write a reward (or, like the grader, when the environment does not say what to grade).
#include <CLI/CLI.hpp>
#include <spdlog/spdlog.h>

#include <cstdlib>
#include <iostream>
#include <string>
#include <utility>

#include "apps/batch/answer_input.hpp"
#include "apps/commands/commands.hpp"
#include "apps/cli/files.hpp"
#include "apps/cli/grade_options.hpp"
#include "parser/python/python_float.hpp"

namespace weightspace::app {

namespace {

std::string required_environment(const char* name) {
  const char* value = std::getenv(name);
  if (value == nullptr) throw CommandError(std::string(name) + " is not set (the grader would raise KeyError)");
  return value;
}

// int(os.environ.get("WEIGHT_SPACE_EPISODES", "1000")) with Python's int() rules (Unicode
// digits, underscores, whitespace, at most 4300 digits); what int() rejects stops verify as
// it stops the grader. Any value is graded: the reward's metadata keeps it exactly, a count
// of zero or less plays nothing (NaN means, as in the grader), and one beyond numpy's seeds
// gets the engine's refusal.
BigInt episodes_from_environment() {
  const char* value = std::getenv("WEIGHT_SPACE_EPISODES");
  if (value == nullptr) return BigInt(1000);
  return parse_python_int("WEIGHT_SPACE_EPISODES", value);
}

// The count to play: the same outcome as `episodes`, within the engine's range.
std::int64_t playable(const BigInt& episodes) {
  if (episodes.is_negative()) return -1;
  const std::optional<std::int64_t> count = episodes.to_int64();
  return count && *count <= kMaxEpisodes ? *count : kMaxEpisodes + 1;
}

}  // namespace

void add_verify_command(CLI::App& app) {
  struct Options {
    std::string trajectory = "/logs/trajectory.json";
    std::string reward = "/logs/verifier/reward.json";
    RunFlags flags;
  };
  auto options = std::make_shared<Options>();
  auto* command = app.add_subcommand(
      "verify", "Drop-in for verify.py main(): WEIGHT_SPACE_GAME/SOURCE/EPISODES, trajectory in, reward.json out");
  command->add_option("--trajectory", options->trajectory, "Trajectory JSON to grade")->capture_default_str();
  command->add_option("--reward", options->reward, "Where to write reward.json")->capture_default_str();
  options->flags.add_options(*command);
  command->callback([options] {
    GradeRequest request;
    request.game = required_environment("WEIGHT_SPACE_GAME");
    request.source = required_environment("WEIGHT_SPACE_SOURCE");
    const BigInt episodes = episodes_from_environment();
    request.episodes = playable(episodes);
    AnswerSource source;
    source.trajectory_path = options->trajectory;
    Reward reward;
    std::optional<AnswerSource::Loaded> loaded;
    try {
      loaded = source.load();
    } catch (const CommandError& error) {
      loaded = AnswerSource::Loaded{"", EditError("FileNotFoundError", error.what())};
    }
    if (loaded->error) {
      spdlog::warn("the Python grader would crash here ({}); scoring 0", loaded->error->kind());
      reward.game = request.game;
      reward.source = request.source;
      reward.error = loaded->error->error();
    } else {
      Grade graded = grade_and_report(request, loaded->answer, options->flags);
      // As the grader when it dies: no reward.json; the limit named, a non-zero exit.
      if (graded.refused) throw CommandError(graded.reward.error->message);
      reward = std::move(graded.reward);
    }
    if (reward.error) std::cerr << error_place_line(options->trajectory, loaded->answer, *reward.error) << '\n';
    reward.episodes = episodes;
    warn_if_unknown_game(request);
    write_file(options->reward, reward_json(reward));
  });
}

}  // namespace weightspace::app
