// SPDX-License-Identifier: GPL-3.0-or-later
#include "policy_golden.hpp"

#include <algorithm>
#include <stdexcept>

#include "support/golden.hpp"

namespace weightspace::testing {
namespace {

template <std::size_t Size>
std::array<std::uint32_t, Size> f32_bits_array(const nlohmann::json& hexes) {
  if (hexes.size() != Size) throw std::runtime_error("policy.json: unexpected float32 list length");
  std::array<std::uint32_t, Size> result{};
  for (std::size_t i = 0; i < Size; ++i) result[i] = f32_bits(f32_from_hex(hexes[i].get<std::string>()));
  return result;
}

template <std::size_t Size>
std::array<double, Size> f64_array(const nlohmann::json& hexes) {
  if (hexes.size() != Size) throw std::runtime_error("policy.json: unexpected float64 list length");
  std::array<double, Size> result{};
  for (std::size_t i = 0; i < Size; ++i) result[i] = f64_from_hex(hexes[i].get<std::string>());
  return result;
}

PolicyWeightSet decode(const nlohmann::json& json) {
  PolicyWeightSet set;
  set.name = json.at("name").get<std::string>();
  for (const auto& shape : kTensorShapes) {
    const auto values = f32_tensor_from_hex(json.at("tensors").at(std::string(shape.name)).get<std::string>());
    if (values.size() != shape.size()) throw std::runtime_error("policy.json: tensor size mismatch");
    std::copy(values.begin(), values.end(), set.weights.values().begin() + static_cast<std::ptrdiff_t>(shape.offset));
  }
  for (const auto& item : json.at("cases")) {
    PolicyCase c;
    c.obs_source = item.at("obs_source").get<std::string>();
    c.active = item.at("obs").get<std::vector<std::uint16_t>>();
    c.hidden1_bits = f32_bits_array<kHiddenCount>(item.at("hidden1"));
    c.hidden2_bits = f32_bits_array<kHiddenCount>(item.at("hidden2"));
    c.logits_bits = f32_bits_array<kActionCount>(item.at("logits"));
    c.probabilities = f64_array<kActionCount>(item.at("probabilities"));
    c.probabilities_libm_exp = f64_array<kActionCount>(item.at("probabilities_libm_exp"));
    c.cdf_libm_exp = f64_array<kActionCount>(item.at("cdf_libm_exp"));
    c.uniforms = f64_array<5>(item.at("uniforms"));
    const auto actions = item.at("actions").get<std::vector<int>>();
    const auto actions_libm = item.at("actions_libm_exp").get<std::vector<int>>();
    if (actions.size() != 5 || actions_libm.size() != 5) throw std::runtime_error("policy.json: actions length");
    std::copy(actions.begin(), actions.end(), c.actions.begin());
    std::copy(actions_libm.begin(), actions_libm.end(), c.actions_libm_exp.begin());
    c.sample_action_seed = item.at("sample_action_seed").get<std::uint32_t>();
    set.cases.push_back(std::move(c));
  }
  return set;
}

}  // namespace

const std::vector<PolicyWeightSet>& policy_weight_sets() {
  static const std::vector<PolicyWeightSet> sets = [] {
    std::vector<PolicyWeightSet> result;
    for (const auto& json : golden("policy.json").at("weight_sets")) result.push_back(decode(json));
    return result;
  }();
  return sets;
}

}  // namespace weightspace::testing
