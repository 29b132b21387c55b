// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstddef>
#include <string_view>

#include "parser/python/statement.hpp"
#include "parser/python/syntax_tree.hpp"

namespace weightspace::python {

// ast.literal_eval(node) of Python 3.11 on a parsed expression: its value, or the exception it
// raises (ValueError "malformed node or string ...", TypeError "unhashable type: ...",
// OverflowError "int too large to convert to float" for `10**400 + 1j`-like sums).
Evaluated<PyValue> literal_eval(const Tree& tree, std::string_view source, NodeIndex node);

// The value of a NUMBER token: int (arbitrary precision), float or imaginary.
PyValue number_value(std::string_view token);

}  // namespace weightspace::python
