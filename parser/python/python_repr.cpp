// SPDX-License-Identifier: GPL-3.0-or-later
#include <cstdio>

#include "parser/python/python_float.hpp"
#include "parser/python/unicode_tables.hpp"
#include "parser/utf8.hpp"

namespace weightspace {
namespace {

void append_escape(std::string& out, char32_t code_point) {
  char buffer[16];
  if (code_point < 0x100) {
    std::snprintf(buffer, sizeof buffer, "\\x%02x", static_cast<unsigned>(code_point));
  } else if (code_point < 0x10000) {
    std::snprintf(buffer, sizeof buffer, "\\u%04x", static_cast<unsigned>(code_point));
  } else {
    std::snprintf(buffer, sizeof buffer, "\\U%08x", static_cast<unsigned>(code_point));
  }
  out += buffer;
}

// Python picks double quotes only when the text has a single quote and no double quote.
template <class Text>
char choose_quote(const Text& text) {
  bool has_single = false;
  bool has_double = false;
  for (const auto unit : text) {
    has_single = has_single || unit == '\'';
    has_double = has_double || unit == '"';
  }
  return has_single && !has_double ? '"' : '\'';
}

bool append_common_escape(std::string& out, char32_t code_point, char quote) {
  switch (code_point) {
    case '\\': out += "\\\\"; return true;
    case '\t': out += "\\t"; return true;
    case '\n': out += "\\n"; return true;
    case '\r': out += "\\r"; return true;
    default:
      if (code_point == static_cast<char32_t>(quote)) {
        out.push_back('\\');
        out.push_back(quote);
        return true;
      }
      return false;
  }
}

}  // namespace

std::string python_repr_str(std::u32string_view text) {
  const char quote = choose_quote(text);
  std::string out(1, quote);
  for (const char32_t code_point : text) {
    if (append_common_escape(out, code_point, quote)) continue;
    if (is_printable(code_point)) {  // str.isprintable(), as unicode_repr asks it
      utf8::append_code_point(out, code_point);
    } else {
      append_escape(out, code_point);
    }
  }
  out.push_back(quote);
  return out;
}

std::string python_repr_bytes(std::string_view bytes) {
  const char quote = choose_quote(bytes);
  std::string out = "b";
  out.push_back(quote);
  for (const char character : bytes) {
    const auto byte = static_cast<unsigned char>(character);
    if (append_common_escape(out, byte, quote)) continue;
    if (byte >= 0x20 && byte < 0x7F) {
      out.push_back(character);
    } else {
      append_escape(out, byte);
    }
  }
  out.push_back(quote);
  return out;
}

}  // namespace weightspace
