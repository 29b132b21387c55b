// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <utility>

#include "games/cells.hpp"

namespace weightspace {

// verify.observation's 600 inputs laid out channel by channel: bit y * 10 + x of channel c is
// input (y * 10 + x) * 6 + c. The same bits as ObservationBits, only ordered differently, so
// two states have equal boards exactly when they have equal observations. A game that keeps
// its cells as 10x10 boards hands them over whole, where ObservationBits spreads each cell
// over 6-strided bits; the policy memo (engine/policy_memo.hpp) keys such games on them, so
// that a step it serves costs no spreading and no read-back.
struct ChannelBoards {
  using Board = CellBoard;
  std::array<Board, kObservationChannels> channel{};

  // Word 2c + h: cells 64h .. 64h + 63 of channel c (h = 1 holds cells 64..99).
  static constexpr int kWords = 2 * kObservationChannels;
  std::uint64_t word(int w) const {
    return static_cast<std::uint64_t>(channel[static_cast<std::size_t>(w >> 1)] >> (64 * (w & 1)));
  }
};

// PaintsBoards (games/game.hpp): board(channel, cells) gets bit y * 10 + x of `cells` for cell
// (y, x) (bits 100..127 clear). Only such games are keyed on boards by the policy memo:
// gathering cell by cell or row by row costs about what ObservationBits does
// (docs/performance.md, "Exact memo").
// observes_on_boards<G>: observe() spreads the boards into ObservationBits at once, for a game
// with most of its cells on boards (space_invaders: the aliens and both kinds of bullet).
// Breakout's wall is a few rows, which its paint_rows sets for less (games_bench BM_Observe,
// docs/performance.md).

namespace detail {

// Output channel C: the raw channels whose mask names it, or'ed.
template <Game G, std::size_t C, std::size_t... R>
ChannelBoards::Board channel_from(const std::array<ChannelBoards::Board, G::channels>& raw,
                                  std::index_sequence<R...>) {
  return (ChannelBoards::Board{0} | ... |
          (((G::observation_masks[R] >> C) & 1U) != 0 ? raw[R] : ChannelBoards::Board{0}));
}

}  // namespace detail

// The observation of `game` as channel boards: each raw channel's cells gathered into one
// board, which then reaches every output channel its mask names (as paint_bits sets them).
// Throws where paint() throws.
template <Game G>
void paint_channels(const G& game, ChannelBoards& out) {
  using Board = ChannelBoards::Board;
  std::array<Board, G::channels> raw{};
  auto cell = [&raw](int y, int x, int channel) {
    raw[static_cast<std::size_t>(channel)] |= Board{1} << (wrap_axis(y) * kGridSize + wrap_axis(x));
  };
  auto row = [&raw](int y, std::uint32_t cells, int channel) {
    raw[static_cast<std::size_t>(channel)] |= Board{cells & 1023U} << (y * kGridSize);
  };
  auto board = [&raw](int channel, Board cells) { raw[static_cast<std::size_t>(channel)] |= cells; };
  if constexpr (PaintsBoards<G>) {
    game.paint_boards(cell, board);
  } else if constexpr (PaintsRows<G>) {
    game.paint_rows(cell, row);
  } else {
    game.paint(cell);
  }
  // Unrolled at compile time: a loop over the masks kept every board in memory.
  [&]<std::size_t... C>(std::index_sequence<C...>) {
    ((out.channel[C] = detail::channel_from<G, C>(raw, std::make_index_sequence<G::channels>{})), ...);
  }(std::make_index_sequence<kObservationChannels>{});
}

// The same observation as ObservationBits (input (y * 10 + x) * 6 + c), replacing what `bits`
// held: the layout the forward pass reads back (ObservationBits::extract).
void spread_channels_portable(const ChannelBoards& boards, ObservationBits& bits);
#if WEIGHTSPACE_COMPRESS_EXTRACT
void spread_channels_avx512(const ChannelBoards& boards, ObservationBits& bits);
#endif
inline void spread_channels(const ChannelBoards& boards, ObservationBits& bits) {
#if WEIGHTSPACE_COMPRESS_EXTRACT
  if (detail::cpu_has_compress()) return spread_channels_avx512(boards, bits);
#endif
  spread_channels_portable(boards, bits);
}

}  // namespace weightspace
