// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <array>
#include <bit>
#include <cstdint>

#include "games/cells.hpp"

namespace weightspace {

// The inputs a policy reads, for games that write their own observation (WritesObservation):
// such a game lists every active input, and layer 1 adds a W1 row for each, for an unread
// input a row of zeros, which changes no sum that starts at +0.0f but costs its loads and adds
// all the same. Hand-written policies read a few dozen of the 600 inputs: the synth freeway
// example reads 4 of the 38 its game writes a step, random answers on synth asterix 0.3 of 11.
// A writer given a filter leaves the others out (and writes the same list otherwise).
class InputFilter {
 public:
  explicit InputFilter(const InputMask& mask) {
    for (int w = 0; w < InputMask::kWords; ++w) {  // input 64w + 16j + b is bit b of word 4w + j
      for (int j = 0; j < 4; ++j) {
        words_[static_cast<std::size_t>(4 * w + j)] = static_cast<std::uint16_t>(mask.word(w) >> (16 * j));
      }
    }
  }

  // Whether `input` is read. Any 16-bit value may be asked: those of 1024 and more are read
  // as their low 10 bits, and 600-1023 (RowTriples::kNone among them) are never read.
  bool reads(std::uint16_t input) const { return (words_[(input >> 4) & 63U] >> (input & 15U)) & 1U; }

  // Drops the inputs not read from `list`, in place, order kept.
  void keep(ActiveInputs& list) const {
#if WEIGHTSPACE_COMPRESS_EXTRACT
    if (detail::cpu_has_compress()) return keep_compressed(list);
#endif
    keep_portable(list);
  }

  void keep_portable(ActiveInputs& list) const {
    int kept = 0;
    for (int i = 0; i < list.count; ++i) {  // every input written, kept only when read
      const std::uint16_t input = list.index[static_cast<std::size_t>(i)];
      list.index[static_cast<std::size_t>(kept)] = input;
      kept += reads(input) ? 1 : 0;
    }
    list.count = kept;
  }

#if WEIGHTSPACE_COMPRESS_EXTRACT
  // reads() of 32 inputs at once: each input's word picked by a two-table permute (the words
  // are its 64 16-bit entries, as reads() indexes them), its bit shifted down and tested.
  [[gnu::target("avx512f,avx512bw")]] __mmask32 reads(__m512i inputs) const {
    const __m512i word = _mm512_permutex2var_epi16(_mm512_load_si512(words_.data()), _mm512_srli_epi16(inputs, 4),
                                                   _mm512_load_si512(words_.data() + 32));
    const __m512i bit = _mm512_srlv_epi16(word, _mm512_and_si512(inputs, _mm512_set1_epi16(15)));
    return _mm512_test_epi16_mask(bit, _mm512_set1_epi16(1));
  }

  // 32 inputs at a time, the read ones squeezed together by a compress. A chunk is stored at
  // or below where it was read, so no input is overwritten before it is read.
  [[gnu::target("avx512f,avx512bw,avx512vbmi2")]] void keep_compressed(ActiveInputs& list) const {
    static_assert(ActiveInputs::kPadding >= 32);
    int kept = 0;
    for (int first = 0; first < list.count; first += 32) {
      const int left = list.count - first;
      const __mmask32 listed = left >= 32 ? ~__mmask32{0} : static_cast<__mmask32>((1U << left) - 1U);
      const __m512i inputs = _mm512_maskz_loadu_epi16(listed, list.index.data() + first);
      const __mmask32 read = listed & reads(inputs);
      _mm512_storeu_si512(list.index.data() + kept, _mm512_maskz_compress_epi16(read, inputs));
      kept += std::popcount(read);
    }
    list.count = kept;
  }
#endif

 private:
  // Bit b of word w: input 16w + b is read. 64 words, the permute's two tables; 38 are used.
  alignas(64) std::array<std::uint16_t, 64> words_{};
};

}  // namespace weightspace
