// SPDX-License-Identifier: GPL-3.0-or-later
// Games that write their observation directly (WritesObservation) against the painted
// observation, over long random rollouts and hand-built corner states.
#include <gtest/gtest.h>

#include <array>
#include <random>
#include <vector>

#include "games/cells.hpp"
#include "games/environment.hpp"
#include "games/input_filter.hpp"
#include "games/registry.hpp"
#include "listed_inputs.hpp"

namespace weightspace {
namespace {

using testing::listed;

// The masks a filtered writer is checked with: the channels an example reads (player or
// chicken and objects or cars), and random sets of a tenth and of half the inputs.
const std::array<InputMask, 3>& filter_masks() {
  static const std::array<InputMask, 3> masks = [] {
    std::array<InputMask, 3> made;
    std::mt19937 generator(36);
    for (int input = 0; input < kInputs; ++input) {
      if (input % kObservationChannels <= 1) made[0].set(input);
      if (std::bernoulli_distribution(0.1)(generator)) made[1].set(input);
      if (std::bernoulli_distribution(0.5)(generator)) made[2].set(input);
    }
    return made;
  }();
  return masks;
}

template <WritesObservation G>
void expect_writer_matches_painting(const G& game, const char* where) {
  ActiveInputs written, painted;
  game.write_observation(written);
  observe_painted(game, painted);
  ASSERT_EQ(listed(written), listed(painted)) << where;
  if constexpr (requires { game.write_observation_portable(written); }) {  // the other way, on this CPU too
    game.write_observation_portable(written);
    ASSERT_EQ(listed(written), listed(painted)) << where << " (portable)";
  }
  // With a filter: the painted observation's inputs under the mask, every way.
  for (const InputMask& mask : filter_masks()) {
    const InputFilter filter(mask);
    observe_painted(game, painted, mask);
    game.write_observation(written, filter);
    ASSERT_EQ(listed(written), listed(painted)) << where << " (filtered)";
    if constexpr (requires { game.write_observation_portable(written, &filter); }) {
      game.write_observation_portable(written, &filter);
      ASSERT_EQ(listed(written), listed(painted)) << where << " (filtered, portable)";
    }
  }
}

template <WritesObservation G>
void play_random_rollouts(int episodes) {
  RandomState actions(424242);
  Environment<G> env;
  for (int episode = 0; episode < episodes; ++episode) {
    env.start_episode(static_cast<std::uint32_t>(1729 + episode));
    expect_writer_matches_painting(env.game(), "start");
    for (int step = 0; step < 3000; ++step) {
      // Mostly "up" so that the chicken visits every row, sometimes anything.
      const int action = actions.random_sample() < 0.7 ? 2 : static_cast<int>(actions.randint(6));
      if (env.act(action).terminal) break;
      expect_writer_matches_painting(env.game(), "step");
    }
  }
}

TEST(ObservationWriter, FreewayMatchesPaintingOnRandomRollouts) { play_random_rollouts<Freeway>(40); }

TEST(ObservationWriter, AsterixMatchesPaintingOnRandomRollouts) { play_random_rollouts<Asterix>(300); }

TEST(ObservationWriter, SynthAsterixMatchesPaintingOnRandomRollouts) { play_random_rollouts<SynthAsterix>(60); }

// Every column and direction of an object in every row, with and without gold, beside the
// player, and every number of lives.
TEST(ObservationWriter, SynthAsterixCornerStates) {
  SynthAsterix game(false);
  SynthAsterix::State state;
  for (int player_y = 1; player_y <= 8; ++player_y) {
    for (int x = 0; x < 10; ++x) {
      for (int kind = 0; kind < 4; ++kind) {
        state.player_y = static_cast<std::int8_t>(player_y);
        state.player_x = static_cast<std::int8_t>((x + kind) % 10);
        state.lives = static_cast<std::int8_t>(kind);
        SynthAsterix::Objects& objects = state.objects;
        for (int slot = 0; slot < SynthAsterix::kSlots; ++slot) {
          objects.present[slot] = (slot + kind) % 3 != 0;
          objects.x[slot] = static_cast<std::int8_t>(objects.present[slot] ? (x + slot) % 10 : -100 + slot);
          objects.dx[slot] = static_cast<std::int8_t>((slot + kind) % 2 == 0 ? 1 : -1);
          objects.gold[slot] = (kind + slot) % 4 >= 2;
        }
        game.restore(state);
        expect_writer_matches_painting(game, "corner");
      }
    }
  }
}

TEST(ObservationWriter, SynthFreewayMatchesPaintingOnRandomRollouts) { play_random_rollouts<SynthFreeway>(20); }

// The chicken in every row (row 0 too, which act() never shows), every column of every lane's
// first car, and every length of the time gauge.
TEST(ObservationWriter, SynthFreewayCornerStates) {
  SynthFreeway game(false);
  SynthFreeway::State state;
  for (int position = 0; position < 10; ++position) {
    for (int column = 0; column < 10; ++column) {
      for (const int time : {0, 1, 199, 200, 201, 1000, 1799, 1800, 1801, 1999, 2000}) {
        state.position = static_cast<std::int8_t>(position);
        for (int lane = 0; lane < SynthFreeway::kLanes; ++lane) {
          state.columns[static_cast<std::size_t>(lane)] = static_cast<std::int8_t>((column + 3 * lane) % 10);
        }
        state.time = static_cast<std::int16_t>(time);
        game.restore(state);
        expect_writer_matches_painting(game, "corner");
      }
    }
  }
}

TEST(ObservationWriter, AsterixCornerStates) {
  Environment<Asterix> env;
  env.start_episode(1729);
  Asterix::State state = env.game().state();
  Asterix game(false);
  for (int player_y = 0; player_y < 10; ++player_y) {
    for (int x = 0; x < 10; ++x) {
      for (int kind = 0; kind < 4; ++kind) {
        state.player_y = static_cast<std::int8_t>(player_y);
        state.player_x = static_cast<std::int8_t>((x + kind) % 10);
        for (int slot = 0; slot < Asterix::kSlots; ++slot) {
          Asterix::Entity& entity = state.entities[static_cast<std::size_t>(slot)];
          entity.present = (slot + kind) % 3 != 0;
          entity.x = static_cast<std::int8_t>((x + slot) % 10);
          entity.moving_right = (slot + kind) % 2 == 0;
          entity.gold = kind >= 2;
        }
        game.restore(state);
        expect_writer_matches_painting(game, "corner");
      }
    }
  }
}

TEST(ObservationWriter, FreewayCornerStates) {
  Environment<Freeway> env;
  env.start_episode(1729);
  Freeway::State state = env.game().state();
  Freeway game(false);
  for (int position = 0; position < 10; ++position) {
    for (int x = 0; x < 10; ++x) {
      for (const int velocity : {-5, -1, 1, 3}) {
        state.position = static_cast<std::int8_t>(position);
        state.cars.x[static_cast<std::size_t>(position % Freeway::kCars)] = static_cast<std::int8_t>(x);
        state.cars.velocity[static_cast<std::size_t>(position % Freeway::kCars)] = static_cast<std::int8_t>(velocity);
        game.restore(state);
        expect_writer_matches_painting(game, "corner");
      }
    }
  }
  // A car of speed 0 after car 0 reuses the previous trail channel; car 0 of speed 0 makes
  // MinAtar's state() raise, and both ways of observing throw.
  state.cars.velocity[3] = 0;
  game.restore(state);
  expect_writer_matches_painting(game, "speed 0");
  state.cars.velocity[0] = 0;
  game.restore(state);
  ActiveInputs out;
  EXPECT_THROW(game.write_observation(out), GameError);
  EXPECT_THROW(observe_painted(game, out), GameError);
  EXPECT_THROW(check_observation(game), GameError);  // what the engine runs for a constant policy
  state.cars.velocity[0] = 5;
  game.restore(state);
  EXPECT_NO_THROW(check_observation(game));
}

}  // namespace
}  // namespace weightspace
