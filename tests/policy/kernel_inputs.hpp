// SPDX-License-Identifier: GPL-3.0-or-later
// The SIMD levels to compare, and random weights and observations to compare them on.
#pragma once

#include <cmath>
#include <random>
#include <vector>

#include "games/cells.hpp"
#include "policy/tanh.hpp"
#include "policy/weights.hpp"

namespace weightspace::testing {

inline std::vector<SimdLevel> available_levels() {
  std::vector<SimdLevel> levels;
  for (SimdLevel level : {SimdLevel::scalar, SimdLevel::avx2, SimdLevel::avx512}) {
    if (simd_level_available(level)) levels.push_back(level);
  }
  return levels;
}

// Weights with a wide spread of magnitudes and signs, so that rounding order matters.
inline Weights random_weights(std::mt19937& generator) {
  Weights weights;
  std::normal_distribution<float> normal(0.0f, 1.0f);
  std::uniform_real_distribution<float> exponent(-8.0f, 8.0f);
  for (float& value : weights.values()) value = normal(generator) * std::exp2(exponent(generator));
  return weights;
}

inline ActiveInputs random_observation(std::mt19937& generator) {
  // Mostly realistic sizes (a few dozen ones), sometimes empty or nearly full.
  const int kind = std::uniform_int_distribution<int>(0, 9)(generator);
  const double density =
      kind == 0 ? 0.0 : kind == 1 ? 0.9 : std::uniform_real_distribution<double>(0.0, 0.08)(generator);
  std::bernoulli_distribution on(density);
  ActiveInputs inputs;
  for (int i = 0; i < kInputs; ++i) {
    if (on(generator)) inputs.index[inputs.count++] = static_cast<std::uint16_t>(i);
  }
  return inputs;
}

}  // namespace weightspace::testing
