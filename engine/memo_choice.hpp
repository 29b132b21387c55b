// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>

#include <weightspace/run_options.hpp>

namespace weightspace {

// The calling thread's CPU time in seconds (CLOCK_THREAD_CPUTIME_ID).
double thread_cpu_seconds();

// Whether a run consults its PolicyMemo (engine/policy_memo.hpp), step by step. Consulting it
// never changes a result, only the time a step takes, so an automatic run uses whichever way
// is measured to be faster on this machine, for this answer.
//
// A hit rate alone cannot tell: a step through the memo costs painting and hashing its key, a
// step without it the observation and the forward pass, and their ratio depends on the game
// and on the answer. A random freeway answer whose every step hit took a quarter less time
// without the memo (its policy costs less than a key), and the seaquest example, 97% hits, a
// third less with it (docs/performance.md, "The memo chosen by time").
//
// So the run is cut into windows of kWindowSteps slot-steps, each timed on the thread's CPU clock
// (time the thread was preempted does not count). The memo is used for the first kFirstTrial
// windows, while it fills (two, when fewer than half of the second one's lookups hit); then the
// last of them is compared with a trial window of the other way, and the faster per step is kept.
// A trial clearly slower (by kClearWin) after a quarter of its window ends there. The way kept is
// tried against the other again after kFirstWait windows, then after twice as many each time it
// wins again (eight times as many when it won clearly), up to kLongestWait: hit rates change as
// the memo fills, and a slow minute of the machine may have misled one comparison. A trial costs
// part of a window of the slower way, so a short grade (a few windows) has none and a long one a
// few. A memo window with fewer than kFloorHitsPer16 in 16 hits cannot pay whatever the times say
// (each miss costs a key on top of the forward pass): the run then leaves the memo for good,
// deterministically. The first window is spared that: it holds the memo's warm-up misses.
//
// PolicyMemoUse::hit_rate is the rule without a clock (the automatic rule until 2026-12-07):
// the memo is left for good at the first window of kHitRateWindow lookups in which fewer than
// kHalfHitsPer16 in 16 hit.
//
// Determinism: results never depend on the choice; the memo's counts (PolicyMemoStats) of an
// automatic run do, on the machine's timing.
class MemoChoice {
 public:
  static constexpr std::int64_t kWindowSteps = 2048;
  static constexpr std::int64_t kFloorHitsPer16 = 4;
  static constexpr std::int64_t kHalfHitsPer16 = 8;
  static constexpr std::int64_t kHitRateWindow = 4096;
  static constexpr int kFirstTrial = 8;
  static constexpr int kFirstWait = 4;
  static constexpr int kLongestWait = 256;
  // The other way must be this much faster per step to be taken: two timings of the same way
  // differ by a few percent.
  static constexpr double kSwitchBelow = 0.97;
  static constexpr double kClearWin = 1.2;

  using Clock = double (*)();

  // `possible`: the run has a memo to consult at all (its logits are not constant and it does
  // not track margins). `clock`: CPU seconds (tests pass their own).
  MemoChoice(PolicyMemoUse use, bool possible, Clock clock = thread_cpu_seconds)
      : memo_(possible && use != PolicyMemoUse::never),
        watching_(memo_ && (use == PolicyMemoUse::automatic || use == PolicyMemoUse::hit_rate)),
        timed_(watching_ && use == PolicyMemoUse::automatic),
        clock_(clock),
        began_(timed_ ? clock() : 0.0) {}

  bool memo() const { return memo_; }

  // After a step of `slot_steps` slot-steps, with the memo's counts so far in the run. Returns
  // whether memo() changed: the run then observes its running slots the other way.
  bool step(std::int64_t slot_steps, const PolicyMemoStats& stats) {
    steps_ += slot_steps;
    if (!watching_) return false;
    if (!timed_) return stats.lookups - window_.lookups >= kHitRateWindow && window_ended(stats);
    if (steps_ < (phase_ == Phase::trying ? kWindowSteps / 4 : kWindowSteps)) return false;
    return window_ended(stats);
  }

 private:
  enum class Phase { timing, trying, trying_on };
  bool window_ended(const PolicyMemoStats& stats);
  void begin_window(double now, const PolicyMemoStats& stats) {
    began_ = now;
    window_ = stats;
    steps_ = 0;
  }
  bool switch_way() {
    memo_ = !memo_;
    return true;
  }
  // Only ever called with the memo on.
  bool leave_memo() {
    watching_ = false;
    return switch_way();
  }

  bool memo_;
  bool watching_;
  bool timed_;
  Clock clock_;
  double began_;
  PolicyMemoStats window_;  // the counts when the window began
  Phase phase_ = Phase::timing;
  std::int64_t steps_ = 0;
  double kept_cost_ = 0.0;     // seconds per slot-step of the way kept, its last timed window
  int wait_ = kFirstWait / 2;  // doubled at the first trial the way kept wins
  int left_ = kFirstTrial;     // windows of the way kept before the other is tried
  int windows_ = 0;           // timed windows ended: 0, 1, 2, or 3 for more
};

}  // namespace weightspace
