// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>

#include "games/random_state.hpp"

namespace weightspace {

// How many init words reseed_many seeds for the episodes a Lockstep starts next, learnt from
// the generators of the episodes that ended. Only the cost depends on it, never a draw: a
// generator that runs past its prefix continues its chain alone, one dependent multiply per
// word, which costs about kContinuationCost times a word seeded sixteen chains side by side.
// So the prefix is the one that minimises
//   words seeded side by side + kContinuationCost x words continued alone
// over the generators seen: short episodes (random breakout answers, a few dozen words drawn)
// get about 430 of 624 words, long ones (freeway, 2,500 steps) all 624.
class SeedPlan {
 public:
  // A word continued alone against one seeded side by side (random_state_bench: the
  // BM_ContinueChain and BM_ReseedManyPrefix rows, docs/performance.md).
  static constexpr std::int64_t kContinuationCost = 6;

  // The prefix for the next episodes: every word until something has been recorded.
  int words() const { return words_; }

  // A generator at its episode's end: what its twist read of the init chain.
  void record(const RandomState& generator) {
    ++counts_[static_cast<std::size_t>(bin_of(generator.seed_words_read()))];
    if (++recorded_ % kRecordsPerPlan == 0) plan();
  }

  // record() of an episode's two generators, out of line: inlined into the Lockstep's step
  // loop it made GCC stop inlining seaquest's act() there (+3.5% instructions for a batch).
  [[gnu::noinline]] void record_episode(const RandomState& environment, const RandomState& actions) {
    record(environment);
    record(actions);
  }

 private:
  // The twist goes 32 words at a time, so what a generator reads of the chain is 0 (it drew
  // nothing) or 397 + 32 b words for b >= 1, at most 624; bin b (the last one: all 624)
  // holds it, prefix_of(b) is its smallest covering prefix.
  static constexpr int kBins = 8;
  static constexpr int kTwistBlock = 32;
  static constexpr int kFarOffset = RandomState::kFarOffset;
  static constexpr std::int64_t kRecordsPerPlan = 32;
  static constexpr std::int64_t kMemory = 4096;  // generators; older ones count half, and so on

  static int bin_of(int words_read) {
    if (words_read == 0) return 0;
    return std::min((words_read - kFarOffset + kTwistBlock - 1) / kTwistBlock, kBins - 1);
  }
  static int prefix_of(int bin) {
    if (bin == 0) return 8;
    return std::min((kFarOffset + kTwistBlock * bin + 7) / 8 * 8, RandomState::kStateWords);
  }

  void plan() {
    std::int64_t total = 0;
    for (const std::int64_t count : counts_) total += count;
    std::int64_t best_cost = -1;
    for (int candidate = 0; candidate < kBins; ++candidate) {
      const int prefix = prefix_of(candidate);
      std::int64_t cost = total * prefix;
      for (int bin = candidate + 1; bin < kBins; ++bin) {
        cost += kContinuationCost * counts_[static_cast<std::size_t>(bin)] * (prefix_of(bin) - prefix);
      }
      if (best_cost < 0 || cost < best_cost) {
        best_cost = cost;
        words_ = prefix;
      }
    }
    if (total >= kMemory) {
      for (std::int64_t& count : counts_) count /= 2;
    }
  }

  std::array<std::int64_t, kBins> counts_{};
  std::int64_t recorded_ = 0;
  int words_ = RandomState::kStateWords;
};

}  // namespace weightspace
