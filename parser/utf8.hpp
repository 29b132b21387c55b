// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstddef>
#include <cstdint>
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

// The rest is for text already checked (by find_decode_problem, or built by append_code_point):
// the tokenizer's and the string builders' inner loops, inline and without checks.

// Decodes the code point at `offset` (surrogates encoded as 3 bytes are returned as
// themselves) and advances `offset` past it.
inline char32_t decode(std::string_view text, std::uint32_t& offset) {
  const auto byte = [&](std::uint32_t index) {
    return static_cast<char32_t>(static_cast<unsigned char>(text[index]));
  };
  const char32_t lead = byte(offset);
  if (lead < 0x80) {
    offset += 1;
    return lead;
  }
  if (lead < 0xE0) {
    const char32_t value = ((lead & 0x1F) << 6) | (byte(offset + 1) & 0x3F);
    offset += 2;
    return value;
  }
  if (lead < 0xF0) {
    const char32_t value =
        ((lead & 0x0F) << 12) | ((byte(offset + 1) & 0x3F) << 6) | (byte(offset + 2) & 0x3F);
    offset += 3;
    return value;
  }
  const char32_t value = ((lead & 0x07) << 18) | ((byte(offset + 1) & 0x3F) << 12) |
                         ((byte(offset + 2) & 0x3F) << 6) | (byte(offset + 3) & 0x3F);
  offset += 4;
  return value;
}

// Appends one code point in (generalized) UTF-8; surrogates get their 3-byte form.
inline void append_code_point(std::string& out, char32_t code_point) {
  if (code_point < 0x80) {
    out += static_cast<char>(code_point);
  } else if (code_point < 0x800) {
    out += static_cast<char>(0xC0 | (code_point >> 6));
    out += static_cast<char>(0x80 | (code_point & 0x3F));
  } else if (code_point < 0x10000) {
    out += static_cast<char>(0xE0 | (code_point >> 12));
    out += static_cast<char>(0x80 | ((code_point >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (code_point & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (code_point >> 18));
    out += static_cast<char>(0x80 | ((code_point >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((code_point >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (code_point & 0x3F));
  }
}

// Number of code points in valid (generalized) UTF-8 text, Python's len() of the str: every
// byte that is not a continuation byte.
inline std::size_t count_code_points(std::string_view text) {
  std::size_t count = 0;
  for (const char byte : text) count += (static_cast<unsigned char>(byte) & 0xC0) != 0x80;
  return count;
}

}  // namespace weightspace::utf8
