// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace weightspace::python {

struct StringPrefix {
  bool bytes = false;
  bool raw = false;
  bool formatted = false;
  std::size_t length = 0;  // prefix letters before the quotes
};

// The prefix of a STRING token (the tokenizer has already checked the letter combination).
StringPrefix string_prefix(std::string_view token);
// The text between the quotes.
std::string_view string_body(std::string_view token, const StringPrefix& prefix);

// A literal CPython's string parser rejects; `message` is its SyntaxError text. The parser
// reports it at the token after the literal, as pegen's RAISE_SYNTAX_ERROR does.
struct StringLiteralError {
  std::string message;
};

// Decodes a str body (not an f-string), as decode_unicode_with_escapes does (escapes unless
// raw). Appends code points to `out`. Throws StringLiteralError.
void decode_str(std::string_view body, bool raw, std::u32string& out);
// Decodes a bytes body; non-ASCII is an error. Appends to `out`. Throws StringLiteralError.
void decode_bytes(std::string_view body, bool raw, std::string& out);

// Checks an f-string body as 3.11's string_parser.c does and parses its replacement fields.
// Returns the ast depth of the deepest FormattedValue (0 if there is none). `line` is the
// line of the token, for errors inside the fields. Throws StringLiteralError or EditError.
int check_fstring(std::string_view body, bool raw, int line);

}  // namespace weightspace::python
