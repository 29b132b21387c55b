// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <array>
#include <bit>
#include <concepts>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

#include "games/python_error.hpp"
#include "games/random_state.hpp"

namespace weightspace {

// What one call of a game's act() returns: MinAtar's (reward, terminal).
struct StepResult {
  int reward = 0;
  bool terminal = false;
};

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
// The engine and the tools build everything else (raw state, observation) from these.
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
