// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <stdexcept>
#include <string>
#include <utility>

namespace weightspace {

// A Python exception the grader raises (or would raise) for an input: its class (`kind`:
// SyntaxError, ValueError, IndexError, ModuleNotFoundError, ...) and str() of it (`message`,
// the grader's text exactly: it is what reward.json's "error" holds). The place is kept beside
// the message, never in it: line and column (1-based) in the edits block, 0 when the error has
// no single place. One value from the layer that raises it (games, parser) through rollouts
// and rewards to the apps and the Python module.
struct PythonError {
  std::string kind;
  std::string message;
  int line = 0;
  int column = 0;

  bool has_place() const { return line > 0; }
  // The grader does not catch these (grade_answer's except clause lists ImportError,
  // IndexError, KeyError, SyntaxError, TypeError, ValueError and their subclasses): it dies
  // with a traceback and writes no reward.json. weightspace scores them 0 instead.
  bool python_grader_crashes() const {
    return kind == "OverflowError" || kind == "RecursionError" || kind == "MemoryError";
  }
  friend bool operator==(const PythonError&, const PythonError&) = default;
};

// The throwable form of a PythonError; what() is its message. GameError (games) and EditError
// (parser) derive from it, so a caller can tell who raised it and still hand on one value.
class PythonException : public std::runtime_error {
 public:
  explicit PythonException(PythonError error) : std::runtime_error(error.message), error_(std::move(error)) {}

  const PythonError& error() const { return error_; }
  const std::string& kind() const { return error_.kind; }
  int line() const { return error_.line; }
  int column() const { return error_.column; }
  bool python_grader_crashes() const { return error_.python_grader_crashes(); }

 private:
  PythonError error_;
};

}  // namespace weightspace
