// SPDX-License-Identifier: GPL-3.0-or-later
// numpy_tanh on all 2^32 float32 inputs against tests/golden/tanh_exhaustive.json.
#include <gtest/gtest.h>

#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "policy/tanh.hpp"
#include "support/golden.hpp"

namespace weightspace {
namespace {

constexpr std::uint64_t kChunkSize = std::uint64_t{1} << 24;
constexpr int kChunkCount = 256;
constexpr std::uint32_t kBlock = 4096;

// The file's checksum term for one input and its tanh (definition in tanh_exhaustive.json).
std::uint64_t checksum_term(std::uint32_t input_bits, float y) {
  const std::uint32_t y_bits = std::isnan(y) ? 0x7fc00000u : std::bit_cast<std::uint32_t>(y);
  std::uint64_t z = (std::uint64_t{y_bits} << 32) | input_bits;
  z ^= z >> 30;
  z *= 0xbf58476d1ce4e5b9ull;
  z ^= z >> 27;
  z *= 0x94d049bb133111ebull;
  z ^= z >> 31;
  return z;
}

std::string hex16(std::uint64_t value) {
  char text[17];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(value));
  return text;
}

std::vector<std::string> expected_checksums() {
  const auto& json = testing::golden("tanh_exhaustive.json");
  return json.at("numpy_simd").get<std::vector<std::string>>();
}

// Every chunk through the widest kernel of this machine, checked against numpy's checksums;
// the other kernels (scalar included) are compared with it input by input.
TEST(NumpyTanhExhaustive, AllInputsMatchNumpyChecksumsAtEveryLevel) {
  const auto expected = expected_checksums();
  ASSERT_EQ(expected.size(), static_cast<std::size_t>(kChunkCount));
  const SimdLevel best = best_simd_level();
  std::vector<SimdLevel> others;
  for (SimdLevel level : {SimdLevel::scalar, SimdLevel::avx2, SimdLevel::avx512}) {
    if (level != best && simd_level_available(level)) others.push_back(level);
  }
  std::vector<float> input(kBlock), output(kBlock), other(kBlock);
  int chunks_differing = 0;
  std::uint64_t level_mismatches = 0;
  for (int chunk = 0; chunk < kChunkCount; ++chunk) {
    std::uint64_t sum = 0;
    const std::uint64_t first = static_cast<std::uint64_t>(chunk) * kChunkSize;
    for (std::uint64_t block = first; block < first + kChunkSize; block += kBlock) {
      for (std::uint32_t k = 0; k < kBlock; ++k) input[k] = std::bit_cast<float>(static_cast<std::uint32_t>(block + k));
      numpy_tanh(input, output, best);
      for (std::uint32_t k = 0; k < kBlock; ++k) sum += checksum_term(static_cast<std::uint32_t>(block + k), output[k]);
      for (SimdLevel level : others) {
        numpy_tanh(input, other, level);
        for (std::uint32_t k = 0; k < kBlock; ++k) {
          if (std::bit_cast<std::uint32_t>(other[k]) != std::bit_cast<std::uint32_t>(output[k]) &&
              level_mismatches++ < 10) {
            ADD_FAILURE() << "level " << static_cast<int>(level) << " differs from level " << static_cast<int>(best)
                          << " at input bits " << std::hex << (block + k);
          }
        }
      }
    }
    if (hex16(sum) != expected[static_cast<std::size_t>(chunk)]) {
      ++chunks_differing;
      ADD_FAILURE() << "chunk " << chunk << ": " << hex16(sum) << " != numpy "
                    << expected[static_cast<std::size_t>(chunk)];
    }
  }
  EXPECT_EQ(chunks_differing, 0);
  EXPECT_EQ(level_mismatches, 0u);
}

}  // namespace
}  // namespace weightspace
