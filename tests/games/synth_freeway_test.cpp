// SPDX-License-Identifier: GPL-3.0-or-later
#include "games/synth/freeway.hpp"

#include <gtest/gtest.h>

#include <vector>

#include "games/cells.hpp"
#include "support/golden.hpp"
#include "trace_test.hpp"

namespace weightspace {
namespace {

constexpr int kNoop = 0;
constexpr int kUp = 2;

TEST(SynthFreeway, MatchesGoldenTraces) {
  testing::expect_trace_matches<SynthFreeway>(testing::golden("synth/freeway.json"));
}

// Every lane's cars at columns 0 and 5, slow (period 6, next move in 6 steps): no car is in
// column 4, and none moves in the next step.
SynthFreeway::State quiet_road() {
  SynthFreeway::State state;
  state.columns.fill(0);
  state.periods.fill(6);
  state.timers.fill(6);
  return state;
}

// Python: lane 4 (row 5) drives right, so its cars at 3 and 8 move to 4 and 9 this step: the
// chicken in row 5 is pushed back to row 8 and stunned (move_timer = 2).
TEST(SynthFreeway, HitPushesBackThreeRowsAndStuns) {
  SynthFreeway::State state = quiet_road();
  state.position = 5;
  state.move_timer = 1;
  state.columns[4] = 3;
  state.timers[4] = 1;
  SynthFreeway game(false);
  game.restore(state);
  RandomState random(1);
  game.act(kUp, random);  // the move timer is still counting down: no step this time
  EXPECT_EQ(game.state().position, 8);
  EXPECT_EQ(game.state().move_timer, SynthFreeway::kPlayerPeriod);
  game.act(kUp, random);
  game.act(kUp, random);
  EXPECT_EQ(game.state().position, 8);  // stunned for two steps
  game.act(kUp, random);
  EXPECT_EQ(game.state().position, 7);
}

TEST(SynthFreeway, PushBackStopsAtTheBottomRow) {
  SynthFreeway::State state = quiet_road();
  state.position = 8;
  state.columns[7] = 4;  // lane 7 (row 8) has a car in column 4 already
  SynthFreeway game(false);
  game.restore(state);
  RandomState random(1);
  game.act(kNoop, random);
  EXPECT_EQ(game.state().position, 9);
}

// Reaching row 0 scores, puts the chicken back in row 9 and redraws all eight periods.
TEST(SynthFreeway, CrossingRedrawsThePeriods) {
  SynthFreeway::State state = quiet_road();
  state.position = 1;
  state.move_timer = 0;
  SynthFreeway game(false);
  game.restore(state);
  RandomState random(1);
  const StepResult result = game.act(kUp, random);
  EXPECT_EQ(result.reward, 1);
  EXPECT_EQ(game.state().position, 9);
  EXPECT_GE(random.draws(), 8U);
  for (int lane = 0; lane < SynthFreeway::kLanes; ++lane) {
    EXPECT_GE(game.state().periods[lane], SynthFreeway::kFastestPeriod);
    EXPECT_LE(game.state().periods[lane], SynthFreeway::kSlowestPeriod);
  }
}

std::vector<int> gauge_cells(const SynthFreeway& game) {
  std::vector<int> columns;
  game.paint([&](int y, int x, int channel) {
    if (channel == 5) {
      EXPECT_EQ(y, 9);
      columns.push_back(x);
    }
  });
  return columns;
}

// ceil(10 * left / 2000): 10 cells at the start, 1 cell with 1 step left, 0 at the end.
TEST(SynthFreeway, TimeGaugeRoundsUp) {
  SynthFreeway::State state = quiet_road();
  SynthFreeway game(false);
  game.restore(state);
  EXPECT_EQ(gauge_cells(game).size(), 10U);
  state.time = 1801;  // 199 left: ceil(0.995) = 1
  game.restore(state);
  EXPECT_EQ(gauge_cells(game), std::vector<int>{0});
  state.time = 1800;  // 200 left: exactly 1
  game.restore(state);
  EXPECT_EQ(gauge_cells(game), std::vector<int>{0});
  state.time = 1799;  // 201 left: ceil(1.005) = 2
  game.restore(state);
  EXPECT_EQ(gauge_cells(game), (std::vector<int>{0, 1}));
  state.time = SynthFreeway::kTimeLimit;
  game.restore(state);
  EXPECT_TRUE(gauge_cells(game).empty());
}

TEST(SynthFreeway, EndsAfterTwoThousandSteps) {
  SynthFreeway::State state = quiet_road();
  state.time = SynthFreeway::kTimeLimit - 1;
  SynthFreeway game(false);
  game.restore(state);
  RandomState random(1);
  EXPECT_TRUE(game.act(kNoop, random).terminal);
}

}  // namespace
}  // namespace weightspace
