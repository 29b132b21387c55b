// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/grade.hpp"

#include <cmath>
#include <limits>

#include "engine/numpy_mean.hpp"
#include "games/registry.hpp"
#include "parser/answer.hpp"

namespace weightspace {

namespace {

// Python's max(a, b) and min(a, b): the first argument wins unless the second compares
// greater (less), which keeps a NaN first argument.
double python_max(double a, double b) { return b > a ? b : a; }
double python_min(double a, double b) { return b < a ? b : a; }

Reward failure(const GradeRequest& request, std::string kind, std::string message) {
  Reward reward;
  reward.game = request.game;
  reward.source = request.source;
  reward.episodes = request.episodes;
  reward.error_kind = std::move(kind);
  reward.error = std::move(message);
  return reward;
}

}  // namespace

Grade grade(const GradeRequest& request, std::string_view answer) {
  Grade result;
  const ParsedAnswer parsed = parse_answer(answer);
  if (!parsed.success) {
    result.reward = failure(request, parsed.error->kind(), parsed.error->what());
    return result;
  }
  if (request.episodes > kMaxEpisodes) {
    result.reward = failure(request, "ValueError", "episodes must be at most " + std::to_string(kMaxEpisodes) +
                                                       " (numpy seeds are 32-bit)");
    return result;
  }
  double score_cap = 0.0;
  const std::size_t count = request.episodes > 0 ? static_cast<std::size_t>(request.episodes) : 0;
  result.episodes.resize(count);
  bool known = false;
  try {
    known = with_game(request.source, request.game, [&](const auto& entry) {
      score_cap = entry.score_cap;
      run_episodes<typename std::remove_cvref_t<decltype(entry)>::type>(parsed.weights, result.episodes, request.run);
    });
  } catch (const GameError& error) {
    // MinAtar itself would raise here and the Python grader would crash.
    result.episodes.clear();
    result.reward = failure(request, error.kind(), error.what());
    return result;
  }
  if (!known) {
    result.episodes.clear();
    // verify.make_environment fails to import the game's module (caught by grade_answer).
    result.reward = failure(request, "ModuleNotFoundError",
                            "unknown game '" + request.source + "/" + request.game + "' (see `weightspace games`)");
    return result;
  }
  std::vector<double> scores(count), lengths(count);
  for (std::size_t i = 0; i < count; ++i) {
    scores[i] = result.episodes[i].score;
    lengths[i] = static_cast<double>(result.episodes[i].length);
  }
  Reward& reward = result.reward;
  reward.game = request.game;
  reward.source = request.source;
  reward.episodes = request.episodes;
  reward.parse_success = true;
  reward.raw_score = numpy_mean(scores);
  reward.mean_episode_length = numpy_mean(lengths);
  reward.score_cap = score_cap;
  reward.normalized_score = python_min(python_max(reward.raw_score, 0.0), score_cap) / score_cap;
  reward.edit_count = parsed.edit_count;
  reward.nonzero_weights = parsed.nonzero_weights;
  return result;
}

std::int64_t count_ambiguous_episodes(const std::vector<EpisodeResult>& episodes) {
  std::int64_t count = 0;
  for (const EpisodeResult& episode : episodes) count += episode.min_margin < kAmbiguousMargin ? 1 : 0;
  return count;
}

}  // namespace weightspace
