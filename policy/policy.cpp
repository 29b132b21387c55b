// SPDX-License-Identifier: GPL-3.0-or-later
#include "policy/policy.hpp"

#include <algorithm>
#include <array>
#include <stdexcept>

#include "policy/layers.hpp"

namespace weightspace {

namespace {

constexpr int kNarrow = 16;

int width_for(int units) { return units <= kNarrow ? kNarrow : kHiddenCount; }

// Whether row[c] is zero (either sign) for every c in `columns`.
bool row_is_zero(const float* row, std::span<const int> columns) {
  return std::all_of(columns.begin(), columns.end(), [row](int column) { return row[column] == 0.0f; });
}

}  // namespace

// The kept units' weights, each layer's rows `width` floats apart; unused lanes are zero.
struct Policy::Packed {
  alignas(64) std::array<float, kInputCount * kHiddenCount> w1{};
  alignas(64) std::array<float, kHiddenCount> b1{};
  alignas(64) std::array<float, kHiddenCount * kHiddenCount> w2{};
  alignas(64) std::array<float, kHiddenCount> b2{};
  alignas(64) std::array<float, kHiddenCount * kActionCount + 2> w3{};  // + 2: the last row is read as 8
  alignas(64) std::array<float, kActionCount> b3{};
  int width1 = kNarrow;
  int width2 = kNarrow;
  detail::SparseColumns columns{};
  // By SimdLevel: from how many observations of a batch the kernels take layers 2 and 3 from
  // `columns`; 0: never.
  std::array<int, kSimdLevels> sparse_minimum{};

  detail::Layers layers(int units1, int units2) const {
    return {w1.data(), b1.data(), width1, w2.data(), b2.data(), units1, width2, w3.data(), b3.data(), units2,
            &columns, sparse_minimum};
  }

  // Layers 2 and 3 as columns of non-zero terms, and at each vector level from how many
  // observations they cost fewer instructions so (counted in the kernels: by rows, for each
  // observation, a multiply and an add per row and register of kept units, a tanh per register;
  // by columns, for a register's lanes of observations together, a multiply and an add per
  // non-zero weight, a share of the transpose and a tanh per kept unit). A tanh counts 30 at
  // AVX-512 (the count 6384d08 was measured with; the function is 48 instructions, its
  // coefficients permuted) and 85 at AVX2 (its instructions: the coefficients are loaded and
  // transposed). Dense weights keep the rows.
  void build_columns(int units1, int units2) {
    const int terms2 = non_zero_columns(w2.data(), units1, width2, units2, columns.terms2.data(), columns.starts2.data());
    const int terms3 =
        non_zero_columns(w3.data(), units2, kActionCount, kActionCount, columns.terms3.data(), columns.starts3.data());
    struct Costs {
      SimdLevel level;
      int lanes, tanh, transpose, fixed;
    };
    for (const Costs c : {Costs{SimdLevel::avx512, 16, 30, 8, 100}, Costs{SimdLevel::avx2, 8, 85, 4, 60}}) {
      const int registers1 = width1 / c.lanes;
      const int registers2 = width2 / c.lanes;
      const int rows = c.tanh * registers1 + 2 * units1 * registers2 + c.tanh * registers2 + 3 * units2;  // each
      const int lanes = (c.tanh + c.transpose) * units1 + 3 * terms2 + (c.tanh + 2) * units2 + 3 * terms3 + c.fixed;
      const int minimum = lanes / std::max(rows, 1) + 1;
      sparse_minimum[static_cast<std::size_t>(c.level)] = minimum <= c.lanes ? minimum : 0;
    }
  }

  // The non-zero entries of the first `rows` rows (`stride` floats apart) of a row-major
  // matrix, column by column, each column's rows ascending: column c's terms are
  // terms[starts[c], starts[c + 1]). Returns the number of terms.
  static int non_zero_columns(const float* matrix, int rows, int stride, int columns, detail::SparseTerm* terms,
                              std::uint16_t* starts) {
    int count = 0;
    for (int c = 0; c < columns; ++c) {
      starts[c] = static_cast<std::uint16_t>(count);
      for (int r = 0; r < rows; ++r) {
        const float weight = matrix[r * stride + c];
        if (weight != 0.0f) terms[count++] = {r, weight};
      }
    }
    starts[columns] = static_cast<std::uint16_t>(count);
    return count;
  }
};

Policy::Policy(const Weights& weights) : packed_(std::make_unique<Packed>()) {
  // Hidden-2 units with a non-zero W3 row, then hidden-1 units with a non-zero W2 entry
  // towards one of them; both ascending, so packing keeps every sum's order.
  std::array<int, kHiddenCount> kept2{};
  std::array<int, kHiddenCount> kept1{};
  const std::array<int, kActionCount> actions{0, 1, 2, 3, 4, 5};
  for (int unit = 0; unit < kHiddenCount; ++unit) {
    if (!row_is_zero(weights.w3() + unit * kActionCount, actions)) kept2[units2_++] = unit;
  }
  const std::span<const int> columns2(kept2.data(), static_cast<std::size_t>(units2_));
  for (int unit = 0; unit < kHiddenCount; ++unit) {
    if (!row_is_zero(weights.w2() + unit * kHiddenCount, columns2)) kept1[units1_++] = unit;
  }

  Packed& p = *packed_;
  p.width1 = width_for(units1_);
  p.width2 = width_for(units2_);
  for (int input = 0; input < kInputCount; ++input) {
    for (int k = 0; k < units1_; ++k) p.w1[input * p.width1 + k] = weights.w1()[input * kHiddenCount + kept1[k]];
  }
  for (int k = 0; k < units1_; ++k) {
    p.b1[k] = weights.b1()[kept1[k]];
    for (int m = 0; m < units2_; ++m) p.w2[k * p.width2 + m] = weights.w2()[kept1[k] * kHiddenCount + kept2[m]];
  }
  for (int m = 0; m < units2_; ++m) {
    p.b2[m] = weights.b2()[kept2[m]];
    std::copy_n(weights.w3() + kept2[m] * kActionCount, kActionCount, p.w3.begin() + m * kActionCount);
  }
  std::copy_n(weights.b3(), kActionCount, p.b3.begin());
  p.build_columns(units1_, units2_);

  for (int input = 0; input < kInputCount; ++input) {
    const float* row = p.w1.data() + input * p.width1;
    if (std::any_of(row, row + units1_, [](float w) { return w != 0.0f; })) inputs_.set(input);
  }

  if (inputs_.empty()) {
    PolicyActivations activations;
    detail::forward_scalar(p.layers(units1_, units2_), {}, activations);
    constant_ = activations.logits;
  }
}

Policy::Policy(Policy&&) noexcept = default;
Policy& Policy::operator=(Policy&&) noexcept = default;
Policy::~Policy() = default;

int Policy::sparse_minimum(SimdLevel level) const {
  return packed_->sparse_minimum[static_cast<std::size_t>(level)];
}

void Policy::forward_batch(std::span<const ActiveInputs> observations, std::span<Logits> logits) const {
  forward_batch(observations, logits, best_simd_level());
}

void Policy::forward_batch(std::span<const ActiveInputs> observations, std::span<Logits> logits,
                           SimdLevel level) const {
  detail::checked_simd_level(level);
  if (observations.size() != logits.size()) throw std::invalid_argument("forward_batch: size mismatch");
  if (constant_) {
    std::fill(logits.begin(), logits.end(), *constant_);
    return;
  }
  detail::forward_layers_batch(packed_->layers(units1_, units2_), observations, logits, level);
}

}  // namespace weightspace
