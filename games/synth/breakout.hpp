// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <string_view>

#include "games/game.hpp"
#include "games/random_state.hpp"

namespace weightspace {

// The bundled synth breakout (tools/minatar_synth/games/breakout.py), step for step and draw
// for draw. A variant of MinAtar's breakout that a paddle-follows-ball policy still plays well:
// the wall is rows 2-4 with random holes (each brick present with probability 3/4), every
// brick hit breaks and reflects the ball, the ball is launched upward from a random column of
// row 5, a caught ball leaves towards the side the paddle is pushed to, and there are three
// balls (a gauge) and a 2000-step limit. Observation: the canonical layout, channel for channel.
// score_cap 170: a scripted player that reads the full state, follows the ball's landing column
// and steers each catch towards the bricks breaks about 170 bricks in 2000 steps (up to 192).
class SynthBreakout {
 public:
  static constexpr std::string_view name = "breakout";
  static constexpr int channels = 6;  // paddle, hazard (unused), brick, ball, trail, lives
  static constexpr std::array<std::uint8_t, channels> observation_masks{1, 2, 4, 8, 16, 32};
  static constexpr bool observation_never_raises = true;
  static constexpr double score_cap = 170.0;
  static constexpr std::string_view description =
      "paddle and ball against a holed wall; steering paddle, three balls, 2000 steps";

  static constexpr int kSize = 10;
  static constexpr int kFirstWallRow = 2;
  static constexpr int kWallRows = 3;
  static constexpr double kBrickProbability = 0.75;
  static constexpr int kLaunchRow = 5;
  static constexpr int kLives = 3;
  static constexpr int kTimeLimit = 2000;

  // Python's attributes one for one; the wall is one bit per brick, bit (y - 2) * 10 + x.
  struct State {
    std::uint32_t bricks = 0;
    std::int8_t ball_x = 0;
    std::int8_t ball_y = kLaunchRow;
    std::int8_t dx = 1;
    std::int8_t dy = -1;
    std::int8_t trail_x = 0;
    std::int8_t trail_y = kLaunchRow;
    std::int8_t paddle = 4;
    std::int8_t lives = kLives;
    std::int16_t time = 0;
    bool terminal = false;
  };

  explicit SynthBreakout(bool /*ramping: no difficulty ramp*/) {}

  void reset(RandomState& random) {
    state_ = State{};
    build_wall(random);
    launch(random);
  }

  StepResult act(int action, RandomState& random) {
    State& s = state_;
    StepResult result{0, s.terminal};
    if (s.terminal) return result;

    const int push = action_dx(action);
    s.paddle = static_cast<std::int8_t>(clamp_column(s.paddle + push));

    bool missed = false;
    s.trail_x = s.ball_x;
    s.trail_y = s.ball_y;
    int x = s.ball_x + s.dx;
    int y = s.ball_y + s.dy;
    if (x < 0 || x > 9) {
      s.dx = static_cast<std::int8_t>(-s.dx);
      x = s.ball_x;
    }
    // Python's if / elif chain: the ceiling, then a brick, then the paddle row.
    if (y < 0) {
      s.dy = 1;
      y = s.ball_y;
    } else if (has_brick(y, x)) {
      s.bricks &= ~brick_bit(y, x);
      result.reward = 1;
      s.dy = static_cast<std::int8_t>(-s.dy);
      y = s.ball_y;
    } else if (y == 9) {
      if (s.paddle == s.ball_x || s.paddle == x) {
        s.dy = -1;
        y = s.ball_y;
        if (push != 0) s.dx = static_cast<std::int8_t>(push);
        if (s.bricks == 0) build_wall(random);
      } else {
        missed = true;
      }
    }
    s.ball_x = static_cast<std::int8_t>(x);
    s.ball_y = static_cast<std::int8_t>(y);

    if (missed) {
      // The last ball stays in the bottom row; any other is replaced at once.
      --s.lives;
      if (s.lives == 0) {
        s.terminal = true;
      } else {
        launch(random);
      }
    }
    ++s.time;
    if (s.time >= kTimeLimit) s.terminal = true;
    result.terminal = s.terminal;
    return result;
  }

  // The wall and the lives gauge are whole rows.
  template <class Cell, class Row>
  void paint_rows(Cell&& cell, Row&& row) const {
    cell(9, state_.paddle, 0);
    for (int wall_row = 0; wall_row < kWallRows; ++wall_row) {
      row(kFirstWallRow + wall_row, board_row(state_.bricks, wall_row), 2);
    }
    cell(state_.ball_y, state_.ball_x, 3);
    cell(state_.trail_y, state_.trail_x, 4);
    row(9, columns_below(state_.lives), 5);
  }
  // The wall and the gauge as boards (games/channel_boards.hpp).
  template <class Cell, class BoardPainter>
  void paint_boards(Cell&& cell, BoardPainter&& board) const {
    cell(9, state_.paddle, 0);
    board(2, CellBoard{state_.bricks} << (kFirstWallRow * kSize));
    cell(state_.ball_y, state_.ball_x, 3);
    cell(state_.trail_y, state_.trail_x, 4);
    board(5, CellBoard{columns_below(state_.lives)} << (9 * kSize));
  }
  template <class Cell>
  void paint(Cell&& cell) const {
    paint_cells_of_rows(*this, cell);
  }

  const State& state() const { return state_; }
  // Puts the game in a hand-built or saved situation (tests, tools).
  void restore(const State& state) { state_ = state; }

  bool has_brick(int y, int x) const {
    return y >= kFirstWallRow && y < kFirstWallRow + kWallRows && (state_.bricks & brick_bit(y, x)) != 0;
  }
  // Precondition: y in 2..4, x in 0..9.
  static constexpr std::uint32_t brick_bit(int y, int x) {
    return std::uint32_t{1} << ((y - kFirstWallRow) * kSize + x);
  }

 private:
  static constexpr int clamp_column(int x) { return x < 0 ? 0 : (x > 9 ? 9 : x); }

  // _build_wall: one rand() per brick, row by row, left to right. Only called on an empty
  // wall (reset, or when the ball is caught with no brick left), so it only sets bits.
  void build_wall(RandomState& random) {
    for (int bit = 0; bit < kWallRows * kSize; ++bit) {
      if (random.random_sample() < kBrickProbability) state_.bricks |= std::uint32_t{1} << bit;
    }
  }

  // _launch: the column (randint(10)), then the direction (randint(2)); heading up.
  void launch(RandomState& random) {
    State& s = state_;
    s.ball_x = static_cast<std::int8_t>(random.randint(kSize));
    s.ball_y = kLaunchRow;
    s.dx = random.randint(2) == 1 ? 1 : -1;
    s.dy = -1;
    s.trail_x = s.ball_x;
    s.trail_y = s.ball_y;
  }

  State state_{};
};

static_assert(Game<SynthBreakout>);

}  // namespace weightspace
