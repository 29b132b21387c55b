// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <algorithm>
#include <cstdint>
#include <span>
#include <vector>

#include "engine/episode.hpp"

namespace weightspace {

// B episodes of one game stepped in lockstep: observe every running slot, one batched forward
// pass, then sample and act slot by slot. A slot whose episode ends takes the next episode of
// the range. Every slot owns its episode's generators, so the results are those of
// run_episode() whatever B is. All buffers are sized once, in the constructor.
template <Game G>
class Batch {
 public:
  explicit Batch(int size)
      : slots_(static_cast<std::size_t>(std::max(size, 1))),
        observations_(slots_.size()),
        logits_(slots_.size()),
        running_(slots_.size()) {
    starting_.reserve(slots_.size());
    starting_indices_.reserve(slots_.size());
  }

  int size() const { return static_cast<int>(slots_.size()); }

  // Plays episodes [first, last) and writes episode i's result to results[i - first].
  void run(const Weights& weights, std::int64_t first, std::int64_t last, std::span<EpisodeResult> results,
           bool track_margins) {
    std::int64_t next = first;
    std::size_t running = 0;
    // Slots are started in groups (after the first fill, those whose episodes ended in the
    // same step), so their generators are seeded side by side.
    auto start_next = [&](std::size_t slot) {
      slots_[slot].index = next++;
      starting_.push_back(&slots_[slot].episode);
      starting_indices_.push_back(slots_[slot].index);
    };
    auto start_pending = [&] {
      EpisodeState<G>::start_many(starting_, starting_indices_);
      starting_.clear();
      starting_indices_.clear();
    };
    for (std::size_t slot = 0; slot < slots_.size() && next < last; ++slot) {
      start_next(slot);
      running_[running++] = slot;
    }
    start_pending();
    while (running > 0) {
      for (std::size_t k = 0; k < running; ++k) {
        observe(slots_[running_[k]].episode.environment.game(), observations_[k]);
      }
      forward_batch(weights, std::span<const ActiveInputs>(observations_.data(), running),
                    std::span<Logits>(logits_.data(), running));
      std::size_t kept = 0;
      for (std::size_t k = 0; k < running; ++k) {
        const std::size_t slot = running_[k];
        Slot& current = slots_[slot];
        if (current.episode.advance(logits_[k], track_margins)) {
          results[static_cast<std::size_t>(current.index - first)] = current.episode.result;
          if (next >= last) continue;  // the slot retires
          start_next(slot);
        }
        running_[kept++] = slot;
      }
      start_pending();
      running = kept;
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
  std::vector<std::size_t> running_;
  std::vector<EpisodeState<G>*> starting_;
  std::vector<std::int64_t> starting_indices_;
};

}  // namespace weightspace
