// SPDX-License-Identifier: GPL-3.0-or-later
#include "parser/numpy/assign.hpp"

#include <limits>
#include <vector>

#include "parser/numpy/array_like.hpp"
#include "parser/python/error.hpp"
#include "parser/python/python_float.hpp"

namespace weightspace {

float numpy_float32_of(const PyValue& value) {
  switch (value.kind) {
    case PyValue::Kind::None: return std::numeric_limits<float>::quiet_NaN();
    case PyValue::Kind::List:
    case PyValue::Kind::Tuple: throw EditError("ValueError", "setting an array element with a sequence.");
    default: return static_cast<float>(python_float(value));
  }
}

void assign_value(const TensorView& view, const PyValue& value) {
  if (view.dimensions == 0) {
    view.element() = numpy_float32_of(value);
    return;
  }
  if (!is_sequence(value)) {
    const float converted = numpy_float32_of(value);
    view.for_each([converted](float& element) { element = converted; });
    return;
  }
  const ArrayShape shape = discover_shape(value, view.dimensions);
  std::vector<float> converted;
  converted.reserve(static_cast<std::size_t>(shape.size()));
  for_each_scalar(value, shape.dimensions,
                  [&converted](const PyValue& scalar) { converted.push_back(numpy_float32_of(scalar)); });

  // Broadcast: align on the right, each source extent equal to the view's or 1.
  std::array<std::int64_t, 2> source_stride{};
  const int leading = view.dimensions - shape.dimensions;
  std::int64_t contiguous = 1;
  for (int axis = view.dimensions - 1; axis >= leading; --axis) {
    const std::int64_t extent = shape.extent[axis - leading];
    if (extent != view.shape[axis] && extent != 1) {
      throw EditError("ValueError", "could not broadcast input array from shape " +
                                        numpy_shape_text(shape.extents()) + " into shape " +
                                        numpy_shape_text({view.shape.data(), static_cast<std::size_t>(view.dimensions)}));
    }
    source_stride[axis] = extent == 1 ? 0 : contiguous;
    contiguous *= extent;
  }
  if (view.size() == 0) return;
  if (view.dimensions == 1) {
    for (std::int64_t i = 0; i < view.shape[0]; ++i) {
      view.data[view.offset + i * view.stride[0]] = converted[static_cast<std::size_t>(i * source_stride[0])];
    }
    return;
  }
  for (std::int64_t i = 0; i < view.shape[0]; ++i) {
    for (std::int64_t j = 0; j < view.shape[1]; ++j) {
      view.data[view.offset + i * view.stride[0] + j * view.stride[1]] =
          converted[static_cast<std::size_t>(i * source_stride[0] + j * source_stride[1])];
    }
  }
}

}  // namespace weightspace
