// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <span>
#include <vector>

#include "games/game.hpp"

namespace weightspace {

inline constexpr int kGridSize = 10;
inline constexpr int kObservationChannels = 6;
inline constexpr int kInputs = kGridSize * kGridSize * kObservationChannels;

// numpy indexing of a length-10 axis: -1 means 9.
constexpr int wrap_axis(int v) { return v < 0 ? v + kGridSize : v; }

// The policy's 600 inputs as the ascending list of those that are 1.0 (the rest are 0.0).
struct ActiveInputs {
  std::array<std::uint16_t, kInputs> index{};
  int count = 0;

  std::span<const std::uint16_t> view() const { return {index.data(), static_cast<std::size_t>(count)}; }
};

namespace detail {

// kSpreadRow[cells]: bit x of a 10-cell row moved to bit 6x, where channel 0 of cell x sits
// among the 60 inputs of its row.
inline constexpr std::array<std::uint64_t, 1024> kSpreadRow = [] {
  std::array<std::uint64_t, 1024> table{};
  for (std::size_t cells = 0; cells < table.size(); ++cells) {
    for (int x = 0; x < kGridSize; ++x) {
      if ((cells >> x) & 1U) table[cells] |= std::uint64_t{1} << (x * kObservationChannels);
    }
  }
  return table;
}();

}  // namespace detail

// 600 bits, set in any order and read back ascending: duplicates collapse as in np.any.
class ObservationBits {
 public:
  void set(int input) { words_[input >> 6] |= std::uint64_t{1} << (input & 63); }

  // Every input (row * 10 + x) * 6 + c with bit x of `cells` and bit c of `channels` set.
  // A whole row costs two word updates, where setting its cells one by one chains a
  // read-modify-write of the same word per cell.
  void set_row(int row, std::uint32_t cells, unsigned channels) {
    // No carries: the spread bits are 6 apart and channels < 64.
    const std::uint64_t inputs = detail::kSpreadRow[cells & 1023U] * channels;
    const int first = row * kGridSize * kObservationChannels;
    const int word = first >> 6;
    const int shift = first & 63;
    words_[word] |= inputs << shift;
    if (shift > 64 - kGridSize * kObservationChannels) words_[word + 1] |= inputs >> (64 - shift);
  }

  void extract(ActiveInputs& out) const {
    int count = 0;
    for (int w = 0; w < kWords; ++w) {
      for (std::uint64_t bits = words_[w]; bits != 0; bits &= bits - 1) {
        out.index[count++] = static_cast<std::uint16_t>(w * 64 + std::countr_zero(bits));
      }
    }
    out.count = count;
  }

 private:
  static constexpr int kWords = (kInputs + 63) / 64;
  std::array<std::uint64_t, kWords> words_{};
};

// verify.observation(game, "original", env.state()): each raw channel feeds the output
// channels in its mask; the result is written as ascending active inputs.
//
// A game whose state holds whole rows of cells (a brick wall, an alien block) may also offer
// paint_rows(cell, row), calling row(y, cells, channel) with bit x of `cells` for cell (y, x),
// 0 <= y < 10; observe() then sets each row at once.
template <Game G>
void observe(const G& game, ActiveInputs& out) {
  ObservationBits bits;
  auto cell = [&bits](int y, int x, int channel) {
    const int base = (wrap_axis(y) * kGridSize + wrap_axis(x)) * kObservationChannels;
    for (unsigned mask = G::observation_masks[channel]; mask != 0; mask &= mask - 1) {
      bits.set(base + std::countr_zero(mask));
    }
  };
  auto row = [&bits](int y, std::uint32_t cells, int channel) {
    bits.set_row(y, cells, G::observation_masks[channel]);
  };
  if constexpr (requires { game.paint_rows(cell, row); }) {
    game.paint_rows(cell, row);
  } else {
    game.paint(cell);
  }
  bits.extract(out);
}

// env.state() as the ascending flat indices (y*10 + x)*C + c of its true cells.
template <Game G>
std::vector<int> raw_state(const G& game) {
  std::array<bool, kGridSize * kGridSize * G::channels> cells{};
  game.paint([&cells](int y, int x, int channel) {
    cells[(wrap_axis(y) * kGridSize + wrap_axis(x)) * G::channels + channel] = true;
  });
  std::vector<int> indices;
  for (int i = 0; i < static_cast<int>(cells.size()); ++i) {
    if (cells[i]) indices.push_back(i);
  }
  return indices;
}

}  // namespace weightspace
