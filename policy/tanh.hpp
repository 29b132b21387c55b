// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>

#if defined(__AVX2__) && defined(__FMA__)
#include <immintrin.h>
#define WEIGHTSPACE_SIMD_AVX2 1
// AVX-512 kernels are compiled in as well (with a function-level target, as the build itself
// targets x86-64-v3) and chosen at run time when the CPU has AVX-512F.
#if defined(__x86_64__) && defined(__GNUC__)
#define WEIGHTSPACE_SIMD_AVX512 1
#endif
#endif

namespace weightspace {

// The instruction sets the policy kernels come in. Every level gives the same bits.
enum class SimdLevel { scalar, avx2, avx512 };
inline constexpr std::size_t kSimdLevels = 3;

// Whether this build and this CPU can run `level`; scalar always can.
bool simd_level_available(SimdLevel level);
// The fastest available level, detected once.
SimdLevel best_simd_level();
// "scalar", "avx2" or "avx512", as `weightspace --version` prints it.
const char* simd_level_name(SimdLevel level);

// np.tanh on float32 as numpy 1.24 computes it on any CPU with AVX2+FMA3 or AVX-512 (its own
// SIMD polynomial, not glibc tanhf), bit for bit for every one of the 2^32 inputs.
float numpy_tanh(float x);

// Element by element, same bits as numpy_tanh(float), with the best_simd_level() kernel.
// input and output must have the same size (else std::invalid_argument); they may be the same
// span, but must not otherwise overlap.
void numpy_tanh(std::span<const float> input, std::span<float> output);
// The same with a given kernel (tests compare the levels); std::invalid_argument if the level
// is not available.
void numpy_tanh(std::span<const float> input, std::span<float> output, SimdLevel level);

// The policy's 32-wide hidden layer, in place.
void numpy_tanh_32(std::span<float, 32> values);

namespace detail {

// Algorithm and coefficients from numpy 1.24, numpy/core/src/umath/loops_hyperbolic.dispatch.c.src
// (simd_tanh_f32, itself converted from Intel SVML), Copyright (c) 2005-2022 NumPy Developers,
// BSD-3-Clause licence. tanh(|x|) on 32 intervals of |x|, each a degree-6 polynomial in
// y = |x| - centre, evaluated by Horner's rule with fused multiply-adds.
//
// One row per interval, 32 bytes so that the vector path loads a row at once:
// {centre, c0, c1, c2, c3, c4, c5, c6} as float32 bit patterns. Row 31 (|x| >= 10 up to the
// huge threshold) is the constant 1.
alignas(32) inline constexpr std::uint32_t kTanhIntervals[32][8] = {
    {0x00000000, 0x00000000, 0x3f800000, 0xb0343c7b, 0xbeaaaaa5, 0xb76dd6b9, 0x3e0910e9, 0xbc0e2f66},
    {0x3d700000, 0x3d6fb9c9, 0x3f7f1f84, 0xbd6ee69d, 0xbeab0612, 0xbe1c276d, 0x43761143, 0x460bda12},
    {0x3d900000, 0x3d8fc35f, 0x3f7ebd11, 0xbd8f0da7, 0xbea7f01f, 0x3c1dcf2f, 0x4165ecdc, 0x43d638ef},
    {0x3db00000, 0x3daf9169, 0x3f7e1e5f, 0xbdae477d, 0xbea4e120, 0x3dc1a78d, 0xc190f756, 0xc3e11c3e},
    {0x3dd00000, 0x3dcf49ab, 0x3f7d609f, 0xbdcd2a1f, 0xbea387b7, 0x3d96f985, 0xc08c097d, 0xc2baa4e9},
    {0x3df00000, 0x3deee849, 0x3f7c842d, 0xbdeba80d, 0xbea15962, 0x3da2b61b, 0xc02ba813, 0xc249da2d},
    {0x3e100000, 0x3e0f0ee8, 0x3f7b00e5, 0xbe0c443b, 0xbe9d57f7, 0x3dc13397, 0xbf7f6bda, 0xc1859b82},
    {0x3e300000, 0x3e2e4984, 0x3f789580, 0xbe293cf3, 0xbe976b5a, 0x3dd2f670, 0x3f2b1dc0, 0x40dd5b57},
    {0x3e500000, 0x3e4d2f8e, 0x3f75b8ad, 0xbe44f282, 0xbe90230d, 0x3df48a0a, 0x3ece105d, 0x40494640},
    {0x3e700000, 0x3e6bb32e, 0x3f726fd9, 0xbe5f3651, 0xbe880dff, 0x3e06c5a8, 0x3f426a94, 0x40c730a8},
    {0x3e900000, 0x3e8c51cd, 0x3f6cc59b, 0xbe81c7c0, 0xbe7479b3, 0x3e1a3aba, 0xbadb0dc4, 0xbf0f160e},
    {0x3eb00000, 0x3ea96163, 0x3f63fb92, 0xbe96d7ca, 0xbe4c3d88, 0x3e27c405, 0x3da43b17, 0x3e30e76f},
    {0x3ed00000, 0x3ec543f1, 0x3f59ff97, 0xbea7fb8e, 0xbe212482, 0x3e2e78d0, 0xbd51ab88, 0xbea81387},
    {0x3ef00000, 0x3edfd735, 0x3f4f11d7, 0xbeb50e9e, 0xbdeb8cba, 0x3e2c3e44, 0xbcaea23d, 0xbdb26a1c},
    {0x3f100000, 0x3f028438, 0x3f3d7573, 0xbec12efe, 0xbd5e78ad, 0x3e1d3097, 0xbd3b6d8d, 0xbd351e57},
    {0x3f300000, 0x3f18abf0, 0x3f24f360, 0xbec4be92, 0x3c6b5e6e, 0x3df4a8f4, 0xbd6caaad, 0xbb4c01a0},
    {0x3f500000, 0x3f2bc480, 0x3f0cbfe7, 0xbebce070, 0x3d839143, 0x3da38508, 0xbd795bed, 0x3c1d7bfb},
    {0x3f700000, 0x3f3bec1c, 0x3eec1a69, 0xbead510e, 0x3dc21ee1, 0x3d31416a, 0xbd5fddda, 0x3c722cd1},
    {0x3f900000, 0x3f4f2e5b, 0x3eb0a801, 0xbe8ef7d6, 0x3de347af, 0x3b562657, 0xbd038f3b, 0x3c973f1c},
    {0x3fb00000, 0x3f613c53, 0x3e6753a2, 0xbe4b8704, 0x3dcbec96, 0xbcaeeac9, 0xbc1cad63, 0x3c33a31b},
    {0x3fd00000, 0x3f6ce37d, 0x3e132f1a, 0xbe083237, 0x3d99ef2d, 0xbcce9419, 0x3abb4766, 0x3b862ef4},
    {0x3ff00000, 0x3f743c4f, 0x3db7e7d3, 0xbdaf7449, 0x3d542ea1, 0xbcaaeac4, 0x3b95f10b, 0x3a27b3d0},
    {0x40100000, 0x3f7a5feb, 0x3d320845, 0xbd2e1ec4, 0x3cdde701, 0xbc49e7d0, 0x3b825873, 0xba3b5907},
    {0x40300000, 0x3f7dea85, 0x3c84d3d4, 0xbc83bf06, 0x3c2cca67, 0xbba71ddd, 0x3afaea66, 0xba0efc22},
    {0x40500000, 0x3f7f3b3d, 0x3bc477b7, 0xbbc3e0b5, 0x3b81cb27, 0xbb003b0e, 0x3a49f878, 0xb97f9f0f},
    {0x40700000, 0x3f7fb78c, 0x3b10d3da, 0xbb10aadc, 0x3ac073a1, 0xba3f9a05, 0x39996bf3, 0xb8c8af50},
    {0x40900000, 0x3f7fefd4, 0x3a01601e, 0xba0157db, 0x39ac3032, 0xb92c08a7, 0x388f3e6c, 0xb7bdddfb},
    {0x40b00000, 0x3f7ffdd0, 0x388c1a3b, 0xb88c18f2, 0x383a94d9, 0xb7ba9232, 0x371bb0e3, 0xb64f2950},
    {0x40d00000, 0x3f7fffb4, 0x3717b0da, 0xb717b096, 0x36ca081d, 0xb64a0b0f, 0x35a8a5e6, 0xb4e085b1},
    {0x40f00000, 0x3f7ffff6, 0x35a43bce, 0xb5a43bae, 0x355abd4c, 0xb4dac169, 0x34369b17, 0xb3731dfa},
    {0x41100000, 0x3f7fffff, 0x338306c6, 0xb383012c, 0x332b3cb6, 0xb2ab78ac, 0x322487b0, 0xb15a1f04},
    {0x00000000, 0x3f800000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000},
};

// The interval is chosen from the exponent and the top two mantissa bits of |x|: 0 below
// 0.0546875 (bits 0x3d600000), then one per quarter octave, 31 from 10.0 on. Inputs whose
// masked bits exceed kTanhHugeBits (|x| >= 1.25 * 2^127, inf, NaN) never reach the polynomial.
inline constexpr std::int32_t kTanhIndexMask = 0x7fe00000;
inline constexpr std::int32_t kTanhHugeBits = 0x7f000000;
inline constexpr std::int32_t kTanhFirstIntervalBits = 0x3d400000;
inline constexpr std::int32_t kTanhLastIntervalOffset = 0x3e00000;
inline constexpr int kTanhIntervalShift = 21;

#if WEIGHTSPACE_SIMD_AVX2
// Eight lanes of numpy_tanh. The coefficient rows of the eight lanes are loaded whole and
// transposed, which is cheaper than eight gathers.
inline __m256 numpy_tanh_8(__m256 x) {
  const __m256i bits = _mm256_castps_si256(x);
  const __m256i masked = _mm256_and_si256(bits, _mm256_set1_epi32(kTanhIndexMask));
  const __m256 huge = _mm256_castsi256_ps(_mm256_cmpgt_epi32(masked, _mm256_set1_epi32(kTanhHugeBits)));
  __m256i offset = _mm256_sub_epi32(masked, _mm256_set1_epi32(kTanhFirstIntervalBits));
  offset = _mm256_max_epi32(offset, _mm256_setzero_si256());
  offset = _mm256_min_epi32(offset, _mm256_set1_epi32(kTanhLastIntervalOffset));
  // Row byte offsets: interval * 32.
  const __m256i row_bytes = _mm256_srli_epi32(offset, kTanhIntervalShift - 5);
  alignas(32) std::int32_t rows[8];
  _mm256_store_si256(reinterpret_cast<__m256i*>(rows), row_bytes);
  const char* table = reinterpret_cast<const char*>(kTanhIntervals);
  auto half = [&](int lane, int upper) {
    return reinterpret_cast<const float*>(table + rows[lane] + 16 * upper);
  };
  // Lanes k and k+4 share a register: the low 128 bits hold lane k, the high lane k+4.
  auto pair = [&](int lane, int upper) {
    return _mm256_insertf128_ps(_mm256_castps128_ps256(_mm_load_ps(half(lane, upper))),
                                _mm_load_ps(half(lane + 4, upper)), 1);
  };
  // 4x4 transpose within each 128-bit half: four rows {a0,a1,a2,a3} become four columns.
  auto transpose = [](__m256 r0, __m256 r1, __m256 r2, __m256 r3, __m256 out[4]) {
    const __m256 t0 = _mm256_unpacklo_ps(r0, r1);
    const __m256 t1 = _mm256_unpackhi_ps(r0, r1);
    const __m256 t2 = _mm256_unpacklo_ps(r2, r3);
    const __m256 t3 = _mm256_unpackhi_ps(r2, r3);
    out[0] = _mm256_shuffle_ps(t0, t2, 0x44);
    out[1] = _mm256_shuffle_ps(t0, t2, 0xee);
    out[2] = _mm256_shuffle_ps(t1, t3, 0x44);
    out[3] = _mm256_shuffle_ps(t1, t3, 0xee);
  };
  __m256 low[4];   // centre, c0, c1, c2
  __m256 high[4];  // c3, c4, c5, c6
  transpose(pair(0, 0), pair(1, 0), pair(2, 0), pair(3, 0), low);
  transpose(pair(0, 1), pair(1, 1), pair(2, 1), pair(3, 1), high);

  const __m256 sign_mask = _mm256_castsi256_ps(_mm256_set1_epi32(static_cast<int>(0x80000000u)));
  const __m256 sign = _mm256_and_ps(x, sign_mask);
  const __m256 y = _mm256_sub_ps(_mm256_andnot_ps(sign_mask, x), low[0]);
  __m256 r = _mm256_fmadd_ps(high[3], y, high[2]);
  r = _mm256_fmadd_ps(r, y, high[1]);
  r = _mm256_fmadd_ps(r, y, high[0]);
  r = _mm256_fmadd_ps(r, y, low[3]);
  r = _mm256_fmadd_ps(r, y, low[2]);
  r = _mm256_fmadd_ps(r, y, low[1]);
  r = _mm256_blendv_ps(r, _mm256_set1_ps(1.0f), huge);
  r = _mm256_or_ps(r, sign);
  const __m256 nan = _mm256_cmp_ps(x, x, _CMP_UNORD_Q);
  return _mm256_blendv_ps(r, _mm256_castsi256_ps(_mm256_set1_epi32(0x7fc00000)), nan);
}
#endif

// The table by coefficient: column k holds coefficient k of the 32 intervals, so that one
// two-register permute looks up sixteen lanes at once.
struct TanhColumns {
  alignas(64) std::uint32_t column[8][32];
};
constexpr TanhColumns transpose_tanh_intervals() {
  TanhColumns columns{};
  for (int interval = 0; interval < 32; ++interval) {
    for (int k = 0; k < 8; ++k) columns.column[k][interval] = kTanhIntervals[interval][k];
  }
  return columns;
}
inline constexpr TanhColumns kTanhColumns = transpose_tanh_intervals();

#if WEIGHTSPACE_SIMD_AVX512
#pragma GCC push_options
#pragma GCC target("avx512f")
// Sixteen lanes of numpy_tanh; callers must be compiled for AVX-512F too and run only when
// simd_level_available(SimdLevel::avx512).
inline __m512 numpy_tanh_16(__m512 x) {
  const __m512i bits = _mm512_castps_si512(x);
  const __m512i masked = _mm512_and_si512(bits, _mm512_set1_epi32(kTanhIndexMask));
  const __mmask16 huge = _mm512_cmpgt_epi32_mask(masked, _mm512_set1_epi32(kTanhHugeBits));
  __m512i offset = _mm512_sub_epi32(masked, _mm512_set1_epi32(kTanhFirstIntervalBits));
  // The zero-masked forms with a full mask are the plain instructions; GCC 12's unmasked
  // intrinsics trip -Wmaybe-uninitialized (GCC bug 105593).
  constexpr __mmask16 all = 0xffff;
  offset = _mm512_maskz_max_epi32(all, offset, _mm512_setzero_si512());
  offset = _mm512_maskz_min_epi32(all, offset, _mm512_set1_epi32(kTanhLastIntervalOffset));
  const __m512i interval = _mm512_maskz_srli_epi32(all, offset, kTanhIntervalShift);
  auto coefficient = [interval](int k) {
    const auto* column = reinterpret_cast<const float*>(kTanhColumns.column[k]);
    return _mm512_permutex2var_ps(_mm512_load_ps(column), interval, _mm512_load_ps(column + 16));
  };
  const __m512i sign = _mm512_and_si512(bits, _mm512_set1_epi32(static_cast<int>(0x80000000u)));
  const __m512 magnitude = _mm512_castsi512_ps(_mm512_and_si512(bits, _mm512_set1_epi32(0x7fffffff)));
  const __m512 y = _mm512_sub_ps(magnitude, coefficient(0));
  __m512 r = _mm512_fmadd_ps(coefficient(7), y, coefficient(6));
  for (int k = 5; k >= 1; --k) r = _mm512_fmadd_ps(r, y, coefficient(k));
  r = _mm512_mask_blend_ps(huge, r, _mm512_set1_ps(1.0f));
  r = _mm512_castsi512_ps(_mm512_or_si512(_mm512_castps_si512(r), sign));
  const __mmask16 nan = _mm512_cmp_ps_mask(x, x, _CMP_UNORD_Q);
  return _mm512_mask_blend_ps(nan, r, _mm512_castsi512_ps(_mm512_set1_epi32(0x7fc00000)));
}
#pragma GCC pop_options
#endif

}  // namespace detail
}  // namespace weightspace
