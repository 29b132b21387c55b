// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/seed_plan.hpp"

#include <gtest/gtest.h>

namespace weightspace {
namespace {

// A generator that drew `words` words since its seeding.
RandomState drawn(int words) {
  RandomState random(1729);
  for (int k = 0; k < words; ++k) random.next_uint32();
  return random;
}

void record(SeedPlan& plan, const RandomState& generator, int times) {
  for (int k = 0; k < times; ++k) plan.record(generator);
}

TEST(SeedPlan, SeedsEveryWordUntilItHasSeenEpisodes) {
  SeedPlan plan;
  EXPECT_EQ(plan.words(), RandomState::kStateWords);
  record(plan, drawn(20), 31);
  EXPECT_EQ(plan.words(), RandomState::kStateWords);  // plans every 32 generators
  record(plan, drawn(20), 1);
  EXPECT_EQ(plan.words(), 432);  // 397 + one 32-word block, in whole rows of 8
}

TEST(SeedPlan, FollowsTheLongestCheapPrefix) {
  SeedPlan plan;
  record(plan, drawn(40), 64);
  EXPECT_EQ(plan.words(), 464);  // two twist blocks
  record(plan, drawn(0), 4096);
  EXPECT_EQ(plan.words(), 8);  // generators that draw nothing need the seed word alone
}

// A continued word costs kContinuationCost seeded ones: a tenth of long generators is worth
// continuing (432 + 0.1 x 6 x 192 < 624 words), a third is not (432 + 0.3 x 6 x 192 > 624).
TEST(SeedPlan, WeighsContinuedWordsAgainstSeededOnes) {
  static_assert(SeedPlan::kContinuationCost == 6);
  SeedPlan few_long;
  for (int round = 0; round < 32; ++round) {
    record(few_long, drawn(20), 9);
    record(few_long, drawn(1000), 1);
  }
  EXPECT_EQ(few_long.words(), 432);
  SeedPlan many_long;
  for (int round = 0; round < 32; ++round) {
    record(many_long, drawn(20), 7);
    record(many_long, drawn(1000), 3);
  }
  EXPECT_EQ(many_long.words(), RandomState::kStateWords);
}

// Old generators count less and less: a run of long episodes after short ones takes over.
TEST(SeedPlan, ForgetsOldEpisodes) {
  SeedPlan plan;
  record(plan, drawn(20), 8192);
  EXPECT_EQ(plan.words(), 432);
  record(plan, drawn(3000), 4096);
  EXPECT_EQ(plan.words(), RandomState::kStateWords);
}

}  // namespace
}  // namespace weightspace
