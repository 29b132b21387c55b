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

// 600 bits, set in any order and read back ascending: duplicates collapse as in np.any.
class ObservationBits {
 public:
  void set(int input) { words_[input >> 6] |= std::uint64_t{1} << (input & 63); }

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
template <Game G>
void observe(const G& game, ActiveInputs& out) {
  ObservationBits bits;
  game.paint([&bits](int y, int x, int channel) {
    const int base = (wrap_axis(y) * kGridSize + wrap_axis(x)) * kObservationChannels;
    for (unsigned mask = G::observation_masks[channel]; mask != 0; mask &= mask - 1) {
      bits.set(base + std::countr_zero(mask));
    }
  });
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
