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

// A 10x10 boolean map in one 128-bit word: cell (y, x) is bit y * 10 + x, bits 100..127 are
// always clear. Whole-map np.roll and the row/column tests become a few shifts and masks.
namespace invaders_grid {

__extension__ using Board = unsigned __int128;

inline constexpr int kSize = 10;
inline constexpr Board kRow0 = (Board{1} << kSize) - 1;
inline constexpr Board kAll = (Board{1} << (kSize * kSize)) - 1;
inline constexpr Board kRow9 = kRow0 << (kSize * (kSize - 1));

constexpr Board make_column0() {
  Board column = 0;
  for (int y = 0; y < kSize; ++y) column |= Board{1} << (y * kSize);
  return column;
}
inline constexpr Board kColumn0 = make_column0();
inline constexpr Board kColumn9 = kColumn0 << (kSize - 1);

constexpr Board cell(int y, int x) { return Board{1} << (y * kSize + x); }

// Rows y0..y1-1, columns x0..x1-1 (numpy's map[y0:y1, x0:x1]).
constexpr Board rectangle(int y0, int y1, int x0, int x1) {
  Board result = 0;
  for (int y = y0; y < y1; ++y) {
    for (int x = x0; x < x1; ++x) result |= cell(y, x);
  }
  return result;
}

constexpr int count(Board board) {
  return std::popcount(static_cast<std::uint64_t>(board)) +
         std::popcount(static_cast<std::uint64_t>(board >> 64));
}

// Index of the highest set bit. Precondition: board != 0.
constexpr int highest(Board board) {
  const auto high = static_cast<std::uint64_t>(board >> 64);
  if (high != 0) return 127 - std::countl_zero(high);
  return 63 - std::countl_zero(static_cast<std::uint64_t>(board));
}

// np.roll(map, 1, axis=0): every row moves down one, row 9 wraps to row 0.
constexpr Board roll_rows_down(Board board) {
  return ((board << kSize) & kAll) | (board >> (kSize * (kSize - 1)));
}

// np.roll(map, shift, axis=1) for shift = +1 or -1: columns move right or left, wrapping.
constexpr Board roll_columns(Board board, int shift) {
  if (shift > 0) return ((board << 1) & kAll & ~kColumn0) | ((board & kColumn9) >> (kSize - 1));
  return ((board >> 1) & ~kColumn9) | ((board & kColumn0) << (kSize - 1));
}

// Calls visit(y, x) for every set cell, in ascending flat order.
template <class Visit>
void for_each_cell(Board board, Visit&& visit) {
  for (int half = 0; half < 2; ++half) {
    for (auto bits = static_cast<std::uint64_t>(board >> (64 * half)); bits != 0; bits &= bits - 1) {
      const int index = 64 * half + std::countr_zero(bits);
      visit(index / kSize, index % kSize);
    }
  }
}

}  // namespace invaders_grid

// MinAtar 1.0.15 space_invaders (environments/space_invaders.py), step for step.
class SpaceInvaders {
 public:
  static constexpr std::string_view name = "space_invaders";
  static constexpr int channels = 6;  // cannon, alien, alien_left, alien_right, friendly_bullet, enemy_bullet
  // verify.ORIGINAL_CHANNEL_GROUPS["space_invaders"] = ((0,), (1, 5), (1,), (4,), (2, 3), ())
  static constexpr std::array<std::uint8_t, channels> observation_masks = {
      1U << 0, (1U << 1) | (1U << 2), 1U << 4, 1U << 4, 1U << 3, 1U << 1};
  static constexpr bool observation_never_raises = true;
  static constexpr bool observe_on_boards = true;  // games/channel_boards.hpp

  static constexpr int kShotCoolDown = 5;
  static constexpr int kEnemyMoveInterval = 12;
  static constexpr int kEnemyShotInterval = 10;
  static constexpr int kFastestMoveInterval = 6;  // the ramp stops once the interval is 6
  using Board = invaders_grid::Board;
  static constexpr Board kWave = invaders_grid::rectangle(0, 4, 2, 8);  // alien_map[0:4, 2:8] = 1

  // Python's attributes one for one. Public so tests can build hand-derived situations.
  struct State {
    Board aliens = kWave;
    Board friendly_bullets = 0;
    Board enemy_bullets = 0;
    int position = 5;
    int alien_direction = -1;  // -1 left, +1 right
    int enemy_move_interval = kEnemyMoveInterval;
    int alien_move_timer = kEnemyMoveInterval;
    int alien_shot_timer = kEnemyShotInterval;
    int shot_timer = 0;
    int ramp_index = 0;
    bool terminal = false;
  };

  explicit SpaceInvaders(bool ramping) : ramping_(ramping) {}

  void reset(RandomState& /*random: reset draws nothing*/) { state_ = State{}; }

  StepResult act(int action, RandomState& /*random: space_invaders never draws*/) {
    using namespace invaders_grid;
    StepResult result;
    State& state = state_;
    if (state.terminal) {
      result.terminal = true;
      return result;
    }
    // Firing takes precedence; 'f' while cooling down does nothing.
    if (action == 5 && state.shot_timer == 0) {
      state.friendly_bullets |= cell(9, state.position);
      state.shot_timer = kShotCoolDown;
    } else if (action == 1) {
      state.position = std::max(0, state.position - 1);
    } else if (action == 3) {
      state.position = std::min(9, state.position + 1);
    }

    // np.roll then clearing the wrapped row: a plain shift that drops the edge row.
    state.friendly_bullets >>= kSize;
    state.enemy_bullets = (state.enemy_bullets << kSize) & kAll;
    const Board cannon = cell(9, state.position);
    if ((state.enemy_bullets & cannon) != 0) state.terminal = true;

    if ((state.aliens & cannon) != 0) state.terminal = true;
    if (state.alien_move_timer == 0) {
      state.alien_move_timer = std::min(count(state.aliens), state.enemy_move_interval);
      const bool at_left_edge = (state.aliens & kColumn0) != 0;
      const bool at_right_edge = (state.aliens & kColumn9) != 0;
      if ((at_left_edge && state.alien_direction < 0) || (at_right_edge && state.alien_direction > 0)) {
        state.alien_direction = -state.alien_direction;
        if ((state.aliens & kRow9) != 0) state.terminal = true;
        // A real np.roll: an alien on row 9 reappears on row 0 (the step is terminal anyway).
        state.aliens = roll_rows_down(state.aliens);
      } else {
        state.aliens = roll_columns(state.aliens, state.alien_direction);
      }
      if ((state.aliens & cannon) != 0) state.terminal = true;
    }
    if (state.alien_shot_timer == 0) {
      state.alien_shot_timer = kEnemyShotInterval;
      state.enemy_bullets |= shooter(state.aliens, state.position);
    }

    const Board kills = state.aliens & state.friendly_bullets;
    result.reward = count(kills);
    state.aliens &= ~kills;
    state.friendly_bullets &= ~kills;

    if (state.shot_timer > 0) --state.shot_timer;
    --state.alien_move_timer;
    --state.alien_shot_timer;
    // A new wave keeps the alien direction, the move timer and every bullet in flight.
    if (state.aliens == 0) {
      if (state.enemy_move_interval > kFastestMoveInterval && ramping_) {
        --state.enemy_move_interval;
        ++state.ramp_index;
      }
      state.aliens = kWave;
    }
    result.terminal = state.terminal;
    return result;
  }

  template <class Cell, class Row>
  void paint_rows(Cell&& cell, Row&& row) const {
    using invaders_grid::for_each_cell;
    cell(9, state_.position, 0);
    const int direction_channel = state_.alien_direction < 0 ? 2 : 3;
    for (int y = 0; y < invaders_grid::kSize; ++y) {
      const std::uint32_t cells = board_row(state_.aliens, y);
      if (cells == 0) continue;
      row(y, cells, 1);
      row(y, cells, direction_channel);
    }
    for_each_cell(state_.friendly_bullets, [&cell](int y, int x) { cell(y, x, 4); });
    for_each_cell(state_.enemy_bullets, [&cell](int y, int x) { cell(y, x, 5); });
  }
  // The boards whole (games/channel_boards.hpp): the direction picks a channel without a branch.
  template <class Cell, class BoardPainter>
  void paint_boards(Cell&& cell, BoardPainter&& board) const {
    cell(9, state_.position, 0);
    const Board left = state_.alien_direction < 0 ? state_.aliens : Board{0};
    board(1, state_.aliens);
    board(2, left);
    board(3, state_.aliens ^ left);
    board(4, state_.friendly_bullets);
    board(5, state_.enemy_bullets);
  }
  template <class Cell>
  void paint(Cell&& cell) const {
    paint_cells_of_rows(*this, cell);
  }

  const State& state() const { return state_; }
  void restore(const State& state) { state_ = state; }
  bool ramping() const { return ramping_; }

  // _nearest_alien(pos) as the cell it returns. Columns are visited in the order of Python's
  // stable sort of 0..9 by |x - pos| (so the left column of a tie first), and the shooter is
  // the lowest alien (largest row) of the first column holding one. Python returns None, and
  // the caller then crashes, when there is no alien; act() never gets there because every step
  // starts with at least one alien (a cleared wave is refilled before the step ends), so the
  // empty map here gives the empty board.
  static Board shooter(Board aliens, int position) {
    using namespace invaders_grid;
    for (int distance = 0; distance < kSize; ++distance) {
      for (const int column : {position - distance, position + distance}) {
        if (column < 0 || column >= kSize) continue;
        const Board in_column = aliens & (kColumn0 << column);
        if (in_column != 0) return Board{1} << highest(in_column);
        if (distance == 0) break;
      }
    }
    return 0;
  }

 private:
  State state_;
  bool ramping_;
};

static_assert(Game<SpaceInvaders>);

}  // namespace weightspace
