// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>

#include "games/cells.hpp"
#include "games/input_filter.hpp"

namespace weightspace {

// For games that write their own observation (see WritesObservation in cells.hpp) and hold at
// most three active inputs per board row, as asterix and freeway do (one object per row, its
// trail, and the player). Each row's inputs lie in that row's 60, so sorting within the rows
// sorts them all. Filling fixed slots and sorting all rows at once replaces a chain of
// dependent appends, which in a batch of episodes cost more than the game step.
class RowTriples {
 public:
  static constexpr std::uint16_t kNone = 0x7fff;  // an empty slot: above every input

  RowTriples() {
    for (auto& slot : slots_) slot.fill(kNone);
  }

  // `input` when `on` (0 or 1), else kNone. Arithmetic, not a branch: whether an object is
  // there differs from one episode of a batch to the next, and branches on it mispredict.
  static constexpr int input_if(unsigned on, int input) {
    return kNone ^ ((kNone ^ input) & -static_cast<int>(on));
  }

  // Puts `input` (of row `row`) in slot k (0..2) of that row; kNone leaves the slot empty.
  void set(int row, int k, int input) {
    slots_[static_cast<std::size_t>(k)][static_cast<std::size_t>(row)] = static_cast<std::uint16_t>(input);
  }

  // Writes the filled slots in ascending order, with a filter only those it reads; an input
  // must not appear twice.
  void write(ActiveInputs& out, const InputFilter* filter = nullptr) const {
#if WEIGHTSPACE_COMPRESS_EXTRACT
    if (detail::cpu_has_compress()) return write_compressed(out, filter);
#endif
    write_portable(out, filter);
  }

  void write_portable(ActiveInputs& out, const InputFilter* filter = nullptr) const {
    int count = 0;
    for (std::size_t row = 0; row < kGridSize; ++row) {
      const int a = slots_[0][row];
      const int b = slots_[1][row];
      const int c = slots_[2][row];
      const int low = std::min(a, b);
      const int high = std::max(a, b);
      for (const int value : {std::min(low, c), std::max(low, std::min(high, c)), std::max(high, c)}) {
        out.index[static_cast<std::size_t>(count)] = static_cast<std::uint16_t>(value);
        // No filter reads an empty slot (InputFilter::reads).
        count += (filter != nullptr ? filter->reads(static_cast<std::uint16_t>(value)) : value != kNone) ? 1 : 0;
      }
    }
    out.count = count;
  }

#if WEIGHTSPACE_COMPRESS_EXTRACT
  // The three slots of all ten rows sorted as three 16-lane vectors, interleaved row by row
  // into one 30-lane vector, and the empty slots squeezed out by a compress.
  [[gnu::target("avx512f,avx512bw,avx512vbmi,avx512vbmi2")]] void write_compressed(
      ActiveInputs& out, const InputFilter* filter = nullptr) const {
    write_compressed(out, _mm256_load_si256(reinterpret_cast<const __m256i*>(slots_[0].data())),
                     _mm256_load_si256(reinterpret_cast<const __m256i*>(slots_[1].data())),
                     _mm256_load_si256(reinterpret_cast<const __m256i*>(slots_[2].data())), filter);
  }

  // Lane r: input ((r + 1) * 10 + column) * 6 + channel, from lane r's column and channel: the
  // inputs of objects in rows 1..8, one per row.
  [[gnu::target("avx512f,avx512vl")]] static __m256i inputs_of_rows_one_to_eight(__m256i columns, __m256i channels) {
    const __m256i row_starts = _mm256_setr_epi32(60, 120, 180, 240, 300, 360, 420, 480);
    return _mm256_add_epi32(_mm256_add_epi32(row_starts, _mm256_mullo_epi32(columns, _mm256_set1_epi32(kObservationChannels))),
                            channels);
  }

  // A slot vector holding `input` in lane `row` and nothing else.
  [[gnu::target("avx512f,avx512bw,avx512vl")]] static __m256i only_in_row(int row, int input) {
    return _mm256_mask_set1_epi16(_mm256_set1_epi16(static_cast<short>(kNone)), static_cast<__mmask16>(1U << row),
                                  static_cast<short>(input));
  }

  // Eight 32-bit inputs (kNone or an input of row r + 1 in lane r) as a slot vector: lanes
  // 1..8 take them, lanes 0 and 9..15 stay empty. For games with an object per row 1..8.
  [[gnu::target("avx512f,avx512bw,avx512vl")]] static __m256i rows_one_to_eight(__m256i inputs) {
    const __m256i to_rows = _mm256_setr_epi16(0, 0, 1, 2, 3, 4, 5, 6, 7, 0, 0, 0, 0, 0, 0, 0);
    return _mm256_mask_permutexvar_epi16(_mm256_set1_epi16(static_cast<short>(kNone)), 0x01fe, to_rows,
                                         _mm256_castsi128_si256(_mm256_cvtepi32_epi16(inputs)));
  }

  // The same from the three slot vectors (lane r: row r; lanes 10..15 kNone), for a game that
  // builds them in registers: scalar stores read back as a vector wait for the stores. A
  // filter costs a few instructions here, where filtering the list once written cost a pass
  // over it (8.6% of the synth freeway example's samples, 19% right after the writer, whose
  // stores it waits for); without one, the test for empty slots costs less still (1% of the
  // asterix examples' grades).
  [[gnu::target("avx512f,avx512bw,avx512vbmi,avx512vbmi2")]] static void write_compressed(
      ActiveInputs& out, __m256i a, __m256i b, __m256i c, const InputFilter* filter = nullptr) {
    static_assert(ActiveInputs::kPadding >= 32 - 3 * kGridSize);
    const __m256i low = _mm256_min_epu16(a, b);
    const __m256i high = _mm256_max_epu16(a, b);
    const __m256i first = _mm256_min_epu16(low, c);
    const __m256i second = _mm256_max_epu16(low, _mm256_min_epu16(high, c));
    const __m256i third = _mm256_max_epu16(high, c);
    // Casts, not zero-extensions: GCC 12's helpers for those warn (-Wuninitialized), and the
    // index below reads none of the lanes a cast leaves undefined.
    const __m512i widened = _mm512_castsi256_si512(first);
    const __m512i first_two = _mm512_mask_inserti64x4(widened, 0xff, widened, second, 1);
    const __m512i interleaved =
        _mm512_permutex2var_epi16(first_two, _mm512_load_si512(kInterleave.data()), _mm512_castsi256_si512(third));
    const __mmask32 kept = filter != nullptr ? filter->reads(interleaved)  // no filter reads kNone
                                             : _mm512_cmpneq_epi16_mask(interleaved, _mm512_set1_epi16(kNone));
    _mm512_storeu_si512(out.index.data(), _mm512_maskz_compress_epi16(kept, interleaved));
    out.count = std::popcount(kept);
  }
#endif

 private:
  // Lanes 10..15 stay empty (the vector path reads whole 16-lane rows of slots).
  alignas(32) std::array<std::array<std::uint16_t, 16>, 3> slots_;

#if WEIGHTSPACE_COMPRESS_EXTRACT
  // Lane 3r + k of the result is slot k of row r: lane r of the first sorted vector (k = 0),
  // of the second (k = 1, lanes 16..31 of the first source) or of the third (k = 2, the
  // second source's lanes, 32..). Lanes 30 and 31 take an empty padding lane.
  alignas(64) static constexpr std::array<std::uint16_t, 32> kInterleave = [] {
    std::array<std::uint16_t, 32> index{};
    for (int lane = 0; lane < 32; ++lane) {
      index[static_cast<std::size_t>(lane)] = static_cast<std::uint16_t>(lane < 30 ? 16 * (lane % 3) + lane / 3 : 15);
    }
    return index;
  }();
#endif
};

// What a game's write_observation runs: its AVX-512 writer, which builds the row vectors in
// registers, where the CPU has one, else its portable writer.
template <class G>
void write_observation_for_cpu(const G& game, ActiveInputs& out, const InputFilter* filter) {
#if WEIGHTSPACE_COMPRESS_EXTRACT
  if (detail::cpu_has_compress()) return game.write_observation_avx512(out, filter);
#endif
  game.write_observation_portable(out, filter);
}

}  // namespace weightspace
