// SPDX-License-Identifier: GPL-3.0-or-later
// String and bytes literal decoding, after CPython 3.11's string_parser.c and the
// unicode_escape / bytes escape decoders it calls.
#include "parser/python/string_literal.hpp"

#include <cstdint>

#include "parser/python/unicode_tables.hpp"
#include "parser/utf8.hpp"

namespace weightspace::python {
namespace {

int hex_value(char character) {
  if (character >= '0' && character <= '9') return character - '0';
  if (character >= 'a' && character <= 'f') return character - 'a' + 10;
  if (character >= 'A' && character <= 'F') return character - 'A' + 10;
  return -1;
}

bool is_octal(char character) { return character >= '0' && character <= '7'; }

// Length of body[begin, end) once CPython has rewritten the body for the unicode_escape codec
// (decode_unicode_with_escapes): a non-ASCII character becomes \UXXXXXXXX, a backslash before
// one or at the end of the body \u005c, and an ASCII character after a backslash is copied
// with it, never read as a backslash itself.
std::size_t escaped_length(std::string_view body, std::size_t begin, std::size_t end) {
  std::size_t length = 0;
  bool after_backslash = false;
  for (auto offset = static_cast<std::uint32_t>(begin); offset < end;) {
    const bool ascii = static_cast<unsigned char>(body[offset]) < 0x80;
    const bool backslash = body[offset] == '\\' && !after_backslash;
    utf8::decode(body, offset);
    const bool rewritten =
        backslash && (offset == body.size() || static_cast<unsigned char>(body[offset]) >= 0x80);
    length += !ascii ? 10 : rewritten ? 6 : 1;
    after_backslash = backslash && !rewritten;
  }
  return length;
}

// str(UnicodeDecodeError) for the 'unicodeescape' codec, positions in the escaped buffer.
[[noreturn]] void unicode_error(std::size_t start, std::size_t end, const char* reason,
                                char first_byte) {
  std::string message = "(unicode error) 'unicodeescape' codec can't decode ";
  if (end - start == 1) {
    static const char kDigits[] = "0123456789abcdef";
    const auto byte = static_cast<unsigned char>(first_byte);
    message += "byte 0x";
    message += kDigits[byte >> 4];
    message += kDigits[byte & 15];
    message += " in position " + std::to_string(start);
  } else {
    message += "bytes in position " + std::to_string(start) + "-" + std::to_string(end - 1);
  }
  message += ": ";
  message += reason;
  throw StringLiteralError{std::move(message)};
}

}  // namespace

StringPrefix string_prefix(std::string_view token) {
  StringPrefix prefix;
  while (prefix.length < token.size() && token[prefix.length] != '\'' &&
         token[prefix.length] != '"') {
    const char letter = token[prefix.length];
    if (letter == 'b' || letter == 'B') prefix.bytes = true;
    if (letter == 'r' || letter == 'R') prefix.raw = true;
    if (letter == 'f' || letter == 'F') prefix.formatted = true;
    ++prefix.length;
  }
  return prefix;
}

std::string_view string_body(std::string_view token, const StringPrefix& prefix) {
  std::string_view quoted = token.substr(prefix.length);
  const std::size_t quotes =
      quoted.size() >= 6 && quoted[1] == quoted[0] && quoted[2] == quoted[0] ? 3 : 1;
  return quoted.substr(quotes, quoted.size() - 2 * quotes);
}

// decode_unicode_with_escapes: CPython first rewrites every non-ASCII character as a \U
// escape (10 bytes) and a backslash before one as \u005c, then runs the unicode_escape codec;
// error positions count in that rewritten buffer, which `position` tracks.
void decode_str(std::string_view body, bool raw, std::u32string& out) {
  if (raw || body.find('\\') == std::string_view::npos) {
    for (std::uint32_t offset = 0; offset < body.size();) out += utf8::decode(body, offset);
    return;
  }
  std::size_t position = 0;
  std::uint32_t offset = 0;
  while (offset < body.size()) {
    const char character = body[offset];
    if (static_cast<unsigned char>(character) >= 0x80) {
      out += utf8::decode(body, offset);
      position += 10;
      continue;
    }
    if (character != '\\') {
      out += static_cast<char32_t>(character);
      ++offset;
      ++position;
      continue;
    }
    const std::size_t start = position;
    ++offset;
    if (offset >= body.size() || static_cast<unsigned char>(body[offset]) >= 0x80) {
      out += U'\\';  // `\` before a non-ASCII character stays a backslash (\u005c)
      position += 6;
      continue;
    }
    const char escape = body[offset++];
    position += 2;
    switch (escape) {
      case '\n': continue;
      case '\\': out += U'\\'; continue;
      case '\'': out += U'\''; continue;
      case '"': out += U'"'; continue;
      case 'b': out += U'\b'; continue;
      case 'f': out += U'\f'; continue;
      case 't': out += U'\t'; continue;
      case 'n': out += U'\n'; continue;
      case 'r': out += U'\r'; continue;
      case 'v': out += U'\v'; continue;
      case 'a': out += U'\a'; continue;
      default: break;
    }
    if (is_octal(escape)) {
      char32_t value = static_cast<char32_t>(escape - '0');
      for (int extra = 0; extra < 2 && offset < body.size() && is_octal(body[offset]); ++extra) {
        value = value * 8 + static_cast<char32_t>(body[offset++] - '0');
        ++position;
      }
      out += value;
      continue;
    }
    if (escape == 'x' || escape == 'u' || escape == 'U') {
      const int count = escape == 'x' ? 2 : escape == 'u' ? 4 : 8;
      const char* reason = escape == 'x'   ? "truncated \\xXX escape"
                           : escape == 'u' ? "truncated \\uXXXX escape"
                                           : "truncated \\UXXXXXXXX escape";
      char32_t value = 0;
      for (int digit = 0; digit < count; ++digit) {
        const int nibble = offset < body.size() ? hex_value(body[offset]) : -1;
        if (nibble < 0) unicode_error(start, position, reason, '\\');
        value = value * 16 + static_cast<char32_t>(nibble);
        ++offset;
        ++position;
      }
      if (value > 0x10FFFF) unicode_error(start, position, "illegal Unicode character", '\\');
      out += value;
      continue;
    }
    if (escape == 'N') {
      if (offset < body.size() && body[offset] == '{') {
        const std::size_t close = body.find('}', offset + 1);
        if (close != std::string_view::npos && close > offset + 1) {
          const std::string_view name = body.substr(offset + 1, close - offset - 1);
          const std::size_t name_position = position + 2 + escaped_length(body, offset + 1, close);
          if (const auto code_point = lookup_character_name(name)) {
            out += *code_point;
            offset = static_cast<std::uint32_t>(close + 1);
            position = name_position;
            continue;
          }
          unicode_error(start, name_position, "unknown Unicode character name", '\\');
        }
        if (close == std::string_view::npos) {
          unicode_error(start, position + escaped_length(body, offset, body.size()),
                        "malformed \\N character escape", '\\');
        }
        unicode_error(start, position + 1, "malformed \\N character escape", '\\');
      }
      unicode_error(start, position, "malformed \\N character escape", '\\');
    }
    // An invalid escape is kept as it is (a DeprecationWarning in 3.11).
    out += U'\\';
    out += static_cast<char32_t>(escape);
  }
}

void decode_bytes(std::string_view body, bool raw, std::string& out) {
  for (const char character : body) {
    if (static_cast<unsigned char>(character) >= 0x80) {
      throw StringLiteralError{"bytes can only contain ASCII literal characters"};
    }
  }
  if (raw || body.find('\\') == std::string_view::npos) {
    out.append(body);
    return;
  }
  std::size_t offset = 0;
  while (offset < body.size()) {
    if (body[offset] != '\\') {
      out += body[offset++];
      continue;
    }
    const std::size_t start = offset;
    ++offset;
    const char escape = body[offset++];
    switch (escape) {
      case '\n': continue;
      case '\\': out += '\\'; continue;
      case '\'': out += '\''; continue;
      case '"': out += '"'; continue;
      case 'b': out += '\b'; continue;
      case 'f': out += '\f'; continue;
      case 't': out += '\t'; continue;
      case 'n': out += '\n'; continue;
      case 'r': out += '\r'; continue;
      case 'v': out += '\v'; continue;
      case 'a': out += '\a'; continue;
      default: break;
    }
    if (is_octal(escape)) {
      unsigned value = static_cast<unsigned>(escape - '0');
      for (int extra = 0; extra < 2 && offset < body.size() && is_octal(body[offset]); ++extra) {
        value = value * 8 + static_cast<unsigned>(body[offset++] - '0');
      }
      out += static_cast<char>(value & 0xFF);  // 3.11 keeps the low byte of \400..\777
      continue;
    }
    if (escape == 'x') {
      if (offset + 1 < body.size() && hex_value(body[offset]) >= 0 &&
          hex_value(body[offset + 1]) >= 0) {
        out += static_cast<char>(hex_value(body[offset]) * 16 + hex_value(body[offset + 1]));
        offset += 2;
        continue;
      }
      throw StringLiteralError{"(value error) invalid \\x escape at position " +
                               std::to_string(start)};
    }
    out += '\\';
    --offset;  // the character after an invalid escape is read again as itself
  }
}

}  // namespace weightspace::python
