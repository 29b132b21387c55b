// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <array>
#include <cstdint>
#include <span>

#include "policy/forward.hpp"

// The forward kernels' view of a network, shared by forward.cpp (the grader's full network)
// and policy.cpp (the same network without the hidden units that cannot reach an output).
namespace weightspace::detail {

// Layers 2 and 3 by output, each output's terms with a non-zero weight in ascending input
// order (inputs are lanes of the packed layers). A term left out is a product with a zero
// weight, +-0.0f, which changes no sum that starts at +0.0f (policy/policy.hpp), so the sums
// are the rows' sums. Hand-written answers connect each hidden-1 unit to one or a few
// hidden-2 units (1 to 7 non-zero weights of 32), where layer 2's rows are mostly zeros.
struct SparseTerm {
  std::int32_t input;
  float weight;
};
struct SparseColumns {
  std::array<SparseTerm, kHiddenCount * kHiddenCount> terms2;
  std::array<std::uint16_t, kHiddenCount + 1> starts2;  // output m: terms2[starts2[m], starts2[m + 1])
  std::array<SparseTerm, kHiddenCount * kActionCount> terms3;
  std::array<std::uint16_t, kActionCount + 1> starts3;  // action a: terms3[starts3[a], starts3[a + 1])
};

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
  // Layers 2 and 3 again, as columns of non-zero terms (null: none, and every minimum 0). A
  // vector level runs them for as many observations at once as its registers have lanes (16
  // with AVX-512, 8 with AVX2; forward_sparse.cpp) when at least sparse_minimum[level]
  // observations fill the lanes (a memo's few misses take the rows); 0: never at that level.
  const SparseColumns* sparse;
  std::array<int, kSimdLevels> sparse_minimum;
};

// The grader's network: every unit, each row where Weights stores it (the last W3 row's two
// extra floats are b3's first two).
Layers full_layers(const Weights& weights);

// The readable specification of the kernels, and the scalar level: for every output,
// acc = +0.0f; acc += term in ascending input order; then acc + bias; tanh is numpy_tanh.
void forward_scalar(const Layers& layers, std::span<const std::uint16_t> active, PolicyActivations& out);

// Layer 1's tanh and layers 2 and 3 through layers.sparse for observations acts[0, count)
// (count <= 16), whose hidden1 holds layer 1's sums (+ b1, before tanh): each unit a register
// of the 16 observations, tanh of the kept units only, and only the non-zero terms. Writes
// out[0, count). acts[count, 16) are read and must be initialised.
void sparse_layers23_avx512(const Layers& layers, const PolicyActivations* acts, int count, Logits* out);
// The same with AVX2 for count <= 8 observations; acts[count, 8) are read.
void sparse_layers23_avx2(const Layers& layers, const PolicyActivations* acts, int count, Logits* out);

// forward_batch over any Layers at `level` (which must be available).
void forward_layers_batch(const Layers& layers, std::span<const ActiveInputs> observations, std::span<Logits> logits,
                          SimdLevel level);

// `level`, or std::invalid_argument when this build or CPU cannot run it.
SimdLevel checked_simd_level(SimdLevel level);

}  // namespace weightspace::detail
