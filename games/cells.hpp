// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <span>
#include <vector>

#include "games/game.hpp"

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define WEIGHTSPACE_COMPRESS_EXTRACT 1
#endif

namespace weightspace {

inline constexpr int kGridSize = 10;
inline constexpr int kObservationChannels = 6;
inline constexpr int kInputs = kGridSize * kGridSize * kObservationChannels;

// numpy indexing of a length-10 axis: -1 means 9. Arithmetic, not a branch: it runs on entity
// columns that differ from one episode of a batch to the next.
constexpr int wrap_axis(int v) { return v + (kGridSize & -static_cast<int>(v < 0)); }

// The policy's 600 inputs as the ascending list of those that are 1.0 (the rest are 0.0).
struct ActiveInputs {
  // Room past the last input: ObservationBits::extract may write whole blocks of 32 indices.
  static constexpr int kPadding = 32;
  std::array<std::uint16_t, kInputs + kPadding> index{};
  int count = 0;

  std::span<const std::uint16_t> view() const { return {index.data(), static_cast<std::size_t>(count)}; }
};

namespace detail {

#if WEIGHTSPACE_COMPRESS_EXTRACT
inline bool cpu_has_compress() {
  static const bool has = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
                          __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512vbmi") &&
                          __builtin_cpu_supports("avx512vbmi2");
  return has;
}
#endif

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

// A set of the policy's 600 inputs: those a policy reads (Policy::inputs()), so that an
// observation need not list the others, nor read back the 64-input words holding none.
class InputMask {
 public:
  static constexpr int kWords = (kInputs + 63) / 64;

  static constexpr InputMask all() {
    InputMask mask;
    for (int input = 0; input < kInputs; ++input) mask.set(input);
    return mask;
  }

  constexpr void set(int input) {
    count_ += test(input) ? 0 : 1;
    words_[static_cast<std::size_t>(input >> 6)] |= std::uint64_t{1} << (input & 63);
  }
  constexpr bool test(int input) const { return (words_[static_cast<std::size_t>(input >> 6)] >> (input & 63)) & 1U; }
  constexpr bool empty() const { return count_ == 0; }
  constexpr int count() const { return count_; }
  // Inputs 64w .. 64w+63 (bit k: input 64w + k).
  constexpr std::uint64_t word(int w) const { return words_[static_cast<std::size_t>(w)]; }
  const std::uint64_t* data() const { return words_.data(); }

 private:
  std::array<std::uint64_t, kWords> words_{};
  int count_ = 0;
};

inline constexpr InputMask kAllInputs = InputMask::all();

// 600 bits, set in any order and read back ascending: duplicates collapse as in np.any.
class ObservationBits {
 public:
  void set(int input) { words_[input >> 6] |= std::uint64_t{1} << (input & 63); }
  void set(const ActiveInputs& inputs) {
    for (const std::uint16_t input : inputs.view()) set(input);
  }
  static constexpr int kWords = (kInputs + 63) / 64;
  // Inputs 64w .. 64w+63 (bit k: input 64w + k).
  std::uint64_t word(int w) const { return words_[static_cast<std::size_t>(w)]; }
  // The words themselves, for those that build them whole (spread_channels).
  std::array<std::uint64_t, kWords>& words() { return words_; }

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

  // Writes the set inputs that are in `mask` in ascending order, with the fastest way this
  // CPU has. Words where the mask is empty are skipped (a branch that is the same for a whole
  // grade, so it is always predicted).
  void extract(ActiveInputs& out, const InputMask& mask = kAllInputs) const {
#if WEIGHTSPACE_COMPRESS_EXTRACT
    if (detail::cpu_has_compress()) return extract_compressed(out, mask);
#endif
    extract_portable(out, mask);
  }

  void extract_portable(ActiveInputs& out, const InputMask& mask = kAllInputs) const {
    int count = 0;
    for (int w = 0; w < kWords; ++w) {
      if (mask.word(w) == 0) continue;
      for (std::uint64_t bits = words_[w] & mask.word(w); bits != 0; bits &= bits - 1) {
        out.index[static_cast<std::size_t>(count++)] = static_cast<std::uint16_t>(w * 64 + std::countr_zero(bits));
      }
    }
    out.count = count;
  }

  // extract_compressed's sparse masks (below).
  static constexpr int kFewInputs = 64;

#if WEIGHTSPACE_COMPRESS_EXTRACT
  // A word (64 inputs) at a time, with no branch on the bits (compress_word). The loop above
  // mispredicts the end of nearly every word, which in a rollout cost more than the painting.
  // A compress costs 5 cycles on Zen 4 whatever it packs, and a policy reading a few dozen
  // inputs (hand-written answers often do) finds most of its words empty: for a mask of at
  // most kFewInputs, one test of all ten words picks those holding a set input, at the price of
  // a loop whose length varies (a mispredicted end); a denser mask's words are all visited, a
  // loop the same for the whole grade (synth space_invaders' example took 5% longer with the
  // test; synth seaquest's random answers 6-10% less without the memo, 1-2% less with the
  // automatic choice, which serves most steps from the memo: docs/performance.md).
  [[gnu::target("avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2")]] void extract_compressed(
      ActiveInputs& out, const InputMask& mask = kAllInputs) const {
    static_assert(ActiveInputs::kPadding >= 32 && kWords == 10 && InputMask::kWords == kWords);
    int count = 0;
    if (mask.count() <= kFewInputs) {
      // Bit w: word w holds a set input of the mask.
      const unsigned low = _mm512_test_epi64_mask(_mm512_loadu_si512(words_.data()), _mm512_loadu_si512(mask.data()));
      const unsigned high =
          _mm_test_epi64_mask(_mm_loadu_si128(reinterpret_cast<const __m128i*>(words_.data() + 8)),
                              _mm_loadu_si128(reinterpret_cast<const __m128i*>(mask.data() + 8)));
      for (unsigned words = low | high << 8; words != 0; words &= words - 1) {
        const int w = std::countr_zero(words);
        count += compress_word(words_[static_cast<std::size_t>(w)] & mask.word(w), w, out.index.data() + count);
      }
    } else {
      for (int w = 0; w < kWords; ++w) {
        if (mask.word(w) == 0) continue;
        count += compress_word(words_[static_cast<std::size_t>(w)] & mask.word(w), w, out.index.data() + count);
      }
    }
    out.count = count;
  }
#endif

 private:
#if WEIGHTSPACE_COMPRESS_EXTRACT
  // Writes the inputs 64w + k of the set bits k of `bits` at `at`, ascending, and returns how
  // many: a byte compress packs the offsets of the set bits, which are widened to 16 bits and
  // rebased. 32 indices are stored whatever the count, those past it landing in the padding;
  // a word with more than 32 set bits (never in the original games) adds the rest one by one.
  [[gnu::target("avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2"), gnu::always_inline]] static int compress_word(
      std::uint64_t bits, int w, std::uint16_t* at) {
    const __m512i offsets = _mm512_set_epi64(0x3f3e3d3c3b3a3938, 0x3736353433323130, 0x2f2e2d2c2b2a2928,
                                             0x2726252423222120, 0x1f1e1d1c1b1a1918, 0x1716151413121110,
                                             0x0f0e0d0c0b0a0908, 0x0706050403020100);
    // Byte 2k of `widen` is k: with the odd bytes zeroed, a byte permute zero-extends.
    const __m512i widen = _mm512_set_epi64(0x001f001e001d001c, 0x001b001a00190018, 0x0017001600150014,
                                           0x0013001200110010, 0x000f000e000d000c, 0x000b000a00090008,
                                           0x0007000600050004, 0x0003000200010000);
    constexpr __mmask64 kEvenBytes = 0x5555555555555555;
    const __m512i packed = _mm512_maskz_compress_epi8(bits, offsets);
    const __m512i low = _mm512_maskz_permutexvar_epi8(kEvenBytes, widen, packed);  // 32 bytes -> 32 words
    _mm512_storeu_si512(at, _mm512_add_epi16(low, _mm512_set1_epi16(static_cast<short>(64 * w))));
    const int set = std::popcount(bits);
    if (set > 32) [[unlikely]] {
      alignas(64) std::uint8_t bytes[64];
      _mm512_store_si512(bytes, packed);
      for (int k = 32; k < set; ++k) at[k] = static_cast<std::uint16_t>(64 * w + bytes[k]);
    }
    return set;
  }
#endif
  std::array<std::uint64_t, kWords> words_{};
};

// verify.observation(game, "original", env.state()) from the game's painting: each raw
// channel feeds the output channels in its mask. paint_bits sets them in `bits` (which must
// start empty); observe_painted writes them as ascending active inputs, only those in `inputs`.
//
// A game whose state holds whole rows of cells (a brick wall, an alien block) may also offer
// paint_rows(cell, row), calling row(y, cells, channel) with bit x of `cells` for cell (y, x),
// 0 <= y < 10; the rows are then set at once.
//
// `raw_channels` (bit r: raw channel r) leaves the cells of the other channels out: those that
// feed no output channel a mask reads (raw_channels_read) change no input under that mask.
// The game's painting still runs in full, and throws where paint() throws.
template <Game G>
void paint_bits(const G& game, ObservationBits& bits, unsigned raw_channels = ~0U) {
  auto cell = [&bits, raw_channels](int y, int x, int channel) {
    if (((raw_channels >> channel) & 1U) == 0) return;
    const int base = (wrap_axis(y) * kGridSize + wrap_axis(x)) * kObservationChannels;
    for (unsigned mask = G::observation_masks[channel]; mask != 0; mask &= mask - 1) {
      bits.set(base + std::countr_zero(mask));
    }
  };
  auto row = [&bits, raw_channels](int y, std::uint32_t cells, int channel) {
    if (((raw_channels >> channel) & 1U) == 0) return;
    bits.set_row(y, cells, G::observation_masks[channel]);
  };
  if constexpr (PaintsRows<G>) {
    game.paint_rows(cell, row);
  } else {
    game.paint(cell);
  }
}

// The raw channels of G that feed an output channel of which `inputs` holds an input.
template <Game G>
unsigned raw_channels_read(const InputMask& inputs) {
  unsigned outputs = 0;
  for (int input = 0; input < kInputs; ++input) {
    if (inputs.test(input)) outputs |= 1U << (input % kObservationChannels);
  }
  unsigned raw = 0;
  for (int r = 0; r < G::channels; ++r) {
    if ((G::observation_masks[static_cast<std::size_t>(r)] & outputs) != 0) raw |= 1U << r;
  }
  return raw;
}

template <Game G>
void observe_painted(const G& game, ActiveInputs& out, const InputMask& inputs = kAllInputs,
                     unsigned raw_channels = ~0U) {
  ObservationBits bits;
  paint_bits(game, bits, raw_channels);
  bits.extract(out, inputs);
}

// WritesObservation (games/game.hpp): write_observation(out) must equal observe_painted
// (tests/games/observation_writer_test.cpp checks it on long random rollouts).

// A policy that ignores the observation still needs a raising game's error at the same step,
// so the engine (engine/lockstep.hpp) skips observing only where !observation_may_raise<G>
// (games/game.hpp), and for the other games calls check_observation.
// Throws what observe(game, ...) throws, without building the observation: the game's paint
// with cells that go nowhere, which the compiler reduces to the checks.
template <Game G>
void check_observation(const G& game) {
  game.paint([](int, int, int) {});
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
