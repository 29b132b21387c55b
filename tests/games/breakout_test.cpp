// SPDX-License-Identifier: GPL-3.0-or-later
#include "games/original/breakout.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "games/cells.hpp"
#include "games/environment.hpp"
#include "support/golden.hpp"
#include "trace_test.hpp"

namespace weightspace {
namespace {

using testing::golden;

constexpr int kNoop = 0;
constexpr int kLeft = 1;

TEST(Breakout, MatchesGoldenTraces) {
  testing::expect_trace_matches<Breakout>(golden("games/breakout.json"));
}

// The golden events list the steps where the empty wall was refilled (e.g. episode 1 at 742,
// 1178 and 1840); replaying each episode must refill at exactly those steps.
TEST(Breakout, RefillsTheWallAtTheGoldenSteps) {
  for (const auto& episode : golden("games/breakout.json").at("episodes")) {
    Environment<Breakout> env(false);
    env.seed(episode.at("env_seed").get<std::uint32_t>());
    env.reset();
    std::vector<int> refill_steps;
    const auto& steps = episode.at("steps");
    for (std::size_t k = 0; k < steps.size(); ++k) {
      const bool was_empty = env.game().state().bricks == 0;
      env.act(steps[k].at(0).get<int>());
      if (was_empty && env.game().state().bricks == Breakout::kFullWall) {
        refill_steps.push_back(static_cast<int>(k + 1));
      }
    }
    EXPECT_EQ(refill_steps, episode.at("events").at("brick_refill_steps").get<std::vector<int>>())
        << "episode " << episode.at("id");
  }
}

Breakout situation(const Breakout::State& state) {
  Breakout game(false);
  game.restore(state);
  return game;
}

Breakout::State ball(int y, int x, Breakout::Direction direction, int paddle) {
  Breakout::State state;
  state.ball_y = static_cast<std::int8_t>(y);
  state.ball_x = static_cast<std::int8_t>(x);
  state.last_y = state.ball_y;
  state.last_x = state.ball_x;
  state.ball_direction = direction;
  state.paddle = static_cast<std::int8_t>(paddle);
  return state;
}

TEST(Breakout, ResetDrawsOneWordAndPicksAStartCorner) {
  // randint(2) costs one word; 0 starts at x=0 moving down-right (dir 2), 1 at x=9 down-left.
  bool seen[2] = {false, false};
  for (std::uint32_t seed = 0; seed < 16; ++seed) {
    RandomState random(seed);
    RandomState copy(seed);
    Breakout game(false);
    game.reset(random);
    EXPECT_EQ(random.draws(), 1U);
    const bool right = copy.randint(2) == 1;
    seen[right] = true;
    EXPECT_EQ(game.state().ball_x, right ? 9 : 0);
    EXPECT_EQ(game.state().ball_direction, right ? Breakout::kDownLeft : Breakout::kDownRight);
    EXPECT_EQ(game.state().ball_y, 3);
    EXPECT_EQ(game.state().paddle, 4);
    EXPECT_EQ(game.state().bricks, Breakout::kFullWall);
  }
  EXPECT_TRUE(seen[0] && seen[1]);
}

// A hole at (2, 4): the ball goes up-right into (1, 5), breaks it and goes back to row 2 moving
// down-right. The next step lands on the brick (3, 6) while self.strike is still True, so
// Python gives no reward, keeps the brick and leaves the ball inside it, unreflected.
TEST(Breakout, BrickRightAfterAStrikeIsPassedThrough) {
  Breakout::State start = ball(2, 4, Breakout::kUpRight, 0);
  start.bricks = Breakout::kFullWall & ~Breakout::brick_bit(2, 4);
  Breakout game = situation(start);
  RandomState random;

  StepResult step = game.act(kNoop, random);
  EXPECT_EQ(step.reward, 1);
  EXPECT_FALSE(game.has_brick(1, 5));
  EXPECT_EQ(game.state().ball_y, 2);
  EXPECT_EQ(game.state().ball_x, 5);
  EXPECT_EQ(game.state().ball_direction, Breakout::kDownRight);
  EXPECT_TRUE(game.state().strike);

  step = game.act(kNoop, random);
  EXPECT_EQ(step.reward, 0);
  EXPECT_TRUE(game.has_brick(3, 6));
  EXPECT_EQ(game.state().ball_y, 3);
  EXPECT_EQ(game.state().ball_x, 6);
  EXPECT_EQ(game.state().ball_direction, Breakout::kDownRight);
  EXPECT_TRUE(game.state().strike);

  // (4, 7) holds no brick: strike_toggle stays False and the flag clears.
  step = game.act(kNoop, random);
  EXPECT_EQ(step.reward, 0);
  EXPECT_EQ(game.state().ball_y, 4);
  EXPECT_FALSE(game.state().strike);
  EXPECT_EQ(game.state().bricks,
            Breakout::kFullWall & ~Breakout::brick_bit(2, 4) & ~Breakout::brick_bit(1, 5));
}

// The empty wall is refilled only in the new_y == 9 branch, before the paddle test.
TEST(Breakout, RefillHappensOnlyWhenTheBallReachesRowNine) {
  RandomState random;
  Breakout::State away = ball(5, 5, Breakout::kDownRight, 0);
  away.bricks = 0;
  Breakout travelling = situation(away);
  travelling.act(kNoop, random);
  EXPECT_EQ(travelling.state().bricks, 0U);

  // Ball above the paddle (ball_x == pos): vertical mirror, back to row 8, x moves on.
  Breakout::State caught = ball(8, 3, Breakout::kDownRight, 3);
  caught.bricks = 0;
  Breakout bounced = situation(caught);
  StepResult step = bounced.act(kNoop, random);
  EXPECT_FALSE(step.terminal);
  EXPECT_EQ(bounced.state().bricks, Breakout::kFullWall);
  EXPECT_EQ(bounced.state().ball_y, 8);
  EXPECT_EQ(bounced.state().ball_x, 4);
  EXPECT_EQ(bounced.state().ball_direction, Breakout::kUpRight);

  // Missed ball: the wall is still refilled on the terminal step, and the ball sits on row 9.
  Breakout::State missed = ball(8, 3, Breakout::kDownRight, 7);
  missed.bricks = 0;
  Breakout lost = situation(missed);
  step = lost.act(kNoop, random);
  EXPECT_TRUE(step.terminal);
  EXPECT_EQ(lost.state().bricks, Breakout::kFullWall);
  EXPECT_EQ(lost.state().ball_y, 9);
  EXPECT_EQ(lost.state().ball_x, 4);
}

// ball_x == pos is tested before new_x == pos; the paddle moves before the ball.
TEST(Breakout, PaddleTestsTheOldColumnFirst) {
  RandomState random;
  // Paddle under the new column: [2,3,0,1][2] = 0, straight back up-left.
  Breakout corner = situation(ball(8, 4, Breakout::kDownRight, 5));
  EXPECT_FALSE(corner.act(kNoop, random).terminal);
  EXPECT_EQ(corner.state().ball_direction, Breakout::kUpLeft);
  EXPECT_EQ(corner.state().ball_y, 8);
  EXPECT_EQ(corner.state().ball_x, 5);

  // Moving the paddle left from 5 to 4 puts it under the old column instead: [3,2,1,0][2] = 1.
  Breakout moved = situation(ball(8, 4, Breakout::kDownRight, 5));
  EXPECT_FALSE(moved.act(kLeft, random).terminal);
  EXPECT_EQ(moved.state().paddle, 4);
  EXPECT_EQ(moved.state().ball_direction, Breakout::kUpRight);
  EXPECT_EQ(moved.state().ball_x, 5);

  // At the right wall: new_x = 10 clamps to 9 and dir becomes [1,0,3,2][2] = 3; the paddle is
  // under the old column 9, so [3,2,1,0][3] = 0 and the ball stays at (8, 9).
  Breakout wall = situation(ball(8, 9, Breakout::kDownRight, 9));
  EXPECT_FALSE(wall.act(kNoop, random).terminal);
  EXPECT_EQ(wall.state().ball_direction, Breakout::kUpLeft);
  EXPECT_EQ(wall.state().ball_y, 8);
  EXPECT_EQ(wall.state().ball_x, 9);
}

// (0, 0) moving up-left: x clamps (dir [1,0,3,2][0] = 1), then y clamps (dir [3,2,1,0][1] = 2);
// the ball stays in the corner and its trail is the same cell.
TEST(Breakout, CornerReflectsBothWays) {
  RandomState random;
  Breakout game = situation(ball(0, 0, Breakout::kUpLeft, 4));
  game.act(kNoop, random);
  EXPECT_EQ(game.state().ball_direction, Breakout::kDownRight);
  EXPECT_EQ(game.state().ball_y, 0);
  EXPECT_EQ(game.state().ball_x, 0);
  // state[y, x, c] flat index (y*10 + x)*4 + c: ball (c=1) and trail (c=2) at (0, 0), the full
  // wall (c=3) on rows 1..3, the paddle (c=0) at (9, 4).
  std::vector<int> expected = {1, 2};
  for (int cell = 10; cell < 40; ++cell) expected.push_back(cell * 4 + 3);
  expected.push_back(94 * 4);
  EXPECT_EQ(raw_state(game), expected);
}

TEST(Breakout, ActAfterTerminalChangesNothing) {
  RandomState random;
  Breakout game = situation(ball(8, 3, Breakout::kDownRight, 7));
  ASSERT_TRUE(game.act(kNoop, random).terminal);
  const std::vector<int> before = raw_state(game);
  const StepResult again = game.act(kLeft, random);
  EXPECT_TRUE(again.terminal);
  EXPECT_EQ(again.reward, 0);
  EXPECT_EQ(raw_state(game), before);
  EXPECT_EQ(random.draws(), 0U);
}

}  // namespace
}  // namespace weightspace
