// SPDX-License-Identifier: GPL-3.0-or-later
#include "parser/numpy/apply_edits.hpp"

#include <nettle/sha2.h>

#include <bit>
#include <cmath>
#include <memory>
#include <stdexcept>

#include "parser/numpy/assign.hpp"
#include "parser/numpy/augmented.hpp"
#include "parser/numpy/index.hpp"
#include "parser/numpy/located_error.hpp"

namespace weightspace {
namespace {

const TensorShape* find_tensor(const std::string& name) {
  for (const TensorShape& shape : kTensorShapes) {
    if (shape.name == name) return &shape;
  }
  return nullptr;
}

}  // namespace

// One statement of verify.apply_edits, checks in the order it makes them.
void apply_statement(const Statement& statement, Weights& weights) {
  const int line = statement.line;
  const int column = statement.column;
  if (statement.shape == Statement::Shape::NotAnAssignment) {
    throw located_error("ValueError", "edits may contain only assignments", line, column);
  }
  if (statement.target_error) throw *statement.target_error;
  const TensorShape* shape = find_tensor(statement.tensor);
  if (shape == nullptr) {
    // Identifiers cannot hold quotes or unprintable characters, so repr() is plain quoting.
    throw located_error("ValueError", "unknown tensor '" + statement.tensor + "'", line, column);
  }
  check_python_key(statement);
  const PyValue& value = value_or_raise(statement.value);
  const bool augmented = statement.shape == Statement::Shape::AugAssign;
  if (augmented && statement.op == Statement::Operator::Other) {
    throw located_error("ValueError", "only *=, +=, and -= augmented edits are allowed", line, column);
  }
  float* tensor_data = weights.values().data() + shape->offset;
  const TensorView view = select_view(statement, tensor_data, *shape);
  try {
    if (augmented) {
      augment_value(view, statement.op, value);
    } else {
      assign_value(view, value);
    }
  } catch (const EditError& error) {
    throw with_place(error, line, column);
  }
}

EditSummary apply_statements(std::span<const Statement> statements, Weights& weights) {
  int edit_count = 0;
  for (const Statement& statement : statements) {
    apply_statement(statement, weights);
    ++edit_count;
  }
  return finish_edits(edit_count, weights);
}

EditSummary finish_edits(int edit_count, const Weights& weights) {
  EditSummary summary;
  summary.edit_count = edit_count;
  // np.isfinite and np.max(np.abs(values)) > 1e6 on the float32 values.
  float largest = 0.0f;
  bool finite = true;
  for (const float value : weights.values()) {
    finite = finite && std::isfinite(value);
    largest = std::max(largest, std::fabs(value));
    summary.nonzero_weights += value != 0.0f ? 1 : 0;
  }
  if (!finite || largest > 1e6f) {
    throw EditError("ValueError", "weights must be finite and have absolute value at most 1e6");
  }
  return summary;
}

std::string sha256_hex(std::string_view bytes) {
  sha256_ctx context;
  sha256_init(&context);
  sha256_update(&context, bytes.size(), reinterpret_cast<const std::uint8_t*>(bytes.data()));
  std::uint8_t digest[SHA256_DIGEST_SIZE];
  sha256_digest(&context, SHA256_DIGEST_SIZE, digest);
  static constexpr char kHex[] = "0123456789abcdef";
  std::string hex;
  hex.reserve(2 * SHA256_DIGEST_SIZE);
  for (const std::uint8_t byte : digest) {
    hex.push_back(kHex[byte >> 4]);
    hex.push_back(kHex[byte & 0xF]);
  }
  return hex;
}

std::string weights_sha256(const Weights& weights) {
  static_assert(std::endian::native == std::endian::little, "the digest is over little-endian float32 bytes");
  const std::span<const float> values = weights.values();
  return sha256_hex({reinterpret_cast<const char*>(values.data()), values.size_bytes()});
}

}  // namespace weightspace
