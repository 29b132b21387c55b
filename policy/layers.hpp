// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <span>

#include "policy/forward.hpp"

// The forward kernels' view of a network, shared by forward.cpp (the grader's full network)
// and policy.cpp (the same network without the hidden units that cannot reach an output).
namespace weightspace::detail {

struct Layers {
  // Layer 1: kInputCount rows of width1 floats (16 or 32), then width1 biases.
  const float* w1;
  const float* b1;
  int width1;
  // Layer 2: rows2 rows (hidden-1 lanes 0..rows2-1, ascending) of width2 floats (16 or 32),
  // then width2 biases.
  const float* w2;
  const float* b2;
  int rows2;
  int width2;
  // Layer 3: rows3 rows (hidden-2 lanes 0..rows3-1) of kActionCount floats, with 8 floats
  // readable from each row's start (the kernels load a row as one 8-lane register); then
  // kActionCount biases.
  const float* w3;
  const float* b3;
  int rows3;
};

// The grader's network: every unit, each row where Weights stores it (the last W3 row's two
// extra floats are b3's first two).
Layers full_layers(const Weights& weights);

// The readable specification of the kernels, and the scalar level: for every output,
// acc = +0.0f; acc += term in ascending input order; then acc + bias; tanh is numpy_tanh.
void forward_scalar(const Layers& layers, std::span<const std::uint16_t> active, PolicyActivations& out);

// forward_batch over any Layers at `level` (which must be available).
void forward_layers_batch(const Layers& layers, std::span<const ActiveInputs> observations, std::span<Logits> logits,
                          SimdLevel level);

// `level`, or std::invalid_argument when this build or CPU cannot run it.
SimdLevel checked_simd_level(SimdLevel level);

}  // namespace weightspace::detail
