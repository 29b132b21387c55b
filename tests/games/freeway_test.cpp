// SPDX-License-Identifier: GPL-3.0-or-later
#include "games/original/freeway.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <stdexcept>
#include <vector>

#include "games/cells.hpp"
#include "trace_test.hpp"

namespace weightspace {
namespace {

static_assert(Game<Freeway>);

TEST(Freeway, MatchesGoldenTrace) {
  testing::expect_trace_matches<Freeway>(testing::golden("games/freeway.json"));
}

// Eight cars all parked far from the chicken's column with long timers: a step changes
// nothing but the timers unless a test arranges otherwise.
void set_car(Freeway::State& state, int index, int x, int timer, int velocity) {
  state.cars.x[index] = static_cast<std::int8_t>(x);
  state.cars.timer[index] = static_cast<std::int8_t>(timer);
  state.cars.velocity[index] = static_cast<std::int8_t>(velocity);
}

Freeway::State quiet_state() {
  Freeway::State state;
  for (int i = 0; i < Freeway::kCars; ++i) set_car(state, i, 0, 5, 5);
  state.move_timer = 0;
  return state;
}

int flat(int y, int x, int c) { return (y * 10 + x) * Freeway::channels + c; }

// _randomize_cars draws randint(1, 6, 8) first, then rand(8); speed i pairs with
// direction i, and reset puts every car in column 0 with timer = speed.
TEST(Freeway, ResetDrawsSpeedsThenDirections) {
  for (std::uint32_t seed = 0; seed < 16; ++seed) {
    RandomState random(seed);
    RandomState oracle(seed);
    std::array<std::int64_t, 8> speeds{};
    std::array<double, 8> uniforms{};
    oracle.randint(1, 6, speeds);
    oracle.rand(uniforms);
    Freeway game(false);
    game.reset(random);
    EXPECT_EQ(random.draws(), oracle.draws());
    for (int i = 0; i < 8; ++i) {
      const Freeway::Cars& cars = game.state().cars;
      EXPECT_EQ(cars.x[i], 0);
      EXPECT_EQ(cars.timer[i], speeds[i]);
      EXPECT_EQ(cars.velocity[i], uniforms[i] > 0.5 ? speeds[i] : -speeds[i]);
    }
    EXPECT_EQ(game.state().position, 9);
    EXPECT_EQ(game.state().move_timer, Freeway::kPlayerSpeed);
  }
}

// Reaching row 0 scores, re-randomises speeds and timers (not positions) in that step, sends
// the chicken to row 9, and the cars then update with their new timers.
TEST(Freeway, CrossingRerandomisesBeforeCarsMove) {
  for (std::uint32_t seed = 0; seed < 8; ++seed) {
    Freeway game(false);
    Freeway::State state = quiet_state();
    state.position = 1;
    for (int i = 0; i < 8; ++i) state.cars.x[i] = static_cast<std::int8_t>(i);
    game.restore(state);
    RandomState random(seed);
    RandomState oracle(seed);
    std::array<std::int64_t, 8> speeds{};
    std::array<double, 8> uniforms{};
    oracle.randint(1, 6, speeds);
    oracle.rand(uniforms);
    const StepResult result = game.act(2, random);
    EXPECT_EQ(result.reward, 1);
    EXPECT_EQ(random.draws(), oracle.draws());
    EXPECT_EQ(game.state().position, 9);
    for (int i = 0; i < 8; ++i) {
      const Freeway::Cars& cars = game.state().cars;
      EXPECT_EQ(cars.x[i], i);  // the new timer is >= 1, so no car moves this step
      EXPECT_EQ(cars.timer[i], speeds[i] - 1);
      EXPECT_EQ(cars.velocity[i], uniforms[i] > 0.5 ? speeds[i] : -speeds[i]);
    }
  }
}

// A car already in the chicken's cell, or driving into it, sends the chicken back to row 9.
TEST(Freeway, CollisionsSendTheChickenBack) {
  RandomState random(1);
  Freeway game(false);
  Freeway::State state = quiet_state();
  state.position = 4;
  set_car(state, 3, 4, 0, 3);  // row 4, column 4, drives away to column 5 this step
  game.restore(state);
  game.act(0, random);
  EXPECT_EQ(game.state().position, 9);
  EXPECT_EQ(game.state().cars.x[3], 5);

  state = quiet_state();
  state.position = 6;
  set_car(state, 5, 5, 0, -2);  // row 6, moves left from 5 onto column 4
  game.restore(state);
  game.act(0, random);
  EXPECT_EQ(game.state().position, 9);
  EXPECT_EQ(game.state().cars.x[5], 4);
  EXPECT_EQ(game.state().cars.timer[5], 2);

  // Moving up into a row where a car sits in column 4 also counts (checked after the move).
  state = quiet_state();
  state.position = 3;
  set_car(state, 1, 4, 3, 1);
  game.restore(state);
  game.act(2, random);
  EXPECT_EQ(game.state().position, 9);
  EXPECT_EQ(random.draws(), 0U);
}

// Cars wrap 9 -> 0 and 0 -> 9.
TEST(Freeway, CarsWrap) {
  RandomState random(1);
  Freeway game(false);
  Freeway::State state = quiet_state();
  set_car(state, 0, 9, 0, 1);
  set_car(state, 1, 0, 0, -4);
  game.restore(state);
  game.act(0, random);
  EXPECT_EQ(game.state().cars.x[0], 0);
  EXPECT_EQ(game.state().cars.timer[0], 1);
  EXPECT_EQ(game.state().cars.x[1], 9);
  EXPECT_EQ(game.state().cars.timer[1], 4);
}

// The move timer is rearmed by 'u'/'d' even when the clamp keeps the chicken in row 9, and is
// decremented in the same step; three steps later the chicken may move again.
TEST(Freeway, MoveTimer) {
  RandomState random(1);
  Freeway game(false);
  game.restore(quiet_state());
  game.act(4, random);
  EXPECT_EQ(game.state().position, 9);
  EXPECT_EQ(game.state().move_timer, 2);
  game.act(2, random);
  game.act(2, random);
  EXPECT_EQ(game.state().position, 9);
  EXPECT_EQ(game.state().move_timer, 0);
  game.act(2, random);
  EXPECT_EQ(game.state().position, 8);
  EXPECT_EQ(game.state().move_timer, 2);
}

// terminate_timer starts at 2500 and the game ends when it drops below 0: at act 2501.
// Afterwards act returns (0, True) and changes nothing.
TEST(Freeway, TimeLimit) {
  RandomState random(1);
  Freeway game(false);
  Freeway::State state = quiet_state();
  state.terminate_timer = 1;
  game.restore(state);
  EXPECT_FALSE(game.act(0, random).terminal);
  EXPECT_TRUE(game.act(0, random).terminal);
  const Freeway::State before = game.state();
  const StepResult after = game.act(2, random);
  EXPECT_TRUE(after.terminal);
  EXPECT_EQ(after.reward, 0);
  EXPECT_EQ(game.state().cars.timer[0], before.cars.timer[0]);
  EXPECT_EQ(game.state().move_timer, before.move_timer);
}

// state(): the trail sits behind the car and wraps around the grid; its channel is 1 + speed.
TEST(Freeway, TrailWrapsAndEncodesSpeed) {
  Freeway game(false);
  Freeway::State state = quiet_state();
  for (int i = 0; i < 8; ++i) set_car(state, i, 5, 0, 1);
  set_car(state, 0, 0, 0, 2);   // moving right: trail at column -1 -> 9
  set_car(state, 1, 9, 0, -5);  // moving left: trail at column 10 -> 0
  game.restore(state);
  const std::vector<int> cells = raw_state(game);
  auto has = [&cells](int index) { return std::find(cells.begin(), cells.end(), index) != cells.end(); };
  EXPECT_TRUE(has(flat(1, 9, 3)));
  EXPECT_TRUE(has(flat(2, 0, 6)));
  EXPECT_TRUE(has(flat(3, 4, 2)));
  EXPECT_TRUE(has(flat(9, 4, 0)));
  EXPECT_EQ(cells.size(), 1U + 8U * 2U);
}

// np.sign(0.5 - 0.5) == 0 gives a speed-0 car. It moves left every frame (`car[3] > 0` is
// false, timer abs(0) == 0), and state() reuses the previous car's trail channel; for car 0
// Python raises UnboundLocalError.
TEST(Freeway, SpeedZeroCar) {
  RandomState random(1);
  Freeway game(false);
  Freeway::State state = quiet_state();
  set_car(state, 0, 2, 0, 3);
  set_car(state, 1, 2, 0, 0);
  game.restore(state);
  game.act(0, random);
  game.act(0, random);
  EXPECT_EQ(game.state().cars.x[1], 0);
  EXPECT_EQ(game.state().cars.timer[1], 0);
  const std::vector<int> cells = raw_state(game);
  // Car 1 at column 0, trail behind it at column 1 in car 0's channel speed3 (= 4).
  EXPECT_NE(std::find(cells.begin(), cells.end(), flat(2, 1, 4)), cells.end());

  state = quiet_state();
  set_car(state, 0, 2, 0, 0);
  game.restore(state);
  EXPECT_THROW(raw_state(game), GameError);
}

}  // namespace
}  // namespace weightspace
