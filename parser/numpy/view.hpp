// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <array>
#include <cstdint>

namespace weightspace {

// What numpy basic indexing selects from a float32 tensor of at most two dimensions: a scalar
// (dimensions == 0, what numpy returns for an all-integer index) or a strided view.
struct TensorView {
  float* data = nullptr;                 // the tensor's first value
  std::int64_t offset = 0;               // of the first selected value, when size() > 0
  int dimensions = 0;
  std::array<std::int64_t, 2> shape{};
  std::array<std::int64_t, 2> stride{};  // in values, may be negative

  std::int64_t size() const {
    std::int64_t count = 1;
    for (int axis = 0; axis < dimensions; ++axis) count *= shape[axis];
    return count;
  }

  float& element() const { return data[offset]; }

  // Calls visit_run(first, count, stride) for each innermost run of selected values, in C
  // order; a run with stride 1 is contiguous, which lets loops over it vectorise.
  template <class RunVisitor>
  void for_each_run(RunVisitor&& visit_run) const {
    if (dimensions == 0) {
      visit_run(data + offset, std::int64_t{1}, std::int64_t{1});
    } else if (dimensions == 1) {
      if (shape[0] > 0) visit_run(data + offset, shape[0], stride[0]);
    } else if (shape[1] > 0) {
      for (std::int64_t i = 0; i < shape[0]; ++i) visit_run(data + offset + i * stride[0], shape[1], stride[1]);
    }
  }

  // Visits the selected values in C order.
  template <class Visitor>
  void for_each(Visitor&& visit) const {
    if (dimensions == 0) {
      visit(data[offset]);
    } else if (dimensions == 1) {
      for (std::int64_t i = 0; i < shape[0]; ++i) visit(data[offset + i * stride[0]]);
    } else {
      for (std::int64_t i = 0; i < shape[0]; ++i) {
        for (std::int64_t j = 0; j < shape[1]; ++j) visit(data[offset + i * stride[0] + j * stride[1]]);
      }
    }
  }
};

}  // namespace weightspace
