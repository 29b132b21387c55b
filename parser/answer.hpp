// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

#include "parser/python/error.hpp"
#include "policy/weights.hpp"

namespace weightspace {

struct ParsedAnswer {
  bool success = false;
  Weights weights;            // all zero unless success
  int edit_count = 0;         // statements applied (verify.apply_edits' second value)
  std::int64_t nonzero_weights = 0;
  std::optional<EditError> error;  // set exactly when !success
};

// verify.apply_edits(answer): the last ```edits block (parser/fence.hpp), parsed like
// ast.parse (parser/python/grammar.hpp) and applied with numpy 1.24 semantics
// (parser/numpy/apply_edits.hpp). Never throws for bad input; the failure is in `error`:
//  * MemoryError: the edits block is larger than kMaxEditsBlockBytes, or memory ran out;
//  * UnicodeDecodeError: the bytes are not UTF-8/WTF-8, so no Python str could hold them;
//  * ValueError "answer has no edits block";
//  * whatever the front end or the back end raises for the block, e.g. SyntaxError with the
//    line and column inside the block, IndexError, UFuncTypeError, OverflowError.
ParsedAnswer parse_answer(std::string_view answer);
// The same into `parsed`, reusing its weights' storage: a grader of many answers then does not
// allocate (and fragment the heap with) 80 KB per answer.
void parse_answer(std::string_view answer, ParsedAnswer& parsed);

}  // namespace weightspace
