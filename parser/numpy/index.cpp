// SPDX-License-Identifier: GPL-3.0-or-later
#include "parser/numpy/index.hpp"

#include <cmath>
#include <limits>
#include <optional>

#include "parser/numpy/located_error.hpp"
#include "parser/python/python_float.hpp"

namespace weightspace {
namespace {

constexpr std::int64_t kLongMax = std::numeric_limits<std::int64_t>::max();
constexpr std::int64_t kLongMin = std::numeric_limits<std::int64_t>::min();

// numpy turns a Python int index into a C long; failing that it tries an array: ints in
// [2^63, 2^64) become uint64 and fail the conversion with OverflowError, anything else becomes
// an object array, which is no valid index.
struct IndexInteger {
  enum class Fit { Long, TooLargeForLong, NotAnIndex };
  Fit fit = Fit::Long;
  std::int64_t value = 0;
};

IndexInteger classify(const BigInt& integer) {
  if (const auto value = integer.to_int64()) return {IndexInteger::Fit::Long, *value};
  static const BigInt two_to_64 = BigInt::from_digits("10000000000000000", 16);
  if (!integer.is_negative() && integer.compare(two_to_64) < 0) return {IndexInteger::Fit::TooLargeForLong, 0};
  return {IndexInteger::Fit::NotAnIndex, 0};
}

// int(literal) for a non-slice item, without copying the common int and bool cases.
IndexInteger index_integer(const PyValue& value) {
  switch (value.kind) {
    case PyValue::Kind::Int: return classify(value.integer);
    case PyValue::Kind::Bool: return {IndexInteger::Fit::Long, value.boolean ? 1 : 0};
    case PyValue::Kind::Float: {
      if (!std::isfinite(value.real)) break;  // python_int raises below
      const double truncated = std::trunc(value.real);
      if (truncated >= -0x1p63 && truncated < 0x1p63) {
        return {IndexInteger::Fit::Long, static_cast<std::int64_t>(truncated)};
      }
      if (truncated >= 0x1p63 && truncated < 0x1p64) return {IndexInteger::Fit::TooLargeForLong, 0};
      return {IndexInteger::Fit::NotAnIndex, 0};
    }
    default: break;
  }
  return classify(python_int(value));
}

// _PyEval_SliceIndex: ints clamp to the C long range, None means "omitted".
std::optional<std::int64_t> slice_bound(const std::optional<Evaluated<PyValue>>& bound, const IndexItem& item) {
  if (!bound) return std::nullopt;
  const PyValue& value = std::get<PyValue>(*bound);
  switch (value.kind) {
    case PyValue::Kind::None: return std::nullopt;
    case PyValue::Kind::Bool: return value.boolean ? 1 : 0;
    case PyValue::Kind::Int:
      if (const auto fits = value.integer.to_int64()) return *fits;
      return value.integer.is_negative() ? kLongMin : kLongMax;
    default:
      throw located_error("TypeError", "slice indices must be integers or None or have an __index__ method",
                          item.line, item.column);
  }
}

struct SliceRange {
  std::int64_t start = 0;
  std::int64_t step = 1;
  std::int64_t length = 0;
};

// PySlice_Unpack followed by PySlice_AdjustIndices.
SliceRange resolve_slice(const IndexItem& item, std::int64_t length) {
  std::int64_t step = 1;
  if (const auto given_step = slice_bound(item.slice->step, item)) {
    if (*given_step == 0) throw located_error("ValueError", "slice step cannot be zero", item.line, item.column);
    step = *given_step < -kLongMax ? -kLongMax : *given_step;
  }
  const auto given_start = slice_bound(item.slice->lower, item);
  const auto given_stop = slice_bound(item.slice->upper, item);
  std::int64_t start = given_start ? *given_start : (step < 0 ? kLongMax : 0);
  std::int64_t stop = given_stop ? *given_stop : (step < 0 ? kLongMin : kLongMax);
  auto adjust = [&](std::int64_t& bound) {
    if (bound < 0) {
      bound += length;
      if (bound < 0) bound = step < 0 ? -1 : 0;
    } else if (bound >= length) {
      bound = step < 0 ? length - 1 : length;
    }
  };
  adjust(start);
  adjust(stop);
  SliceRange range{start, step, 0};
  if (step < 0 && stop < start) range.length = (start - stop - 1) / (-step) + 1;
  if (step > 0 && start < stop) range.length = (stop - start - 1) / step + 1;
  return range;
}

}  // namespace

void check_python_key(const Statement& statement) {
  for (const IndexItem& item : statement.index) {
    try {
      if (item.is_slice()) {
        for (const auto* bound : {&item.slice->lower, &item.slice->upper, &item.slice->step}) {
          if (*bound) value_or_raise(**bound);
        }
      } else {
        const PyValue& value = value_or_raise(item.index);
        if (value.kind != PyValue::Kind::Int && value.kind != PyValue::Kind::Bool) index_integer(value);
      }
    } catch (const EditError& error) {
      throw with_place(error, item.line, item.column);
    }
  }
}

TensorView select_view(const Statement& statement, float* tensor_data, const TensorShape& shape) {
  const int tensor_dimensions = shape.dimensions();
  const std::array<std::int64_t, 2> sizes{shape.rows, shape.columns};
  const std::array<std::int64_t, 2> strides{shape.dimensions() == 2 ? shape.columns : 1, 1};

  // Index preparation converts every integer first, in order.
  std::array<std::int64_t, 2> integers{};
  for (std::size_t position = 0; position < statement.index.size(); ++position) {
    const IndexItem& item = statement.index[position];
    if (item.is_slice()) continue;
    const IndexInteger integer = index_integer(std::get<PyValue>(item.index));
    if (integer.fit == IndexInteger::Fit::TooLargeForLong) {
      throw located_error("OverflowError", "Python int too large to convert to C long", item.line, item.column);
    }
    if (integer.fit == IndexInteger::Fit::NotAnIndex) {
      throw located_error("IndexError",
                          "only integers, slices (`:`), ellipsis (`...`), numpy.newaxis (`None`) and integer or "
                          "boolean arrays are valid indices",
                          item.line, item.column);
    }
    if (position < 2) integers[position] = integer.value;
  }
  const auto indexed = static_cast<int>(statement.index.size());
  if (statement.index.size() > static_cast<std::size_t>(tensor_dimensions)) {
    throw located_error("IndexError",
                        "too many indices for array: array is " + std::to_string(tensor_dimensions) +
                            "-dimensional, but " + std::to_string(statement.index.size()) + " were indexed",
                        statement.line, statement.column);
  }

  TensorView view;
  view.data = tensor_data;
  for (int axis = 0; axis < tensor_dimensions; ++axis) {
    const std::int64_t size = sizes[axis];
    if (axis >= indexed) {
      view.shape[view.dimensions] = size;
      view.stride[view.dimensions++] = strides[axis];
      continue;
    }
    const IndexItem& item = statement.index[axis];
    if (!item.is_slice()) {
      const std::int64_t integer = integers[axis];
      if (integer < -size || integer >= size) {
        throw located_error("IndexError",
                            "index " + std::to_string(integer) + " is out of bounds for axis " +
                                std::to_string(axis) + " with size " + std::to_string(size),
                            item.line, item.column);
      }
      view.offset += (integer < 0 ? integer + size : integer) * strides[axis];
      continue;
    }
    const SliceRange range = resolve_slice(item, size);
    if (range.length > 0) view.offset += range.start * strides[axis];
    view.shape[view.dimensions] = range.length;
    // A huge step selects at most one value; its stride is then irrelevant (and would overflow).
    view.stride[view.dimensions++] = range.length > 1 ? range.step * strides[axis] : 0;
  }
  return view;
}

}  // namespace weightspace
