// SPDX-License-Identifier: GPL-3.0-or-later
#include "games/original/space_invaders.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

#include "games/cells.hpp"
#include "games/environment.hpp"
#include "support/golden.hpp"
#include "trace_test.hpp"

namespace weightspace {
namespace {

using testing::golden;
using Board = SpaceInvaders::Board;

constexpr int kNoop = 0;
constexpr int kLeft = 1;
constexpr int kFire = 5;

TEST(SpaceInvaders, MatchesGoldenTraces) {
  testing::expect_trace_matches<SpaceInvaders>(golden("games/space_invaders.json"));
}

Board cells(std::initializer_list<std::pair<int, int>> yx) {
  Board board = 0;
  for (const auto& [y, x] : yx) board |= invaders_grid::cell(y, x);
  return board;
}

// Ten rows of '#' (set) and '.', for readable failure messages (gtest cannot print __int128).
std::string picture(Board board) {
  std::string text;
  for (int y = 0; y < 10; ++y) {
    for (int x = 0; x < 10; ++x) text += (board & invaders_grid::cell(y, x)) != 0 ? '#' : '.';
    text += '\n';
  }
  return text;
}

SpaceInvaders situation(const SpaceInvaders::State& state, bool ramping = false) {
  SpaceInvaders game(ramping);
  game.restore(state);
  return game;
}

// Episode-level facts the golden README records: waves cleared and the final ramp.
TEST(SpaceInvaders, RampsLikeTheGoldenEpisodes) {
  for (const auto& episode : golden("games/space_invaders.json").at("episodes")) {
    Environment<SpaceInvaders> env(episode.at("difficulty_ramping").get<bool>());
    env.seed(episode.at("env_seed").get<std::uint32_t>());
    env.reset();
    std::vector<int> cleared;
    int step_number = 0;
    for (const auto& step : episode.at("steps")) {
      ++step_number;
      const int interval_before = env.game().state().enemy_move_interval;
      const int ramp_before = env.game().state().ramp_index;
      const int aliens_before = invaders_grid::count(env.game().state().aliens);
      const StepResult result = env.act(step.at(0).get<int>());
      // Moves keep the alien count, so the wave is cleared exactly when every alien was shot.
      if (result.reward == aliens_before) cleared.push_back(step_number);
      if (env.game().state().ramp_index != ramp_before) {
        EXPECT_EQ(env.game().state().enemy_move_interval, interval_before - 1);
      }
    }
    const auto& events = episode.at("events");
    EXPECT_EQ(cleared, events.at("wave_cleared_steps").get<std::vector<int>>())
        << "episode " << episode.at("id");
    EXPECT_EQ(env.game().state().ramp_index, events.at("final_ramp_index").get<int>());
    EXPECT_EQ(env.game().state().enemy_move_interval, events.at("final_enemy_move_interval").get<int>());
  }
}

TEST(SpaceInvadersGrid, RollsWrapLikeNumpy) {
  using invaders_grid::roll_columns;
  using invaders_grid::roll_rows_down;
  // np.roll(m, 1, axis=0) moves row 9 to row 0; np.roll(m, +-1, axis=1) wraps columns 9 <-> 0.
  EXPECT_EQ(picture(roll_rows_down(cells({{9, 3}, {0, 0}, {4, 9}}))),
            picture(cells({{0, 3}, {1, 0}, {5, 9}})));
  EXPECT_EQ(picture(roll_columns(cells({{2, 9}, {9, 9}, {5, 0}}), 1)),
            picture(cells({{2, 0}, {9, 0}, {5, 1}})));
  EXPECT_EQ(picture(roll_columns(cells({{2, 0}, {9, 0}, {5, 9}}), -1)),
            picture(cells({{2, 9}, {9, 9}, {5, 8}})));
  EXPECT_EQ(invaders_grid::count(invaders_grid::kAll), 100);
  EXPECT_EQ(invaders_grid::highest(cells({{9, 9}})), 99);
  EXPECT_EQ(invaders_grid::highest(cells({{0, 1}, {6, 3}})), 63);
}

// Python: search_order = sorted(range(10), key=lambda x: abs(x - pos)), a stable sort, so for
// pos 5 the order is 5, 4, 6, 3, 7, 2, 8, 1, 9, 0; the shooter is the largest row with an alien
// in the first non-empty column.
TEST(SpaceInvaders, ShooterSearchOrder) {
  EXPECT_EQ(picture(SpaceInvaders::shooter(cells({{1, 4}, {3, 4}, {8, 6}}), 5)), picture(cells({{3, 4}})));
  EXPECT_EQ(picture(SpaceInvaders::shooter(cells({{1, 5}, {8, 6}, {9, 4}}), 5)), picture(cells({{1, 5}})));
  EXPECT_EQ(picture(SpaceInvaders::shooter(cells({{0, 0}, {2, 9}}), 9)), picture(cells({{2, 9}})));
  EXPECT_EQ(picture(SpaceInvaders::shooter(cells({{0, 9}, {2, 0}}), 0)), picture(cells({{2, 0}})));
  // Columns 2 and 8 are both 3 away from 5: the tie goes to the left one.
  EXPECT_EQ(picture(SpaceInvaders::shooter(cells({{7, 2}, {7, 8}}), 5)), picture(cells({{7, 2}})));
  EXPECT_EQ(picture(SpaceInvaders::shooter(cells({{7, 2}, {7, 8}}), 6)), picture(cells({{7, 8}})));
}

// Aliens on rows 8 and 9 at the left edge moving left: they turn, the step is terminal because
// row 9 is occupied, and np.roll(alien_map, 1, axis=0) puts the row-9 alien on row 0.
TEST(SpaceInvaders, DescendingAliensWrapFromRowNineToRowZero) {
  SpaceInvaders::State start;
  start.aliens = cells({{8, 0}, {9, 0}, {9, 1}});
  start.alien_move_timer = 0;
  start.alien_shot_timer = 4;
  SpaceInvaders game = situation(start);
  RandomState random;
  const StepResult step = game.act(kNoop, random);
  EXPECT_TRUE(step.terminal);
  EXPECT_EQ(picture(game.state().aliens), picture(cells({{9, 0}, {0, 0}, {0, 1}})));
  EXPECT_EQ(game.state().alien_direction, 1);
  // min(count_nonzero(alien_map), enemy_move_interval) = 3, then the end-of-step decrement.
  EXPECT_EQ(game.state().alien_move_timer, 2);
  EXPECT_EQ(random.draws(), 0U);
}

// The friendly bullet moves up from (4, 0) to (3, 0) while the alien descends from (3, 0) to
// (4, 0): they swap cells without ever sharing one, so nothing is killed.
TEST(SpaceInvaders, BulletAndAlienCanSwapCells) {
  SpaceInvaders::State start;
  start.aliens = cells({{3, 0}});
  start.friendly_bullets = cells({{4, 0}});
  start.alien_move_timer = 0;
  start.shot_timer = 2;
  SpaceInvaders game = situation(start);
  RandomState random;
  EXPECT_EQ(game.act(kNoop, random).reward, 0);
  EXPECT_EQ(picture(game.state().aliens), picture(cells({{4, 0}})));
  EXPECT_EQ(picture(game.state().friendly_bullets), picture(cells({{3, 0}})));
}

// Killing the last alien refills alien_map[0:4, 2:8] in the same step; with ramping the move
// interval drops by one while it is above 6. Direction and move timer are not reset.
TEST(SpaceInvaders, ClearedWaveRefillsAndRamps) {
  SpaceInvaders::State start;
  start.aliens = cells({{5, 5}});
  start.friendly_bullets = cells({{6, 5}});
  start.alien_direction = 1;
  start.alien_move_timer = 3;
  start.alien_shot_timer = 4;
  start.shot_timer = 1;
  RandomState random;
  for (const bool ramping : {false, true}) {
    SpaceInvaders game = situation(start, ramping);
    const StepResult step = game.act(kNoop, random);
    EXPECT_EQ(step.reward, 1);
    EXPECT_EQ(picture(game.state().aliens), picture(SpaceInvaders::kWave));
    EXPECT_EQ(game.state().friendly_bullets, Board{0});
    EXPECT_EQ(game.state().alien_direction, 1);
    EXPECT_EQ(game.state().alien_move_timer, 2);
    EXPECT_EQ(game.state().enemy_move_interval, ramping ? 11 : 12);
    EXPECT_EQ(game.state().ramp_index, ramping ? 1 : 0);
  }
  SpaceInvaders::State fastest = start;
  fastest.enemy_move_interval = 6;
  SpaceInvaders game = situation(fastest, true);
  game.act(kNoop, random);
  EXPECT_EQ(game.state().enemy_move_interval, 6);
  EXPECT_EQ(game.state().ramp_index, 0);
}

// 'f' with shot_timer == 0 fires from (9, pos) and the bullet moves to row 8 in the same step;
// 'f' during the cool-down is a no-op (the elif chain never reaches the moves).
TEST(SpaceInvaders, FiringAndCoolDown) {
  SpaceInvaders game = situation(SpaceInvaders::State{});
  RandomState random;
  game.act(kFire, random);
  EXPECT_EQ(picture(game.state().friendly_bullets), picture(cells({{8, 5}})));
  EXPECT_EQ(game.state().shot_timer, 4);
  game.act(kFire, random);
  EXPECT_EQ(picture(game.state().friendly_bullets), picture(cells({{7, 5}})));
  EXPECT_EQ(game.state().shot_timer, 3);
  game.act(kLeft, random);
  EXPECT_EQ(game.state().position, 4);
}

// Enemy bullets move down a row and leave the map from row 9; one reaching (9, pos) ends it.
TEST(SpaceInvaders, EnemyBulletHitsTheCannon) {
  SpaceInvaders::State start;
  start.enemy_bullets = cells({{8, 5}, {9, 2}});
  SpaceInvaders game = situation(start);
  RandomState random;
  EXPECT_TRUE(game.act(kNoop, random).terminal);
  EXPECT_EQ(picture(game.state().enemy_bullets), picture(cells({{9, 5}})));
  const std::vector<int> before = raw_state(game);
  const StepResult again = game.act(kFire, random);
  EXPECT_TRUE(again.terminal);
  EXPECT_EQ(again.reward, 0);
  EXPECT_EQ(raw_state(game), before);
}

// The alien direction selects channel 2 (left) or 3 (right) for every alien cell.
TEST(SpaceInvaders, PaintsDirectionChannels) {
  SpaceInvaders::State start;
  start.aliens = cells({{0, 0}});
  start.friendly_bullets = cells({{1, 1}});
  start.enemy_bullets = cells({{2, 2}});
  start.position = 3;
  // flat index (y*10 + x)*6 + c
  EXPECT_EQ(raw_state(situation(start)), (std::vector<int>{1, 2, 11 * 6 + 4, 22 * 6 + 5, 93 * 6}));
  start.alien_direction = 1;
  EXPECT_EQ(raw_state(situation(start)), (std::vector<int>{1, 3, 11 * 6 + 4, 22 * 6 + 5, 93 * 6}));
}

}  // namespace
}  // namespace weightspace
