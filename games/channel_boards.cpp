// SPDX-License-Identifier: GPL-3.0-or-later
#include "games/channel_boards.hpp"

namespace weightspace {

void spread_channels_portable(const ChannelBoards& boards, ObservationBits& bits) {
  bits = ObservationBits{};
  for (int word = 0; word < ChannelBoards::kWords; ++word) {
    const int channel = word >> 1;
    const int first_cell = 64 * (word & 1);
    for (std::uint64_t cells = boards.word(word); cells != 0; cells &= cells - 1) {
      bits.set((first_cell + std::countr_zero(cells)) * kObservationChannels + channel);
    }
  }
}

#if WEIGHTSPACE_COMPRESS_EXTRACT
namespace {

// Byte j of the result is byte j of the back-to-back six-byte groups of the two sources' 64-bit
// lanes (the first source's 8 lanes, then the second's), from group byte `first` on.
constexpr std::array<std::uint8_t, 64> group_bytes(int first) {
  std::array<std::uint8_t, 64> index{};
  for (int j = 0; j < 64; ++j) {
    const int k = first + j;  // byte k of the packed stream
    const int source = k < 48 ? 0 : 1;
    const int within = k - 48 * source;  // past 47 (bytes never stored): byte 6, always zero
    index[static_cast<std::size_t>(j)] =
        static_cast<std::uint8_t>(within < 48 ? 64 * source + within / 6 * 8 + within % 6 : 6);
  }
  return index;
}
alignas(64) constexpr std::array<std::uint8_t, 64> kLowBytes = group_bytes(0);
alignas(64) constexpr std::array<std::uint8_t, 64> kHighBytes = group_bytes(64);

}  // namespace

// A byte per cell with bit c set when channel c holds it, and the 6-bit groups packed pairwise
// into 12, 24 and 48 bits: a 64-bit lane then holds 8 cells' 48 inputs in input order, and
// two byte permutes put the lanes' six bytes back to back. About 25 instructions without a
// branch, where setting the cells one by one costs a dependent read-modify-write each.
[[gnu::target("avx512f,avx512bw,avx512vbmi")]] void spread_channels_avx512(const ChannelBoards& boards,
                                                                         ObservationBits& bits) {
  __m512i lanes[2];  // cells 0..63, 64..127 (100..127 empty)
  for (int half = 0; half < 2; ++half) {
    __m512i groups = _mm512_setzero_si512();
    for (int channel = 0; channel < kObservationChannels; ++channel) {
      groups = _mm512_mask_add_epi8(groups, boards.word(2 * channel + half), groups, _mm512_set1_epi8(static_cast<char>(1 << channel)));
    }
    const __m512i twelve = _mm512_maddubs_epi16(groups, _mm512_set1_epi16(64 << 8 | 1));
    const __m512i twenty_four = _mm512_madd_epi16(twelve, _mm512_set1_epi32(4096 << 16 | 1));
    // (GCC 12's _mm512_srli_epi64 warns: -Wuninitialized.)
    const __m512i shifted = reinterpret_cast<__m512i>(reinterpret_cast<__v8du>(twenty_four) >> 8);
    lanes[half] = _mm512_or_si512(_mm512_and_si512(twenty_four, _mm512_set1_epi64(0xffffff)),
                                  _mm512_and_si512(shifted, _mm512_set1_epi64(0xffffff000000)));
  }
  const __m512i low = _mm512_permutex2var_epi8(lanes[0], _mm512_load_si512(kLowBytes.data()), lanes[1]);
  const __m512i high = _mm512_permutex2var_epi8(lanes[0], _mm512_load_si512(kHighBytes.data()), lanes[1]);
  static_assert(ObservationBits::kWords == 10);
  std::uint64_t* words = bits.words().data();
  _mm512_storeu_si512(words, low);  // inputs 0..511
  const __v8du rest = reinterpret_cast<__v8du>(high);  // inputs 512..639 (GCC 12's casts warn)
  words[8] = rest[0];
  words[9] = rest[1];
}
#endif

}  // namespace weightspace
