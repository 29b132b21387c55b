// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <array>
#include <span>

#include "games/random_state.hpp"
#include "policy/forward.hpp"

namespace weightspace {

// The action choice() draws for `uniform` from a cdf's five inner edges (the sixth is 1.0,
// above every draw): RandomState::search_right without a branch on the outcome. The edges
// never decrease, so those <= uniform are a prefix, and their count is the action.
inline int action_for_edges(std::span<const double, kActionCount - 1> edges, double uniform) {
  int count = 0;
  for (const double edge : edges) count += edge <= uniform;
  return count;
}

// verify.sample_action's softmax and the cdf RandomState.choice builds from it.
struct ActionDistribution {
  // shifted = float64(logits) - float64(max(logits)); p = exp(shifted) with glibc exp;
  // p /= ((((((0 + p0) + p1) + p2) + p3) + p4) + p5), numpy's sum of six float64 values.
  // This is numpy's result on CPUs without AVX512F; numpy's own AVX512F exp can differ by an
  // ulp (tests/golden/README.md, "exp").
  std::array<double, kActionCount> probabilities;
  // cumsum(probabilities) / its last entry, as RandomState::choice_cdf.
  std::array<double, kActionCount> cdf;

  // RandomState::search_right(cdf, uniform): the last entry (1.0) is above every draw.
  int action(double uniform) const {
    return action_for_edges(std::span<const double, kActionCount - 1>(cdf.data(), kActionCount - 1), uniform);
  }
};

ActionDistribution action_distribution(const Logits& logits);

// One draw of verify.sample_action with everything the engine's diagnostics look at.
struct ActionSample {
  ActionDistribution distribution;
  double uniform = 0.0;  // the random_sample() choice() drew
  int action = 0;        // number of cdf entries <= uniform

  // Distance from the uniform to the nearest of the five inner cdf edges (cdf[0..4]): how far
  // this step was from sampling a different action, as the golden per_episode_min_margin.
  double margin() const;
};

// verify.sample_action(logits, random): draws exactly one random_sample() (two 32-bit words).
// The action is always numpy's; sample_action gets there faster by deciding with an
// approximate softmax whenever the draw is clearly away from every cdf edge, and computing the
// exact distribution otherwise. sample_action_detailed always computes it.
int sample_action(const Logits& logits, RandomState& random);
ActionSample sample_action_detailed(const Logits& logits, RandomState& random);

// sample_action for many episodes at once, each having drawn its own random_sample():
// actions[b] is the action sample_action(logits[b], ...) returns for the draw uniforms[b].
// Eight episodes share one pass of the vector arithmetic. Sizes must match (else
// std::invalid_argument).
void actions_for_draws(std::span<const Logits> logits, std::span<const double> uniforms, std::span<int> actions);

namespace detail {
// The action sample_action returns for the draw `uniform` (tests drive the fallback with it).
int action_for_uniform(const Logits& logits, double uniform);
}  // namespace detail

}  // namespace weightspace
