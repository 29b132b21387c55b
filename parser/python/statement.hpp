// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "parser/python/boxed.hpp"
#include "parser/python/error.hpp"
#include "parser/python/value.hpp"

namespace weightspace {

// The front end (tokenizer, parser, literal_eval) turns an edits block into statements; the
// numpy back end applies them in order. ast.literal_eval is pure, so each literal is evaluated
// eagerly and kept as its value or as the error the grader would raise *when it reaches it*:
// verify.apply_edits raises a statement's errors only after the earlier statements ran.
template <class T>
using Evaluated = std::variant<T, EditError>;

struct SliceBounds {
  std::optional<Evaluated<PyValue>> lower, upper, step;  // nullopt = omitted
};

// One element of a subscript: `3`, `'3'`, `-1.5` go through int(literal_eval(...)) when the
// back end reaches them (so the index stays a PyValue here); `a:b:c` keeps its bounds.
struct IndexItem {
  Evaluated<PyValue> index = PyValue{};  // not a slice
  Boxed<SliceBounds> slice;              // a slice (rare in edits, so out of line); else empty
  int line = 0, column = 0;

  bool is_slice() const { return static_cast<bool>(slice); }
};

struct Statement {
  // What verify.apply_edits sees, in the order it checks it.
  enum class Shape {
    Assign,             // single-target `=`
    AugAssign,          // `op=` (op below)
    NotAnAssignment,    // anything else: "edits may contain only assignments"
  };
  enum class Operator { Add, Sub, Mult, Other };  // Other: /=, //=, **=, @=, ... (rejected late)

  Shape shape = Shape::NotAnAssignment;
  Operator op = Operator::Add;
  // The target, when it is NAME[...] (NAME NFKC-normalised); otherwise target_error holds
  // "edit target must index a named tensor".
  std::optional<EditError> target_error;
  std::string tensor;                  // may name no tensor: the back end raises "unknown tensor"
  bool index_is_tuple = false;         // W1[1, 2] / W1[()] versus W1[1]
  std::vector<IndexItem> index;
  Evaluated<PyValue> value = PyValue{};
  int line = 0, column = 0;            // the statement's start, 1-based
};

}  // namespace weightspace
