// SPDX-License-Identifier: GPL-3.0-or-later
#include "games/original/asterix.hpp"

#include <gtest/gtest.h>

#include <vector>

#include "games/cells.hpp"
#include "trace_test.hpp"

namespace weightspace {
namespace {

static_assert(Game<Asterix>);

TEST(Asterix, MatchesGoldenTrace) {
  testing::expect_trace_matches<Asterix>(testing::golden("games/asterix.json"));
}

// The reset state, with timers set so that the next step neither spawns nor moves entities.
// The player stands at (row 5, column 5).
Asterix::State quiet_state() {
  Asterix::State state;
  state.spawn_timer = 3;  // no spawn in the next step
  state.move_timer = 3;   // no movement in the next step
  return state;
}

Asterix::Entity entity(int x, bool moving_right, bool gold) {
  return Asterix::Entity{static_cast<std::int8_t>(x), true, moving_right, gold};
}

// _spawn_entity with no free slot: both rand() calls happen, then `if not slot_options:
// return`. Two random_sample() draws are four words; no entity changes.
TEST(Asterix, SpawnWithNoFreeSlotStillDrawsTwice) {
  Asterix game(false);
  Asterix::State state = quiet_state();
  state.spawn_timer = 0;
  for (int slot = 0; slot < Asterix::kSlots; ++slot) state.entities[slot] = entity(slot == 4 ? 0 : 9, false, false);
  game.restore(state);
  RandomState random(7);
  const StepResult result = game.act(0, random);
  EXPECT_EQ(random.draws(), 4U);
  EXPECT_FALSE(result.terminal);
  for (int slot = 0; slot < Asterix::kSlots; ++slot) {
    EXPECT_TRUE(game.state().entities[slot].present);
    EXPECT_EQ(game.state().entities[slot].x, slot == 4 ? 0 : 9);
  }
  EXPECT_EQ(game.state().spawn_timer, Asterix::kInitialSpawnSpeed - 1);
}

// One free slot: randint(1) draws nothing, so the spawn costs exactly the two rand() calls,
// whose values decide side (< 1/2: left edge, moving right) and gold (< 1/3).
TEST(Asterix, SpawnWithOneFreeSlotDrawsNoIndex) {
  for (std::uint32_t seed = 0; seed < 16; ++seed) {
    Asterix game(false);
    Asterix::State state = quiet_state();
    state.spawn_timer = 0;
    for (int slot = 0; slot < Asterix::kSlots; ++slot) state.entities[slot] = entity(9, false, false);
    state.entities[2].present = false;
    game.restore(state);
    RandomState random(seed);
    RandomState oracle(seed);
    const bool moving_right = oracle.random_sample() < 0.5;
    const bool gold = oracle.random_sample() < 1.0 / 3.0;
    game.act(0, random);
    EXPECT_EQ(random.draws(), 4U);
    const Asterix::Entity& spawned = game.state().entities[2];
    EXPECT_TRUE(spawned.present);
    EXPECT_EQ(spawned.moving_right, moving_right);
    EXPECT_EQ(spawned.gold, gold);
    EXPECT_EQ(spawned.x, moving_right ? 0 : 9);
  }
}

// Two free slots: randint(2) takes one more word and indexes the ascending free-slot list.
TEST(Asterix, SpawnPicksAmongFreeSlotsInAscendingOrder) {
  for (std::uint32_t seed = 0; seed < 16; ++seed) {
    Asterix game(false);
    Asterix::State state = quiet_state();
    state.spawn_timer = 0;
    for (int slot = 0; slot < Asterix::kSlots; ++slot) state.entities[slot] = entity(9, false, false);
    state.entities[1].present = false;
    state.entities[6].present = false;
    game.restore(state);
    RandomState random(seed);
    RandomState oracle(seed);
    oracle.random_sample();
    oracle.random_sample();
    const int chosen = oracle.randint(2) == 0 ? 1 : 6;
    game.act(0, random);
    EXPECT_EQ(random.draws(), 5U);
    EXPECT_TRUE(game.state().entities[chosen].present);
    EXPECT_FALSE(game.state().entities[chosen == 1 ? 6 : 1].present);
  }
}

// The player moves first, then touches; gold gives +1 and vanishes, an enemy ends the game
// without being removed (and the rest of the step still runs: the timers tick).
TEST(Asterix, TouchAfterPlayerMove) {
  Asterix game(false);
  Asterix::State state = quiet_state();
  state.entities[4] = entity(4, true, true);  // row 5, column 4: left of the player
  game.restore(state);
  RandomState random(1);
  StepResult result = game.act(1, random);  // 'l' onto the gold
  EXPECT_EQ(result.reward, 1);
  EXPECT_FALSE(result.terminal);
  EXPECT_FALSE(game.state().entities[4].present);

  state = quiet_state();
  state.entities[3] = entity(5, false, false);  // row 4, above the player
  game.restore(state);
  result = game.act(2, random);  // 'u' onto the enemy
  EXPECT_EQ(result.reward, 0);
  EXPECT_TRUE(result.terminal);
  EXPECT_TRUE(game.state().entities[3].present);
  EXPECT_EQ(game.state().spawn_timer, 2);
  EXPECT_EQ(random.draws(), 0U);

  // Already terminal: Python returns (0, True) before anything else, nothing changes.
  const Asterix::State before = game.state();
  result = game.act(4, random);
  EXPECT_TRUE(result.terminal);
  EXPECT_EQ(result.reward, 0);
  EXPECT_EQ(game.state().spawn_timer, before.spawn_timer);
  EXPECT_EQ(game.state().player_y, before.player_y);
}

// On a move frame an entity stepping onto the player is resolved in the move loop, and one
// stepping off the grid is removed.
TEST(Asterix, MoveFrameCollisionsAndExits) {
  Asterix game(false);
  Asterix::State state = quiet_state();
  state.move_timer = 0;
  state.entities[4] = entity(6, false, true);  // gold moving left onto (5, 5)
  state.entities[0] = entity(9, true, false);  // leaves at column 10
  state.entities[7] = entity(0, false, true);  // leaves at column -1
  state.entities[6] = entity(3, true, false);
  game.restore(state);
  RandomState random(1);
  const StepResult result = game.act(0, random);
  EXPECT_EQ(result.reward, 1);
  EXPECT_FALSE(game.state().entities[4].present);
  EXPECT_FALSE(game.state().entities[0].present);
  EXPECT_FALSE(game.state().entities[7].present);
  EXPECT_EQ(game.state().entities[6].x, 4);
  EXPECT_EQ(game.state().move_timer, Asterix::kInitialMoveSpeed - 1);
}

// The player is clamped to columns 0..9 and rows 1..8; 'f' (5) and 'n' (0) do nothing.
TEST(Asterix, PlayerBounds) {
  Asterix game(false);
  Asterix::State state = quiet_state();
  state.player_x = 0;
  state.player_y = 1;
  game.restore(state);
  RandomState random(1);
  game.act(1, random);
  game.act(2, random);
  game.act(5, random);
  EXPECT_EQ(game.state().player_x, 0);
  EXPECT_EQ(game.state().player_y, 1);
  state = quiet_state();
  state.player_x = 9;
  state.player_y = 8;
  game.restore(state);
  game.act(3, random);
  game.act(4, random);
  EXPECT_EQ(game.state().player_x, 9);
  EXPECT_EQ(game.state().player_y, 8);
}

// Ramp: ramp_timer counts down to -1; the next step lowers spawn_speed, and move_speed only
// when ramp_index is odd; nothing happens once both speeds are 1, or without ramping.
TEST(Asterix, DifficultyRamp) {
  RandomState random(1);
  Asterix game(true);
  Asterix::State state = quiet_state();
  state.ramp_timer = -1;
  game.restore(state);
  game.act(0, random);
  EXPECT_EQ(game.state().spawn_speed, 9);
  EXPECT_EQ(game.state().move_speed, 5);
  EXPECT_EQ(game.state().ramp_index, 1);
  EXPECT_EQ(game.state().ramp_timer, Asterix::kRampInterval);

  state = game.state();
  state.ramp_timer = -1;
  game.restore(state);
  game.act(0, random);
  EXPECT_EQ(game.state().spawn_speed, 8);
  EXPECT_EQ(game.state().move_speed, 4);
  EXPECT_EQ(game.state().ramp_index, 2);

  game.act(0, random);
  EXPECT_EQ(game.state().ramp_timer, Asterix::kRampInterval - 1);

  state = quiet_state();
  state.spawn_speed = 1;
  state.move_speed = 1;
  state.ramp_timer = 7;
  game.restore(state);
  game.act(0, random);
  EXPECT_EQ(game.state().ramp_timer, 7);

  Asterix flat(false);
  state = quiet_state();
  state.ramp_timer = -1;
  flat.restore(state);
  flat.act(0, random);
  EXPECT_EQ(flat.state().ramp_timer, -1);
  EXPECT_EQ(flat.state().spawn_speed, Asterix::kInitialSpawnSpeed);
}

// state(): the trail is one cell behind; off the grid it is dropped, not wrapped to -1/9.
TEST(Asterix, TrailIsDroppedAtTheEdge) {
  Asterix game(false);
  Asterix::State state = quiet_state();
  state.entities[0] = entity(0, true, false);   // row 1, trail would be column -1
  state.entities[1] = entity(9, false, true);   // row 2, trail would be column 10
  state.entities[2] = entity(4, false, false);  // row 3, trail at column 5
  game.restore(state);
  auto flat = [](int y, int x, int c) { return (y * 10 + x) * Asterix::channels + c; };
  const std::vector<int> expected = {flat(1, 0, 1), flat(2, 9, 3), flat(3, 4, 1), flat(3, 5, 2), flat(5, 5, 0)};
  EXPECT_EQ(raw_state(game), expected);
}

}  // namespace
}  // namespace weightspace
