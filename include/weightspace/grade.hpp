// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The grader's entry point: what verify.grade_answer does for one answer.

#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

#include <weightspace/reward.hpp>
#include <weightspace/run_options.hpp>

namespace weightspace {

struct GradeRequest {
  std::string game;
  std::string source = "original";
  std::int64_t episodes = 1000;  // WEIGHT_SPACE_EPISODES; zero or negative plays nothing (NaN means)
  RunOptions run;
};

struct EpisodeResult {
  double score = 0.0;  // sum of float(reward), as the grader adds it
  int length = 0;      // steps taken, terminal step included
  // Smallest distance between an action draw and a cdf edge (only when margins are tracked).
  double min_margin = std::numeric_limits<double>::infinity();
};

struct Grade {
  Reward reward;                         // what verify.grade_answer returns
  std::vector<EpisodeResult> episodes;   // by episode index; empty when the answer failed
  // The request is past this machine's limits (the reward's error, a MemoryError, names the
  // limit): not a grade the grader would give, nor the answer's fault. A command line exits
  // non-zero instead of writing the reward.
  bool refused = false;
};

// A draw within this distance of a cdf edge (the cdf spans 0..1) could have picked another
// action under a different, equally valid float summation order in someone's numpy.
inline constexpr double kAmbiguousMargin = 1e-6;

// verify.grade_answer(game, source, answer, episodes): parse the answer, play the episodes,
// reduce in episode order. Never throws for a bad answer or an unknown game: those become
// a failed Reward whose error (a PythonError) is the exception the grader raises.
Grade grade(const GradeRequest& request, std::string_view answer);

// Episodes in which some draw came within kAmbiguousMargin of a cdf edge (needs
// run.track_margins).
std::int64_t count_ambiguous_episodes(const std::vector<EpisodeResult>& episodes);

}  // namespace weightspace
