// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <array>
#include <cstdint>
#include <span>

#include "games/cells.hpp"
#include "policy/tanh.hpp"
#include "policy/weights.hpp"

namespace weightspace {

using Logits = std::array<float, kActionCount>;

// One forward pass with its intermediate layers (the golden data checks all three).
struct PolicyActivations {
  alignas(64) std::array<float, kHiddenCount> hidden1;
  alignas(64) std::array<float, kHiddenCount> hidden2;
  Logits logits;
};

// verify.logits(weights, x) for the 0/1 input vector x whose ones are `active` (ascending,
// each < 600), bit for bit with numpy 1.24 and reference BLAS:
//   hidden1 = tanh(x @ W1 + b1): the W1 rows of the active inputs summed in ascending order
//             starting from +0.0f, then + b1 (the zero inputs add nothing: 0 * w is +-0);
//   hidden2 = tanh(hidden1 @ W2 + b2), logits = hidden2 @ W3 + b3: for each output,
//             acc = 0; acc += fl32(h[i] * W[i][j]) for i ascending; then acc + b[j].
// No fused multiply-adds (reference sgemv has none); tanh is numpy_tanh.
// Runs the best_simd_level() kernel; the overload with a level (std::invalid_argument if it is
// not available) is for comparing kernels.
void forward(const Weights& weights, std::span<const std::uint16_t> active, PolicyActivations& out);
void forward(const Weights& weights, std::span<const std::uint16_t> active, PolicyActivations& out,
             SimdLevel level);
Logits policy_logits(const Weights& weights, std::span<const std::uint16_t> active);
inline Logits policy_logits(const Weights& weights, const ActiveInputs& inputs) {
  return policy_logits(weights, inputs.view());
}

// The same for many observations at once: logits[b] is bit-identical to
// policy_logits(weights, observations[b]). Observations are processed in interleaved groups
// so that independent dependency chains overlap; nothing is allocated.
// Precondition: logits.size() == observations.size() (else std::invalid_argument).
void forward_batch(const Weights& weights, std::span<const std::span<const std::uint16_t>> observations,
                   std::span<Logits> logits);
void forward_batch(const Weights& weights, std::span<const ActiveInputs> observations, std::span<Logits> logits);
void forward_batch(const Weights& weights, std::span<const std::span<const std::uint16_t>> observations,
                   std::span<Logits> logits, SimdLevel level);
void forward_batch(const Weights& weights, std::span<const ActiveInputs> observations, std::span<Logits> logits,
                   SimdLevel level);

// The formulas above as plain scalar loops (detail::forward_scalar on the full network): the
// readable specification the vector kernels are tested against.
void forward_reference(const Weights& weights, std::span<const std::uint16_t> active, PolicyActivations& out);

}  // namespace weightspace
