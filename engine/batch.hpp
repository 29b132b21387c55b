// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <algorithm>
#include <cstdint>
#include <span>
#include <vector>

#include "engine/episode.hpp"

namespace weightspace {

// B episodes of one game stepped in lockstep: observe every running slot, one batched forward
// pass, each slot's action draw, one batched sampling pass, then act slot by slot. A slot whose episode ends takes the next episode of
// the range. Every slot owns its episode's generators, so the results are those of
// run_episode() whatever B is. All buffers are sized once, in the constructor.
template <Game G>
class Batch {
 public:
  explicit Batch(int size)
      : slots_(static_cast<std::size_t>(std::max(size, 1))),
        observations_(slots_.size()),
        logits_(slots_.size()),
        uniforms_(slots_.size()),
        actions_(slots_.size()),
        running_(slots_.size()) {
    starting_.reserve(slots_.size());
    starting_indices_.reserve(slots_.size());
    starting_slots_.reserve(slots_.size());
  }

  int size() const { return static_cast<int>(slots_.size()); }

  // Plays episodes [first, last) and writes episode i's result to results[i - first].
  void run(const Weights& weights, std::int64_t first, std::int64_t last, std::span<EpisodeResult> results,
           bool track_margins) {
    std::int64_t next = first;
    std::size_t running = 0;
    // A slot whose episode ended waits until a full seeding group has gathered (or nothing
    // else runs, or no episode is left to start), so that the generators of a group are
    // seeded side by side.
    const std::size_t group = std::min(EpisodeState<G>::kSeedGroup, slots_.size());
    auto start_pending = [&] {
      EpisodeState<G>::start_many(starting_, starting_indices_);
      for (const std::size_t slot : starting_slots_) running_[running++] = slot;
      starting_.clear();
      starting_indices_.clear();
      starting_slots_.clear();
    };
    auto start_next = [&](std::size_t slot) {
      slots_[slot].index = next++;
      starting_.push_back(&slots_[slot].episode);
      starting_indices_.push_back(slots_[slot].index);
      starting_slots_.push_back(slot);
    };
    for (std::size_t slot = 0; slot < slots_.size() && next < last; ++slot) start_next(slot);
    start_pending();
    while (running > 0) {
      for (std::size_t k = 0; k < running; ++k) {
        observe(slots_[running_[k]].episode.environment.game(), observations_[k]);
      }
      forward_batch(weights, std::span<const ActiveInputs>(observations_.data(), running),
                    std::span<Logits>(logits_.data(), running));
      if (!track_margins) {
        for (std::size_t k = 0; k < running; ++k) {
          uniforms_[k] = slots_[running_[k]].episode.action_random.random_sample();
        }
        actions_for_draws(std::span<const Logits>(logits_.data(), running),
                          std::span<const double>(uniforms_.data(), running), std::span<int>(actions_.data(), running));
      }
      std::size_t kept = 0;
      for (std::size_t k = 0; k < running; ++k) {
        const std::size_t slot = running_[k];
        Slot& current = slots_[slot];
        const bool ended =
            track_margins ? current.episode.advance(logits_[k], true) : current.episode.act(actions_[k]);
        if (ended) {
          results[static_cast<std::size_t>(current.index - first)] = current.episode.result;
          if (next < last) start_next(slot);  // else the slot retires
          continue;
        }
        running_[kept++] = slot;
      }
      running = kept;
      if (starting_slots_.size() >= group || running == 0 || next == last) start_pending();
    }
  }

 private:
  struct Slot {
    EpisodeState<G> episode;
    std::int64_t index = 0;
  };
  std::vector<Slot> slots_;
  std::vector<ActiveInputs> observations_;
  std::vector<Logits> logits_;
  std::vector<double> uniforms_;
  std::vector<int> actions_;
  std::vector<std::size_t> running_;
  std::vector<EpisodeState<G>*> starting_;
  std::vector<std::int64_t> starting_indices_;
  std::vector<std::size_t> starting_slots_;
};

}  // namespace weightspace
