// SPDX-License-Identifier: GPL-3.0-or-later
#include "games/synth/breakout.hpp"

#include <gtest/gtest.h>

#include "support/golden.hpp"
#include "trace_test.hpp"

namespace weightspace {
namespace {

constexpr int kNoop = 0;
constexpr int kLeft = 1;
constexpr int kRight = 3;

TEST(SynthBreakout, MatchesGoldenTraces) {
  testing::expect_trace_matches<SynthBreakout>(testing::golden("synth/breakout.json"));
}

// A ball in row 8 heading down-right from column `x`, no bricks, the paddle at `paddle`.
SynthBreakout falling_ball(int x, int paddle) {
  SynthBreakout::State state;
  state.bricks = SynthBreakout::brick_bit(2, 0);  // a non-empty wall: no rebuild on a catch
  state.ball_x = static_cast<std::int8_t>(x);
  state.ball_y = 8;
  state.trail_x = static_cast<std::int8_t>(x - 1);
  state.trail_y = 7;
  state.dx = 1;
  state.dy = 1;
  state.paddle = static_cast<std::int8_t>(paddle);
  SynthBreakout game(false);
  game.restore(state);
  return game;
}

// Python: the paddle moves first (5 -> 4, under the ball's old column), so the ball is caught,
// goes back to row 8 at its new column 5 and takes the push (-1) as its direction.
TEST(SynthBreakout, PushedPaddleSteersTheBall) {
  SynthBreakout game = falling_ball(4, 5);
  RandomState random(1);
  const StepResult result = game.act(kLeft, random);
  EXPECT_FALSE(result.terminal);
  EXPECT_EQ(game.state().ball_y, 8);
  EXPECT_EQ(game.state().ball_x, 5);
  EXPECT_EQ(game.state().dx, -1);
  EXPECT_EQ(game.state().dy, -1);
  EXPECT_EQ(random.draws(), 0U);
}

// Without a push the ball keeps its horizontal direction (the original would reflect it).
TEST(SynthBreakout, UnpushedPaddleKeepsTheDirection) {
  SynthBreakout game = falling_ball(4, 5);
  RandomState random(1);
  game.act(kNoop, random);
  EXPECT_EQ(game.state().dx, 1);
  EXPECT_EQ(game.state().dy, -1);
}

// Paddle 9 pushed right stays at 9 and misses the ball landing in column 5: a life is lost
// and a new ball is launched in row 5 with no trail, drawing randint(10) and randint(2).
TEST(SynthBreakout, MissedBallCostsALifeAndRelaunches) {
  SynthBreakout game = falling_ball(4, 9);
  RandomState random(1);
  const StepResult result = game.act(kRight, random);
  EXPECT_FALSE(result.terminal);
  EXPECT_EQ(game.state().lives, 2);
  EXPECT_EQ(game.state().ball_y, SynthBreakout::kLaunchRow);
  EXPECT_EQ(game.state().dy, -1);
  EXPECT_EQ(game.state().trail_x, game.state().ball_x);
  EXPECT_EQ(game.state().trail_y, game.state().ball_y);
  EXPECT_GE(random.draws(), 2U);
}

TEST(SynthBreakout, LastBallEndsTheGameInTheBottomRow) {
  SynthBreakout game = falling_ball(4, 0);
  SynthBreakout::State state = game.state();
  state.lives = 1;
  game.restore(state);
  RandomState random(1);
  EXPECT_TRUE(game.act(kNoop, random).terminal);
  EXPECT_EQ(game.state().lives, 0);
  EXPECT_EQ(game.state().ball_y, 9);
  EXPECT_EQ(game.state().ball_x, 5);
  EXPECT_EQ(random.draws(), 0U);
  // Already over: nothing changes, nothing is drawn.
  EXPECT_TRUE(game.act(kNoop, random).terminal);
  EXPECT_EQ(random.draws(), 0U);
}

// The empty wall is rebuilt only on a catch: 30 rand() draws of two words each.
TEST(SynthBreakout, EmptyWallIsRebuiltOnACatch) {
  SynthBreakout game = falling_ball(4, 4);
  SynthBreakout::State state = game.state();
  state.bricks = 0;
  game.restore(state);
  RandomState random(1);
  game.act(kNoop, random);
  EXPECT_EQ(random.draws(), 60U);
  EXPECT_NE(game.state().bricks, 0U);
}

// A ball heading up into a brick breaks it (+1), stays in its row and turns down.
TEST(SynthBreakout, BrickBreaksAndReflects) {
  SynthBreakout::State state;
  state.bricks = SynthBreakout::brick_bit(4, 6);
  state.ball_x = 5;
  state.ball_y = 5;
  state.dx = 1;
  state.dy = -1;
  SynthBreakout game(false);
  game.restore(state);
  RandomState random(1);
  EXPECT_EQ(game.act(kNoop, random).reward, 1);
  EXPECT_EQ(game.state().bricks, 0U);
  EXPECT_EQ(game.state().ball_y, 5);
  EXPECT_EQ(game.state().ball_x, 6);
  EXPECT_EQ(game.state().dy, 1);
}

TEST(SynthBreakout, EndsAfterTwoThousandSteps) {
  SynthBreakout::State state;
  state.bricks = SynthBreakout::brick_bit(2, 0);
  state.ball_x = 5;
  state.time = SynthBreakout::kTimeLimit - 1;
  SynthBreakout game(false);
  game.restore(state);
  RandomState random(1);
  EXPECT_TRUE(game.act(kNoop, random).terminal);
}

}  // namespace
}  // namespace weightspace
