// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>
#include <variant>

#include "parser/python/error.hpp"
#include "parser/python/statement.hpp"

namespace weightspace {

// An EditError carrying Python's message and, when known, the place in the edits block. The
// place stays beside the message: reward.json's "error" is the grader's str() exactly.
inline EditError located_error(std::string kind, std::string message, int line, int column) {
  return EditError(std::move(kind), std::move(message), line, column);
}

// The same error with a place added, for errors raised where the place was not known.
inline EditError with_place(const EditError& error, int line, int column) {
  if (error.line() > 0 || line <= 0) return error;
  return located_error(error.kind(), error.what(), line, column);  // error.what(): no place in it
}

// The value of an eagerly evaluated literal, or its stored error raised now.
template <class T>
const T& value_or_raise(const Evaluated<T>& evaluated) {
  if (const auto* error = std::get_if<EditError>(&evaluated)) throw *error;
  return std::get<T>(evaluated);
}

}  // namespace weightspace
