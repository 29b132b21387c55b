// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "parser/numpy/view.hpp"
#include "parser/python/value.hpp"

namespace weightspace {

// numpy's conversion of one Python scalar stored into a float32 array: float(x) as a double
// (None is NaN), then rounded to float32. Lists and tuples raise ValueError "setting an array
// element with a sequence.", complex, set, dict and Ellipsis raise TypeError.
float numpy_float32_of(const PyValue& value);

// `tensor[key] = value` for the selected view: a scalar is converted once and fills the view;
// a nested list/tuple goes through numpy's shape discovery (at most view.dimensions deep),
// element conversion in C order, then broadcasting into the view's shape.
void assign_value(const TensorView& view, const PyValue& value);

}  // namespace weightspace
