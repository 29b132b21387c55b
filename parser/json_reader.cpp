// SPDX-License-Identifier: GPL-3.0-or-later
// A transcription of the behaviour of CPython 3.11's Modules/_json.c scanner (scan_once_unicode,
// scanstring_unicode, _parse_object_unicode, _parse_array_unicode, _match_number_unicode) and
// of json.decoder.JSONDecoder.decode, including the exact positions it reports. CPython counts
// positions in code points; this reader works on bytes and converts only when it reports.
#include "parser/json_reader.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "parser/python/error.hpp"
#include "parser/utf8.hpp"

namespace weightspace {

const char* python_type_name(JsonType type) {
  switch (type) {
    case JsonType::Null: return "NoneType";
    case JsonType::Bool: return "bool";
    case JsonType::Int: return "int";
    case JsonType::Float: return "float";
    case JsonType::String: return "str";
    case JsonType::Array: return "list";
    case JsonType::Object: return "dict";
  }
  return "object";
}

namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }

bool is_json_whitespace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// Python's sys.get_int_max_str_digits() default (3.11): int("1" * 4301) raises ValueError.
constexpr std::size_t kIntMaxStrDigits = 4300;

class Reader {
 public:
  Reader(std::string_view text, JsonEvents& events) : text_(text), events_(events) {}

  void read_document() {
    if (text_.starts_with("\xEF\xBB\xBF")) fail("Unexpected UTF-8 BOM (decode using utf-8-sig)", 0);
    std::size_t position = scan_value(skip_whitespace(0), 0);
    position = skip_whitespace(position);
    if (position != text_.size()) fail("Extra data", position);
  }

 private:
  // json.JSONDecodeError: "msg: line L column C (char P)", positions in code points.
  [[noreturn]] void fail(const char* message, std::size_t position) const {
    const std::string_view before = text_.substr(0, position);
    const std::size_t line_start = before.rfind('\n') == std::string_view::npos ? 0 : before.rfind('\n') + 1;
    std::size_t line = 1;
    for (const char c : before) line += c == '\n' ? 1 : 0;
    const std::size_t column = utf8::count_code_points(before.substr(line_start)) + 1;
    char text[200];
    std::snprintf(text, sizeof text, "%s: line %zu column %zu (char %zu)", message, line, column,
                  utf8::count_code_points(before));
    throw EditError("JSONDecodeError", text, static_cast<int>(line), static_cast<int>(column));
  }

  std::size_t skip_whitespace(std::size_t position) const {
    while (position < text_.size() && is_json_whitespace(text_[position])) ++position;
    return position;
  }

  bool literal_at(std::size_t position, std::string_view literal) const {
    return text_.substr(position).starts_with(literal);
  }

  // scan_once_unicode: one value starting exactly at `position`; returns the position after it.
  std::size_t scan_value(std::size_t position, int depth) {
    if (position >= text_.size()) fail("Expecting value", position);
    JsonScalar scalar;
    scalar.offset = position;
    switch (text_[position]) {
      case '"': {
        const std::size_t end = scan_string(position, scalar.text);
        scalar.type = JsonType::String;
        scalar.truthy = !scalar.text.empty();
        events_.scalar(scalar);
        return end;
      }
      case '{':
      case '[': return scan_container(position, depth + 1);
      case 'n':
        if (literal_at(position, "null")) return deliver(scalar, JsonType::Null, false, 4);
        break;
      case 't':
        if (literal_at(position, "true")) return deliver(scalar, JsonType::Bool, true, 4);
        break;
      case 'f':
        if (literal_at(position, "false")) return deliver(scalar, JsonType::Bool, false, 5);
        break;
      case 'N':
        if (literal_at(position, "NaN")) return deliver(scalar, JsonType::Float, true, 3);
        break;
      case 'I':
        if (literal_at(position, "Infinity")) return deliver(scalar, JsonType::Float, true, 8);
        break;
      case '-':
        if (literal_at(position, "-Infinity")) return deliver(scalar, JsonType::Float, true, 9);
        break;
      default: break;
    }
    return scan_number(position);
  }

  std::size_t deliver(JsonScalar& scalar, JsonType type, bool truthy, std::size_t length) {
    scalar.type = type;
    scalar.truthy = truthy;
    scalar.text = text_.substr(scalar.offset, length);
    events_.scalar(scalar);
    return scalar.offset + length;
  }

  // _match_number_unicode, including where it stops: "1." and "1e+" end before the '.'/'e'.
  std::size_t scan_number(std::size_t start) {
    const std::size_t size = text_.size();
    const auto digit_at = [&](std::size_t index) { return index < size && is_digit(text_[index]); };
    std::size_t index = start;
    if (text_[index] == '-' && ++index >= size) fail("Expecting value", start);
    if (text_[index] >= '1' && text_[index] <= '9') {
      while (digit_at(++index)) {}
    } else if (text_[index] == '0') {
      ++index;
    } else {
      fail("Expecting value", start);
    }
    bool is_float = false;
    if (index + 1 < size && text_[index] == '.' && digit_at(index + 1)) {
      is_float = true;
      index += 2;
      while (digit_at(index)) ++index;
    }
    if (index + 1 < size && (text_[index] == 'e' || text_[index] == 'E')) {
      const std::size_t exponent_start = index++;
      if (index + 1 < size && (text_[index] == '-' || text_[index] == '+')) ++index;
      while (digit_at(index)) ++index;
      if (is_digit(text_[index - 1])) {
        is_float = true;
      } else {
        index = exponent_start;
      }
    }
    JsonScalar scalar;
    scalar.offset = start;
    scalar.text = text_.substr(start, index - start);
    if (is_float) {
      scalar.type = JsonType::Float;
      scalar.truthy = json_float_is_nonzero(scalar.text);
    } else {
      scalar.type = JsonType::Int;
      const std::string_view digits = scalar.text.starts_with('-') ? scalar.text.substr(1) : scalar.text;
      if (digits.size() > kIntMaxStrDigits) {
        throw EditError("ValueError", "Exceeds the limit (4300 digits) for integer string conversion: value has " +
                                          std::to_string(digits.size()) +
                                          " digits; use sys.set_int_max_str_digits() to increase the limit");
      }
      scalar.truthy = digits != "0";
    }
    events_.scalar(scalar);
    return index;
  }

  // scanstring_unicode; `opening` is the quote. The decoded text is a view into the document
  // when there is no escape, else into scratch_, valid until the next string is scanned.
  std::size_t scan_string(std::size_t opening, std::string_view& decoded) {
    const std::size_t size = text_.size();
    std::size_t end = opening + 1;
    bool copied = false;
    scratch_.clear();
    while (true) {
      std::size_t next = end;
      for (; next < size; ++next) {
        const char c = text_[next];
        if (c == '"' || c == '\\') break;
        if (static_cast<unsigned char>(c) <= 0x1F) fail("Invalid control character at", next);
      }
      if (next >= size) fail("Unterminated string starting at", opening);
      if (text_[next] == '"' && !copied) {
        decoded = text_.substr(end, next - end);
        return next + 1;
      }
      scratch_.append(text_, end, next - end);
      copied = true;
      if (text_[next] == '"') {
        decoded = scratch_;
        return next + 1;
      }
      if (++next == size) fail("Unterminated string starting at", opening);
      if (text_[next] != 'u') {
        end = next + 1;
        const char escaped = simple_escape(text_[next]);
        if (escaped == 0) fail("Invalid \\escape", end - 2);
        scratch_.push_back(escaped);
        continue;
      }
      ++next;
      end = next + 4;
      if (end >= size) fail("Invalid \\uXXXX escape", next - 1);
      char32_t code_point = hex4(next, end);
      // A high surrogate followed by an escaped low surrogate is one character; anything
      // else leaves the high surrogate alone (and the next escape is read on its own).
      if (code_point >= 0xD800 && code_point <= 0xDBFF && end + 6 < size && text_[end] == '\\' &&
          text_[end + 1] == 'u') {
        end += 6;
        const char32_t low = hex4(end - 4, end);
        if (low >= 0xDC00 && low <= 0xDFFF) {
          code_point = 0x10000 + ((code_point - 0xD800) << 10) + (low - 0xDC00);
        } else {
          end -= 6;
        }
      }
      utf8::append_code_point(scratch_, code_point);
    }
  }

  static char simple_escape(char c) {
    switch (c) {
      case '"': return '"';
      case '\\': return '\\';
      case '/': return '/';
      case 'b': return '\b';
      case 'f': return '\f';
      case 'n': return '\n';
      case 'r': return '\r';
      case 't': return '\t';
      default: return 0;
    }
  }

  // The four hex digits in [begin, end); CPython reports a bad digit at the 'u'.
  char32_t hex4(std::size_t begin, std::size_t end) const {
    char32_t value = 0;
    for (std::size_t index = begin; index < end; ++index) {
      const int digit = hex_value(text_[index]);
      if (digit < 0) fail("Invalid \\uXXXX escape", end - 5);
      value = (value << 4) | static_cast<char32_t>(digit);
    }
    return value;
  }

  // _parse_object_unicode / _parse_array_unicode; `opening` is the bracket.
  std::size_t scan_container(std::size_t opening, int depth) {
    const bool is_object = text_[opening] == '{';
    if (depth > kPythonJsonMaxDepth) {
      throw EditError("RecursionError", is_object
                                            ? "maximum recursion depth exceeded while decoding a JSON object from a unicode string"
                                            : "maximum recursion depth exceeded while decoding a JSON array from a unicode string");
    }
    const char closing = is_object ? '}' : ']';
    events_.begin_container(is_object ? JsonType::Object : JsonType::Array, opening);
    const std::size_t size = text_.size();
    std::size_t index = skip_whitespace(opening + 1);
    if (index >= size || text_[index] != closing) {
      while (true) {
        if (is_object) {
          if (index >= size || text_[index] != '"') fail("Expecting property name enclosed in double quotes", index);
          std::string_view key;
          index = skip_whitespace(scan_string(index, key));
          events_.key(key);
          if (index >= size || text_[index] != ':') fail("Expecting ':' delimiter", index);
          index = skip_whitespace(index + 1);
        }
        index = skip_whitespace(scan_value(index, depth));
        if (index < size && text_[index] == closing) break;
        if (index >= size || text_[index] != ',') fail("Expecting ',' delimiter", index);
        index = skip_whitespace(index + 1);
      }
    }
    events_.end_container(index);
    return index + 1;
  }

  std::string_view text_;
  JsonEvents& events_;
  std::string scratch_;
};

}  // namespace

void read_python_json(std::string_view text, JsonEvents& events) { Reader(text, events).read_document(); }

bool json_float_is_nonzero(std::string_view literal) {
  if (literal == "NaN" || literal == "Infinity" || literal == "-Infinity") return true;
  if (literal.starts_with('-')) literal.remove_prefix(1);
  const std::size_t exponent_mark = literal.find_first_of("eE");
  const std::string_view mantissa = literal.substr(0, exponent_mark);
  const std::size_t point = mantissa.find('.');
  const std::string_view integer_part = mantissa.substr(0, point);
  const std::string_view fraction_part = point == std::string_view::npos ? "" : mantissa.substr(point + 1);
  // Decimal exponent, clamped far beyond anything binary64 can tell apart.
  std::int64_t exponent = 0;
  if (exponent_mark != std::string_view::npos) {
    std::string_view digits = literal.substr(exponent_mark + 1);
    const bool negative = digits.starts_with('-');
    if (digits.starts_with('-') || digits.starts_with('+')) digits.remove_prefix(1);
    for (const char c : digits) exponent = std::min<std::int64_t>(exponent * 10 + (c - '0'), 1'000'000'000);
    if (negative) exponent = -exponent;
  }
  // The significant digits, and the power of ten of the first one.
  std::string significant;
  bool more_nonzero = false;
  std::int64_t leading_power = 0;
  const std::int64_t integer_digits = static_cast<std::int64_t>(integer_part.size());
  std::int64_t place = 0;
  for (const std::string_view part : {integer_part, fraction_part}) {
    for (const char c : part) {
      if (significant.empty() && c == '0') {
        ++place;
        continue;
      }
      if (significant.empty()) leading_power = integer_digits - 1 - place + exponent;
      if (significant.size() < 800) {
        significant.push_back(c);
      } else if (c != '0') {
        more_nonzero = true;
      }
      ++place;
    }
  }
  if (significant.empty()) return false;
  // Zero after rounding means at most 2^-1075 = 2.47...e-324; only a leading power of -324
  // needs the digits themselves, which strtod rounds correctly (800 digits and a sticky 1
  // decide it, as 2^-1075 has fewer than 800 significant digits).
  if (leading_power >= -323) return true;
  if (leading_power <= -325) return false;
  if (more_nonzero) significant.push_back('1');
  const std::string text =
      significant + "e" + std::to_string(leading_power + 1 - static_cast<std::int64_t>(significant.size()));
  return std::strtod(text.c_str(), nullptr) != 0.0;
}

}  // namespace weightspace
