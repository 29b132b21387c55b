// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <array>
#include <bit>
#include <cstdint>

#include "games/cells.hpp"
#include "games/channel_boards.hpp"

namespace weightspace {

// The inputs a policy reads, looked up straight in a ChannelBoards: for a policy reading at most
// kMaxInputs inputs, each read input's bit is fetched from its board word and the set ones
// listed, in ascending order because the read inputs are kept in it. Spreading the boards into
// ObservationBits and reading back the masked words costs the same for any mask (29% of the
// synth space_invaders example's samples, whose policy reads 90 inputs); this costs a few
// instructions per 8 read inputs (the synth space_invaders example 13% faster a step,
// docs/performance.md). A Lockstep assigns one per run. The cap, four 32-input compresses, was
// not tuned: a policy reading more has its boards spread as before.
class BoardInputs {
 public:
  static constexpr int kMaxInputs = 128;

  BoardInputs() = default;
  explicit BoardInputs(const InputMask& mask) { assign(mask); }

  // For the inputs of `mask`; once a run, kept out of the step loop.
  [[gnu::noinline]] void assign(const InputMask& mask) {
    *this = BoardInputs{};
    if (mask.count() > kMaxInputs) return;
    for (int input = 0; input < kInputs; ++input) {
      if (!mask.test(input)) continue;
      const int cell = input / kObservationChannels;
      const auto at = static_cast<std::size_t>(count_++);
      inputs_[at] = static_cast<std::uint16_t>(input);
      // Word 2c + h of the boards holds cells 64h .. 64h + 63 of channel c.
      words_[at] = static_cast<std::uint8_t>(2 * (input % kObservationChannels) + cell / 64);
      shifts_[at] = static_cast<std::uint8_t>(cell % 64);
    }
    usable_ = true;
  }

  // Whether the mask was small enough (else extract must not be called).
  bool usable() const { return usable_; }

  // The same list as observe_channels(boards, out, mask).
  void extract(const ChannelBoards& boards, ActiveInputs& out) const {
#if WEIGHTSPACE_COMPRESS_EXTRACT
    if (detail::cpu_has_compress()) return extract_compressed(boards, out);
#endif
    extract_portable(boards, out);
  }

  void extract_portable(const ChannelBoards& boards, ActiveInputs& out) const {
    int listed = 0;
    for (std::size_t i = 0; i < static_cast<std::size_t>(count_); ++i) {
      out.index[static_cast<std::size_t>(listed)] = inputs_[i];
      listed += static_cast<int>((boards.word(words_[i]) >> shifts_[i]) & 1U);
    }
    out.count = listed;
  }

#if WEIGHTSPACE_COMPRESS_EXTRACT
  // Eight inputs a step: their words picked from the twelve by a two-table permute, shifted
  // and tested; 32 inputs' bits compress their indices.
  [[gnu::target("avx512f,avx512bw,avx512vbmi2"), gnu::noinline]] void extract_compressed(const ChannelBoards& boards,
                                                                         ActiveInputs& out) const {
    static_assert(ChannelBoards::kWords == 12 && sizeof(boards.channel) == 96 && ActiveInputs::kPadding >= 32);
    const auto* words = reinterpret_cast<const long long*>(boards.channel.data());
    const __m512i low = _mm512_loadu_si512(words);
    const __m512i high = _mm512_maskz_loadu_epi64(0x0f, words + 8);  // words 8..11; the rest are not read
    int listed = 0;
    for (int first = 0; first < count_; first += 32) {
      std::uint32_t set = 0;
      for (int q = 0; q < 4; ++q) {
        const std::size_t at = static_cast<std::size_t>(first + 8 * q);
        const __m512i word = _mm512_permutex2var_epi64(
            low, _mm512_maskz_cvtepu8_epi64(0xff, _mm_loadl_epi64(reinterpret_cast<const __m128i*>(&words_[at]))), high);
        const __m512i bits =
            _mm512_maskz_srlv_epi64(0xff, word, _mm512_maskz_cvtepu8_epi64(0xff, _mm_loadl_epi64(reinterpret_cast<const __m128i*>(&shifts_[at]))));
        set |= std::uint32_t{_mm512_test_epi64_mask(bits, _mm512_set1_epi64(1))} << (8 * q);
      }
      const int left = count_ - first;
      if (left < 32) set &= (1U << left) - 1U;  // past the list: entries of input 0, unset
      const __m512i inputs = _mm512_load_si512(&inputs_[static_cast<std::size_t>(first)]);
      _mm512_storeu_si512(out.index.data() + listed, _mm512_maskz_compress_epi16(set, inputs));
      listed += std::popcount(set);
    }
    out.count = listed;
  }
#endif

 private:
  // Read input i, its board word and its bit there; zero past count_ (whole blocks are read).
  alignas(64) std::array<std::uint16_t, kMaxInputs> inputs_{};
  alignas(64) std::array<std::uint8_t, kMaxInputs> words_{};
  alignas(64) std::array<std::uint8_t, kMaxInputs> shifts_{};
  int count_ = 0;
  bool usable_ = false;
};

}  // namespace weightspace
