// SPDX-License-Identifier: GPL-3.0-or-later
#include "parser/utf8.hpp"

#include <cstdio>

namespace weightspace::utf8 {

namespace {

// The allowed range of the second byte of a multi-byte sequence (RFC 3629 table, which
// excludes overlong forms, code points above U+10FFFF and, unless allowed, surrogates).
struct SecondByteRange {
  unsigned char low = 0x80;
  unsigned char high = 0xBF;
};

SecondByteRange second_byte_range(unsigned char lead, Surrogates surrogates) {
  switch (lead) {
    case 0xE0: return {0xA0, 0xBF};
    case 0xED: return surrogates == Surrogates::Allow ? SecondByteRange{} : SecondByteRange{0x80, 0x9F};
    case 0xF0: return {0x90, 0xBF};
    case 0xF4: return {0x80, 0x8F};
    default: return {};
  }
}

std::size_t sequence_length(unsigned char lead) {
  if (lead < 0x80) return 1;
  if (lead >= 0xC2 && lead <= 0xDF) return 2;
  if (lead >= 0xE0 && lead <= 0xEF) return 3;
  if (lead >= 0xF0 && lead <= 0xF4) return 4;
  return 0;  // continuation byte, overlong lead C0/C1, or F5..FF
}

}  // namespace

std::string DecodeProblem::message() const {
  char text[160];
  if (length > 1) {
    std::snprintf(text, sizeof text, "'utf-8' codec can't decode bytes in position %zu-%zu: %s", position,
                  position + length - 1, reason);
  } else {
    std::snprintf(text, sizeof text, "'utf-8' codec can't decode byte 0x%02x in position %zu: %s", first_byte,
                  position, reason);
  }
  return text;
}

std::optional<DecodeProblem> find_decode_problem(std::string_view bytes, Surrogates surrogates) {
  const std::size_t size = bytes.size();
  std::size_t position = 0;
  while (position < size) {
    const auto lead = static_cast<unsigned char>(bytes[position]);
    if (lead < 0x80) {
      ++position;
      continue;
    }
    DecodeProblem problem;
    problem.position = position;
    problem.first_byte = lead;
    const std::size_t length = sequence_length(lead);
    if (length == 0) {
      problem.reason = "invalid start byte";
      return problem;
    }
    // Python names the bytes it consumed before the sequence went wrong.
    std::size_t consumed = 1;
    for (; consumed < length; ++consumed) {
      if (position + consumed >= size) {
        problem.length = consumed;
        problem.reason = "unexpected end of data";
        return problem;
      }
      const auto byte = static_cast<unsigned char>(bytes[position + consumed]);
      const SecondByteRange range = consumed == 1 ? second_byte_range(lead, surrogates) : SecondByteRange{};
      if (byte < range.low || byte > range.high) {
        problem.length = consumed;
        problem.reason = "invalid continuation byte";
        return problem;
      }
    }
    position += length;
  }
  return std::nullopt;
}

}  // namespace weightspace::utf8
