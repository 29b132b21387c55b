// SPDX-License-Identifier: GPL-3.0-or-later
#include "parser/numpy/augmented.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "parser/numpy/array_like.hpp"
#include "parser/python/error.hpp"

namespace weightspace {
namespace {

using Operator = Statement::Operator;

const char* ufunc_name(Operator op) { return op == Operator::Add ? "add" : op == Operator::Sub ? "subtract" : "multiply"; }
const char* operator_symbol(Operator op) { return op == Operator::Add ? "+" : op == Operator::Sub ? "-" : "*"; }

// float32 arithmetic on float32 operands equals float64 arithmetic rounded once to float32
// (53 >= 2 * 24 + 2), so both of numpy's loops are computed in double.
double combine(double current, Operator op, double operand) {
  switch (op) {
    case Operator::Add: return current + operand;
    case Operator::Sub: return current - operand;
    default: return current * operand;
  }
}

// element = float32(element op operand) over the whole view, with the operator fixed at compile
// time so contiguous runs vectorise.
template <Operator op>
void combine_view(const TensorView& view, double operand) {
  view.for_each_run([operand](float* first, std::int64_t count, std::int64_t stride) {
    if (stride == 1) {
      for (std::int64_t i = 0; i < count; ++i) first[i] = static_cast<float>(combine(first[i], op, operand));
    } else {
      for (std::int64_t i = 0; i < count; ++i) {
        first[i * stride] = static_cast<float>(combine(first[i * stride], op, operand));
      }
    }
  });
}

double round_to_float32(double value) { return static_cast<double>(static_cast<float>(value)); }

std::string text_dtype(const PyValue& value) {
  return value.kind == PyValue::Kind::Str
             ? "dtype('<U" + std::to_string(std::max<std::size_t>(1, value.text().size())) + "')"
             : "dtype('S" + std::to_string(std::max<std::size_t>(1, value.bytes().size())) + "')";
}

[[noreturn]] void raise_no_loop(Operator op, const std::string& dtype) {
  throw EditError("UFuncTypeError", std::string("ufunc '") + ufunc_name(op) +
                                        "' did not contain a loop with signature matching types (dtype('float32'), " +
                                        dtype + ") -> None");
}

[[noreturn]] void raise_cannot_cast(Operator op, const std::string& dtype) {
  throw EditError("UFuncTypeError", std::string("Cannot cast ufunc '") + ufunc_name(op) + "' output from " + dtype +
                                        " to dtype('float32') with casting rule 'same_kind'");
}

[[noreturn]] void raise_sequence_repeat() {
  throw EditError("TypeError", "can't multiply sequence by non-int of type 'numpy.float32'");
}

[[noreturn]] void raise_unsupported(Operator op, const PyValue& value) {
  throw EditError("TypeError", std::string("unsupported operand type(s) for ") + operator_symbol(op) +
                                   ": 'float' and '" + value.type_name() + "'");
}

[[noreturn]] void raise_sequence_into_element() {
  throw EditError("ValueError", "setting an array element with a sequence.");
}

double int_as_double(const BigInt& integer) {
  const auto converted = integer.to_double();
  if (!converted) throw EditError("OverflowError", "int too large to convert to float");
  return *converted;
}

// A numeric scalar of a bool or number array, as the float64 (or exact float32) loop reads it.
double numeric_scalar(const PyValue& scalar) {
  switch (scalar.kind) {
    case PyValue::Kind::Bool: return scalar.boolean ? 1.0 : 0.0;
    case PyValue::Kind::Int: return int_as_double(scalar.integer);
    default: return scalar.real;
  }
}

// np.float32 scalar op [list]: the list becomes an array and the result must hold one value.
double element_with_sequence(double current, Operator op, const PyValue& sequence) {
  const ArrayShape shape = discover_shape(sequence, kNumpyMaxDimensions);
  const ArrayType type = discover_type(sequence, shape.dimensions);
  if (type.kind == ArrayKind::String || type.kind == ArrayKind::Bytes) raise_no_loop(op, type.dtype);
  double result = 0.0;
  if (type.kind == ArrayKind::Object) {
    // The object loop applies Python's float operators element by element.
    for_each_scalar(sequence, shape.dimensions, [&](const PyValue& scalar) {
      switch (scalar.kind) {
        case PyValue::Kind::Bool:
        case PyValue::Kind::Int:
        case PyValue::Kind::Float: result = combine(current, op, numeric_scalar(scalar)); break;
        case PyValue::Kind::Complex: break;  // a complex result; the size check below rejects it
        default: raise_unsupported(op, scalar);
      }
    });
  } else if (type.kind != ArrayKind::Complex && shape.size() == 1) {
    for_each_scalar(sequence, shape.dimensions,
                    [&](const PyValue& scalar) { result = combine(current, op, numeric_scalar(scalar)); });
  }
  // A complex array cannot be stored into a float32 element even when it has one value.
  if (shape.size() != 1 || type.kind == ArrayKind::Complex) raise_sequence_into_element();
  return result;
}

void augment_element(float& element, Operator op, const PyValue& value) {
  const double current = element;
  double result = 0.0;
  switch (value.kind) {
    case PyValue::Kind::Bool:
    case PyValue::Kind::Int:
    case PyValue::Kind::Float: result = combine(current, op, numeric_scalar(value)); break;
    case PyValue::Kind::Complex:
      // complex128 arithmetic with (current + 0j); storing keeps the real part (ComplexWarning).
      result = op == Operator::Mult ? current * value.real - 0.0 * value.imag : combine(current, op, value.real);
      break;
    case PyValue::Kind::Str:
    case PyValue::Kind::Bytes:
      if (op == Operator::Mult) raise_sequence_repeat();
      raise_no_loop(op, text_dtype(value));
    case PyValue::Kind::List:
    case PyValue::Kind::Tuple:
      if (op == Operator::Mult) raise_sequence_repeat();
      result = element_with_sequence(current, op, value);
      break;
    default: raise_unsupported(op, value);
  }
  element = static_cast<float>(result);
}

// numpy 1.24 value-based casting of a Python scalar against a float32 array: the operand as
// the chosen loop reads it.
double scalar_operand_for_view(Operator op, const PyValue& value) {
  switch (value.kind) {
    case PyValue::Kind::Bool: return value.boolean ? 1.0 : 0.0;
    case PyValue::Kind::Int: {
      static const BigInt two_to_64 = BigInt::from_digits("10000000000000000", 16);
      const bool fits_int64 = value.integer.to_int64().has_value();
      if (!fits_int64 && (value.integer.is_negative() || value.integer.compare(two_to_64) >= 0)) {
        raise_cannot_cast(op, "dtype('O')");
      }
      return int_as_double(value.integer);  // exact in float32 for [-32768, 65535]
    }
    case PyValue::Kind::Float: {
      const double operand = value.real;
      const bool float32_loop = !std::isfinite(operand) || (operand > -3.4e38 && operand < 3.4e38);
      return float32_loop ? round_to_float32(operand) : operand;
    }
    case PyValue::Kind::Complex: {
      const bool fits = std::fabs(value.real) < 3.4e38 && std::fabs(value.imag) < 3.4e38;
      raise_cannot_cast(op, fits ? "dtype('complex64')" : "dtype('complex128')");
    }
    case PyValue::Kind::Str:
    case PyValue::Kind::Bytes: raise_no_loop(op, text_dtype(value));
    default: raise_cannot_cast(op, "dtype('O')");
  }
}

void augment_view_with_sequence(const TensorView& view, Operator op, const PyValue& sequence) {
  const ArrayShape shape = discover_shape(sequence, kNumpyMaxDimensions);
  const ArrayType type = discover_type(sequence, shape.dimensions);
  if (type.kind == ArrayKind::String || type.kind == ArrayKind::Bytes) raise_no_loop(op, type.dtype);
  if (type.kind == ArrayKind::Object || type.kind == ArrayKind::Complex) raise_cannot_cast(op, type.dtype);

  // Broadcast the view, the operand and the output (the view again); the output may not grow.
  const std::span<const std::int64_t> view_shape{view.shape.data(), static_cast<std::size_t>(view.dimensions)};
  const int dimensions = std::max(view.dimensions, shape.dimensions);
  std::array<std::int64_t, kNumpyMaxDimensions> broadcast{};
  bool compatible = true;
  for (int axis = 0; axis < dimensions; ++axis) {
    const int view_axis = axis - (dimensions - view.dimensions);
    const int operand_axis = axis - (dimensions - shape.dimensions);
    const std::int64_t a = view_axis >= 0 ? view.shape[view_axis] : 1;
    const std::int64_t b = operand_axis >= 0 ? shape.extent[operand_axis] : 1;
    if (a != b && a != 1 && b != 1) compatible = false;
    broadcast[axis] = a == 1 ? b : a;
  }
  if (!compatible) {
    const std::string view_text = numpy_shape_text(view_shape);
    throw EditError("ValueError", "operands could not be broadcast together with shapes " + view_text + " " +
                                      numpy_shape_text(shape.extents()) + " " + view_text + " ");
  }
  const std::span<const std::int64_t> broadcast_shape{broadcast.data(), static_cast<std::size_t>(dimensions)};
  if (!std::equal(broadcast_shape.begin(), broadcast_shape.end(), view_shape.begin(), view_shape.end())) {
    throw EditError("ValueError", "non-broadcastable output operand with shape " + numpy_shape_text(view_shape) +
                                      " doesn't match the broadcast shape " + numpy_shape_text(broadcast_shape));
  }

  std::vector<double> operands;
  operands.reserve(static_cast<std::size_t>(shape.size()));
  for_each_scalar(sequence, shape.dimensions, [&operands](const PyValue& scalar) { operands.push_back(numeric_scalar(scalar)); });
  std::array<std::int64_t, 2> operand_stride{};
  std::int64_t contiguous = 1;
  const int leading = view.dimensions - shape.dimensions;
  for (int axis = view.dimensions - 1; axis >= leading; --axis) {
    const std::int64_t extent = shape.extent[axis - leading];
    operand_stride[axis] = extent == 1 ? 0 : contiguous;
    contiguous *= extent;
  }
  for (std::int64_t i = 0; i < (view.dimensions >= 1 ? view.shape[0] : 1); ++i) {
    for (std::int64_t j = 0; j < (view.dimensions == 2 ? view.shape[1] : 1); ++j) {
      float& element = view.data[view.offset + i * view.stride[0] + j * view.stride[1]];
      const double operand = operands[static_cast<std::size_t>(i * operand_stride[0] + j * operand_stride[1])];
      element = static_cast<float>(combine(element, op, operand));
    }
  }
}

}  // namespace

void augment_value(const TensorView& view, Operator op, const PyValue& value) {
  if (view.dimensions == 0) {
    augment_element(view.element(), op, value);
  } else if (is_sequence(value)) {
    augment_view_with_sequence(view, op, value);
  } else {
    const double operand = scalar_operand_for_view(op, value);
    switch (op) {
      case Operator::Add: combine_view<Operator::Add>(view, operand); break;
      case Operator::Sub: combine_view<Operator::Sub>(view, operand); break;
      default: combine_view<Operator::Mult>(view, operand); break;
    }
  }
}

}  // namespace weightspace
