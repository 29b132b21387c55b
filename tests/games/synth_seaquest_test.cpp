// SPDX-License-Identifier: GPL-3.0-or-later
#include "games/synth/seaquest.hpp"

#include <gtest/gtest.h>

#include <vector>

#include "games/cells.hpp"
#include "support/golden.hpp"
#include "trace_test.hpp"

namespace weightspace {
namespace {

using testing::golden;
using synth_seaquest::Swimmer;

constexpr int kNoop = 0;
constexpr int kUp = 2;
constexpr int kFire = 5;

TEST(SynthSeaquest, MatchesGoldenTraces) {
  testing::expect_trace_matches<SynthSeaquest>(golden("synth/seaquest.json"));
}

SynthSeaquest situation(const SynthSeaquest::State& state) {
  SynthSeaquest game(false);
  game.restore(state);
  return game;
}

Swimmer shark(int x, int y, bool right, int interval, int timer) {
  return {static_cast<std::int8_t>(x), static_cast<std::int8_t>(y), right, static_cast<std::int8_t>(interval),
          static_cast<std::int8_t>(timer)};
}

// Two sharks share (3, 4); the torpedo fired from (5, 4) facing left reaches (4, 4) and then,
// one step later, (3, 4): Python's _index_at deletes the first shark in list order, the one
// with interval 4, and the other stays.
TEST(SynthSeaquest, TorpedoSinksTheFirstSharkInTheCell) {
  SynthSeaquest::State start;
  start.sub_y = 4;
  start.at_surface = false;
  start.sharks.append(shark(3, 4, true, 4, 3));
  start.sharks.append(shark(3, 4, false, 2, 2));
  SynthSeaquest game = situation(start);
  RandomState random;
  EXPECT_EQ(game.act(kFire, random).reward, 0);
  const StepResult second = game.act(kNoop, random);
  EXPECT_EQ(second.reward, 1);
  ASSERT_EQ(game.state().sharks.size(), 1);
  EXPECT_EQ(game.state().sharks[0].move_interval, 2);
  EXPECT_EQ(game.state().torpedoes.size(), 0);
  EXPECT_EQ(random.draws(), 0U);
}

// A shark and the sub's front cannot swap cells: the check before the shark moves catches it.
TEST(SynthSeaquest, SubAndSharkCannotPassEachOther) {
  SynthSeaquest::State start;
  start.sub_x = 4;
  start.sub_y = 3;
  start.sub_right = true;
  start.at_surface = false;
  start.sharks.append(shark(5, 3, false, 2, 0));
  SynthSeaquest game = situation(start);
  RandomState random;
  EXPECT_TRUE(game.act(3, random).terminal);  // the sub moves right onto (5, 3), the shark left
}

// Surfacing with divers pays one point each, refills the air and shortens the spawn interval;
// the gauge row then shows a full oxygen bar and no divers.
TEST(SynthSeaquest, SurfacingDeliversEveryDiver) {
  SynthSeaquest::State start;
  start.sub_y = 1;
  start.at_surface = false;
  start.divers_carried = 3;
  start.oxygen = 20;
  SynthSeaquest game = situation(start);
  RandomState random;
  const StepResult step = game.act(kUp, random);
  EXPECT_EQ(step.reward, 3);
  EXPECT_FALSE(step.terminal);
  EXPECT_EQ(game.state().oxygen, synth_seaquest::kMaxOxygen);
  EXPECT_EQ(game.state().divers_carried, 0);
  EXPECT_EQ(game.state().spawn_interval, synth_seaquest::kFirstSpawnInterval - 1);
  // oxygen 120 * 10 // 120 = 10 gauge cells: (9, 0..9) in channel 5; the sub at (0, 5) and (0, 6).
  std::vector<int> expected = {(0 * 10 + 5) * 6 + 0, (0 * 10 + 6) * 6 + 0, (0 * 10 + 6) * 6 + 4};
  for (int x = 0; x < 10; ++x) expected.push_back((9 * 10 + x) * 6 + 5);
  EXPECT_EQ(raw_state(game), expected);
}

// With no divers the surface ends the game, and an ended game draws nothing more.
TEST(SynthSeaquest, SurfacingWithoutDiversEndsTheGame) {
  SynthSeaquest::State start;
  start.sub_y = 1;
  start.at_surface = false;
  start.spawn_timer = 0;
  SynthSeaquest game = situation(start);
  RandomState random;
  EXPECT_TRUE(game.act(kUp, random).terminal);
  EXPECT_EQ(game.state().sharks.size(), 1);
  // The spawn earlier in the step drew rand(), randint(1, 9), randint(2, 5), in that order.
  RandomState reference;
  const bool right = reference.random_sample() < 0.5;
  const auto row = reference.randint(1, 9);
  const auto interval = reference.randint(2, 5);
  EXPECT_EQ(random.draws(), reference.draws());
  const Swimmer spawned = game.state().sharks[0];
  EXPECT_EQ(spawned.right, right);
  EXPECT_EQ(spawned.x, right ? 0 : 9);
  EXPECT_EQ(spawned.y, row);
  EXPECT_EQ(spawned.move_interval, interval);
  EXPECT_EQ(spawned.move_timer, interval - 1);
  EXPECT_EQ(game.act(kNoop, random).terminal, true);
  EXPECT_EQ(random.draws(), reference.draws());
}

}  // namespace
}  // namespace weightspace
