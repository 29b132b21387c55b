// SPDX-License-Identifier: GPL-3.0-or-later
#include "policy/policy.hpp"

#include <gtest/gtest.h>

#include <bit>
#include <random>
#include <vector>

#include "kernel_inputs.hpp"
#include "policy_golden.hpp"

namespace weightspace {
namespace {

using testing::available_levels;
using testing::random_observation;
using testing::random_weights;

// Policy promises the full network's values; only a zero's sign may differ.
void expect_same_values(const Logits& actual, const Logits& expected, const std::string& where) {
  for (int a = 0; a < kActionCount; ++a) {
    const bool same = std::bit_cast<std::uint32_t>(actual[a]) == std::bit_cast<std::uint32_t>(expected[a]) ||
                      (actual[a] == 0.0f && expected[a] == 0.0f);
    EXPECT_TRUE(same) << where << " action " << a << ": " << actual[a] << " vs " << expected[a];
  }
}

// Random weights in which each hidden unit is unused with some probability: a hidden-2 unit
// through a zero W3 row, a hidden-1 unit through a zero W2 row, or only towards unused
// hidden-2 units. Some W1 rows and biases are zero as well.
Weights sparse_weights(std::mt19937& generator, double unused) {
  Weights weights = random_weights(generator);
  std::bernoulli_distribution drop(unused);
  std::bernoulli_distribution half(0.5);
  auto zero = [&](Tensor tensor, int row, int columns) {
    std::fill_n(weights.tensor(tensor).begin() + row * columns, columns, 0.0f);
  };
  std::vector<bool> used2(kHiddenCount);
  for (int unit = 0; unit < kHiddenCount; ++unit) {
    used2[unit] = !drop(generator);
    if (!used2[unit]) zero(Tensor::W3, unit, kActionCount);
  }
  for (int unit = 0; unit < kHiddenCount; ++unit) {
    if (!drop(generator)) continue;
    if (half(generator)) {
      zero(Tensor::W2, unit, kHiddenCount);
    } else {  // zero only towards the used hidden-2 units
      for (int to = 0; to < kHiddenCount; ++to) {
        if (used2[to]) weights.tensor(Tensor::W2)[unit * kHiddenCount + to] = 0.0f;
      }
    }
  }
  // Now and then no input reaches a hidden unit at all, so that only the biases count.
  const bool no_inputs = std::bernoulli_distribution(0.05)(generator);
  // Some rows reach a single hidden-1 unit, so that whether the input counts hinges on it.
  std::uniform_int_distribution<int> any_unit(0, kHiddenCount - 1);
  for (int input = 0; input < kInputCount; ++input) {
    if (no_inputs || drop(generator)) {
      zero(Tensor::W1, input, kHiddenCount);
    } else if (half(generator)) {
      float* row = weights.tensor(Tensor::W1).data() + input * kHiddenCount;
      const int only = any_unit(generator);
      for (int unit = 0; unit < kHiddenCount; ++unit) {
        if (unit != only) row[unit] = 0.0f;
      }
    }
  }
  for (Tensor bias : {Tensor::b1, Tensor::b2, Tensor::b3}) {
    for (float& value : weights.tensor(bias)) {
      if (drop(generator)) value = half(generator) ? 0.0f : -0.0f;
    }
  }
  return weights;
}

TEST(Policy, GoldenCasesGiveGoldenLogitsAtEveryLevel) {
  for (const auto& set : testing::policy_weight_sets()) {
    const Policy policy(set.weights);
    std::vector<ActiveInputs> observations;
    for (const auto& c : set.cases) {
      ActiveInputs inputs;
      std::copy(c.active.begin(), c.active.end(), inputs.index.begin());
      inputs.count = static_cast<int>(c.active.size());
      observations.push_back(inputs);
    }
    for (SimdLevel level : available_levels()) {
      std::vector<Logits> logits(observations.size());
      policy.forward_batch(observations, logits, level);
      for (std::size_t c = 0; c < set.cases.size(); ++c) {
        Logits expected{};
        for (int a = 0; a < kActionCount; ++a) expected[a] = std::bit_cast<float>(set.cases[c].logits_bits[a]);
        expect_same_values(logits[c], expected, set.name + " case " + std::to_string(c));
      }
    }
  }
}

TEST(Policy, SparseNetworksGiveTheFullNetworksLogits) {
  std::mt19937 generator(20261130);
  int narrow = 0, wide = 0, constant = 0, constant_with_units = 0, filtered = 0;
  for (int round = 0; round < 300; ++round) {
    const double unused = std::uniform_real_distribution<double>(0.0, 1.0)(generator);
    const Weights weights = sparse_weights(generator, unused);
    const Policy policy(weights);
    narrow += policy.hidden1_units() > 0 && policy.hidden1_units() <= 16;
    wide += policy.hidden1_units() > 16;
    constant += policy.constant_logits().has_value();
    constant_with_units += policy.constant_logits().has_value() && policy.hidden1_units() > 0;
    filtered += policy.inputs().count() > 0 && policy.inputs().count() < kInputs;
    EXPECT_EQ(policy.constant_logits().has_value(), policy.inputs().empty());
    EXPECT_TRUE(policy.hidden1_units() > 0 || policy.inputs().empty());
    const auto batch_size = static_cast<std::size_t>(std::uniform_int_distribution<int>(0, 19)(generator));
    // Each observation whole, and without the inputs the policy does not read.
    std::vector<ActiveInputs> observations, reduced;
    for (std::size_t b = 0; b < batch_size; ++b) {
      observations.push_back(random_observation(generator));
      ActiveInputs& only_read = reduced.emplace_back();
      for (const std::uint16_t input : observations.back().view()) {
        if (policy.inputs().test(input)) only_read.index[static_cast<std::size_t>(only_read.count++)] = input;
      }
    }
    for (SimdLevel level : available_levels()) {
      for (const auto* batch : {&observations, &reduced}) {
        std::vector<Logits> logits(batch_size);
        policy.forward_batch(*batch, logits, level);
        for (std::size_t b = 0; b < batch_size; ++b) {
          PolicyActivations reference{};
          forward_reference(weights, observations[b].view(), reference);
          expect_same_values(logits[b], reference.logits,
                             "round " + std::to_string(round) + " level " + std::to_string(static_cast<int>(level)) +
                                 (batch == &reduced ? " reduced" : " whole"));
        }
      }
    }
  }
  // Every packing was met.
  EXPECT_GT(narrow, 20);
  EXPECT_GT(wide, 20);
  EXPECT_GT(constant, 5);
  EXPECT_GT(constant_with_units, 2);
  EXPECT_GT(filtered, 50);
}

// Weights as hand-written answers have them: a few hidden units, each hidden-1 unit connected
// to one to seven hidden-2 units, W3 rows with a few entries, zeros of both signs.
Weights hand_written_weights(std::mt19937& generator) {
  Weights weights = random_weights(generator);
  std::uniform_int_distribution<int> units(1, kHiddenCount);
  std::uniform_int_distribution<int> fan_out(1, 7);
  std::uniform_int_distribution<int> any_unit(0, kHiddenCount - 1);
  std::bernoulli_distribution half(0.5);
  std::bernoulli_distribution rare(0.1);
  auto sparsify = [&](Tensor tensor, int rows, int columns, auto&& keep) {
    float* values = weights.tensor(tensor).data();
    for (int r = 0; r < rows; ++r) {
      for (int c = 0; c < columns; ++c) {
        if (!keep(r, c)) values[r * columns + c] = half(generator) ? 0.0f : -0.0f;
      }
    }
  };
  const int used1 = units(generator);
  std::vector<std::vector<bool>> to(kHiddenCount, std::vector<bool>(kHiddenCount));
  for (int unit = 0; unit < used1; ++unit) {
    for (int k = fan_out(generator); k > 0; --k) to[static_cast<std::size_t>(any_unit(generator))][static_cast<std::size_t>(unit)] = true;
  }
  sparsify(Tensor::W2, kHiddenCount, kHiddenCount, [&](int r, int c) { return r < used1 && to[static_cast<std::size_t>(c)][static_cast<std::size_t>(r)]; });
  sparsify(Tensor::W3, kHiddenCount, kActionCount, [&](int, int) { return rare(generator) || rare(generator); });
  sparsify(Tensor::W1, kInputCount, kHiddenCount, [&](int, int c) { return c < used1 && rare(generator); });
  return weights;
}

TEST(Policy, SparseLayersGiveTheFullNetworksLogits) {
  std::mt19937 generator(20261207);
  // By SimdLevel: policies with lanes, batches that filled them, batches with a last group for
  // the rows.
  std::array<int, kSimdLevels> sparse{}, filled{}, remainders{};
  for (int round = 0; round < 200; ++round) {
    const Weights weights = hand_written_weights(generator);
    const Policy policy(weights);
    EXPECT_EQ(policy.sparse_minimum(SimdLevel::scalar), 0);
    // Whole groups of lanes, and a last group above or below the minimum.
    const auto batch_size = static_cast<std::size_t>(std::uniform_int_distribution<int>(1, 40)(generator));
    std::vector<ActiveInputs> observations;
    for (std::size_t b = 0; b < batch_size; ++b) observations.push_back(random_observation(generator));
    for (SimdLevel level : available_levels()) {
      const auto l = static_cast<std::size_t>(level);
      const int minimum = policy.sparse_minimum(level);
      const std::size_t lanes = level == SimdLevel::avx512 ? 16 : 8;
      EXPECT_LE(minimum, static_cast<int>(lanes));
      sparse[l] += minimum > 0;
      filled[l] += minimum > 0 && batch_size >= static_cast<std::size_t>(minimum);
      remainders[l] += minimum > 0 && static_cast<int>(batch_size % lanes) < minimum && batch_size > lanes;
      std::vector<Logits> logits(batch_size);
      policy.forward_batch(observations, logits, level);
      for (std::size_t b = 0; b < batch_size; ++b) {
        PolicyActivations reference{};
        forward_reference(weights, observations[b].view(), reference);
        expect_same_values(logits[b], reference.logits,
                           "round " + std::to_string(round) + " observation " + std::to_string(b) + " level " +
                               std::to_string(static_cast<int>(level)));
      }
    }
  }
  // At each vector level the columns were used, in full groups and beside the rows for a
  // short last group.
  for (SimdLevel level : available_levels()) {
    if (level == SimdLevel::scalar) continue;
    const auto l = static_cast<std::size_t>(level);
    EXPECT_GT(sparse[l], 150) << simd_level_name(level);
    EXPECT_GT(filled[l], 100) << simd_level_name(level);
    EXPECT_GT(remainders[l], 10) << simd_level_name(level);
  }
}

// Dense weights keep the rows: there every weight is a term.
TEST(Policy, DenseLayersKeepTheRows) {
  std::mt19937 generator(7);
  const Policy policy(random_weights(generator));
  for (SimdLevel level : available_levels()) EXPECT_EQ(policy.sparse_minimum(level), 0) << simd_level_name(level);
}

TEST(Policy, KeepsExactlyTheUnitsThatReachAnOutput) {
  Weights weights;
  weights.tensor(Tensor::W3)[5 * kActionCount + 2] = 1.0f;        // hidden-2 unit 5 reaches an output
  weights.tensor(Tensor::W3)[7 * kActionCount + 0] = 0.0f;        // unit 7 does not
  weights.tensor(Tensor::W2)[3 * kHiddenCount + 5] = -2.0f;       // hidden-1 unit 3 reaches unit 5
  weights.tensor(Tensor::W2)[4 * kHiddenCount + 7] = 2.0f;        // unit 4 reaches only unit 7
  weights.tensor(Tensor::W1)[10 * kHiddenCount + 4] = 3.0f;       // input 10 reaches unit 4 only
  weights.tensor(Tensor::W1)[11 * kHiddenCount + 3] = -0.5f;      // input 11 reaches unit 3
  weights.tensor(Tensor::W1)[599 * kHiddenCount + 3] = 1e-30f;    // and so does input 599
  weights.tensor(Tensor::W1)[12 * kHiddenCount + 3] = -0.0f;      // a zero reaches nothing
  const Policy policy(weights);
  EXPECT_EQ(policy.hidden2_units(), 1);
  EXPECT_EQ(policy.hidden1_units(), 1);
  EXPECT_FALSE(policy.constant_logits().has_value());
  EXPECT_EQ(policy.inputs().count(), 2);
  EXPECT_TRUE(policy.inputs().test(11));
  EXPECT_TRUE(policy.inputs().test(599));
}

TEST(Policy, LogitsThatIgnoreTheObservationAreConstant) {
  Weights zero;
  const Policy uniform(zero);
  ASSERT_TRUE(uniform.constant_logits().has_value());
  for (float logit : *uniform.constant_logits()) EXPECT_EQ(logit, 0.0f);

  // Biases and a W3 row, but no W2 entry towards the used hidden-2 unit: tanh(b2) feeds W3.
  Weights biased;
  biased.tensor(Tensor::b2)[1] = 0.5f;
  biased.tensor(Tensor::W3)[1 * kActionCount + 4] = 2.0f;
  biased.tensor(Tensor::b3)[0] = -1.0f;
  biased.tensor(Tensor::W1)[0] = 7.0f;
  const Policy policy(biased);
  ASSERT_TRUE(policy.constant_logits().has_value());
  EXPECT_EQ(policy.hidden2_units(), 1);
  PolicyActivations reference{};
  forward_reference(biased, std::vector<std::uint16_t>{0, 1, 599}, reference);
  expect_same_values(*policy.constant_logits(), reference.logits, "biases only");
  std::vector<ActiveInputs> observations(3);
  std::vector<Logits> logits(3);
  policy.forward_batch(observations, logits);
  for (const Logits& l : logits) expect_same_values(l, reference.logits, "constant batch");
}

TEST(Policy, BatchRejectsMismatchedOutput) {
  const Policy policy(Weights{});
  std::vector<ActiveInputs> observations(3);
  std::vector<Logits> logits(2);
  EXPECT_THROW(policy.forward_batch(observations, logits), std::invalid_argument);
}

}  // namespace
}  // namespace weightspace
