// SPDX-License-Identifier: GPL-3.0-or-later
#include "games/input_filter.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <iterator>
#include <numeric>
#include <random>
#include <vector>

#include "games/row_inputs.hpp"
#include "listed_inputs.hpp"

namespace weightspace {
namespace {

using testing::listed;

// Ascending lists of every length around the 32-input chunks (and up to all 600), filtered by
// masks from empty to full, every way, against std::copy_if.
TEST(InputFilter, KeepsExactlyTheReadInputsInOrder) {
  std::mt19937 generator(36);
  std::vector<int> all(kInputs);
  std::iota(all.begin(), all.end(), 0);
  for (int round = 0; round < 600; ++round) {
    const int length = round < 70 ? round : (round < 80 ? kInputs - (round - 70) : std::uniform_int_distribution<int>(0, kInputs)(generator));
    std::vector<int> inputs;
    std::sample(all.begin(), all.end(), std::back_inserter(inputs), length, generator);  // ascending
    const double density = round % 5 == 0 ? (round % 10 == 0 ? 0.0 : 1.0) : std::uniform_real_distribution<double>(0, 1)(generator);
    InputMask mask;
    for (int input = 0; input < kInputs; ++input) {
      if (std::bernoulli_distribution(density)(generator)) mask.set(input);
    }
    std::vector<int> want;
    std::copy_if(inputs.begin(), inputs.end(), std::back_inserter(want), [&](int input) { return mask.test(input); });
    const InputFilter filter(mask);
    auto filtered = [&](auto keep) {
      ActiveInputs list;
      std::copy(inputs.begin(), inputs.end(), list.index.begin());
      list.count = length;
      keep(list);
      return listed(list);
    };
    ASSERT_EQ(filtered([&](ActiveInputs& list) { filter.keep(list); }), want) << round;
    ASSERT_EQ(filtered([&](ActiveInputs& list) { filter.keep_portable(list); }), want) << round;
#if WEIGHTSPACE_COMPRESS_EXTRACT
    if (detail::cpu_has_compress()) {
      ASSERT_EQ(filtered([&](ActiveInputs& list) { filter.keep_compressed(list); }), want) << round;
    }
#endif
  }
}

// reads() of any 16-bit value: the mask's inputs, and never 600-1023 nor an empty slot.
TEST(InputFilter, ReadsOnlyTheMasksInputs) {
  InputMask mask;
  for (const int input : {0, 15, 16, 63, 64, 599, 300}) mask.set(input);
  const InputFilter filter(mask);
  const InputFilter every(kAllInputs);
  for (int input = 0; input < kInputs; ++input) EXPECT_EQ(filter.reads(static_cast<std::uint16_t>(input)), mask.test(input)) << input;
  for (int value = kInputs; value < 1024; ++value) {
    EXPECT_FALSE(filter.reads(static_cast<std::uint16_t>(value))) << value;
    EXPECT_FALSE(every.reads(static_cast<std::uint16_t>(value))) << value;
  }
  EXPECT_FALSE(every.reads(RowTriples::kNone));
  for (int input = 0; input < kInputs; ++input) EXPECT_TRUE(every.reads(static_cast<std::uint16_t>(input)));
}

}  // namespace
}  // namespace weightspace
