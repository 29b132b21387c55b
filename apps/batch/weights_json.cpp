// SPDX-License-Identifier: GPL-3.0-or-later
#include "apps/batch/weights_json.hpp"

#include <bit>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include <nlohmann/json.hpp>

#include "apps/cli/files.hpp"

namespace weightspace::app {

namespace {

float to_float32(const nlohmann::json& value, const std::string& where) {
  if (!value.is_number()) throw CommandError(where + ": expected a number, found " + std::string(value.type_name()));
  const double number = value.get<double>();
  const auto rounded = static_cast<float>(number);
  if (!std::isfinite(rounded)) throw CommandError(where + ": value is not a finite float32");
  return rounded;
}

void read_hex_tensor(const std::string& text, std::span<float> out, const std::string& where) {
  if (text.size() != out.size() * 8) {
    throw CommandError(where + ": expected " + std::to_string(out.size() * 8) + " hex digits (" +
                       std::to_string(out.size()) + " float32 bit patterns), found " + std::to_string(text.size()));
  }
  for (std::size_t i = 0; i < out.size(); ++i) {
    std::uint32_t bits = 0;
    const char* begin = text.data() + i * 8;
    const auto [end, error] = std::from_chars(begin, begin + 8, bits, 16);
    if (error != std::errc{} || end != begin + 8) {
      throw CommandError(where + ": value " + std::to_string(i) + " is not 8 hex digits");
    }
    out[i] = std::bit_cast<float>(bits);
  }
}

void read_tensor(const nlohmann::json& value, const TensorShape& shape, std::span<float> out,
                 const std::string& where) {
  if (value.is_string()) return read_hex_tensor(value.get<std::string>(), out, where);
  auto expect_array = [&](const nlohmann::json& node, int size, const std::string& at) {
    if (!node.is_array()) throw CommandError(at + ": expected an array, found " + std::string(node.type_name()));
    if (static_cast<int>(node.size()) != size) {
      throw CommandError(at + ": expected " + std::to_string(size) + " values, found " + std::to_string(node.size()));
    }
  };
  expect_array(value, shape.rows, where);
  if (shape.columns == 0) {
    for (int i = 0; i < shape.rows; ++i) out[static_cast<std::size_t>(i)] = to_float32(value[static_cast<std::size_t>(i)], where + "[" + std::to_string(i) + "]");
    return;
  }
  for (int r = 0; r < shape.rows; ++r) {
    const std::string row_where = where + "[" + std::to_string(r) + "]";
    const auto& row = value[static_cast<std::size_t>(r)];
    expect_array(row, shape.columns, row_where);
    for (int c = 0; c < shape.columns; ++c) {
      out[static_cast<std::size_t>(r * shape.columns + c)] =
          to_float32(row[static_cast<std::size_t>(c)], row_where + "[" + std::to_string(c) + "]");
    }
  }
}

std::string float_text(float value) {
  // "-0" would read back as the JSON integer 0.
  if (value == 0.0f && std::signbit(value)) return "-0.0";
  char buffer[32];
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
  std::string text(buffer, result.ptr);
  if (static_cast<float>(std::strtod(text.c_str(), nullptr)) != value ||
      std::signbit(static_cast<float>(std::strtod(text.c_str(), nullptr))) != std::signbit(value)) {
    std::snprintf(buffer, sizeof buffer, "%.9g", static_cast<double>(value));
    text = buffer;
  }
  return text;
}

}  // namespace

Weights read_weights_json(const std::string& text, const std::string& where) {
  nlohmann::json document;
  try {
    document = nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& error) {
    throw CommandError(where + ": not valid JSON: " + error.what());
  }
  if (!document.is_object()) throw CommandError(where + ": expected a JSON object of six tensors");
  Weights weights;
  for (std::size_t t = 0; t < kTensorShapes.size(); ++t) {
    const TensorShape& shape = kTensorShapes[t];
    const std::string name(shape.name);
    if (!document.contains(name)) throw CommandError(where + ": missing tensor " + name);
    read_tensor(document.at(name), shape, weights.tensor(static_cast<Tensor>(t)), where + ": " + name);
  }
  for (const auto& [key, value] : document.items()) {
    bool known = false;
    for (const TensorShape& shape : kTensorShapes) known = known || key == shape.name;
    if (!known) throw CommandError(where + ": unknown tensor '" + key + "' (expected W1, b1, W2, b2, W3, b3)");
  }
  return weights;
}

std::string write_weights_json(const Weights& weights) {
  std::string out = "{";
  for (std::size_t t = 0; t < kTensorShapes.size(); ++t) {
    const TensorShape& shape = kTensorShapes[t];
    const auto values = weights.tensor(static_cast<Tensor>(t));
    out += (t == 0 ? "\n  \"" : ",\n  \"") + std::string(shape.name) + "\": [";
    const int columns = shape.columns == 0 ? static_cast<int>(values.size()) : shape.columns;
    for (std::size_t i = 0; i < values.size(); ++i) {
      const bool row_start = static_cast<int>(i) % columns == 0;
      if (shape.columns != 0 && row_start) out += i == 0 ? "\n    [" : "],\n    [";
      else if (i != 0) out += ", ";
      out += float_text(values[i]);
    }
    out += shape.columns != 0 ? "]\n  ]" : "]";
  }
  return out + "\n}\n";
}

}  // namespace weightspace::app
