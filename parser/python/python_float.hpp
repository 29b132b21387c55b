// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include <weightspace/big_int.hpp>
#include "parser/python/value.hpp"

namespace weightspace {

// Python 3.11's float() and int() of the values ast.literal_eval can return. Errors are thrown as
// EditError with Python's exception class and message and no place (line 0); callers that know
// the statement add it.

// float(text) for an ASCII rendering of the text, as CPython parses it after its Unicode
// transformation: ASCII whitespace around it, underscores only between digits, an optional sign,
// 'inf' / 'infinity' / 'nan' in any case, or a decimal number, correctly rounded (overflow gives
// inf, underflow 0). nullopt when float() would raise ValueError.
std::optional<double> parse_python_float_ascii(std::string_view text);

// float(x) for str (Unicode whitespace and decimal digits such as '١٢' or '１２' accepted) and
// bytes. Throws ValueError "could not convert string to float: '...'".
double python_float_of_str(std::u32string_view text);
double python_float_of_bytes(std::string_view bytes);

// float(x) for bool, int, float, str and bytes; TypeError ("float() argument must be a string or
// a real number, not 'complex'") for other kinds; OverflowError ("int too large to convert to
// float") for ints at or beyond 2^1024 - 2^970.
double python_float(const PyValue& value);

// int(x) for bool, int, float (truncation toward zero), str and bytes (base 10, whitespace,
// sign, underscores between digits, Unicode decimal digits for str). Throws ValueError
// ("invalid literal for int() with base 10: '3.5'", "cannot convert float NaN to integer"),
// OverflowError ("cannot convert float infinity to integer") or TypeError ("int() argument must
// be a string, a bytes-like object or a real number, not 'NoneType'").
BigInt python_int(const PyValue& value);

// repr() of a str or bytes value, for messages.
std::string python_repr_str(std::u32string_view text);
std::string python_repr_bytes(std::string_view bytes);

// Python's digit value of a Unicode decimal digit (category Nd, Unicode 14 as in Python 3.11),
// or -1.
int unicode_decimal_value(char32_t code_point);

}  // namespace weightspace
