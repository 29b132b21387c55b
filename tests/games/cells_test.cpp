// SPDX-License-Identifier: GPL-3.0-or-later
#include "games/cells.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <set>
#include <vector>

namespace weightspace {
namespace {

std::vector<int> listed(const ActiveInputs& inputs) {
  return {inputs.index.begin(), inputs.index.begin() + inputs.count};
}

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
    const std::vector<int> want(expected.begin(), expected.end());
    ActiveInputs portable, chosen;
    bits.extract_portable(portable);
    bits.extract(chosen);
    ASSERT_EQ(listed(portable), want) << round;
    ASSERT_EQ(listed(chosen), want) << round;
#if WEIGHTSPACE_COMPRESS_EXTRACT
    if (detail::cpu_has_compress()) {
      ActiveInputs compressed;
      bits.extract_compressed(compressed);
      ASSERT_EQ(listed(compressed), want) << round;
    }
#endif
  }
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
