// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>
#include <utility>

#include <weightspace/error.hpp>

namespace weightspace {

// Why an answer was rejected: the PythonError (<weightspace/error.hpp>) the grader raises (or
// would raise) for the same input: SyntaxError, IndentationError, TabError, ValueError,
// TypeError, IndexError, KeyError, UFuncTypeError, OverflowError, RecursionError, MemoryError,
// ... what() is the grader's str() exactly; line/column (1-based, in the edits block; 0 for
// "no single place") are beside it.
class EditError : public PythonException {
 public:
  EditError(std::string kind, std::string message, int line = 0, int column = 0)
      : PythonException(PythonError{std::move(kind), std::move(message), line, column}) {}
  explicit EditError(PythonError error) : PythonException(std::move(error)) {}
};

}  // namespace weightspace
