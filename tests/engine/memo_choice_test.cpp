// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/memo_choice.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>

namespace weightspace {
namespace {

constexpr std::int64_t kQuarter = MemoChoice::kWindowSteps / 4;

// A clock the tests move by hand.
double now = 0.0;
double test_clock() { return now; }

// Plays slot-steps a quarter of a window at a time at `cost` seconds each, `hit_share` of
// them hitting when the memo is in use, until `quarters` have passed or the choice changes.
struct TimedRun {
  MemoChoice choice{PolicyMemoUse::automatic, true, test_clock};
  PolicyMemoStats stats;

  bool quarters(int count, double cost, double hit_share = 0.9) {
    for (int q = 0; q < count; ++q) {
      if (choice.memo()) {
        stats.lookups += kQuarter;
        stats.hits += static_cast<std::int64_t>(hit_share * static_cast<double>(kQuarter));
      }
      now += cost * static_cast<double>(kQuarter);
      if (choice.step(kQuarter, stats)) return true;
    }
    return false;
  }
  bool window(double cost, double hit_share = 0.9) { return quarters(4, cost, hit_share); }
  bool windows(int count, double cost) {
    for (int k = 0; k < count; ++k) {
      if (window(cost)) return true;
    }
    return false;
  }
  // The memo's first kFirstTrial windows (it fills), the last of them timed at `cost`; the
  // other way is tried next.
  void fill(double cost, double hit_share = 0.9) {
    ASSERT_FALSE(windows(MemoChoice::kFirstTrial - 1, 9.0));
    ASSERT_TRUE(window(cost, hit_share));
    ASSERT_FALSE(choice.memo());
  }
};

TEST(MemoChoice, FixedChoicesAreNeverTimed) {
  MemoChoice always(PolicyMemoUse::always, true, test_clock);
  MemoChoice never(PolicyMemoUse::never, true, test_clock);
  MemoChoice impossible(PolicyMemoUse::automatic, false, test_clock);
  EXPECT_TRUE(always.memo());
  EXPECT_FALSE(never.memo());
  EXPECT_FALSE(impossible.memo());
  PolicyMemoStats none;  // no hits at all: the floor would turn an automatic memo off
  for (MemoChoice* choice : {&always, &never, &impossible}) {
    for (int k = 0; k < 100; ++k) {
      none.lookups += MemoChoice::kWindowSteps;
      now += 1.0;
      EXPECT_FALSE(choice->step(MemoChoice::kWindowSteps, none));
    }
  }
  EXPECT_TRUE(always.memo());
}

TEST(MemoChoice, KeepsTheMemoWhenItIsFaster) {
  TimedRun run;
  EXPECT_TRUE(run.choice.memo());
  run.fill(1.0);
  EXPECT_FALSE(run.quarters(1, 1.1));  // 10% slower without: not clearly, the trial goes on
  EXPECT_TRUE(run.quarters(3, 1.1));   // and loses: back to the memo
  EXPECT_TRUE(run.choice.memo());
  // Tried again after 4 windows, then 8, 16: it keeps winning, narrowly.
  for (const int wait : {4, 8, 16}) {
    EXPECT_FALSE(run.windows(wait - 1, 1.0)) << wait;
    EXPECT_TRUE(run.window(1.0)) << wait;
    EXPECT_FALSE(run.choice.memo());
    EXPECT_TRUE(run.window(1.1)) << wait;
    EXPECT_TRUE(run.choice.memo());
  }
}

// A trial clearly slower after a quarter of its window ends there, and the next one is eight
// times as far off.
TEST(MemoChoice, AClearlySlowerTrialEndsEarlyAndWaitsLonger) {
  TimedRun run;
  run.fill(1.0);
  EXPECT_TRUE(run.quarters(1, 1.5));
  EXPECT_TRUE(run.choice.memo());
  EXPECT_FALSE(run.windows(15, 1.0));
  EXPECT_TRUE(run.window(1.0));
  EXPECT_TRUE(run.quarters(1, 1.5));
  EXPECT_FALSE(run.windows(127, 1.0));
  EXPECT_TRUE(run.window(1.0));
}

TEST(MemoChoice, LeavesTheMemoWhenItIsSlowerEvenIfEveryStepHits) {
  TimedRun run;
  run.fill(1.1, 1.0);
  EXPECT_FALSE(run.window(1.0));  // faster without: kept
  EXPECT_FALSE(run.choice.memo());
  // The memo is tried again after kFirstWait windows; still slower, so the wait doubles.
  EXPECT_FALSE(run.windows(MemoChoice::kFirstWait - 1, 1.0));
  EXPECT_TRUE(run.window(1.0));
  EXPECT_TRUE(run.choice.memo());
  EXPECT_TRUE(run.window(1.1, 1.0));
  EXPECT_FALSE(run.choice.memo());
  EXPECT_FALSE(run.windows(2 * MemoChoice::kFirstWait - 1, 1.0));
  EXPECT_TRUE(run.window(1.0));
  EXPECT_TRUE(run.choice.memo());
}

// Hit rates change as the memo fills: a later trial that wins switches back.
TEST(MemoChoice, ATrialThatWinsLaterSwitches) {
  TimedRun run;
  run.fill(1.2);
  EXPECT_FALSE(run.window(1.0));  // without: faster, kept
  EXPECT_FALSE(run.windows(MemoChoice::kFirstWait - 1, 1.0));
  EXPECT_TRUE(run.window(1.0));    // the memo tried again
  EXPECT_FALSE(run.window(0.8));   // and now faster: kept
  EXPECT_TRUE(run.choice.memo());
}

// Within the margin the way in use stays: two timings of one way differ by a few percent.
TEST(MemoChoice, ANearTieKeepsTheWayInUse) {
  TimedRun run;
  run.fill(1.0);
  EXPECT_TRUE(run.window(0.98));  // 2% faster without: not enough, back to the memo
  EXPECT_TRUE(run.choice.memo());
}

TEST(MemoChoice, TheWaitStopsGrowingAtItsLongest) {
  TimedRun run;
  run.fill(1.0);
  ASSERT_TRUE(run.quarters(1, 2.0));
  int wait = 16;
  for (int trials = 0; trials < 4; ++trials) {
    ASSERT_FALSE(run.windows(wait - 1, 1.0));
    ASSERT_TRUE(run.window(1.0));        // the other way is tried
    ASSERT_TRUE(run.quarters(1, 2.0));   // and loses clearly
    wait = std::min(8 * wait, MemoChoice::kLongestWait);
  }
  EXPECT_EQ(wait, MemoChoice::kLongestWait);
  EXPECT_TRUE(run.choice.memo());
}

// A memo that misses half of its second window (the first fills it) is tried at once.
TEST(MemoChoice, AMemoMissingHalfItsSecondWindowIsTriedAtOnce) {
  TimedRun run;
  EXPECT_FALSE(run.window(2.0, 0.3));
  EXPECT_TRUE(run.window(1.0, 0.4));
  EXPECT_FALSE(run.choice.memo());
  EXPECT_FALSE(run.window(0.8));  // faster without: kept
  EXPECT_FALSE(run.choice.memo());
}

// Below the floor of hits the memo cannot pay: left for good, whatever the clock says, and the
// run is no longer timed.
TEST(MemoChoice, TooFewHitsLeaveTheMemoForGood) {
  TimedRun run;
  EXPECT_FALSE(run.window(0.1, 0.1));  // the first window fills the memo: spared
  EXPECT_TRUE(run.window(0.1, 0.2));
  EXPECT_FALSE(run.choice.memo());
  EXPECT_FALSE(run.windows(1000, 5.0));
}

TEST(MemoChoice, ATriedMemoBelowTheFloorIsLeftForGood) {
  TimedRun run;
  run.fill(2.0);
  EXPECT_FALSE(run.window(1.0));  // without: kept
  EXPECT_FALSE(run.windows(MemoChoice::kFirstWait - 1, 1.0));
  EXPECT_TRUE(run.window(1.0));                 // the memo tried
  EXPECT_TRUE(run.quarters(1, 0.1, 0.05));      // few hits: off, however fast
  EXPECT_FALSE(run.choice.memo());
  EXPECT_FALSE(run.windows(100, 1.0));
}

// hit_rate: the memo stays while half of each window hits and leaves at the first window that
// falls short, without reading a clock, so the same grade takes the same steps every time.
int clock_reads = 0;
double counting_clock() {
  ++clock_reads;
  return now;
}

TEST(MemoChoice, TheHitRateRuleReadsNoClock) {
  MemoChoice choice(PolicyMemoUse::hit_rate, true, counting_clock);
  PolicyMemoStats stats;
  auto window = [&](double hit_share) {
    stats.lookups += MemoChoice::kHitRateWindow;
    stats.hits += static_cast<std::int64_t>(hit_share * MemoChoice::kHitRateWindow);
    return choice.step(MemoChoice::kHitRateWindow, stats);
  };
  EXPECT_TRUE(choice.memo());
  EXPECT_FALSE(choice.step(MemoChoice::kHitRateWindow, stats));  // a window is counted in lookups
  for (int k = 0; k < 100; ++k) ASSERT_FALSE(window(0.5)) << k;
  EXPECT_TRUE(choice.memo());
  EXPECT_TRUE(window(0.49));
  EXPECT_FALSE(choice.memo());
  for (int k = 0; k < 100; ++k) ASSERT_FALSE(window(1.0)) << k;
  EXPECT_EQ(clock_reads, 0);
}

TEST(MemoChoice, TheThreadClockAdvancesWithWork) {
  const double start = thread_cpu_seconds();
  volatile double sink = 0.0;
  while (thread_cpu_seconds() - start < 0.002) sink = sink + 1.0;
  EXPECT_GE(thread_cpu_seconds() - start, 0.002);
  EXPECT_GT(sink, 0.0);
}

}  // namespace
}  // namespace weightspace
