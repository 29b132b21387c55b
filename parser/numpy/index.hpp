// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "parser/numpy/view.hpp"
#include "parser/python/statement.hpp"
#include "policy/weights.hpp"

namespace weightspace {

// verify._target's key: each item's stored literal errors (slice bounds in the order lower,
// upper, step) and int() of each non-slice item, raised in item order.
void check_python_key(const Statement& statement);

// numpy 1.24 basic indexing of the tensor with the (already checked) key: integers beyond a C
// long raise OverflowError or IndexError as numpy's index preparation does, then "too many
// indices", then per axis the bounds of integers and the slices (type of bounds, zero step,
// clamping).
TensorView select_view(const Statement& statement, float* tensor_data, const TensorShape& shape);

}  // namespace weightspace
