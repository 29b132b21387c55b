// SPDX-License-Identifier: GPL-3.0-or-later
#include "policy/tanh.hpp"

#include <gtest/gtest.h>

#include <array>
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdio>
#include <limits>
#include <string>
#include <vector>

#include "kernel_inputs.hpp"
#include "support/golden.hpp"

namespace weightspace {
namespace {

using testing::available_levels;
using testing::f32_bits;
using testing::f32_from_hex;
using testing::golden;

struct TanhTable {
  std::vector<float> x;
  std::vector<std::uint32_t> numpy_bits;
};

const TanhTable& tanh_table() {
  static const TanhTable table = [] {
    TanhTable result;
    const auto& json = golden("policy.json").at("tanh_f32");
    for (const auto& hex : json.at("x")) result.x.push_back(f32_from_hex(hex.get<std::string>()));
    for (const auto& hex : json.at("numpy")) {
      result.numpy_bits.push_back(f32_bits(f32_from_hex(hex.get<std::string>())));
    }
    return result;
  }();
  return table;
}

TEST(NumpyTanh, GoldenTableHasItsDocumentedSize) {
  EXPECT_EQ(tanh_table().x.size(), 5000u);
  EXPECT_EQ(tanh_table().numpy_bits.size(), 5000u);
}

TEST(NumpyTanh, ScalarMatchesNumpyOnGoldenTable) {
  const auto& table = tanh_table();
  int mismatches = 0;
  for (std::size_t i = 0; i < table.x.size(); ++i) {
    const std::uint32_t actual = f32_bits(numpy_tanh(table.x[i]));
    if (actual != table.numpy_bits[i]) {
      ++mismatches;
      ADD_FAILURE() << "x bits " << std::hex << f32_bits(table.x[i]) << ": got " << actual << ", numpy "
                    << table.numpy_bits[i];
    }
    if (mismatches > 20) break;
  }
  EXPECT_EQ(mismatches, 0);
}

TEST(NumpyTanh, SpanMatchesNumpyOnGoldenTableAtEveryLevelAlignmentAndLength) {
  const auto& table = tanh_table();
  std::printf("SIMD levels available: %zu (best %d)\n", available_levels().size(), static_cast<int>(best_simd_level()));
  for (SimdLevel level : available_levels()) {
    // Whole table at once, then odd lengths and offsets so that every input goes through the
    // wide body and the narrower tails somewhere.
    std::vector<float> output(table.x.size());
    numpy_tanh(table.x, output, level);
    for (std::size_t i = 0; i < table.x.size(); ++i) {
      ASSERT_EQ(f32_bits(output[i]), table.numpy_bits[i]) << "level " << static_cast<int>(level) << " input " << i;
    }
    for (std::size_t start = 0; start < 16; ++start) {
      for (std::size_t length : {1u, 7u, 9u, 13u, 17u, 31u, 47u}) {
        for (std::size_t base = start; base + length <= table.x.size(); base += 997) {
          std::vector<float> slice(table.x.begin() + static_cast<std::ptrdiff_t>(base),
                                   table.x.begin() + static_cast<std::ptrdiff_t>(base + length));
          numpy_tanh(slice, slice, level);  // in place is allowed
          for (std::size_t k = 0; k < length; ++k) {
            ASSERT_EQ(f32_bits(slice[k]), table.numpy_bits[base + k]) << "level " << static_cast<int>(level);
          }
        }
      }
    }
  }
  std::vector<float> whole(table.x.size());
  numpy_tanh(table.x, whole);  // the default level
  for (std::size_t i = 0; i < table.x.size(); ++i) ASSERT_EQ(f32_bits(whole[i]), table.numpy_bits[i]) << i;
}

TEST(NumpyTanh, BaselineLevelsAreAvailable) {
  EXPECT_TRUE(simd_level_available(SimdLevel::scalar));
#if defined(__AVX2__) && defined(__FMA__)
  EXPECT_TRUE(simd_level_available(SimdLevel::avx2));
#endif
  EXPECT_TRUE(simd_level_available(best_simd_level()));
}

TEST(NumpyTanh, Tanh32MatchesScalar) {
  const auto& table = tanh_table();
  for (std::size_t base = 0; base + 32 <= table.x.size(); base += 32) {
    std::array<float, 32> values{};
    std::copy_n(table.x.begin() + static_cast<std::ptrdiff_t>(base), 32, values.begin());
    numpy_tanh_32(values);
    for (std::size_t k = 0; k < 32; ++k) ASSERT_EQ(f32_bits(values[k]), table.numpy_bits[base + k]) << base + k;
  }
}

TEST(NumpyTanh, SpecialValues) {
  // numpy: tanh(+-inf) = +-1, any NaN gives its default quiet NaN 0x7fc00000, +-0 keep their sign.
  const float inf = std::numeric_limits<float>::infinity();
  const float negative_nan = std::bit_cast<float>(0xffc00001u);
  const float signalling_nan = std::bit_cast<float>(0x7f800001u);
  std::vector<float> input{inf, -inf, negative_nan, signalling_nan, 0.0f, -0.0f};
  const std::vector<std::uint32_t> expected{0x3f800000u, 0xbf800000u, 0x7fc00000u, 0x7fc00000u, 0u, 0x80000000u};
  for (std::size_t i = 0; i < input.size(); ++i) EXPECT_EQ(f32_bits(numpy_tanh(input[i])), expected[i]) << i;
  for (SimdLevel level : available_levels()) {
    // Padded to 16 so that the values go through the widest kernel.
    std::vector<float> padded(16, 0.5f), result(16);
    std::copy(input.begin(), input.end(), padded.begin());
    numpy_tanh(padded, result, level);
    for (std::size_t i = 0; i < input.size(); ++i) EXPECT_EQ(f32_bits(result[i]), expected[i]) << i;
  }
}

TEST(NumpyTanh, RejectsMismatchedSpans) {
  std::vector<float> input(4), output(3);
  EXPECT_THROW(numpy_tanh(input, output), std::invalid_argument);
}

}  // namespace
}  // namespace weightspace
