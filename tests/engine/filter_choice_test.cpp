// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/filter_choice.hpp"

#include <gtest/gtest.h>

namespace weightspace {
namespace {

// Observations of `written` inputs, `kept` of them read, until the trial ends.
FilterChoice tried(int written, int kept) {
  FilterChoice choice;
  while (choice.trying()) choice.saw(written, kept);
  return choice;
}

TEST(FilterChoice, FiltersOnlyWhereAtMostAQuarterOfTheInputsAreRead) {
  FilterChoice fresh;
  EXPECT_TRUE(fresh.trying());
  EXPECT_FALSE(tried(17, 1).trying());
  EXPECT_TRUE(tried(17, 1).filtering());    // a random answer on freeway
  EXPECT_TRUE(tried(38, 4).filtering());    // the synth freeway example
  EXPECT_TRUE(tried(16, 4).filtering());    // a quarter exactly
  EXPECT_FALSE(tried(16, 5).filtering());
  EXPECT_FALSE(tried(17, 7).filtering());   // the original freeway example (44%)
  EXPECT_FALSE(tried(13, 10).filtering());  // the synth asterix example
  fresh.saw(0, 0);  // empty observations do not end the trial
  EXPECT_TRUE(fresh.trying());
}

}  // namespace
}  // namespace weightspace
