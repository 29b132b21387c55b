// SPDX-License-Identifier: GPL-3.0-or-later
// Layers 2 and 3 with the observations in the lanes (policy/layers.hpp, SparseColumns).
//
// The row kernels of forward.cpp give each observation its own registers, an output unit in
// each lane, and add a whole W2 row per kept hidden-1 unit: for synth asterix's example (32
// kept hidden-1 units, 4 hidden-2 units, 32 non-zero W2 weights) that is 32 multiplies and adds
// of 16 lanes, of which 4 are used, and a tanh of 16 lanes for 4 units, per observation. Here
// a register holds one unit of 16 observations, so each non-zero weight costs a multiply and
// an add for 16 observations, and tanh runs once per kept unit of either layer. The sums are the same: each
// lane adds its observation's terms in ascending input order from +0.0f, then the bias.
// AVX2 does the same with 8 observations in the lanes.
#include "policy/layers.hpp"
#include "policy/transpose8.hpp"

#include <algorithm>

namespace weightspace::detail {

#if WEIGHTSPACE_SIMD_AVX2

namespace {

constexpr int kLanes8 = 8;

__m256 sum_of_terms8(const __m256* units, const SparseTerm* first, const SparseTerm* last) {
  __m256 acc = _mm256_setzero_ps();
  for (const SparseTerm* term = first; term != last; ++term) {
    acc = _mm256_add_ps(acc, _mm256_mul_ps(units[term->input], _mm256_set1_ps(term->weight)));
  }
  return acc;
}

}  // namespace

void sparse_layers23_avx2(const Layers& layers, const PolicyActivations* acts, int count, Logits* out) {
  const SparseColumns& columns = *layers.sparse;
  // Lane n of hidden1[k]: observation n's hidden-1 unit k.
  __m256 hidden1[kHiddenCount];
  for (int block = 0; block * kLanes8 < layers.rows2; ++block) {
    __m256 rows[kLanes8];
    for (int n = 0; n < kLanes8; ++n) rows[n] = _mm256_load_ps(acts[n].hidden1.data() + block * kLanes8);
    transpose8(rows, hidden1 + block * kLanes8);
  }
  for (int k = 0; k < layers.rows2; ++k) hidden1[k] = numpy_tanh_8(hidden1[k]);
  __m256 hidden2[kHiddenCount];
  for (int m = 0; m < layers.rows3; ++m) {
    const __m256 sum = sum_of_terms8(hidden1, columns.terms2.data() + columns.starts2[m],
                                     columns.terms2.data() + columns.starts2[m + 1]);
    hidden2[m] = numpy_tanh_8(_mm256_add_ps(sum, _mm256_set1_ps(layers.b2[m])));
  }
  alignas(32) float logits[kActionCount][kLanes8];
  for (int a = 0; a < kActionCount; ++a) {
    const __m256 sum = sum_of_terms8(hidden2, columns.terms3.data() + columns.starts3[a],
                                     columns.terms3.data() + columns.starts3[a + 1]);
    _mm256_store_ps(logits[a], _mm256_add_ps(sum, _mm256_set1_ps(layers.b3[a])));
  }
  for (int n = 0; n < count; ++n) {
    for (int a = 0; a < kActionCount; ++a) out[n][a] = logits[a][n];
  }
}

#endif

#if WEIGHTSPACE_SIMD_AVX512
#pragma GCC push_options
#pragma GCC target("avx512f")

namespace {

constexpr int kLanes = 16;

// columns[c] = lane c of rows 0..15 (a 16 x 16 transpose: pairs, then quads of floats within
// each 128-bit block, then the blocks). Shuffles, not gathers: gathering 32 units of 16
// observations took three quarters of this file's time (synth asterix's example).
// The zero-masked forms with a full mask are the plain instructions; GCC 12's unmasked
// intrinsics trip -Wmaybe-uninitialized (GCC bug 105593).
constexpr __mmask16 kAll = 0xffff;

void transpose16(const __m512 (&rows)[kLanes], __m512* columns) {
  __m512 pairs[kLanes];
  for (int i = 0; i < kLanes; i += 2) {
    pairs[i] = _mm512_maskz_unpacklo_ps(kAll, rows[i], rows[i + 1]);      // per block: r_i[0] r_i+1[0] r_i[1] r_i+1[1]
    pairs[i + 1] = _mm512_maskz_unpackhi_ps(kAll, rows[i], rows[i + 1]);  //            r_i[2] r_i+1[2] r_i[3] r_i+1[3]
  }
  __m512 quads[kLanes];  // quads[4q + j]: rows 4q..4q+3 at column j of each 128-bit block
  for (int q = 0; q < 4; ++q) {
    const __m512* p = pairs + 4 * q;
    quads[4 * q + 0] = _mm512_maskz_shuffle_ps(kAll, p[0], p[2], 0x44);
    quads[4 * q + 1] = _mm512_maskz_shuffle_ps(kAll, p[0], p[2], 0xee);
    quads[4 * q + 2] = _mm512_maskz_shuffle_ps(kAll, p[1], p[3], 0x44);
    quads[4 * q + 3] = _mm512_maskz_shuffle_ps(kAll, p[1], p[3], 0xee);
  }
  // Block b of quads[4q + j] holds column 4b + j of rows 4q..4q+3.
  __m512 halves[kLanes];  // rows 0-7 (j) and 8-15 (8 + j): blocks of columns j, 8 + j (0x88) or 4 + j, 12 + j (0xdd)
  for (int j = 0; j < 4; ++j) {
    halves[j] = _mm512_maskz_shuffle_f32x4(kAll, quads[j], quads[4 + j], 0x88);
    halves[4 + j] = _mm512_maskz_shuffle_f32x4(kAll, quads[j], quads[4 + j], 0xdd);
    halves[8 + j] = _mm512_maskz_shuffle_f32x4(kAll, quads[8 + j], quads[12 + j], 0x88);
    halves[12 + j] = _mm512_maskz_shuffle_f32x4(kAll, quads[8 + j], quads[12 + j], 0xdd);
  }
  for (int j = 0; j < 8; ++j) {
    columns[j] = _mm512_maskz_shuffle_f32x4(kAll, halves[j], halves[8 + j], 0x88);
    columns[8 + j] = _mm512_maskz_shuffle_f32x4(kAll, halves[j], halves[8 + j], 0xdd);
  }
}

__m512 sum_of_terms(const __m512* units, const SparseTerm* first, const SparseTerm* last) {
  __m512 acc = _mm512_setzero_ps();
  for (const SparseTerm* term = first; term != last; ++term) {
    acc = _mm512_add_ps(acc, _mm512_mul_ps(units[term->input], _mm512_set1_ps(term->weight)));
  }
  return acc;
}

}  // namespace

void sparse_layers23_avx512(const Layers& layers, const PolicyActivations* acts, int count, Logits* out) {
  const SparseColumns& columns = *layers.sparse;
  // Lane n of hidden1[k]: observation n's hidden-1 unit k.
  __m512 hidden1[kHiddenCount];
  for (int block = 0; block * kLanes < layers.rows2; ++block) {
    __m512 rows[kLanes];
    for (int n = 0; n < kLanes; ++n) rows[n] = _mm512_load_ps(acts[n].hidden1.data() + block * kLanes);
    transpose16(rows, hidden1 + block * kLanes);
  }
  for (int k = 0; k < layers.rows2; ++k) hidden1[k] = numpy_tanh_16(hidden1[k]);
  __m512 hidden2[kHiddenCount];
  for (int m = 0; m < layers.rows3; ++m) {
    const __m512 sum = sum_of_terms(hidden1, columns.terms2.data() + columns.starts2[m],
                                    columns.terms2.data() + columns.starts2[m + 1]);
    hidden2[m] = numpy_tanh_16(_mm512_add_ps(sum, _mm512_set1_ps(layers.b2[m])));
  }
  alignas(64) float logits[kActionCount][kLanes];
  for (int a = 0; a < kActionCount; ++a) {
    const __m512 sum = sum_of_terms(hidden2, columns.terms3.data() + columns.starts3[a],
                                    columns.terms3.data() + columns.starts3[a + 1]);
    _mm512_store_ps(logits[a], _mm512_add_ps(sum, _mm512_set1_ps(layers.b3[a])));
  }
  for (int n = 0; n < count; ++n) {
    for (int a = 0; a < kActionCount; ++a) out[n][a] = logits[a][n];
  }
}

#pragma GCC pop_options
#endif

}  // namespace weightspace::detail
