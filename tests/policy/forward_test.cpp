// SPDX-License-Identifier: GPL-3.0-or-later
#include "policy/forward.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <random>
#include <vector>

#include "policy_golden.hpp"
#include "kernel_inputs.hpp"

namespace weightspace {
namespace {

using testing::policy_weight_sets;
using testing::available_levels;
using testing::random_observation;
using testing::random_weights;

template <std::size_t Size>
std::array<std::uint32_t, Size> bits_of(const std::array<float, Size>& values) {
  std::array<std::uint32_t, Size> bits{};
  for (std::size_t i = 0; i < Size; ++i) bits[i] = std::bit_cast<std::uint32_t>(values[i]);
  return bits;
}

// Checks every golden case with `run`, reporting the first few differences per layer.
template <typename Run>
void expect_all_golden_cases(Run run) {
  int cases = 0;
  int differing = 0;
  for (const auto& set : policy_weight_sets()) {
    for (std::size_t c = 0; c < set.cases.size(); ++c) {
      const auto& expected = set.cases[c];
      PolicyActivations actual{};
      run(set.weights, expected.active, actual);
      ++cases;
      const bool same = bits_of(actual.hidden1) == expected.hidden1_bits &&
                        bits_of(actual.hidden2) == expected.hidden2_bits &&
                        bits_of(actual.logits) == expected.logits_bits;
      if (!same && ++differing <= 5) {
        ADD_FAILURE() << set.name << " case " << c << " (" << expected.obs_source << "): hidden1 "
                      << (bits_of(actual.hidden1) == expected.hidden1_bits) << ", hidden2 "
                      << (bits_of(actual.hidden2) == expected.hidden2_bits) << ", logits "
                      << (bits_of(actual.logits) == expected.logits_bits);
      }
    }
  }
  EXPECT_EQ(cases, 800);
  EXPECT_EQ(differing, 0);
}

TEST(Forward, ReferenceMatchesGoldenLayersBitForBit) {
  expect_all_golden_cases([](const Weights& weights, const std::vector<std::uint16_t>& active, PolicyActivations& out) {
    forward_reference(weights, active, out);
  });
}

TEST(Forward, EveryLevelMatchesGoldenLayersBitForBit) {
  for (SimdLevel level : available_levels()) {
    SCOPED_TRACE(static_cast<int>(level));
    expect_all_golden_cases(
        [level](const Weights& weights, const std::vector<std::uint16_t>& active, PolicyActivations& out) {
          forward(weights, active, out, level);
        });
  }
  expect_all_golden_cases([](const Weights& weights, const std::vector<std::uint16_t>& active, PolicyActivations& out) {
    forward(weights, active, out);  // the default level
  });
}

TEST(Forward, PolicyLogitsOfActiveInputsMatchGolden) {
  for (const auto& set : policy_weight_sets()) {
    for (const auto& expected : set.cases) {
      ActiveInputs inputs;
      std::copy(expected.active.begin(), expected.active.end(), inputs.index.begin());
      inputs.count = static_cast<int>(expected.active.size());
      ASSERT_EQ(bits_of(policy_logits(set.weights, inputs)), expected.logits_bits) << set.name;
    }
  }
}

TEST(Forward, BatchOfGoldenCasesMatchesGoldenAtEveryLevel) {
  for (SimdLevel level : available_levels()) {
    for (const auto& set : policy_weight_sets()) {
      std::vector<std::span<const std::uint16_t>> views;
      for (const auto& c : set.cases) views.emplace_back(c.active);
      std::vector<Logits> logits(views.size());
      forward_batch(set.weights, views, logits, level);
      for (std::size_t c = 0; c < set.cases.size(); ++c) {
        EXPECT_EQ(bits_of(logits[c]), set.cases[c].logits_bits)
            << "level " << static_cast<int>(level) << " " << set.name << " case " << c;
      }
    }
  }
}

TEST(Forward, BatchedEqualsSingleOnRandomBatches) {
  std::mt19937 generator(20240601);
  // Sizes 0..25 meet every kernel group size (8, 4, 2, 1) and every remainder.
  for (int round = 0; round < 80; ++round) {
    const Weights weights = random_weights(generator);
    const auto batch_size = static_cast<std::size_t>(std::uniform_int_distribution<int>(0, 25)(generator));
    std::vector<ActiveInputs> observations;
    for (std::size_t b = 0; b < batch_size; ++b) observations.push_back(random_observation(generator));
    std::vector<Logits> batched(batch_size);
    forward_batch(weights, observations, batched);
    std::vector<std::span<const std::uint16_t>> views;
    for (const auto& o : observations) views.push_back(o.view());
    std::vector<Logits> batched_views(batch_size);
    forward_batch(weights, views, batched_views);
    for (std::size_t b = 0; b < batch_size; ++b) {
      PolicyActivations reference{};
      forward_reference(weights, observations[b].view(), reference);
      const auto single = bits_of(policy_logits(weights, observations[b]));
      EXPECT_EQ(single, bits_of(reference.logits)) << "round " << round << " item " << b;
      EXPECT_EQ(bits_of(batched[b]), single) << "round " << round << " item " << b;
      EXPECT_EQ(bits_of(batched_views[b]), single) << "round " << round << " item " << b;
    }
    for (SimdLevel level : available_levels()) {
      std::vector<Logits> at_level(batch_size);
      forward_batch(weights, observations, at_level, level);
      for (std::size_t b = 0; b < batch_size; ++b) {
        PolicyActivations single{};
        forward(weights, observations[b].view(), single, level);
        EXPECT_EQ(bits_of(at_level[b]), bits_of(batched[b])) << "level " << static_cast<int>(level) << " item " << b;
        EXPECT_EQ(bits_of(single.logits), bits_of(batched[b])) << "level " << static_cast<int>(level) << " item " << b;
      }
    }
  }
}

TEST(Forward, BatchRejectsMismatchedOutput) {
  const Weights weights;
  std::vector<ActiveInputs> observations(3);
  std::vector<Logits> logits(2);
  EXPECT_THROW(forward_batch(weights, observations, logits), std::invalid_argument);
}

}  // namespace
}  // namespace weightspace
