// SPDX-License-Identifier: GPL-3.0-or-later
#include "games/synth/asterix.hpp"

#include <gtest/gtest.h>

#include "support/golden.hpp"
#include "trace_test.hpp"

namespace weightspace {
namespace {

constexpr int kNoop = 0;
constexpr int kRight = 3;

TEST(SynthAsterix, MatchesGoldenTraces) {
  testing::expect_trace_matches<SynthAsterix>(testing::golden("synth/asterix.json"));
}

// Puts an object of period 3 in `slot` (row slot + 1).
void place(SynthAsterix::State& state, int slot, int x, int dx, bool gold, int timer) {
  SynthAsterix::Objects& objects = state.objects;
  objects.x[slot] = static_cast<std::int8_t>(x);
  objects.dx[slot] = static_cast<std::int8_t>(dx);
  objects.period[slot] = 3;
  objects.timer[slot] = static_cast<std::int8_t>(timer);
  objects.gold[slot] = gold;
  objects.present[slot] = 1;
}

// The reset state (player at row 5, column 5) with an object in the player's row at column x.
SynthAsterix with_object(int x, int dx, bool gold, int timer) {
  SynthAsterix::State state;
  place(state, 4, x, dx, gold, timer);
  SynthAsterix game(false);
  game.restore(state);
  return game;
}

// Every row taken by a slow enemy in column 0; the player at column 9, out of reach.
SynthAsterix::State crowded() {
  SynthAsterix::State state;
  for (int slot = 0; slot < SynthAsterix::kSlots; ++slot) place(state, slot, 0, 1, false, 3);
  state.player_x = 9;
  return state;
}

// Python: the player steps right onto the enemy at column 6: one life lost, the enemy gone,
// the game goes on. The spawn timer (6 -> 5) does not fire, so nothing is drawn.
TEST(SynthAsterix, EnemyCostsALife) {
  SynthAsterix game = with_object(6, -1, false, 3);
  RandomState random(1);
  const StepResult result = game.act(kRight, random);
  EXPECT_EQ(result.reward, 0);
  EXPECT_FALSE(result.terminal);
  EXPECT_EQ(game.state().lives, 2);
  EXPECT_FALSE(game.state().objects.present[4]);
  EXPECT_EQ(random.draws(), 0U);
}

// The object moves onto the standing player (timer 1 -> 0): the second contact check.
TEST(SynthAsterix, LastLifeEndsTheGame) {
  SynthAsterix game = with_object(6, -1, false, 1);
  SynthAsterix::State state = game.state();
  state.lives = 1;
  game.restore(state);
  RandomState random(1);
  EXPECT_TRUE(game.act(kNoop, random).terminal);
  EXPECT_EQ(game.state().lives, 0);
  EXPECT_TRUE(game.act(kNoop, random).terminal);
  EXPECT_EQ(random.draws(), 0U);
}

TEST(SynthAsterix, GoldIsWorthOne) {
  SynthAsterix game = with_object(6, -1, true, 1);
  RandomState random(1);
  const StepResult result = game.act(kNoop, random);
  EXPECT_EQ(result.reward, 1);
  EXPECT_EQ(game.state().lives, SynthAsterix::kLives);
  EXPECT_FALSE(game.state().objects.present[4]);
}

// An object leaving the grid disappears; its trail is not drawn off the grid either.
TEST(SynthAsterix, ObjectsLeaveAtTheFarEdge) {
  SynthAsterix game = with_object(9, 1, false, 1);
  RandomState random(1);
  game.act(kNoop, random);
  EXPECT_FALSE(game.state().objects.present[4]);
}

// With every row taken, a spawn draws nothing at all (Python returns before its draws).
TEST(SynthAsterix, FullRowsSpawnNothing) {
  SynthAsterix::State state = crowded();
  state.spawn_timer = 1;
  SynthAsterix game(false);
  game.restore(state);
  RandomState random(1);
  game.act(kNoop, random);
  EXPECT_EQ(random.draws(), 0U);
  EXPECT_EQ(game.state().spawn_timer, SynthAsterix::kSpawnInterval);
}

// With one row free, the row costs no draw (randint(1)); then side, gold and period do.
TEST(SynthAsterix, SingleFreeRowSpawnsThere) {
  SynthAsterix::State state = crowded();
  state.objects.present[2] = 0;
  state.spawn_timer = 1;
  SynthAsterix game(false);
  game.restore(state);
  RandomState random(1);
  game.act(kNoop, random);
  const SynthAsterix::Objects& objects = game.state().objects;
  EXPECT_TRUE(objects.present[2]);
  EXPECT_GE(objects.period[2], SynthAsterix::kFastestPeriod);
  EXPECT_LE(objects.period[2], SynthAsterix::kSlowestPeriod);
  // Spawned before the objects move, so its timer already counted down once.
  EXPECT_EQ(objects.timer[2], objects.period[2] - 1);
  // rand() twice (2 words each), randint(2, 6) over a range of 4 takes one word per try.
  EXPECT_GE(random.draws(), 5U);
}

TEST(SynthAsterix, EndsAfterTwoThousandSteps) {
  SynthAsterix::State state;
  state.time = SynthAsterix::kTimeLimit - 1;
  SynthAsterix game(false);
  game.restore(state);
  RandomState random(1);
  EXPECT_TRUE(game.act(kNoop, random).terminal);
}

}  // namespace
}  // namespace weightspace
