// SPDX-License-Identifier: GPL-3.0-or-later
#include "parser/answer.hpp"

#include <algorithm>
#include <new>
#include <optional>
#include <string>
#include <utility>

#include "parser/fence.hpp"
#include "parser/numpy/apply_edits.hpp"
#include "parser/python/grammar.hpp"
#include "parser/python/statement.hpp"
#include "parser/utf8.hpp"

namespace weightspace {

namespace {

// Failures leave the weights all zero, as the contract says.
void fail(ParsedAnswer& parsed, EditError error) {
  std::fill(parsed.weights.values().begin(), parsed.weights.values().end(), 0.0f);
  parsed.error.emplace(std::move(error));
}

// The body of parse_answer, returning the failure to record, if any.
std::optional<EditError> parse_into(std::string_view answer, ParsedAnswer& parsed) {
  if (const auto problem = utf8::find_decode_problem(answer, utf8::Surrogates::Allow)) {
    return EditError("UnicodeDecodeError", problem->message() + " (the answer is not text)");
  }
  const std::optional<std::string_view> block = last_edits_block(answer);
  if (!block) return EditError("ValueError", "answer has no edits block");
  try {
    // Each statement is applied as soon as it is parsed, but verify.apply_edits only starts
    // once ast.parse accepted the whole block: the first edit error waits for the end of the
    // parse, so that an error ast.parse raises later in the block wins over it.
    int edit_count = 0;
    std::optional<EditError> edit_error;
    for_each_edit_statement(*block, [&](Statement&& statement) {
      if (edit_error) return;
      try {
        apply_statement(statement, parsed.weights);
        ++edit_count;
      } catch (EditError& error) {
        edit_error.emplace(std::move(error));
      }
    });
    if (edit_error) return edit_error;
    const EditSummary summary = finish_edits(edit_count, parsed.weights);
    parsed.success = true;
    parsed.edit_count = summary.edit_count;
    parsed.nonzero_weights = summary.nonzero_weights;
    return std::nullopt;
  } catch (EditError& error) {
    return std::move(error);
  } catch (const std::bad_alloc&) {
    // Memory is linear in the block (a statement's tokens and nodes, tens of bytes per source
    // byte at worst); this keeps parse_answer's promise of never throwing for bad input.
    return EditError("MemoryError", "out of memory while parsing the edits block");
  }
}

}  // namespace

void parse_answer(std::string_view answer, ParsedAnswer& parsed) {
  parsed.success = false;
  parsed.edit_count = 0;
  parsed.nonzero_weights = 0;
  parsed.error.reset();
  std::fill(parsed.weights.values().begin(), parsed.weights.values().end(), 0.0f);
  if (std::optional<EditError> error = parse_into(answer, parsed)) fail(parsed, std::move(*error));
}

ParsedAnswer parse_answer(std::string_view answer) {
  ParsedAnswer parsed;
  parse_answer(answer, parsed);
  return parsed;
}

}  // namespace weightspace
