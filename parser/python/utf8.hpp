// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace weightspace::python {

// Decodes the code point at `offset` of well-formed UTF-8 (surrogates encoded as 3 bytes are
// returned as themselves) and advances `offset` past it.
inline char32_t decode_utf8(std::string_view text, std::uint32_t& offset) {
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

inline void append_utf8(std::string& out, char32_t code_point) {
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

// Code points in well-formed UTF-8: every byte that is not a continuation byte.
inline std::size_t count_code_points(std::string_view text) {
  std::size_t count = 0;
  for (char byte : text) count += (static_cast<unsigned char>(byte) & 0xC0) != 0x80;
  return count;
}

}  // namespace weightspace::python
