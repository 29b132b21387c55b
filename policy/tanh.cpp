// SPDX-License-Identifier: GPL-3.0-or-later
#include "policy/tanh.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace weightspace {

bool simd_level_available(SimdLevel level) {
  switch (level) {
    case SimdLevel::scalar:
      return true;
    case SimdLevel::avx2:
#if WEIGHTSPACE_SIMD_AVX2
      return true;  // the whole build already requires it
#else
      return false;
#endif
    case SimdLevel::avx512:
#if WEIGHTSPACE_SIMD_AVX512
      // libgcc's check includes the operating system's support for the AVX-512 state.
      return __builtin_cpu_supports("avx512f");
#else
      return false;
#endif
  }
  return false;
}

const char* simd_level_name(SimdLevel level) {
  static const char* const kNames[] = {"scalar", "avx2", "avx512"};
  return kNames[static_cast<int>(level)];
}

SimdLevel best_simd_level() {
  static const SimdLevel best = simd_level_available(SimdLevel::avx512) ? SimdLevel::avx512
                                : simd_level_available(SimdLevel::avx2) ? SimdLevel::avx2
                                                                        : SimdLevel::scalar;
  return best;
}

float numpy_tanh(float x) {
  using namespace detail;
  const std::uint32_t bits = std::bit_cast<std::uint32_t>(x);
  // numpy returns its own quiet NaN (positive, no payload), whatever NaN came in.
  if (std::isnan(x)) return std::numeric_limits<float>::quiet_NaN();
  const std::uint32_t sign = bits & 0x80000000u;
  const auto masked = static_cast<std::int32_t>(bits & static_cast<std::uint32_t>(kTanhIndexMask));
  if (masked > kTanhHugeBits) return std::bit_cast<float>(std::bit_cast<std::uint32_t>(1.0f) | sign);
  const std::int32_t offset = std::clamp(masked - kTanhFirstIntervalBits, 0, kTanhLastIntervalOffset);
  const std::uint32_t* row = kTanhIntervals[offset >> kTanhIntervalShift];
  auto coefficient = [row](int k) { return std::bit_cast<float>(row[k]); };
  const float y = std::fabs(x) - coefficient(0);
  float r = std::fma(coefficient(7), y, coefficient(6));
  for (int k = 5; k >= 1; --k) r = std::fma(r, y, coefficient(k));
  // numpy ORs the sign in rather than negating: the polynomial is never negative here, but the
  // bit operation is what reproduces -0.0 for -0.0.
  return std::bit_cast<float>(std::bit_cast<std::uint32_t>(r) | sign);
}

namespace {

#if WEIGHTSPACE_SIMD_AVX512
#pragma GCC push_options
#pragma GCC target("avx512f")
std::size_t numpy_tanh_avx512(const float* input, float* output, std::size_t count) {
  std::size_t i = 0;
  for (; i + 16 <= count; i += 16) _mm512_storeu_ps(output + i, detail::numpy_tanh_16(_mm512_loadu_ps(input + i)));
  return i;
}
#pragma GCC pop_options
#endif

// Element by element with the kernel of `level`, which the caller has checked.
void numpy_tanh_unchecked(std::span<const float> input, std::span<float> output, [[maybe_unused]] SimdLevel level) {
  const std::size_t count = input.size();
  std::size_t i = 0;
#if WEIGHTSPACE_SIMD_AVX512
  if (level == SimdLevel::avx512) i = numpy_tanh_avx512(input.data(), output.data(), count);
#endif
#if WEIGHTSPACE_SIMD_AVX2
  if (level != SimdLevel::scalar) {
    for (; i + 8 <= count; i += 8) {
      _mm256_storeu_ps(output.data() + i, detail::numpy_tanh_8(_mm256_loadu_ps(input.data() + i)));
    }
  }
#endif
  for (; i < count; ++i) output[i] = numpy_tanh(input[i]);
}

}  // namespace

void numpy_tanh(std::span<const float> input, std::span<float> output, SimdLevel level) {
  if (input.size() != output.size()) throw std::invalid_argument("numpy_tanh: input and output sizes differ");
  if (!simd_level_available(level)) throw std::invalid_argument("numpy_tanh: SIMD level not available");
  numpy_tanh_unchecked(input, output, level);
}

void numpy_tanh(std::span<const float> input, std::span<float> output) {
  if (input.size() != output.size()) throw std::invalid_argument("numpy_tanh: input and output sizes differ");
  numpy_tanh_unchecked(input, output, best_simd_level());
}

void numpy_tanh_32(std::span<float, 32> values) { numpy_tanh_unchecked(values, values, best_simd_level()); }

}  // namespace weightspace
