// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Replays every episode of a golden trace file (tests/golden/games/<game>.json) through
// Environment<G> and stops at the first step whose effective action, reward, terminal flag,
// generator word count, raw state or observation differs from what MinAtar recorded.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "games/cells.hpp"
#include "games/observe.hpp"
#include "games/environment.hpp"
#include "listed_inputs.hpp"
#include "support/golden.hpp"

namespace weightspace::testing {

template <Game G>
void expect_observation_groups(const nlohmann::json& trace) {
  const auto& groups = trace.at("observation_channel_groups");
  ASSERT_EQ(trace.at("n_channels").get<int>(), G::channels);
  for (int channel = 0; channel < G::channels; ++channel) {
    unsigned expected = 0;
    for (int output = 0; output < kObservationChannels; ++output) {
      for (const auto& source : groups.at(output)) {
        if (source.get<int>() == channel) expected |= 1U << output;
      }
    }
    EXPECT_EQ(G::observation_masks[channel], expected) << "raw channel " << channel;
  }
}

template <Game G>
void expect_trace_matches(const nlohmann::json& trace) {
  expect_observation_groups<G>(trace);
  for (const auto& episode : trace.at("episodes")) {
    const int id = episode.at("id").get<int>();
    Environment<G> env(episode.at("difficulty_ramping").get<bool>(),
                       episode.at("sticky_action_prob").get<double>());
    env.seed(episode.at("env_seed").get<std::uint32_t>());
    env.reset();
    ASSERT_EQ(env.random().draws(), episode.at("rng_u32_count_after_reset").get<std::uint64_t>())
        << "episode " << id << " reset";
    ASSERT_EQ(raw_state(env.game()), episode.at("initial_state").get<std::vector<int>>())
        << "episode " << id << " initial state";
    const auto& observations = episode.at("observations");
    ActiveInputs active;
    observe(env.game(), active);
    ASSERT_EQ(testing::listed(active), observations.at(0).get<std::vector<int>>())
        << "episode " << id << " observation 0";
    int score = 0;
    const auto& steps = episode.at("steps");
    for (std::size_t k = 0; k < steps.size(); ++k) {
      const auto& step = steps[k];
      const StepResult result = env.act(step.at(0).get<int>());
      const std::string where = "episode " + std::to_string(id) + " step " + std::to_string(k + 1);
      ASSERT_EQ(env.last_action(), step.at(1).get<int>()) << where << " effective action";
      ASSERT_EQ(result.reward, step.at(2).get<int>()) << where << " reward";
      ASSERT_EQ(result.terminal ? 1 : 0, step.at(3).get<int>()) << where << " terminal";
      ASSERT_EQ(env.random().draws(), step.at(4).get<std::uint64_t>()) << where << " generator words";
      ASSERT_EQ(raw_state(env.game()), step.at(5).get<std::vector<int>>()) << where << " state";
      if (k + 1 < observations.size()) {
        observe(env.game(), active);
        ASSERT_EQ(testing::listed(active), observations.at(k + 1).get<std::vector<int>>())
            << where << " observation";
      }
      score += result.reward;
    }
    EXPECT_EQ(score, episode.at("score").get<int>()) << "episode " << id << " score";
    EXPECT_EQ(static_cast<int>(steps.size()), episode.at("length").get<int>()) << "episode " << id;
  }
}

}  // namespace weightspace::testing
