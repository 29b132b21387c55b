// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>

#include "parser/python/value.hpp"

namespace weightspace {

inline constexpr int kNumpyMaxDimensions = 32;  // NPY_MAXDIMS

inline bool is_sequence(const PyValue& value) {
  return value.kind == PyValue::Kind::List || value.kind == PyValue::Kind::Tuple;
}

struct ArrayShape {
  int dimensions = 0;
  std::array<std::int64_t, kNumpyMaxDimensions> extent{};

  std::span<const std::int64_t> extents() const { return {extent.data(), static_cast<std::size_t>(dimensions)}; }
  std::int64_t size() const;
};

// numpy 1.24's shape discovery for a nested list/tuple turned into an array of at most
// `max_dimensions` dimensions (str and bytes are scalars). Throws ValueError "setting an array
// element with a sequence. ..." for ragged nesting or nesting deeper than max_dimensions.
ArrayShape discover_shape(const PyValue& sequence, int max_dimensions);

// Visits the scalars of a nested sequence whose shape was discovered, in C order.
template <class Visitor>
void for_each_scalar(const PyValue& value, int dimensions, Visitor&& visit) {
  if (dimensions == 0) {
    visit(value);
    return;
  }
  for (const PyValue& item : value.items()) for_each_scalar(item, dimensions - 1, visit);
}

// The dtype np.asarray gives a nested sequence, as far as float32 arithmetic cares. Mixing str
// and bytes makes a str array, whose filling throws UnicodeDecodeError for a non-ASCII byte.
enum class ArrayKind { Bool, Number, Complex, String, Bytes, Object };
struct ArrayType {
  ArrayKind kind = ArrayKind::Number;
  std::string dtype;  // numpy's repr of it, for messages: dtype('float64'), dtype('<U1'), dtype('O')
};
ArrayType discover_type(const PyValue& sequence, int dimensions);

// numpy's shape formatting in broadcast messages: (3,), (2,1), ().
std::string numpy_shape_text(std::span<const std::int64_t> extents);

}  // namespace weightspace
