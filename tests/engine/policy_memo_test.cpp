// SPDX-License-Identifier: GPL-3.0-or-later
// PolicyMemo: a key is the observation under the policy's inputs, compared whole; a hit gives
// the exact cdf of the stored logits; a full memo stops storing but keeps what it has; reset()
// forgets everything.
#include "engine/policy_memo.hpp"

#include <gtest/gtest.h>

#include <random>
#include <vector>

namespace weightspace {
namespace {

// Logits told apart by `first`, and the exact cdf a hit must give for them.
Logits logits_for(double first) {
  Logits logits{};
  for (int k = 1; k < kActionCount; ++k) logits[static_cast<std::size_t>(k)] = static_cast<float>(k % 3);
  logits[0] = static_cast<float>(first * 0.001);  // the first action's probability grows with `first`
  return logits;
}

double first_edge(double first) { return ActionEdges(action_distribution(logits_for(first))).cdf[0]; }

ObservationBits bits_of(std::initializer_list<int> inputs) {
  ObservationBits bits;
  for (const int input : inputs) bits.set(input);
  return bits;
}

TEST(PolicyMemo, KeysSeeOnlyThePolicysInputs) {
  InputMask inputs;
  inputs.set(3);
  inputs.set(200);
  inputs.set(599);
  PolicyMemo memo;
  memo.reset(inputs);
  // 4, 64 and 598 are not read: observations differing only there share a key.
  const PolicyMemo::Key key = memo.key(bits_of({3, 4, 599}));
  ASSERT_TRUE(memo.insert(key, logits_for(0.25)));
  const ActionEdges* found = memo.find(memo.key(bits_of({3, 64, 598, 599})));
  ASSERT_NE(found, nullptr);
  EXPECT_EQ(found->cdf, ActionEdges(action_distribution(logits_for(0.25))).cdf);
  EXPECT_EQ(memo.find(memo.key(bits_of({3}))), nullptr);
  EXPECT_EQ(memo.find(memo.key(bits_of({3, 200, 599}))), nullptr);
  EXPECT_EQ(memo.entries(), 1U);
}

TEST(PolicyMemo, ResetForgetsEveryEntry) {
  PolicyMemo memo;
  memo.reset(kAllInputs);
  const PolicyMemo::Key key = memo.key(bits_of({10, 20}));
  memo.insert(key, logits_for(0.5));
  ASSERT_NE(memo.find(key), nullptr);
  memo.reset(kAllInputs);
  EXPECT_EQ(memo.find(key), nullptr);
  EXPECT_EQ(memo.entries(), 0U);
}

// Filled to its bound with random observations (many share a first probe slot): each finds its
// own edges, inserting one again keeps the stored logits, and one more is refused.
TEST(PolicyMemo, FullMemoKeepsItsEntriesAndStoresNoMore) {
  PolicyMemo memo;
  memo.reset(kAllInputs);
  std::mt19937_64 random(5);
  std::vector<PolicyMemo::Key> keys;
  for (std::size_t n = 0; n < PolicyMemo::kMaxEntries; ++n) {
    ObservationBits bits;
    for (int k = 0; k < 12; ++k) bits.set(static_cast<int>(random() % kInputs));
    const PolicyMemo::Key key = memo.key(bits);
    if (memo.find(key) != nullptr) continue;  // the same 12 inputs drawn twice
    ASSERT_TRUE(memo.insert(key, logits_for(static_cast<double>(keys.size()))));
    keys.push_back(key);
  }
  while (memo.entries() < PolicyMemo::kMaxEntries) {
    ObservationBits bits;
    bits.set(static_cast<int>(keys.size() % kInputs));
    bits.set(static_cast<int>(random() % kInputs));
    bits.set(static_cast<int>(random() % kInputs));
    const PolicyMemo::Key key = memo.key(bits);
    if (memo.find(key) != nullptr) continue;
    ASSERT_TRUE(memo.insert(key, logits_for(static_cast<double>(keys.size()))));
    keys.push_back(key);
  }
  for (std::size_t n = 0; n < keys.size(); ++n) {
    const ActionEdges* found = memo.find(keys[n]);
    ASSERT_NE(found, nullptr) << n;
    ASSERT_EQ(found->cdf[0], first_edge(static_cast<double>(n))) << n;
    ASSERT_TRUE(memo.insert(keys[n], logits_for(-1.0))) << n;
    ASSERT_EQ(memo.find(keys[n]), found) << n;
    ASSERT_EQ(found->cdf[0], first_edge(static_cast<double>(n))) << n;
  }
  ObservationBits fresh;
  for (int input = 0; input < kInputs; input += 2) fresh.set(input);
  EXPECT_FALSE(memo.insert(memo.key(fresh), logits_for(0.0)));
  EXPECT_EQ(memo.find(memo.key(fresh)), nullptr);
}

// Keys that collide in every hash bit are told apart by their words: two keys are forced into
// one slot with one check value.
TEST(PolicyMemo, EqualHashesAreComparedWhole) {
  PolicyMemo memo;
  memo.reset(kAllInputs);
  PolicyMemo::Key first = memo.key(bits_of({1, 2}));
  PolicyMemo::Key second = memo.key(bits_of({7}));
  second.hash = first.hash;
  ASSERT_TRUE(memo.insert(first, logits_for(1.0)));
  ASSERT_TRUE(memo.insert(second, logits_for(2.0)));
  EXPECT_EQ(memo.entries(), 2U);
  const ActionEdges* a = memo.find(first);
  const ActionEdges* b = memo.find(second);
  ASSERT_NE(a, nullptr);
  ASSERT_NE(b, nullptr);
  EXPECT_NE(a, b);
  EXPECT_EQ(a->cdf[0], first_edge(1.0));
  EXPECT_EQ(b->cdf[0], first_edge(2.0));
  EXPECT_NE(first_edge(1.0), first_edge(2.0));
}

// ActionEdges decides as ActionDistribution does, edges included.
TEST(PolicyMemo, EdgesChooseTheDistributionsAction) {
  std::mt19937_64 random(11);
  std::uniform_real_distribution<double> uniform(0.0, 1.0);
  for (int n = 0; n < 2000; ++n) {
    Logits logits;
    for (float& logit : logits) logit = static_cast<float>(uniform(random) * 8.0 - 4.0);
    const ActionDistribution distribution = action_distribution(logits);
    const ActionEdges edges(distribution);
    for (const double draw : {uniform(random), distribution.cdf[static_cast<std::size_t>(n % 5)], 0.0}) {
      ASSERT_EQ(edges.action(draw), distribution.action(draw)) << n << " " << draw;
    }
  }
}

}  // namespace
}  // namespace weightspace
