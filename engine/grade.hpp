// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/episode.hpp"
#include "engine/reward.hpp"
#include "engine/scheduler.hpp"
#include "parser/answer.hpp"
#include "policy/policy.hpp"

namespace weightspace {

struct GradeRequest {
  std::string game;
  std::string source = "original";
  std::int64_t episodes = 1000;  // WEIGHT_SPACE_EPISODES; zero or negative plays nothing (NaN means)
  RunOptions run;
};

struct Grade {
  Reward reward;                         // what verify.grade_answer returns
  std::vector<EpisodeResult> episodes;   // by episode index; empty when the answer failed
};

// verify.evaluate(game, source, weights, episodes) with the game's score cap: a pure function
// of the weights, game, source and episode count (what a batch caches), or why it could not
// be played (an unknown game, a GameError on which MinAtar itself would raise). With zero
// or fewer episodes it plays nothing, even for an unknown game (NaN means, as verify.evaluate);
// make_reward then fails on that game's score cap, as grade_answer does.
struct Rollout {
  bool played = false;
  double raw_score = 0.0;
  double mean_episode_length = 0.0;
  double score_cap = 0.0;
  std::int64_t steps = 0;  // episode lengths summed
  std::optional<PythonError> error;  // set exactly when !played
};

// A draw within this distance of a cdf edge (the cdf spans 0..1) could have picked another
// action under a different, equally valid float summation order in someone's numpy.
inline constexpr double kAmbiguousMargin = 1e-6;

// verify.grade_answer(game, source, answer, episodes): parse the answer, play the episodes,
// reduce in episode order. Never throws for a bad answer or an unknown game: those become
// a failed Reward with the grader's exception class in error_kind.
Grade grade(const GradeRequest& request, std::string_view answer);

// The two halves of grade(). play() stores each episode's result in `episodes` (resized to
// the episode count; cleared when nothing was played). Given a Policy, play() spares building
// one (a batch plays an answer's Policy on each game of a matrix).
Rollout play(const Weights& weights, const GradeRequest& request, std::vector<EpisodeResult>& episodes);
Rollout play(const Policy& policy, const GradeRequest& request, std::vector<EpisodeResult>& episodes);
// The reward of a parsed answer and its rollout; of a failed parse, the parse's error.
Reward make_reward(const GradeRequest& request, const ParsedAnswer& parsed, const Rollout& rollout);
// A reward that failed before any rollout: the exception the grader raises.
Reward failed_reward(const GradeRequest& request, PythonError error);

// Episodes in which some draw came within kAmbiguousMargin of a cdf edge (needs
// run.track_margins).
std::int64_t count_ambiguous_episodes(const std::vector<EpisodeResult>& episodes);

}  // namespace weightspace
