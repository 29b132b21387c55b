// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "games/random_state.hpp"
#include "policy/weights.hpp"

namespace weightspace {

// Dense weights, uniform in [-scale, scale), from a fixed seed: every input row of W1 is used,
// so layer 1 costs what a real answer costs. The benchmarks' "dense" profile
// (`weightspace bench --profile dense`, bench/engine_bench).
inline Weights dense_weights(float scale = 0.3f, std::uint32_t seed = 42) {
  Weights weights;
  RandomState random(seed);
  for (float& value : weights.values()) {
    value = static_cast<float>((random.random_sample() * 2.0 - 1.0) * scale);
  }
  return weights;
}

}  // namespace weightspace
