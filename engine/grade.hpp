// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The two halves of grade() (<weightspace/grade.hpp>), for callers that parse once and play
// many times: the batch grader, the Python module and the command line.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <weightspace/grade.hpp>
#include <weightspace/reward.hpp>

#include "engine/episode.hpp"
#include "parser/answer.hpp"
#include "policy/policy.hpp"

namespace weightspace {

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
  // Not played because this machine cannot hold it (error: MemoryError naming the limit).
  // No answer's fault and no grade: the grader would still be playing.
  bool refused = false;
};

// The two halves of grade(). play() stores each episode's result in `episodes` (resized to
// the episode count; cleared when nothing was played). Given a Policy, play() spares building
// one (a batch plays an answer's Policy on each game of a matrix).
Rollout play(const Weights& weights, const GradeRequest& request, std::vector<EpisodeResult>& episodes);
Rollout play(const Policy& policy, const GradeRequest& request, std::vector<EpisodeResult>& episodes);
// The reward of a parsed answer and its rollout; of a failed parse, the parse's error.
Reward make_reward(const GradeRequest& request, const ParsedAnswer& parsed, const Rollout& rollout);
// A reward that failed before any rollout: the exception the grader raises.
Reward failed_reward(const GradeRequest& request, PythonError error);

}  // namespace weightspace
