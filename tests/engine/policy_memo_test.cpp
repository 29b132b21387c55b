// SPDX-License-Identifier: GPL-3.0-or-later
// PolicyMemo: a key is the observation under the policy's inputs, compared whole, in either
// layout (ObservationBits or ChannelBoards); a hit gives the exact cdf of the stored logits; a
// full memo stops storing but keeps what it has; reset() forgets everything.
#include "engine/policy_memo.hpp"

#include <gtest/gtest.h>

#include <random>
#include <set>
#include <type_traits>
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

// The observation whose active inputs are `inputs`, laid out as Observation.
template <class Observation>
Observation observation_of(const std::set<int>& inputs) {
  Observation observation;
  for (const int input : inputs) {
    if constexpr (std::is_same_v<Observation, ObservationBits>) {
      observation.set(input);
    } else {
      observation.channel[static_cast<std::size_t>(input % kObservationChannels)] |= CellBoard{1}
                                                                                     << (input / kObservationChannels);
    }
  }
  return observation;
}

template <class Observation>
class PolicyMemoTest : public ::testing::Test {
 protected:
  static constexpr PolicyMemo::Layout kLayout =
      std::is_same_v<Observation, ObservationBits> ? PolicyMemo::Layout::cells : PolicyMemo::Layout::channels;
  static Observation bits_of(const std::set<int>& inputs) { return observation_of<Observation>(inputs); }
};
using Layouts = ::testing::Types<ObservationBits, ChannelBoards>;
TYPED_TEST_SUITE(PolicyMemoTest, Layouts);

TYPED_TEST(PolicyMemoTest, KeysSeeOnlyThePolicysInputs) {
  InputMask inputs;
  inputs.set(3);
  inputs.set(200);
  inputs.set(599);
  PolicyMemo memo;
  memo.reset(inputs, TestFixture::kLayout);
  // 4, 64 and 598 are not read: observations differing only there share a key.
  const PolicyMemo::Key key = memo.key(TestFixture::bits_of({3, 4, 599}));
  ASSERT_TRUE(memo.insert(key, logits_for(0.25)));
  const ActionEdges* found = memo.find(memo.key(TestFixture::bits_of({3, 64, 598, 599})));
  ASSERT_NE(found, nullptr);
  EXPECT_EQ(found->cdf, ActionEdges(action_distribution(logits_for(0.25))).cdf);
  EXPECT_EQ(memo.find(memo.key(TestFixture::bits_of({3}))), nullptr);
  EXPECT_EQ(memo.find(memo.key(TestFixture::bits_of({3, 200, 599}))), nullptr);
  EXPECT_EQ(memo.entries(), 1U);
}

// Two observations find one entry exactly when they agree on every input the policy reads:
// random masks (every channel and word among them) and observations that differ from a stored
// one in a single input, read or not.
TYPED_TEST(PolicyMemoTest, KeysAreEqualExactlyWhenTheReadInputsAre) {
  std::mt19937_64 random(23);
  for (int round = 0; round < 100; ++round) {
    InputMask inputs;
    const double density = (round % 10 + 1) * 0.1;
    for (int input = 0; input < kInputs; ++input) {
      if (std::uniform_real_distribution<double>(0.0, 1.0)(random) < density) inputs.set(input);
    }
    PolicyMemo memo;
    memo.reset(inputs, TestFixture::kLayout);
    std::set<int> stored;
    for (int k = 0; k < 40; ++k) stored.insert(static_cast<int>(random() % kInputs));
    ASSERT_TRUE(memo.insert(memo.key(TestFixture::bits_of(stored)), logits_for(1.0)));
    for (int input = 0; input < kInputs; ++input) {
      std::set<int> other = stored;
      if (!other.erase(input)) other.insert(input);
      const bool found = memo.find(memo.key(TestFixture::bits_of(other))) != nullptr;
      ASSERT_EQ(found, !inputs.test(input)) << round << " " << input;
    }
    ASSERT_NE(memo.find(memo.key(TestFixture::bits_of(stored))), nullptr);
  }
}

TYPED_TEST(PolicyMemoTest, ResetForgetsEveryEntry) {
  PolicyMemo memo;
  memo.reset(kAllInputs, TestFixture::kLayout);
  const PolicyMemo::Key key = memo.key(TestFixture::bits_of({10, 20}));
  memo.insert(key, logits_for(0.5));
  ASSERT_NE(memo.find(key), nullptr);
  memo.reset(kAllInputs, TestFixture::kLayout);
  EXPECT_EQ(memo.find(key), nullptr);
  EXPECT_EQ(memo.entries(), 0U);
  EXPECT_EQ(memo.slots_in_use(), 0U);
}

// Grades reading few and many inputs in turn each find only their own entries, and a slot of
// the earlier grade is never left behind.
TYPED_TEST(PolicyMemoTest, GradesOfOtherInputsEachFindTheirOwnEntries) {
  InputMask few;
  few.set(5);
  few.set(580);
  PolicyMemo memo;
  std::mt19937_64 random(3);
  for (int grade = 0; grade < 6; ++grade) {
    const InputMask& inputs = grade % 2 == 0 ? kAllInputs : few;
    memo.reset(inputs, TestFixture::kLayout);
    std::vector<std::set<int>> stored;
    for (int n = 0; n < 3000; ++n) {
      std::set<int> observation = {5, 580};
      for (int k = 0; k < 6; ++k) observation.insert(static_cast<int>(random() % kInputs));
      if (grade % 2 == 1) observation = {5 * (n % 2), 580 * (n / 2 % 2)};
      const PolicyMemo::Key key = memo.key(TestFixture::bits_of(observation));
      if (memo.find(key) != nullptr) continue;
      ASSERT_TRUE(memo.insert(key, logits_for(static_cast<double>(grade * 10000 + n)))) << grade << " " << n;
      stored.push_back(observation);
    }
    EXPECT_EQ(memo.entries(), grade % 2 == 0 ? stored.size() : 4U) << grade;
    EXPECT_EQ(memo.slots_in_use(), memo.entries()) << grade;
    for (std::size_t n = 0; n < stored.size(); ++n) {
      const ActionEdges* found = memo.find(memo.key(TestFixture::bits_of(stored[n])));
      ASSERT_NE(found, nullptr) << grade << " " << n;
    }
  }
}

// Filled to its bound with random observations (many share a first probe slot): each finds its
// own edges, inserting one again keeps the stored logits, and one more is refused.
TYPED_TEST(PolicyMemoTest, FullMemoKeepsItsEntriesAndStoresNoMore) {
  PolicyMemo memo;
  memo.reset(kAllInputs, TestFixture::kLayout);
  std::mt19937_64 random(5);
  std::vector<PolicyMemo::Key> keys;
  for (std::size_t n = 0; n < PolicyMemo::kMaxEntries; ++n) {
    std::set<int> inputs;
    for (int k = 0; k < 12; ++k) inputs.insert(static_cast<int>(random() % kInputs));
    const PolicyMemo::Key key = memo.key(TestFixture::bits_of(inputs));
    if (memo.find(key) != nullptr) continue;  // the same 12 inputs drawn twice
    ASSERT_TRUE(memo.insert(key, logits_for(static_cast<double>(keys.size()))));
    keys.push_back(key);
  }
  while (memo.entries() < PolicyMemo::kMaxEntries) {
    const std::set<int> inputs = {static_cast<int>(keys.size() % kInputs), static_cast<int>(random() % kInputs),
                                  static_cast<int>(random() % kInputs)};
    const PolicyMemo::Key key = memo.key(TestFixture::bits_of(inputs));
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
  std::set<int> even;
  for (int input = 0; input < kInputs; input += 2) even.insert(input);
  const auto fresh = TestFixture::bits_of(even);
  EXPECT_FALSE(memo.insert(memo.key(fresh), logits_for(0.0)));
  EXPECT_EQ(memo.find(memo.key(fresh)), nullptr);
}

// Keys that collide in every hash bit are told apart by their words: two keys are forced into
// one slot with one check value.
TYPED_TEST(PolicyMemoTest, EqualHashesAreComparedWhole) {
  PolicyMemo memo;
  memo.reset(kAllInputs, TestFixture::kLayout);
  PolicyMemo::Key first = memo.key(TestFixture::bits_of({1, 2}));
  PolicyMemo::Key second = memo.key(TestFixture::bits_of({7}));
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
// What Lockstep compares to pick a painted game's key layout (engine/lockstep.hpp).
TEST(PolicyMemo, KeyWordsCountTheWordsHoldingReadInputs) {
  EXPECT_EQ(PolicyMemo::key_words(kAllInputs, PolicyMemo::Layout::cells), 10);
  EXPECT_EQ(PolicyMemo::key_words(kAllInputs, PolicyMemo::Layout::channels), 12);
  InputMask two_channels;  // channels 0 and 1 of every cell, as the seaquest example reads
  for (int cell = 0; cell < kGridSize * kGridSize; ++cell) {
    two_channels.set(cell * kObservationChannels);
    two_channels.set(cell * kObservationChannels + 1);
  }
  EXPECT_EQ(PolicyMemo::key_words(two_channels, PolicyMemo::Layout::cells), 10);
  EXPECT_EQ(PolicyMemo::key_words(two_channels, PolicyMemo::Layout::channels), 4);
  InputMask one;  // input 599: cell 99, channel 5
  one.set(kInputs - 1);
  EXPECT_EQ(PolicyMemo::key_words(one, PolicyMemo::Layout::cells), 1);
  EXPECT_EQ(PolicyMemo::key_words(one, PolicyMemo::Layout::channels), 1);
  EXPECT_EQ(PolicyMemo::key_words(InputMask{}, PolicyMemo::Layout::channels), 0);
}

TEST(ActionEdges, ChooseTheDistributionsAction) {
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
