// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "parser/numpy/view.hpp"
#include "parser/python/statement.hpp"

namespace weightspace {

// `tensor[key] op= value` for op in +, -, * (numpy 1.24):
// - on a single element, numpy-scalar arithmetic: float32 with a Python int or float operand
//   computes in float64 and is rounded once when stored; complex keeps the real part; lists and
//   tuples go through an array whose result must have exactly one element;
// - on a view, the in-place ufunc with value-based casting: Python floats within float32 range
//   and ints in [-32768, 65535] are rounded to float32 first (float32 loop), larger ints and
//   floats and non-bool lists use the float64 loop; other operands raise UFuncTypeError or
//   broadcasting ValueErrors as numpy does.
void augment_value(const TensorView& view, Statement::Operator op, const PyValue& value);

}  // namespace weightspace
