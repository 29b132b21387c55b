// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <string_view>

#include "games/game.hpp"
#include "games/random_state.hpp"

namespace weightspace {

// MinAtar 1.0.15 breakout (environments/breakout.py), step for step.
//
// Bricks only ever exist in rows 1..3 (reset and the refill both fill exactly brick_map[1:4, :]
// and nothing else writes a 1), so the wall is one 30-bit mask: bit (y - 1) * 10 + x.
class Breakout {
 public:
  static constexpr std::string_view name = "breakout";
  static constexpr int channels = 4;  // paddle, ball, trail, brick
  // verify.ORIGINAL_CHANNEL_GROUPS["breakout"] = ((0,), (), (3,), (1,), (2,), ())
  static constexpr std::array<std::uint8_t, channels> observation_masks = {1U << 0, 1U << 3, 1U << 4,
                                                                           1U << 2};
  static constexpr bool observation_never_raises = true;

  static constexpr int kSize = 10;
  static constexpr int kFirstBrickRow = 1;
  static constexpr int kBrickRows = 3;
  static constexpr std::uint32_t kFullWall = (std::uint32_t{1} << (kBrickRows * kSize)) - 1;

  // Python's ball_dir: 0 up-left, 1 up-right, 2 down-right, 3 down-left.
  enum Direction : std::uint8_t { kUpLeft = 0, kUpRight = 1, kDownRight = 2, kDownLeft = 3 };

  // Python's attributes one for one. Public so tests can build hand-derived situations.
  struct State {
    std::uint32_t bricks = kFullWall;  // bit layout of brick_bit()
    std::int8_t ball_x = 0;
    std::int8_t ball_y = 3;
    std::int8_t last_x = 0;  // the trail cell
    std::int8_t last_y = 3;
    std::int8_t paddle = 4;
    Direction ball_direction = kDownRight;
    bool strike = false;
    bool terminal = false;
  };

  explicit Breakout(bool /*ramping: breakout has no difficulty ramp*/) {}

  void reset(RandomState& random) {
    state_ = State{};
    // [(0, 2), (9, 3)][randint(2)]: one generator word.
    if (random.randint(2) != 0) {
      state_.ball_x = 9;
      state_.ball_direction = kDownLeft;
    }
    state_.last_x = state_.ball_x;
    state_.last_y = state_.ball_y;
  }

  StepResult act(int action, RandomState& /*random: breakout never draws after reset*/) {
    StepResult result;
    State& state = state_;
    if (state.terminal) {
      result.terminal = true;
      return result;
    }
    state.paddle = static_cast<std::int8_t>(std::clamp(state.paddle + action_dx(action), 0, 9));

    state.last_x = state.ball_x;
    state.last_y = state.ball_y;
    const bool moving_left = state.ball_direction == kUpLeft || state.ball_direction == kDownLeft;
    const bool moving_up = state.ball_direction == kUpLeft || state.ball_direction == kUpRight;
    int new_x = state.ball_x + (moving_left ? -1 : 1);
    int new_y = state.ball_y + (moving_up ? -1 : 1);

    bool strike_toggle = false;
    if (new_x < 0 || new_x > 9) {
      new_x = new_x < 0 ? 0 : 9;
      state.ball_direction = mirror_horizontal(state.ball_direction);
    }
    // Python's if / elif chain: the ceiling, then a brick, then the bottom row.
    if (new_y < 0) {
      new_y = 0;
      state.ball_direction = mirror_vertical(state.ball_direction);
    } else if (has_brick(new_y, new_x)) {
      strike_toggle = true;
      // The step right after a strike does not break a brick: the ball enters the brick's
      // cell unreflected, and keeps doing so while it moves from brick to brick.
      if (!state.strike) {
        result.reward += 1;
        state.strike = true;
        state.bricks &= ~brick_bit(new_y, new_x);
        new_y = state.last_y;
        state.ball_direction = mirror_vertical(state.ball_direction);
      }
    } else if (new_y == 9) {
      // The empty wall is refilled only here, when the ball reaches the paddle row, even on the
      // step that then loses the ball.
      if (state.bricks == 0) state.bricks = kFullWall;
      // The ball's old column is tested first; the new one may be clamped at a wall.
      if (state.ball_x == state.paddle) {
        state.ball_direction = mirror_vertical(state.ball_direction);
        new_y = state.last_y;
      } else if (new_x == state.paddle) {
        state.ball_direction = reverse(state.ball_direction);
        new_y = state.last_y;
      } else {
        state.terminal = true;
      }
    }
    if (!strike_toggle) state.strike = false;

    state.ball_x = static_cast<std::int8_t>(new_x);
    state.ball_y = static_cast<std::int8_t>(new_y);
    result.terminal = state.terminal;
    return result;
  }

  template <class Cell, class Row>
  void paint_rows(Cell&& cell, Row&& row) const {
    cell(state_.ball_y, state_.ball_x, 1);
    cell(9, state_.paddle, 0);
    cell(state_.last_y, state_.last_x, 2);
    for (int wall_row = 0; wall_row < kBrickRows; ++wall_row) {
      const std::uint32_t cells = board_row(state_.bricks, wall_row);
      if (cells != 0) row(kFirstBrickRow + wall_row, cells, 3);
    }
  }
  // The wall as one board (games/channel_boards.hpp).
  template <class Cell, class BoardPainter>
  void paint_boards(Cell&& cell, BoardPainter&& board) const {
    cell(state_.ball_y, state_.ball_x, 1);
    cell(9, state_.paddle, 0);
    cell(state_.last_y, state_.last_x, 2);
    board(3, CellBoard{state_.bricks} << (kFirstBrickRow * kSize));
  }
  template <class Cell>
  void paint(Cell&& cell) const {
    paint_cells_of_rows(*this, cell);
  }

  const State& state() const { return state_; }
  void restore(const State& state) { state_ = state; }

  bool has_brick(int y, int x) const {
    return y >= kFirstBrickRow && y < kFirstBrickRow + kBrickRows && (state_.bricks & brick_bit(y, x)) != 0;
  }
  // Precondition: y in 1..3, x in 0..9.
  static constexpr std::uint32_t brick_bit(int y, int x) {
    return std::uint32_t{1} << ((y - kFirstBrickRow) * kSize + x);
  }

 private:
  // Python's [1,0,3,2][d], [3,2,1,0][d] and [2,3,0,1][d].
  static constexpr Direction mirror_horizontal(Direction direction) {
    return static_cast<Direction>(direction ^ 1U);
  }
  static constexpr Direction mirror_vertical(Direction direction) {
    return static_cast<Direction>(3U - direction);
  }
  static constexpr Direction reverse(Direction direction) { return static_cast<Direction>(direction ^ 2U); }

  State state_;
};

static_assert(Game<Breakout>);

}  // namespace weightspace
