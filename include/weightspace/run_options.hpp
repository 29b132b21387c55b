// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <atomic>
#include <cstdint>

namespace weightspace {

// Whether the engine consults its exact memo of the policy (engine/policy_memo.hpp).
// automatic: whichever way is measured to be faster during the grade (engine/memo_choice.hpp).
// hit_rate: while at least half of each window's lookups hit, decided on counts alone, so that
// the same grade takes the same steps every time (instruction counts under valgrind).
enum class PolicyMemoUse { automatic, hit_rate, always, never };

// What the memo did in one run (summed over the threads of a grade).
struct PolicyMemoStats {
  std::int64_t lookups = 0;  // steps whose action came through the memo
  std::int64_t hits = 0;     // of those, the steps that found their observation stored
  std::int64_t entries = 0;  // restricted observations stored (the largest of the threads')
  std::int64_t runs_without = 0;  // runs that ended without it (left, or never used)
};

// How a grade's episodes are played. None of these changes a result, only how fast it comes.
struct RunOptions {
  int threads = 0;     // 0: every core oneTBB sees
  // Episodes stepped in lockstep per thread. 32 rather than 64: the slots' generators (5 KB
  // per episode) then take half the cache, one-thread grades ran 0-3% faster, and the two
  // threads' last lockstep runs end closer together (docs/performance.md).
  int lockstep = 32;
  bool track_margins = false;
  // Once *cancel is true no further episode starts, those playing stop at their next step
  // (microseconds), and the rollout reports the interruption instead of a score. For Ctrl-C in
  // the Python module, sweep and batch.
  const std::atomic<bool>* cancel = nullptr;
  // `always` and `never` are for tests and benchmarks: no choice changes a result.
  PolicyMemoUse memo = PolicyMemoUse::automatic;
  // When set, receives what the memo did (bench, hit rates).
  PolicyMemoStats* memo_stats = nullptr;
};

}  // namespace weightspace
