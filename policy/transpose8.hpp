// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// An 8 x 8 transpose of floats in AVX2 registers, shared by the sampler (eight episodes' logits
// as columns) and the AVX2 lanes of layers 2 and 3 (eight observations' units as columns).
// Inlined, so a caller that reads fewer columns drops the permutes of the others.

#if defined(__AVX2__)
#include <immintrin.h>

namespace weightspace::detail {

// columns[c] (c < 8) = lane c of rows 0..7: pairs, then quads within each 128-bit half, then
// the halves.
[[gnu::always_inline]] inline void transpose8(const __m256 (&rows)[8], __m256* columns) {
  __m256 pairs[8];
  for (int i = 0; i < 8; i += 2) {
    pairs[i] = _mm256_unpacklo_ps(rows[i], rows[i + 1]);      // per half: r_i[0] r_i+1[0] r_i[1] r_i+1[1]
    pairs[i + 1] = _mm256_unpackhi_ps(rows[i], rows[i + 1]);  //           r_i[2] r_i+1[2] r_i[3] r_i+1[3]
  }
  __m256 quads[8];  // quads[4q + j]: rows 4q..4q+3 at column j (low half) and 4 + j (high half)
  for (int q = 0; q < 2; ++q) {
    const __m256* p = pairs + 4 * q;
    quads[4 * q + 0] = _mm256_shuffle_ps(p[0], p[2], 0x44);
    quads[4 * q + 1] = _mm256_shuffle_ps(p[0], p[2], 0xee);
    quads[4 * q + 2] = _mm256_shuffle_ps(p[1], p[3], 0x44);
    quads[4 * q + 3] = _mm256_shuffle_ps(p[1], p[3], 0xee);
  }
  for (int j = 0; j < 4; ++j) {
    columns[j] = _mm256_permute2f128_ps(quads[j], quads[4 + j], 0x20);
    columns[4 + j] = _mm256_permute2f128_ps(quads[j], quads[4 + j], 0x31);
  }
}

}  // namespace weightspace::detail

#endif
