// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "parser/python/statement.hpp"
#include "policy/weights.hpp"

namespace weightspace {

struct EditSummary {
  int edit_count = 0;                 // statements applied (verify.apply_edits' second value)
  std::int64_t nonzero_weights = 0;   // values != 0 over the six tensors; -0.0 does not count
};

// Applies the statements in order to `weights` exactly as verify.apply_edits does with numpy
// 1.24 on float32 tensors, then runs its final check ("weights must be finite and have absolute
// value at most 1e6"). Throws EditError with the Python exception class of the first failure;
// `weights` is then partly edited and meaningless.
EditSummary apply_statements(std::span<const Statement> statements, Weights& weights);

// apply_statements in two steps, for statements that arrive one at a time: apply_statement
// for each (throws EditError like apply_statements), then finish_edits with the number applied
// for the final check and the summary.
void apply_statement(const Statement& statement, Weights& weights);
EditSummary finish_edits(int edit_count, const Weights& weights);

// Lowercase hex SHA-256 of the 81944 little-endian float32 bytes W1, b1, W2, b2, W3, b3.
std::string weights_sha256(const Weights& weights);

// The SHA-256 of `bytes` as 64 lowercase hex digits.
std::string sha256_hex(std::string_view bytes);

}  // namespace weightspace
