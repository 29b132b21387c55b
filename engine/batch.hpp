// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "engine/episode.hpp"
#include "policy/policy.hpp"

namespace weightspace {

// The episode indices [0, count) handed out one at a time, to any number of threads. Handing
// out single episodes (rather than fixed ranges per task) keeps every thread busy until the
// last episodes start, whatever their lengths.
class EpisodeQueue {
 public:
  explicit EpisodeQueue(std::int64_t count) : count_(count) {}

  std::optional<std::int64_t> take() {
    const std::int64_t index = next_.fetch_add(1, std::memory_order_relaxed);
    if (index >= count_) return std::nullopt;
    return index;
  }

 private:
  std::atomic<std::int64_t> next_{0};
  std::int64_t count_;
};

// B episodes of one game stepped in lockstep: observe every running slot, one batched forward
// pass, each slot's action draw, one batched sampling pass, then act slot by slot. A slot
// whose episode ends takes the next episode of the queue. Every slot owns its episode's
// generators, so the results are those of run_episode() whatever B is. All buffers are sized
// once, in the constructor.
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

  // Plays episodes taken from `episodes` until it runs dry and writes episode i's result to
  // results[i]. Several batches (threads) may share one EpisodeQueue.
  void run(const Policy& policy, EpisodeQueue& episodes, std::span<EpisodeResult> results, bool track_margins) {
    std::size_t running = 0;
    // A slot whose episode ended waits until a full seeding group has gathered (or nothing
    // else runs, or the queue is empty), so that the generators of a group are seeded side by
    // side.
    const std::size_t group = std::min(EpisodeState<G>::kSeedGroup, slots_.size());
    bool drained = false;
    auto start_pending = [&] {
      EpisodeState<G>::start_many(starting_, starting_indices_);
      for (const std::size_t slot : starting_slots_) running_[running++] = slot;
      starting_.clear();
      starting_indices_.clear();
      starting_slots_.clear();
    };
    // Takes the next episode for `slot`; false (and the slot retires) once the queue is empty.
    auto start_next = [&](std::size_t slot) {
      if (drained) return false;
      const std::optional<std::int64_t> index = episodes.take();
      if (!index) {
        drained = true;
        return false;
      }
      slots_[slot].index = *index;
      starting_.push_back(&slots_[slot].episode);
      starting_indices_.push_back(*index);
      starting_slots_.push_back(slot);
      return true;
    };
    for (std::size_t slot = 0; slot < slots_.size(); ++slot) {
      if (!start_next(slot)) break;
    }
    start_pending();
    while (running > 0) {
      for (std::size_t k = 0; k < running; ++k) {
        observe(slots_[running_[k]].episode.environment.game(), observations_[k]);
      }
      policy.forward_batch(std::span<const ActiveInputs>(observations_.data(), running),
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
          results[static_cast<std::size_t>(current.index)] = current.episode.result;
          start_next(slot);
          continue;
        }
        running_[kept++] = slot;
      }
      running = kept;
      if (starting_slots_.size() >= group || running == 0 || drained) start_pending();
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
