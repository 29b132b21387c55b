// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <span>
#include <vector>

#include "engine/episode.hpp"
#include "policy/policy.hpp"

namespace weightspace {

// The episode indices [0, count) handed out in runs of consecutive indices to `threads`
// threads, as OpenMP's guided schedule does: each run is a share of what is left (at least
// `minimum`), so runs shrink towards the end and the threads finish within a few episodes of
// each other, whatever the episodes' lengths. Large early runs keep the threads from contending
// for the counter and for the cache lines of neighbouring results (with runs of 8, dense
// breakout in engine_bench sped up 1.85-1.89x on two threads; with guided runs, 1.95-1.97x).
class EpisodeQueue {
 public:
  EpisodeQueue(std::int64_t count, int threads, const std::atomic<bool>* cancel = nullptr)
      : count_(count), divisor_(2 * std::int64_t{std::max(threads, 1)}), cancel_(cancel) {}

  struct Run {
    std::int64_t first = 0;
    std::int64_t end = 0;
    bool empty() const { return first >= end; }
  };

  // The next run of at least `minimum` indices (fewer at the very end); empty once all are
  // taken.
  Run take(std::int64_t minimum) {
    if (cancel_ != nullptr && cancel_->load(std::memory_order_relaxed)) return {count_, count_};
    const std::int64_t left = count_ - next_.load(std::memory_order_relaxed);
    const std::int64_t size = std::max(minimum, left / divisor_);
    const std::int64_t first = next_.fetch_add(size, std::memory_order_relaxed);
    return {std::min(first, count_), std::min(first + size, count_)};
  }

 private:
  std::atomic<std::int64_t> next_{0};
  std::int64_t count_;
  std::int64_t divisor_;
  const std::atomic<bool>* cancel_;
};

// B episodes of one game stepped in lockstep: one batched forward pass of the Policy over the
// running slots' observations, each slot's action draw, one batched sampling pass, then slot
// by slot: act, and observe the new state at once, while it is still in the cache (2-10% a
// step over a separate pass; a slot is also observed when its episode starts). When the
// logits are constant, neither observing nor the forward pass runs, and each draw is looked
// up in the one exact cdf. A slot whose episode ends takes the next episode of the queue.
// Every slot owns its episode's generators, so the results are those of run_episode()
// whatever B is. All buffers are sized once, in the constructor.
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
    // A run cut short by an exception (a GameError) may have left episodes waiting to start.
    clear_pending();
    std::size_t running = 0;
    // A slot whose episode ended waits until a full seeding group has gathered (or nothing
    // else runs, or the queue is empty), so that the generators of a group are seeded side by
    // side.
    const std::size_t group = std::min(EpisodeState<G>::kSeedGroup, slots_.size());
    bool drained = false;
    // A policy that ignores the observation needs none, but where building it can raise, the
    // error must come at the same step (games/cells.hpp).
    const bool constant = policy.constant_logits().has_value();
    // Slot running_[k]'s observation goes to observations_[k].
    auto observe_into = [&](std::size_t k) {
      const G& game = slots_[running_[k]].episode.environment.game();
      if (!constant) {
        observe(game, observations_[k], policy.inputs());
      } else if constexpr (observation_may_raise<G>) {
        check_observation(game);
      }
    };
    auto start_pending = [&] {
      EpisodeState<G>::start_many(starting_, starting_indices_);
      for (const std::size_t slot : starting_slots_) {
        running_[running] = slot;
        observe_into(running++);
      }
      clear_pending();
    };
    // Takes the next episode for `slot`; false (and the slot retires) once the queue is empty.
    EpisodeQueue::Run taken;
    auto start_next = [&](std::size_t slot) {
      if (drained) return false;
      if (taken.empty()) taken = episodes.take(static_cast<std::int64_t>(group));
      if (taken.empty()) {
        drained = true;
        return false;
      }
      const std::int64_t index = taken.first++;
      slots_[slot].index = index;
      starting_.push_back(&slots_[slot].episode);
      starting_indices_.push_back(index);
      starting_slots_.push_back(slot);
      return true;
    };
    for (std::size_t slot = 0; slot < slots_.size(); ++slot) {
      if (!start_next(slot)) break;
    }
    start_pending();
    // Constant logits give every step the same distribution: its exact cdf, computed once, is
    // what sample_action would search on each draw.
    const bool fixed = constant && !track_margins;
    const ActionDistribution fixed_distribution =
        fixed ? action_distribution(*policy.constant_logits()) : ActionDistribution{};
    while (running > 0) {
      if (fixed) {
        for (std::size_t k = 0; k < running; ++k) {
          const double uniform = slots_[running_[k]].episode.action_random.random_sample();
          actions_[k] = fixed_distribution.action(uniform);
        }
      } else {
        policy.forward_batch(std::span<const ActiveInputs>(observations_.data(), running),
                             std::span<Logits>(logits_.data(), running));
      }
      if (!track_margins && !fixed) {
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
        running_[kept] = slot;
        observe_into(kept++);  // this step's forward pass has read observations_[kept] already
      }
      running = kept;
      if (starting_slots_.size() >= group || running == 0 || drained) start_pending();
    }
  }

 private:
  void clear_pending() {
    starting_.clear();
    starting_indices_.clear();
    starting_slots_.clear();
  }

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
