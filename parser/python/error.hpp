// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>

namespace weightspace {

// Why an answer was rejected. `kind` is the Python exception class the grader raises (or would
// raise) for the same input: SyntaxError, IndentationError, TabError, ValueError, TypeError,
// IndexError, KeyError, UFuncTypeError, OverflowError, RecursionError, MemoryError, ...
// `message` is for people; it names the place (line and column of the edits block) when
// there is one. line/column are 1-based; 0 means "no single place".
class EditError : public std::runtime_error {
 public:
  EditError(std::string kind, std::string message, int line = 0, int column = 0)
      : std::runtime_error(message), kind_(std::move(kind)), line_(line), column_(column) {}

  const std::string& kind() const { return kind_; }
  int line() const { return line_; }
  int column() const { return column_; }

  // The Python grader does not catch these (grade_answer's except clause lists ImportError,
  // IndexError, KeyError, SyntaxError, TypeError, ValueError and their subclasses): it dies
  // with a traceback and writes no reward.json. weightspace scores them 0 instead.
  bool python_grader_crashes() const {
    return kind_ == "OverflowError" || kind_ == "RecursionError" || kind_ == "MemoryError";
  }

 private:
  std::string kind_;
  int line_;
  int column_;
};

}  // namespace weightspace
