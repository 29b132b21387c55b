// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <cstring>
#include <utility>

#include "games/cells.hpp"

namespace weightspace {

// verify.observation's 600 inputs laid out channel by channel: bit y * 10 + x of channel c is
// input (y * 10 + x) * 6 + c. The same bits as ObservationBits, only ordered differently, so
// two states have equal boards exactly when they have equal observations. A game that keeps
// its cells as 10x10 boards hands them over whole, where ObservationBits spreads each cell
// over 6-strided bits; the policy memo (engine/policy_memo.hpp) keys such games on them, so
// that a step it serves costs no spreading and no read-back.
static_assert(std::endian::native == std::endian::little, "ChannelBoards::word reads a board's halves in memory");

struct ChannelBoards {
  using Board = CellBoard;
  std::array<Board, kObservationChannels> channel{};

  // Word 2c + h: cells 64h .. 64h + 63 of channel c (h = 1 holds cells 64..99).
  static constexpr int kWords = 2 * kObservationChannels;
  // Read and or'ed in memory (x86-64 keeps a board's low word first): a shift of the board by
  // 64 * (w & 1) is a double shift and two selects.
  std::uint64_t word(int w) const {
    std::uint64_t value;
    std::memcpy(&value, reinterpret_cast<const char*>(channel.data()) + 8 * w, sizeof value);
    return value;
  }
  void or_word(int w, std::uint64_t bits) {
    char* at = reinterpret_cast<char*>(channel.data()) + 8 * w;
    std::uint64_t value;
    std::memcpy(&value, at, sizeof value);
    value |= bits;
    std::memcpy(at, &value, sizeof value);
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


// The observation of `game` as channel boards: each painted cell (row, board) set at once in
// every output channel its raw channel's mask names (as paint_bits sets them), one 64-bit word
// per cell and channel; a 128-bit shift by a variable count costs a double shift and two
// selects, and gathering raw boards first cost a pass over all of them (seaquest's example:
// docs/performance.md, "Round three", seaquest keyed on boards). `raw_channels` (bit r: raw
// channel r) leaves the other channels' cells out, as in paint_bits. Throws where paint()
// throws.
template <Game G>
void paint_channels(const G& game, ChannelBoards& out, unsigned raw_channels = ~0U) {
  using Board = ChannelBoards::Board;
  out = ChannelBoards{};
  auto add = [&out, raw_channels](int channel, Board cells) {
    if (((raw_channels >> channel) & 1U) == 0) return;
    for (unsigned mask = G::observation_masks[static_cast<std::size_t>(channel)]; mask != 0; mask &= mask - 1) {
      out.channel[static_cast<std::size_t>(std::countr_zero(mask))] |= cells;
    }
  };
  // Inlined into each call of the painting: a call per cell cost more than its body, and
  // inlined, the mask is known and its loop unrolls (GCC kept it out of line).
  auto cell = [&out, raw_channels](int y, int x, int channel) __attribute__((always_inline)) {
    if (((raw_channels >> channel) & 1U) == 0) return;
    const int at = wrap_axis(y) * kGridSize + wrap_axis(x);
    const int half = at >> 6;
    const std::uint64_t bit = std::uint64_t{1} << (at & 63);
    for (unsigned mask = G::observation_masks[static_cast<std::size_t>(channel)]; mask != 0; mask &= mask - 1) {
      out.or_word(2 * std::countr_zero(mask) + half, bit);
    }
  };
  auto row = [&add](int y, std::uint32_t cells, int channel) { add(channel, Board{cells & 1023U} << (y * kGridSize)); };
  auto board = [&add](int channel, Board cells) { add(channel, cells); };
  if constexpr (PaintsBoards<G>) {
    game.paint_boards(cell, board);
  } else if constexpr (PaintsRows<G>) {
    game.paint_rows(cell, row);
  } else {
    game.paint(cell);
  }
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
