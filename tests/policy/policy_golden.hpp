// SPDX-License-Identifier: GPL-3.0-or-later
// tests/golden/policy.json's weight sets and cases, decoded once.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "policy/forward.hpp"
#include "policy/weights.hpp"

namespace weightspace::testing {

struct PolicyCase {
  std::string obs_source;
  std::vector<std::uint16_t> active;
  std::array<std::uint32_t, kHiddenCount> hidden1_bits;
  std::array<std::uint32_t, kHiddenCount> hidden2_bits;
  std::array<std::uint32_t, kActionCount> logits_bits;
  std::array<double, kActionCount> probabilities;          // numpy's AVX512F exp
  std::array<double, kActionCount> probabilities_libm_exp;  // glibc exp
  std::array<double, kActionCount> cdf_libm_exp;
  std::array<double, 5> uniforms;
  std::array<int, 5> actions;
  std::array<int, 5> actions_libm_exp;
  std::uint32_t sample_action_seed = 0;
};

struct PolicyWeightSet {
  std::string name;
  Weights weights;
  std::vector<PolicyCase> cases;
};

const std::vector<PolicyWeightSet>& policy_weight_sets();

}  // namespace weightspace::testing
