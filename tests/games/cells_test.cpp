// SPDX-License-Identifier: GPL-3.0-or-later
#include "games/cells.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <iterator>
#include <numeric>
#include <random>
#include <set>
#include <utility>
#include <vector>

#include "listed_inputs.hpp"

namespace weightspace {
namespace {

using testing::listed;

// Random sets of inputs, from empty to full, through every way of reading them back.
TEST(ObservationBits, ExtractListsEachSetInputOnceInAscendingOrder) {
  std::mt19937 generator(5);
  for (int round = 0; round < 2000; ++round) {
    const double density = round == 0 ? 0.0 : (round == 1 ? 1.0 : std::uniform_real_distribution<double>(0, 1)(generator));
    std::bernoulli_distribution on(density);
    ObservationBits bits;
    std::set<int> expected;
    for (int repeat = 0; repeat < 2; ++repeat) {  // setting an input twice changes nothing
      for (int input = 0; input < kInputs; ++input) {
        if (on(generator)) {
          bits.set(input);
          expected.insert(input);
        }
      }
    }
    // Every input, then a random mask: sometimes sparse (whole words left out), sometimes empty.
    InputMask mask;
    const double kept = round % 3 == 0 ? 0.0 : std::uniform_real_distribution<double>(0, 0.3)(generator);
    std::bernoulli_distribution keep(kept);
    for (int input = 0; input < kInputs; ++input) {
      if (keep(generator)) mask.set(input);
    }
    std::vector<int> masked;
    std::copy_if(expected.begin(), expected.end(), std::back_inserter(masked), [&](int i) { return mask.test(i); });
    for (const auto& [selection, want] : {std::pair{&kAllInputs, std::vector<int>(expected.begin(), expected.end())},
                                          std::pair{static_cast<const InputMask*>(&mask), masked}}) {
      ActiveInputs portable, chosen;
      bits.extract_portable(portable, *selection);
      bits.extract(chosen, *selection);
      ASSERT_EQ(listed(portable), want) << round;
      ASSERT_EQ(listed(chosen), want) << round;
#if WEIGHTSPACE_COMPRESS_EXTRACT
      if (detail::cpu_has_compress()) {
        ActiveInputs compressed;
        bits.extract_compressed(compressed, *selection);
        ASSERT_EQ(listed(compressed), want) << round;
      }
#endif
    }
  }
}

// extract_compressed visits the words differently for masks of up to kFewInputs inputs and
// for denser ones: both, at the boundary, on observations from empty to full.
TEST(ObservationBits, ExtractIsTheSameEitherSideOfTheFewInputsBoundary) {
  std::mt19937 generator(11);
  for (int round = 0; round < 400; ++round) {
    std::vector<int> order(kInputs);
    std::iota(order.begin(), order.end(), 0);
    std::shuffle(order.begin(), order.end(), generator);
    ObservationBits bits;
    const double density = std::uniform_real_distribution<double>(0, 1)(generator);
    for (int input = 0; input < kInputs; ++input) {
      if (std::bernoulli_distribution(density)(generator)) bits.set(input);
    }
    for (const int read : {ObservationBits::kFewInputs, ObservationBits::kFewInputs + 1, 1, 0}) {
      InputMask mask;
      for (int i = 0; i < read; ++i) mask.set(order[static_cast<std::size_t>(i)]);
      mask.set(order[0]);  // a second set changes nothing
      ASSERT_EQ(mask.count(), std::max(read, 1));
      ActiveInputs portable, chosen;
      bits.extract_portable(portable, mask);
      bits.extract(chosen, mask);
      ASSERT_EQ(listed(chosen), listed(portable)) << round << " " << read;
    }
  }
}

TEST(InputMask, HoldsItsInputsInWordsOf64) {
  InputMask mask;
  EXPECT_TRUE(mask.empty());
  for (int w = 0; w < InputMask::kWords; ++w) EXPECT_EQ(mask.word(w), 0U);
  for (const int input : {599, 3, 130, 64, 131, 0}) mask.set(input);
  EXPECT_FALSE(mask.empty());
  EXPECT_EQ(mask.count(), 6);
  std::vector<int> words;
  for (int w = 0; w < InputMask::kWords; ++w) {
    if (mask.word(w) != 0) words.push_back(w);
  }
  EXPECT_EQ(words, (std::vector<int>{0, 1, 2, 9}));
  EXPECT_EQ(mask.word(2), (std::uint64_t{1} << 2) | (std::uint64_t{1} << 3));
  EXPECT_TRUE(mask.test(130));
  EXPECT_FALSE(mask.test(129));
  EXPECT_EQ(kAllInputs.count(), kInputs);
  for (int w = 0; w < InputMask::kWords; ++w) EXPECT_NE(kAllInputs.word(w), 0U);
}

TEST(ObservationBits, SetRowEqualsSettingEachCell) {
  std::mt19937 generator(11);
  for (int round = 0; round < 5000; ++round) {
    ObservationBits by_row, by_cell;
    for (int row = 0; row < kGridSize; ++row) {
      const auto cells = static_cast<std::uint32_t>(generator() % 1024);
      const auto channels = static_cast<unsigned>(generator() % 64);
      by_row.set_row(row, cells, channels);
      for (int x = 0; x < kGridSize; ++x) {
        for (int channel = 0; channel < kObservationChannels; ++channel) {
          if (((cells >> x) & 1U) && ((channels >> channel) & 1U)) {
            by_cell.set((row * kGridSize + x) * kObservationChannels + channel);
          }
        }
      }
    }
    ActiveInputs rows, cells;
    by_row.extract(rows);
    by_cell.extract(cells);
    ASSERT_EQ(listed(rows), listed(cells)) << round;
  }
}

}  // namespace
}  // namespace weightspace
