// SPDX-License-Identifier: GPL-3.0-or-later
#include "games/row_inputs.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

#include "listed_inputs.hpp"

namespace weightspace {
namespace {

using testing::listed;

// Random rows of up to three distinct inputs each, slots filled in any order (a slot may be
// set twice, the last value counting), through every way of writing them.
TEST(RowTriples, WritesTheFilledSlotsInAscendingOrder) {
  std::mt19937 generator(29);
  std::uniform_int_distribution<int> within_row(0, kGridSize * kObservationChannels - 1);
  for (int round = 0; round < 5000; ++round) {
    RowTriples rows;
    std::vector<int> expected;
    const double density = std::uniform_real_distribution<double>(0, 1)(generator);
    std::bernoulli_distribution filled(density);
    for (int row = 0; row < kGridSize; ++row) {
      std::vector<int> in_row;
      for (int k = 0; k < 3; ++k) {
        if (filled(generator)) rows.set(row, k, row * 60 + within_row(generator));  // maybe replaced below
        int input;
        do {
          input = row * 60 + within_row(generator);
        } while (std::find(in_row.begin(), in_row.end(), input) != in_row.end());
        if (filled(generator)) {
          rows.set(row, k, input);
          in_row.push_back(input);
        } else {
          rows.set(row, k, RowTriples::kNone);
        }
      }
      expected.insert(expected.end(), in_row.begin(), in_row.end());
    }
    std::sort(expected.begin(), expected.end());
    ActiveInputs portable, chosen;
    portable.count = chosen.count = 99;  // writing replaces what was there
    rows.write_portable(portable);
    rows.write(chosen);
    ASSERT_EQ(listed(portable), expected) << round;
    ASSERT_EQ(listed(chosen), expected) << round;
#if WEIGHTSPACE_COMPRESS_EXTRACT
    if (detail::cpu_has_compress()) {
      ActiveInputs compressed;
      rows.write_compressed(compressed);
      ASSERT_EQ(listed(compressed), expected) << round;
    }
#endif
  }
}

TEST(RowTriples, EmptyRowsWriteNothing) {
  const RowTriples rows;
  ActiveInputs out;
  out.count = 5;
  rows.write(out);
  EXPECT_EQ(out.count, 0);
}

}  // namespace
}  // namespace weightspace
