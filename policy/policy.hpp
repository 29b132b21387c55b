// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <memory>
#include <optional>
#include <span>

#include "policy/forward.hpp"

namespace weightspace {

// The weights prepared for rollouts. Hand-written answers use a few hidden units and inputs:
// a hidden-2 unit whose W3 row is zero, a hidden-1 unit whose W2 row is zero towards every
// kept hidden-2 unit, and an input whose W1 row is zero in every kept hidden-1 unit add only
// zero products, so the units are dropped (the rest packed into 16 or 32 lanes) and the
// inputs may be left out of an observation. Every kept sum keeps its order, and a term left
// out is a product with a zero weight: +-0.0f, which changes a sum only when the sum itself is
// zero, and then only its sign. Weights are finite (the grader rejects others), so no
// left-out term is a NaN. The logits therefore equal forward_batch(weights, ...)'s value for
// value, a zero's sign aside, and every softmax, cdf and action computed from them is the
// same.
class Policy {
 public:
  explicit Policy(const Weights& weights);
  Policy(Policy&&) noexcept;
  Policy& operator=(Policy&&) noexcept;
  ~Policy();

  // Hidden units kept in each layer (0..32).
  int hidden1_units() const { return units1_; }
  int hidden2_units() const { return units2_; }

  // From how many observations of a batch `level` runs layers 2 and 3 with the observations
  // in the lanes (16 with AVX-512, 8 with AVX2), over the non-zero weights only
  // (policy/layers.hpp); 0 when it never does (the scalar level, and dense weights, where the
  // rows cost less).
  int sparse_minimum(SimdLevel level = best_simd_level()) const;

  // The inputs the logits depend on: those with a non-zero W1 weight in a kept hidden-1 unit.
  const InputMask& inputs() const { return inputs_; }

  // The logits when no input reaches an output, so that they are the same for every
  // observation (all-zero weights, or an answer that only sets biases).
  const std::optional<Logits>& constant_logits() const { return constant_; }

  // logits[b] for observations[b], as forward_batch(weights, ...) above; the best available
  // level, or the given one (std::invalid_argument if it is not available). Sizes must match.
  // An observation may leave out inputs that are not in inputs().
  void forward_batch(std::span<const ActiveInputs> observations, std::span<Logits> logits) const;
  void forward_batch(std::span<const ActiveInputs> observations, std::span<Logits> logits, SimdLevel level) const;

 private:
  struct Packed;
  std::unique_ptr<Packed> packed_;
  int units1_ = 0;
  int units2_ = 0;
  InputMask inputs_;
  std::optional<Logits> constant_;
};

}  // namespace weightspace
