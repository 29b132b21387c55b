// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <span>

#include <weightspace/grade.hpp>

#include "games/cells.hpp"
#include "games/observe.hpp"
#include "games/environment.hpp"
#include "policy/forward.hpp"
#include "policy/sampler.hpp"
#include "policy/weights.hpp"

namespace weightspace {

// The constants of verify.evaluate.
inline constexpr int kMaxEpisodeSteps = 10'000;
inline constexpr std::uint32_t kEnvironmentSeedBase = 1729;
inline constexpr std::uint32_t kActionSeedBase = 7919;
inline constexpr double kStickyActionProbability = 0.1;
// Seeds are uint32 (numpy rejects larger ones), so an episode index stays below this.
inline constexpr std::int64_t kMaxEpisodes = std::int64_t{0xffffffff} - kActionSeedBase + 1;

// A reusable episode: the environment and action generator of episode `index`, freshly
// seeded exactly as verify.evaluate does for that index.
template <Game G>
struct EpisodeState {
  // Seeded by start() / start_many().
  Environment<G> environment{false, kStickyActionProbability, RandomState::Unseeded{}};
  RandomState action_random{RandomState::Unseeded{}};
  EpisodeResult result;

  void start(std::int64_t index) {
    EpisodeState* self = this;
    start_many({&self, 1}, {&index, 1});
  }

  // Episodes whose generators reseed_many seeds in one pass (16 generators).
  static constexpr std::size_t kSeedGroup = 8;

  // start() for several episodes, seeding all their generators side by side (the dominant
  // cost of a short episode is seeding its two MT19937 states), the first `seed_words` of
  // each chain only (RandomState::reseed_many; the episodes are the same for every value).
  // Out of line: inlined into the Lockstep's step loop it crowded out seaquest's act().
  [[gnu::noinline]] static void start_many(std::span<EpisodeState* const> episodes, std::span<const std::int64_t> indices,
                         int seed_words = RandomState::kStateWords) {
    constexpr std::size_t kGroup = kSeedGroup;
    for (std::size_t first = 0; first < episodes.size(); first += kGroup) {
      const std::size_t count = std::min(kGroup, episodes.size() - first);
      RandomState* generators[2 * kGroup];
      std::uint32_t seeds[2 * kGroup];
      for (std::size_t k = 0; k < count; ++k) {
        EpisodeState& episode = *episodes[first + k];
        const std::int64_t index = indices[first + k];
        generators[2 * k] = &episode.environment.generator();
        seeds[2 * k] = static_cast<std::uint32_t>(kEnvironmentSeedBase + index);
        generators[2 * k + 1] = &episode.action_random;
        seeds[2 * k + 1] = static_cast<std::uint32_t>(kActionSeedBase + index);
      }
      RandomState::reseed_many({generators, 2 * count}, {seeds, 2 * count}, seed_words);
      for (std::size_t k = 0; k < count; ++k) {
        episodes[first + k]->environment.begin_seeded_episode();
        episodes[first + k]->result = EpisodeResult{};
      }
    }
  }

  // Samples, acts and books one step from the episode's logits; true when the episode ended.
  bool advance(const Logits& logits, bool track_margin) {
    int action;
    if (track_margin) {
      const ActionSample sample = sample_action_detailed(logits, action_random);
      action = sample.action;
      if (sample.margin() < result.min_margin) result.min_margin = sample.margin();
    } else {
      action = sample_action(logits, action_random);
    }
    return act(action);
  }

  // Asks for the lines act() reads first (a lockstep asks a few slots ahead).
  void prefetch() const {
    environment.prefetch();
    __builtin_prefetch(&result);
  }

  // Plays and books one step with an action already sampled; true when the episode ended.
  bool act(int action) {
    const StepResult step = environment.act(action);
    result.score += static_cast<double>(step.reward);
    ++result.length;
    return step.terminal || result.length == kMaxEpisodeSteps;
  }
};

// The body of verify.evaluate for one episode index: the reference the batched engine is
// tested against, and the `weightspace episode` command.
template <Game G>
EpisodeResult run_episode(const Weights& weights, std::int64_t index, bool track_margin = false) {
  EpisodeState<G> episode;
  episode.start(index);
  ActiveInputs observation;
  do {
    observe(episode.environment.game(), observation);
  } while (!episode.advance(policy_logits(weights, observation), track_margin));
  return episode.result;
}

}  // namespace weightspace
