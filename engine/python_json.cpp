// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/python_json.hpp"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <system_error>

namespace weightspace {

std::string python_float_repr(double value) {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  // Shortest round-trip digits: std::to_chars in scientific form gives "d.ddde±XX".
  char buffer[64];
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, value, std::chars_format::scientific);
  const std::string_view text(buffer, static_cast<std::size_t>(result.ptr - buffer));
  const std::size_t e = text.find('e');
  std::string_view mantissa = text.substr(0, e);
  const int exponent = std::stoi(std::string(text.substr(e + 1)));
  const bool negative = !mantissa.empty() && mantissa[0] == '-';
  if (negative) mantissa.remove_prefix(1);
  std::string digits;
  for (char c : mantissa) {
    if (c != '.') digits.push_back(c);
  }
  // CPython's float_repr_style 'short': decpt is where the point goes in 0.DIGITS x 10^decpt.
  const int decpt = exponent + 1;
  std::string out = negative ? "-" : "";
  if (decpt <= -4 || decpt > 16) {
    out += digits.substr(0, 1);
    if (digits.size() > 1) out += "." + digits.substr(1);
    char exponent_text[16];
    std::snprintf(exponent_text, sizeof exponent_text, "e%c%02d", exponent < 0 ? '-' : '+', std::abs(exponent));
    return out + exponent_text;
  }
  if (decpt <= 0) return out + "0." + std::string(static_cast<std::size_t>(-decpt), '0') + digits;
  if (static_cast<std::size_t>(decpt) >= digits.size()) {
    return out + digits + std::string(static_cast<std::size_t>(decpt) - digits.size(), '0') + ".0";
  }
  return out + digits.substr(0, static_cast<std::size_t>(decpt)) + "." + digits.substr(static_cast<std::size_t>(decpt));
}

std::string python_json_float(double value) {
  if (std::isnan(value)) return "NaN";
  if (std::isinf(value)) return value > 0 ? "Infinity" : "-Infinity";
  return python_float_repr(value);
}

namespace {

void append_unit(std::string& out, unsigned unit) {
  char escaped[16];
  std::snprintf(escaped, sizeof escaped, "\\u%04x", unit);
  out += escaped;
}

// Decodes one code point of UTF-8 (generalised: lone surrogates encoded as 3 bytes pass
// through, as Python strings may hold them). Invalid bytes come out as U+FFFD.
char32_t decode(std::string_view text, std::size_t& i) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned lead = byte(i);
  int length = lead < 0x80 ? 1 : (lead >> 5) == 0x6 ? 2 : (lead >> 4) == 0xe ? 3 : (lead >> 3) == 0x1e ? 4 : 0;
  if (length == 0 || i + static_cast<std::size_t>(length) > text.size()) {
    ++i;
    return 0xfffd;
  }
  char32_t code = length == 1 ? lead : lead & (0x7fU >> length);
  for (int k = 1; k < length; ++k) {
    if ((byte(i + static_cast<std::size_t>(k)) & 0xc0) != 0x80) {
      ++i;
      return 0xfffd;
    }
    code = (code << 6) | (byte(i + static_cast<std::size_t>(k)) & 0x3f);
  }
  i += static_cast<std::size_t>(length);
  return code;
}

}  // namespace

std::string python_json_string(std::string_view utf8) {
  std::string out = "\"";
  for (std::size_t i = 0; i < utf8.size();) {
    const char32_t code = decode(utf8, i);
    switch (code) {
      case '"': out += "\\\""; continue;
      case '\\': out += "\\\\"; continue;
      case '\n': out += "\\n"; continue;
      case '\r': out += "\\r"; continue;
      case '\t': out += "\\t"; continue;
      case '\b': out += "\\b"; continue;
      case '\f': out += "\\f"; continue;
      default: break;
    }
    if (code >= 0x20 && code <= 0x7e) {
      out.push_back(static_cast<char>(code));
    } else if (code < 0x10000) {
      append_unit(out, code);
    } else {
      const char32_t v = code - 0x10000;
      append_unit(out, 0xd800 + (v >> 10));
      append_unit(out, 0xdc00 + (v & 0x3ff));
    }
  }
  return out + "\"";
}

std::string python_json_string_or_null(const std::optional<std::string>& utf8) {
  return utf8 ? python_json_string(*utf8) : "null";
}

}  // namespace weightspace
