// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/grade.hpp"

#include <cmath>
#include <limits>
#include <new>

#include <unistd.h>

#include "engine/numpy_mean.hpp"
#include "games/registry.hpp"

namespace weightspace {

namespace {

// Python's max(a, b) and min(a, b): the first argument wins unless the second compares
// greater (less), which keeps a NaN first argument.
double python_max(double a, double b) { return b > a ? b : a; }
double python_min(double a, double b) { return b < a ? b : a; }

Rollout failed_rollout(std::string kind, std::string message) {
  Rollout rollout;
  rollout.error_kind = std::move(kind);
  rollout.error = std::move(message);
  return rollout;
}

// verify.make_environment fails to import the game's module (caught by grade_answer).
Rollout unknown_game(const GradeRequest& request) {
  return failed_rollout("ModuleNotFoundError",
                        "unknown game '" + request.source + "/" + request.game + "' (see `weightspace games`)");
}

// Half the physical memory, asked once (sysconf makes a system call; grades can be 50 µs).
std::size_t memory_for_results() {
  static const std::size_t bytes = [] {
    const long pages = ::sysconf(_SC_PHYS_PAGES);
    const long page_size = ::sysconf(_SC_PAGE_SIZE);
    if (pages <= 0 || page_size <= 0) return std::numeric_limits<std::size_t>::max();
    return static_cast<std::size_t>(pages) / 2 * static_cast<std::size_t>(page_size);
  }();
  return bytes;
}

}  // namespace

Reward failed_reward(const GradeRequest& request, const EditError& error) {
  Reward reward;
  reward.game = request.game;
  reward.source = request.source;
  reward.episodes = request.episodes;
  reward.error_kind = error.kind();
  reward.error = error.what();
  return reward;
}

Rollout play(const Weights& weights, const GradeRequest& request, std::vector<EpisodeResult>& episodes) {
  episodes.clear();
  if (request.episodes > kMaxEpisodes) {
    return failed_rollout("ValueError",
                          "episodes must be at most " + std::to_string(kMaxEpisodes) + " (numpy seeds are 32-bit)");
  }
  if (!with_game(request.source, request.game, [](const auto&) {})) return unknown_game(request);
  Rollout rollout;
  const std::size_t count = request.episodes > 0 ? static_cast<std::size_t>(request.episodes) : 0;
  // Each episode's score and length are kept until the mean, which numpy sums pairwise over
  // all of them; past half the machine's memory that would end in the OOM killer, not an error.
  const std::size_t held = memory_for_results() / sizeof(EpisodeResult);
  if (count > held) {
    return failed_rollout("MemoryError", std::to_string(count) + " episodes: weightspace holds every episode's result "
                                         "until the mean, and this machine has room for " + std::to_string(held));
  }
  try {
    episodes.resize(count);
  } catch (const std::bad_alloc&) {
    return failed_rollout("MemoryError", "cannot hold the results of " + std::to_string(count) + " episodes");
  }
  try {
    with_game(request.source, request.game, [&](const auto& entry) {  // known: checked above
      rollout.score_cap = entry.score_cap;
      run_episodes<typename std::remove_cvref_t<decltype(entry)>::type>(weights, episodes, request.run);
    });
  } catch (const GameError& error) {
    // MinAtar itself would raise here and the Python grader would crash.
    episodes.clear();
    return failed_rollout(error.kind(), error.what());
  }
  if (request.run.cancel != nullptr && request.run.cancel->load()) {
    episodes.clear();
    return failed_rollout("KeyboardInterrupt", "interrupted before all episodes were played");
  }
  std::vector<double> scores(count), lengths(count);
  for (std::size_t i = 0; i < count; ++i) {
    scores[i] = episodes[i].score;
    lengths[i] = static_cast<double>(episodes[i].length);
    rollout.steps += episodes[i].length;
  }
  rollout.played = true;
  rollout.raw_score = numpy_mean(scores);
  rollout.mean_episode_length = numpy_mean(lengths);
  return rollout;
}

Reward make_reward(const GradeRequest& request, const ParsedAnswer& parsed, const Rollout& rollout) {
  if (!parsed.success) return failed_reward(request, *parsed.error);
  if (!rollout.played) return failed_reward(request, EditError(rollout.error_kind, rollout.error));
  Reward reward;
  reward.game = request.game;
  reward.source = request.source;
  reward.episodes = request.episodes;
  reward.parse_success = true;
  reward.raw_score = rollout.raw_score;
  reward.mean_episode_length = rollout.mean_episode_length;
  reward.score_cap = rollout.score_cap;
  reward.normalized_score = python_min(python_max(reward.raw_score, 0.0), rollout.score_cap) / rollout.score_cap;
  reward.edit_count = parsed.edit_count;
  reward.nonzero_weights = parsed.nonzero_weights;
  return reward;
}

Grade grade(const GradeRequest& request, std::string_view answer) {
  Grade result;
  const ParsedAnswer parsed = parse_answer(answer);
  const Rollout rollout = parsed.success ? play(parsed.weights, request, result.episodes) : Rollout{};
  result.reward = make_reward(request, parsed, rollout);
  return result;
}

std::int64_t count_ambiguous_episodes(const std::vector<EpisodeResult>& episodes) {
  std::int64_t count = 0;
  for (const EpisodeResult& episode : episodes) count += episode.min_margin < kAmbiguousMargin ? 1 : 0;
  return count;
}

}  // namespace weightspace
