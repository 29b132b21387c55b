// SPDX-License-Identifier: GPL-3.0-or-later
#include "parser/numpy/array_like.hpp"

#include <algorithm>
#include <cstdio>

#include "parser/python/error.hpp"

namespace weightspace {
namespace {

// The state numpy's recursive discovery threads through: the shape found so far, whether a
// scalar (or an empty sequence) fixed the number of dimensions, and whether nesting was ragged.
struct Discovery {
  ArrayShape shape;
  bool dimensions_fixed = false;
  bool ragged = false;
};

// numpy's update_shape: a sequence of `length` (or a scalar, when !is_sequence) met at depth
// `depth`. Returns false when that makes the nesting ragged.
bool update_shape(Discovery& discovery, int depth, int& max_dimensions, bool is_sequence, std::int64_t length) {
  bool consistent = true;
  const bool fixed = discovery.dimensions_fixed;
  int new_dimensions = is_sequence ? 1 : 0;
  if (depth + new_dimensions > max_dimensions) {
    consistent = false;
    new_dimensions = max_dimensions - depth;
  } else if (!is_sequence && max_dimensions != depth) {
    max_dimensions = depth;
    if (fixed) consistent = false;
  }
  if (new_dimensions == 1) {
    if (!fixed) {
      discovery.shape.extent[depth] = length;
    } else if (discovery.shape.extent[depth] != length) {
      consistent = false;
      max_dimensions = depth;
    }
  }
  if (!is_sequence) discovery.dimensions_fixed = true;
  return consistent;
}

int discover(const PyValue& value, int depth, int max_dimensions, Discovery& discovery) {
  const bool sequence = is_sequence(value);
  if (!sequence || depth == max_dimensions) {
    // At the dimension limit a sequence is first taken for a scalar, then flagged as too deep.
    if (!update_shape(discovery, depth, max_dimensions, false, 0) || sequence) discovery.ragged = true;
    return max_dimensions;
  }
  const auto length = static_cast<std::int64_t>(value.items().size());
  if (!update_shape(discovery, depth, max_dimensions, true, length)) {
    discovery.ragged = true;
    return max_dimensions;
  }
  if (length == 0) {
    // An empty sequence must be the last dimension.
    discovery.dimensions_fixed = true;
    return depth + 1;
  }
  for (const PyValue& item : value.items()) max_dimensions = discover(item, depth + 1, max_dimensions, discovery);
  return max_dimensions;
}

std::string python_tuple_text(std::span<const std::int64_t> extents) {
  std::string text = "(";
  for (std::size_t axis = 0; axis < extents.size(); ++axis) {
    if (axis > 0) text += ", ";
    text += std::to_string(extents[axis]);
  }
  return text + (extents.size() == 1 ? ",)" : ")");
}

}  // namespace

std::int64_t ArrayShape::size() const {
  std::int64_t count = 1;
  for (int axis = 0; axis < dimensions; ++axis) count *= extent[axis];
  return count;
}

ArrayShape discover_shape(const PyValue& sequence, int max_dimensions) {
  Discovery discovery;
  const int dimensions = discover(sequence, 0, max_dimensions, discovery);
  discovery.shape.dimensions = dimensions;
  if (discovery.ragged) {
    if (dimensions == max_dimensions) {
      throw EditError("ValueError",
                      "setting an array element with a sequence. The requested array would exceed the maximum "
                      "number of dimension of " +
                          std::to_string(max_dimensions) + ".");
    }
    throw EditError("ValueError",
                    "setting an array element with a sequence. The requested array has an inhomogeneous shape "
                    "after " +
                        std::to_string(dimensions) + " dimensions. The detected shape was " +
                        python_tuple_text(discovery.shape.extents()) + " + inhomogeneous part.");
  }
  return discovery.shape;
}

ArrayType discover_type(const PyValue& sequence, int dimensions) {
  bool any_object = false, any_text = false, any_bytes_only = true, any_complex = false, any_float = false;
  bool any_signed = false, any_unsigned = false, any_bool = false;
  std::size_t longest_text = 1;
  static const BigInt two_to_64 = BigInt::from_digits("10000000000000000", 16);
  for_each_scalar(sequence, dimensions, [&](const PyValue& scalar) {
    switch (scalar.kind) {
      case PyValue::Kind::Bool: any_bool = true; break;
      case PyValue::Kind::Int:
        if (scalar.integer.to_int64()) {
          any_signed = true;
        } else if (!scalar.integer.is_negative() && scalar.integer.compare(two_to_64) < 0) {
          any_unsigned = true;
        } else {
          any_object = true;  // beyond int64 and uint64 numpy keeps Python ints as objects
        }
        break;
      case PyValue::Kind::Float: any_float = true; break;
      case PyValue::Kind::Complex: any_complex = true; break;
      case PyValue::Kind::Str:
        any_text = true;
        any_bytes_only = false;
        longest_text = std::max(longest_text, scalar.text().size());
        break;
      case PyValue::Kind::Bytes:
        any_text = true;
        longest_text = std::max(longest_text, scalar.bytes().size());
        break;
      default: any_object = true; break;
    }
  });
  if (any_object) return {ArrayKind::Object, "dtype('O')"};
  if (any_text) {
    // Numbers promoted to strings take the width of their longest repr.
    if (any_bool) longest_text = std::max<std::size_t>(longest_text, 5);
    if (any_unsigned) longest_text = std::max<std::size_t>(longest_text, 20);
    if (any_signed) longest_text = std::max<std::size_t>(longest_text, 21);
    if (any_float) longest_text = std::max<std::size_t>(longest_text, 32);
    if (any_complex) longest_text = std::max<std::size_t>(longest_text, 64);
    const std::string length = std::to_string(longest_text);
    if (any_bytes_only) return {ArrayKind::Bytes, "dtype('S" + length + "')"};
    // Filling a str array decodes each bytes item as ASCII, in C order, before any ufunc or
    // broadcasting check sees the array.
    for_each_scalar(sequence, dimensions, [](const PyValue& scalar) {
      if (scalar.kind != PyValue::Kind::Bytes) return;
      const std::string& bytes = scalar.bytes();
      const auto wide = std::find_if(bytes.begin(), bytes.end(), [](char byte) { return (byte & 0x80) != 0; });
      if (wide == bytes.end()) return;
      char hex[5];
      std::snprintf(hex, sizeof hex, "0x%02x", static_cast<unsigned char>(*wide));
      throw EditError("UnicodeDecodeError", std::string("'ascii' codec can't decode byte ") + hex + " in position " +
                                                std::to_string(wide - bytes.begin()) + ": ordinal not in range(128)");
    });
    return {ArrayKind::String, "dtype('<U" + length + "')"};
  }
  if (any_complex) return {ArrayKind::Complex, "dtype('complex128')"};
  if (any_float || any_signed || any_unsigned) {
    const char* name = any_float || (any_signed && any_unsigned) ? "float64" : any_signed ? "int64" : "uint64";
    return {ArrayKind::Number, std::string("dtype('") + name + "')"};
  }
  if (any_bool) return {ArrayKind::Bool, "dtype('bool')"};
  return {ArrayKind::Number, "dtype('float64')"};  // np.asarray([]) is float64
}

std::string numpy_shape_text(std::span<const std::int64_t> extents) {
  std::string text = "(";
  for (std::size_t axis = 0; axis < extents.size(); ++axis) {
    if (axis > 0) text += ",";
    text += std::to_string(extents[axis]);
  }
  return text + (extents.size() == 1 ? ",)" : ")");
}

}  // namespace weightspace
