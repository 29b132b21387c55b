// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <oneapi/tbb/parallel_for.h>
#include <oneapi/tbb/task_arena.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <mutex>
#include <optional>
#include <span>
#include <stdexcept>

#include <weightspace/run_options.hpp>

#include "engine/arena.hpp"
#include "engine/lockstep.hpp"

namespace weightspace {

// This thread's Lockstep<G> of `slots` slots, kept between runs: a grader of many answers
// grades in a loop, and a Lockstep is 100-300 KB that would otherwise be allocated and
// page-faulted for every grade.
template <Game G>
Lockstep<G>& reusable_lockstep(int slots) {
  thread_local std::optional<Lockstep<G>> lockstep;
  if (!lockstep || lockstep->size() != slots) lockstep.emplace(slots);
  return *lockstep;
}

// Plays episodes 0..results.size()-1 of game G and stores episode i's result in results[i].
// Each of the arena's threads runs one Lockstep of `lockstep` slots fed from a shared queue of
// episode indices. Which thread plays which episode never changes a result. The policy is only
// read, so one Policy may serve several runs at once (a batch's records of one answer).
template <Game G>
void run_episodes(const Policy& policy, std::span<EpisodeResult> results, const RunOptions& options) {
  if (options.lockstep < 1) throw std::invalid_argument("lockstep width must be at least 1");
  if (options.threads < 0) throw std::invalid_argument("thread count must not be negative");
  const auto episodes = static_cast<std::int64_t>(results.size());
  if (episodes > kMaxEpisodes) throw std::invalid_argument("too many episodes for 32-bit seeds");
  if (episodes == 0) return;
  // One thread needs no arena: setting oneTBB up (its allocator library, reads of /proc)
  // would cost a single-threaded grader process about 0.9 ms.
  tbb::task_arena* arena = options.threads == 1 ? nullptr : &shared_arena(options.threads);
  const int threads = arena ? arena->max_concurrency() : 1;
  EpisodeQueue queue(episodes, threads, options.cancel);
  // No more slots than a thread's share of the episodes, or one Lockstep would take them all.
  const auto slots = static_cast<int>(std::min<std::int64_t>(options.lockstep, (episodes + threads - 1) / threads));
  std::mutex stats_mutex;
  auto run_lockstep = [&] {
    const PolicyMemoStats stats =
        reusable_lockstep<G>(slots).run(policy, queue, results, options.track_margins, options.memo);
    if (options.memo_stats == nullptr) return;
    const std::lock_guard lock(stats_mutex);
    PolicyMemoStats& total = *options.memo_stats;
    total.lookups += stats.lookups;
    total.hits += stats.hits;
    total.entries = std::max(total.entries, stats.entries);
    total.runs_without += stats.runs_without;
  };
  if (threads == 1) return run_lockstep();
  // One Lockstep per thread, all fed by the queue: a thread stops only when no episode is left
  // to start, so the threads finish within about one episode of each other.
  arena->execute([&] { tbb::parallel_for(0, threads, [&](int) { run_lockstep(); }); });
}

// The same, for weights: builds their Policy (tens of microseconds, 80 KB) for this run.
template <Game G>
void run_episodes(const Weights& weights, std::span<EpisodeResult> results, const RunOptions& options) {
  run_episodes<G>(Policy(weights), results, options);
}

}  // namespace weightspace
