// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <oneapi/tbb/blocked_range.h>
#include <oneapi/tbb/enumerable_thread_specific.h>
#include <oneapi/tbb/parallel_for.h>
#include <oneapi/tbb/task_arena.h>

#include <algorithm>
#include <cstdint>
#include <span>
#include <stdexcept>

#include "engine/batch.hpp"

namespace weightspace {

struct RunOptions {
  int threads = 0;     // 0: every core oneTBB sees
  int batch = 64;      // episodes stepped in lockstep per task
  bool track_margins = false;
};

// Plays episodes 0..results.size()-1 of game G and stores episode i's result in results[i].
// oneTBB splits the index range into tasks of about `batch` episodes; each worker thread
// reuses one Batch. Which thread plays which episode never changes a result.
template <Game G>
void run_episodes(const Weights& weights, std::span<EpisodeResult> results, const RunOptions& options) {
  if (options.batch < 1) throw std::invalid_argument("batch size must be at least 1");
  if (options.threads < 0) throw std::invalid_argument("thread count must not be negative");
  const auto episodes = static_cast<std::int64_t>(results.size());
  if (episodes > kMaxEpisodes) throw std::invalid_argument("too many episodes for 32-bit seeds");
  if (episodes == 0) return;
  tbb::task_arena arena(options.threads > 0 ? options.threads : tbb::task_arena::automatic);
  const int threads = arena.max_concurrency();
  if (threads == 1) {  // no tasks to balance: one batch plays everything
    Batch<G>(options.batch).run(weights, 0, episodes, results, options.track_margins);
    return;
  }
  // Tasks of at most `batch` episodes, and at least ~16 per thread so that the last ones to
  // finish (whose length varies with the episodes) leave little of the run to one thread.
  const std::int64_t grain = std::clamp<std::int64_t>(episodes / (16 * threads), 1, options.batch);
  tbb::enumerable_thread_specific<Batch<G>> batches([&options] { return Batch<G>(options.batch); });
  arena.execute([&] {
    tbb::parallel_for(tbb::blocked_range<std::int64_t>(0, episodes, static_cast<std::size_t>(grain)),
                      [&](const tbb::blocked_range<std::int64_t>& range) {
                        batches.local().run(weights, range.begin(), range.end(),
                                            results.subspan(static_cast<std::size_t>(range.begin()),
                                                            static_cast<std::size_t>(range.size())),
                                            options.track_margins);
                      });
  });
}

}  // namespace weightspace
