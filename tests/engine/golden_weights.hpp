// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>

#include "policy/weights.hpp"
#include "support/golden.hpp"

namespace weightspace::testing {

// Weight set `index` of tests/golden/policy.json.
inline Weights golden_weight_set(int index) {
  const auto& set = golden("policy.json").at("weight_sets").at(static_cast<std::size_t>(index));
  Weights weights;
  for (std::size_t t = 0; t < kTensorShapes.size(); ++t) {
    const auto values = f32_tensor_from_hex(set.at("tensors").at(std::string(kTensorShapes[t].name)).get<std::string>());
    auto tensor = weights.tensor(static_cast<Tensor>(t));
    if (values.size() != tensor.size()) throw std::runtime_error("golden tensor of the wrong size");
    std::copy(values.begin(), values.end(), tensor.begin());
  }
  return weights;
}

}  // namespace weightspace::testing
