// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace weightspace::utf8 {

// Python strings reach weightspace as UTF-8 bytes, except that a str built from JSON escapes can
// hold lone surrogates (U+D800..U+DFFF); those are carried in WTF-8 form, i.e. the 3-byte
// generalized UTF-8 encoding Python's 'surrogatepass' error handler writes.

enum class Surrogates { Reject, Allow };

// Where a byte sequence stops being (generalized) UTF-8, described the way Python's 'utf-8'
// codec reports it: byte positions, and the reason "invalid start byte", "invalid continuation
// byte" or "unexpected end of data".
struct DecodeProblem {
  std::size_t position = 0;   // first byte of the offending sequence
  std::size_t length = 1;     // bytes Python names: those read before the sequence went wrong
  const char* reason = "";
  std::string message() const;  // "'utf-8' codec can't decode byte 0xff in position 3: ..."
  unsigned char first_byte = 0;
};

// Surrogates::Reject is Python's bytes.decode("utf-8"); Surrogates::Allow also accepts the
// 3-byte encodings of U+D800..U+DFFF.
std::optional<DecodeProblem> find_decode_problem(std::string_view bytes, Surrogates surrogates);

// Appends one code point in (generalized) UTF-8; surrogates get their 3-byte form.
void append_code_point(std::string& out, char32_t code_point);

// Number of code points in valid (generalized) UTF-8 text: Python's len() of the str.
std::size_t count_code_points(std::string_view text);

}  // namespace weightspace::utf8
