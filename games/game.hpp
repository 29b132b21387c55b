// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <array>
#include <bit>
#include <concepts>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

#include <weightspace/error.hpp>
#include "games/random_state.hpp"

namespace weightspace {

// What one call of a game's act() returns: MinAtar's (reward, terminal).
struct StepResult {
  int reward = 0;
  bool terminal = false;
};

// MinAtar's action_map ['n', 'l', 'u', 'r', 'd', 'f'] as a step along each axis: -1, 0 or +1.
// Arithmetic, not a branch: the action is sampled from the policy, and a branch that follows it
// mispredicts whenever the policy is not nearly certain (docs/performance.md, "The player's
// move as arithmetic").
constexpr int action_dx(int action) { return static_cast<int>(action == 3) - static_cast<int>(action == 1); }
constexpr int action_dy(int action) { return static_cast<int>(action == 4) - static_cast<int>(action == 2); }

// A state on which the Python game itself raises (a MinAtar bug path the grader does not
// catch, so the Python grader would crash). kind() is the Python exception class. The engine
// turns it into a failed grade instead of a crash.
class GameError : public PythonException {
 public:
  GameError(std::string python_kind, std::string message)
      : PythonException(PythonError{std::move(python_kind), std::move(message)}) {}
};

// Every game is a plain value type with a fixed-size state:
//   Game(bool ramping)            MinAtar's Env(ramping=...); state is valid after reset()
//   reset(RandomState&)           Env.reset(), drawing from the environment's generator
//   act(action, RandomState&)     Env.act(a) for the action after sticky substitution
//   paint(cell)                   calls cell(y, x, channel) for every true cell of Env.state()
//                                 (repeats allowed; y or x of -1 is numpy's wrap to 9)
//   observation_masks[channel]    bit k set when the grader's output channel k includes it
// The engine and the tools build everything else (raw state, observation) from these. A game
// may add the optional capabilities below (after CellBoard), each only a faster way to the
// same observation; what a game registers besides its type is in games/registry.hpp.
struct CellProbe {
  void operator()(int, int, int) const {}
};

template <class G>
concept Game = requires(G game, const G& view, RandomState& random, int action) {
  { G::name } -> std::convertible_to<std::string_view>;
  { G::channels } -> std::convertible_to<int>;
  { G::observation_masks[0] } -> std::convertible_to<std::uint8_t>;
  G(false);
  game.reset(random);
  { game.act(action, random) } -> std::same_as<StepResult>;
  view.paint(CellProbe{});
};

// A 10x10 map of cells in one 128-bit word: cell (y, x) is bit y * 10 + x, bits 100..127 clear.
__extension__ using CellBoard = unsigned __int128;

// --- Optional capabilities ----------------------------------------------------------------
// Declared here, in one place; the code that dispatches on them names these concepts and
// traits. Each must give exactly what paint() gives (tests/games check it on long rollouts).
//   paint_rows(cell, row)         row(y, cells, channel) with a 10-bit mask of a row's cells
//                                 (bit x: column x), cell() for the rest: set a row at once
//   paint_boards(cell, board)     board(channel, cells) with a whole CellBoard of a channel:
//                                 the policy memo keys such a game on boards (games/channel_boards.hpp)
//   write_observation(out)        the active inputs in ascending order, written directly by a
//                                 game that knows them without sorting (games/cells.hpp);
//   write_observation(out, filter) with it: only those the InputFilter reads
//                                 (games/input_filter.hpp)
//   observation_never_raises      `static constexpr bool ... = true;` when paint() never throws,
//                                 so the engine may skip observing for a policy that ignores it;
//                                 otherwise it calls check_observation (games/cells.hpp)
//   observe_on_boards             `static constexpr bool ... = true;` (with paint_boards) when
//                                 most cells are on boards, so observe() goes through them
struct RowProbe {
  void operator()(int, std::uint32_t, int) const {}
};
struct BoardProbe {
  void operator()(int, CellBoard) const {}
};
struct ActiveInputs;  // games/cells.hpp
class InputFilter;    // games/input_filter.hpp

template <class G>
concept PaintsRows = requires(const G& game) { game.paint_rows(CellProbe{}, RowProbe{}); };
template <class G>
concept PaintsBoards = requires(const G& game) { game.paint_boards(CellProbe{}, BoardProbe{}); };
template <class G>
concept WritesObservation = requires(const G& game, ActiveInputs& out, const InputFilter& filter) {
  game.write_observation(out);
  game.write_observation(out, filter);
};

// Whether observe(game) may throw (MinAtar's freeway and seaquest can raise while building
// their state, and the grader crashes there): true unless the game declares otherwise.
template <class G>
inline constexpr bool observation_may_raise = [] {
  if constexpr (requires { G::observation_never_raises; }) {
    return !G::observation_never_raises;
  } else {
    return true;
  }
}();

template <class G>
inline constexpr bool observes_on_boards = [] {
  if constexpr (PaintsBoards<G> && requires { G::observe_on_boards; }) {
    return G::observe_on_boards;
  } else {
    return false;
  }
}();

// paint_rows hands over a row as a 10-bit cell mask (bit x: column x). Row `row` of a board
// that keeps its 10-cell rows as consecutive 10-bit groups (a brick wall, an alien block):
template <class Board>
constexpr std::uint32_t board_row(Board board, int row) {
  return static_cast<std::uint32_t>(board >> (row * 10)) & 1023U;
}
// Columns 0..end-1, for a gauge filled from the left (0 <= end <= 10).
constexpr std::uint32_t columns_below(int end) { return (std::uint32_t{1} << end) - 1; }

// paint() for a game that paints by rows: each row's cells one by one.
template <class RowPainter, class Cell>
void paint_cells_of_rows(const RowPainter& game, Cell&& cell) {
  game.paint_rows(cell, [&cell](int y, std::uint32_t cells, int channel) {
    for (; cells != 0; cells &= cells - 1) cell(y, std::countr_zero(cells), channel);
  });
}

}  // namespace weightspace
