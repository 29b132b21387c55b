// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/memo_choice.hpp"

#include <algorithm>
#include <ctime>

namespace weightspace {

double thread_cpu_seconds() {
  timespec now{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) + 1e-9 * static_cast<double>(now.tv_nsec);
}

bool MemoChoice::window_ended(const PolicyMemoStats& stats) {
  // Whether fewer than per16 in 16 of the window's lookups hit.
  auto hits_below = [lookups = stats.lookups - window_.lookups, hits = stats.hits - window_.hits](std::int64_t per16) {
    return hits * 16 < lookups * per16;
  };
  if (!timed_) {  // hit_rate
    if (hits_below(kHalfHitsPer16)) return leave_memo();
    begin_window(0.0, stats);
    return false;
  }
  // The first window holds the memo's warm-up misses (the breakout example, 99.5% hits in all,
  // hits 43% of its first 2048 steps and 84% of the next): the floor applies from the second.
  // Counted up to 3 only: all that is asked is the first and the second, and a grade may hold
  // more windows than an int counts (526 M episodes of 10,000 steps: 2.6e9 windows).
  windows_ = std::min(windows_ + 1, 3);
  const bool warming = windows_ == 1;
  if (memo_ && !warming && hits_below(kFloorHitsPer16)) return leave_memo();
  const double now = clock_();
  const double cost = (now - began_) / static_cast<double>(steps_);
  // The other way lost: back to the way kept, tried again after a longer wait.
  auto lost = [&](bool clearly) {
    wait_ = std::min(wait_ * (clearly ? 8 : 2), kLongestWait);
    left_ = wait_;
    phase_ = Phase::timing;
    begin_window(now, stats);
    return switch_way();
  };
  switch (phase_) {
    case Phase::timing:
      kept_cost_ = cost;
      begin_window(now, stats);
      // A memo that misses half of its second window rarely pays: tried at once, not after
      // filling (synth seaquest's example, 25-40% hits, took 3% longer with the wait: 826
      // against 799 ms, 40 copies, medians of 9 alternated runs, docs/performance.md).
      if (windows_ == 2 && hits_below(kHalfHitsPer16)) left_ = 1;
      if (--left_ > 0) return false;
      phase_ = Phase::trying;
      return switch_way();
    case Phase::trying:  // a quarter of the trial window
      if (cost > kept_cost_ * kClearWin) return lost(true);
      phase_ = Phase::trying_on;
      return false;
    case Phase::trying_on:
      if (cost < kept_cost_ * kSwitchBelow) {  // the other way is faster: kept from now on
        kept_cost_ = cost;
        wait_ = left_ = kFirstWait;
        phase_ = Phase::timing;
        begin_window(now, stats);
        return false;
      }
      return lost(cost > kept_cost_ * kClearWin);
  }
  return false;
}

}  // namespace weightspace
