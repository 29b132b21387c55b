// SPDX-License-Identifier: GPL-3.0-or-later
#include "games/synth/space_invaders.hpp"

#include <gtest/gtest.h>

#include <initializer_list>
#include <string>
#include <utility>

#include "support/golden.hpp"
#include "trace_test.hpp"

namespace weightspace {
namespace {

using testing::golden;
using Board = SynthSpaceInvaders::Board;

constexpr int kNoop = 0;

TEST(SynthSpaceInvaders, MatchesGoldenTraces) {
  testing::expect_trace_matches<SynthSpaceInvaders>(golden("synth/space_invaders.json"));
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

SynthSpaceInvaders situation(const SynthSpaceInvaders::State& state) {
  SynthSpaceInvaders game(false);
  game.restore(state);
  return game;
}

// Python: aliens[y, x] = (y + x) % 2 == parity for y in top..top+3, x in 2..7.
TEST(SynthSpaceInvaders, WavesAreCheckerboards) {
  EXPECT_EQ(picture(synth_invaders::wave_board(0, 0)),
            picture(cells({{0, 2}, {0, 4}, {0, 6}, {1, 3}, {1, 5}, {1, 7},
                           {2, 2}, {2, 4}, {2, 6}, {3, 3}, {3, 5}, {3, 7}})));
  // One row lower, the parity of every cell flips.
  EXPECT_EQ(picture(synth_invaders::wave_board(1, 1)),
            picture(synth_invaders::wave_board(0, 0) << 10));
  EXPECT_EQ(invaders_grid::count(synth_invaders::wave_board(1, 0)), 12);
}

// Hits are checked after the bullets move and again after the aliens move, so a bullet meets
// an alien dropping from the left edge whether it rises into the alien's old cell (the
// original lets these two swap cells unharmed) or into its new one.
TEST(SynthSpaceInvaders, BulletAndDroppingAlienCollide) {
  for (const int bullet_row : {4, 5}) {
    SynthSpaceInvaders::State start;
    start.aliens = cells({{3, 0}, {0, 5}});
    start.friendly_bullets = cells({{bullet_row, 0}});
    start.move_timer = 0;
    start.shot_timer = 2;
    SynthSpaceInvaders game = situation(start);
    RandomState random;
    EXPECT_EQ(game.act(kNoop, random).reward, 1) << "bullet row " << bullet_row;
    // After the early hit the rest of the formation is off the edge and steps left instead.
    const Board rest = bullet_row == 4 ? cells({{0, 4}}) : cells({{1, 5}});
    EXPECT_EQ(picture(game.state().aliens), picture(rest)) << "bullet row " << bullet_row;
    EXPECT_EQ(game.state().friendly_bullets, Board{0});
    // The formation keeps its pace whatever its size: the timer restarts at the wave's interval.
    EXPECT_EQ(game.state().move_timer, SynthSpaceInvaders::kFirstMoveInterval - 1);
  }
}

// The shooter column is columns[randint(len(columns))]: randint(1) draws no word, randint(2) one.
TEST(SynthSpaceInvaders, ShooterDrawsOnlyWithAChoice) {
  SynthSpaceInvaders::State start;
  start.aliens = cells({{1, 4}, {3, 4}});
  start.alien_shot_timer = 0;
  SynthSpaceInvaders one_column = situation(start);
  RandomState random;
  one_column.act(kNoop, random);
  EXPECT_EQ(random.draws(), 0U);
  EXPECT_EQ(picture(one_column.state().enemy_bullets), picture(cells({{3, 4}})));

  start.aliens = cells({{1, 4}, {3, 4}, {2, 8}});
  SynthSpaceInvaders two_columns = situation(start);
  two_columns.act(kNoop, random);
  EXPECT_EQ(random.draws(), 1U);
  const Board bullet = two_columns.state().enemy_bullets;
  EXPECT_TRUE(bullet == cells({{3, 4}}) || bullet == cells({{2, 8}})) << picture(bullet);
}

// An alien reaching the bottom row ends the game even away from the cannon.
TEST(SynthSpaceInvaders, InvasionEndsTheGame) {
  SynthSpaceInvaders::State start;
  start.aliens = cells({{8, 9}});
  start.direction = 1;
  start.move_timer = 0;
  SynthSpaceInvaders game = situation(start);
  RandomState random;
  EXPECT_TRUE(game.act(kNoop, random).terminal);
  EXPECT_EQ(picture(game.state().aliens), picture(cells({{9, 9}})));
  EXPECT_EQ(game.state().position, 5);
  const std::uint64_t draws = random.draws();
  EXPECT_TRUE(game.act(kNoop, random).terminal);
  EXPECT_EQ(random.draws(), draws);
}

}  // namespace
}  // namespace weightspace
