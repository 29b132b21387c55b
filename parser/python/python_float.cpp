// SPDX-License-Identifier: GPL-3.0-or-later
#include "parser/python/python_float.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <limits>

#include "parser/python/error.hpp"

namespace weightspace {
namespace {

// First code point of each run of ten Nd digits beyond ASCII (every Nd run is 0..9 in order).
constexpr std::array<char32_t, 65> kDecimalRunStarts{
    0x660,   0x6F0,   0x7C0,   0x966,   0x9E6,   0xA66,   0xAE6,   0xB66,   0xBE6,   0xC66,   0xCE6,
    0xD66,   0xDE6,   0xE50,   0xED0,   0xF20,   0x1040,  0x1090,  0x17E0,  0x1810,  0x1946,  0x19D0,
    0x1A80,  0x1A90,  0x1B50,  0x1BB0,  0x1C40,  0x1C50,  0xA620,  0xA8D0,  0xA900,  0xA9D0,  0xA9F0,
    0xAA50,  0xABF0,  0xFF10,  0x104A0, 0x10D30, 0x11066, 0x110F0, 0x11136, 0x111D0, 0x112F0, 0x11450,
    0x114D0, 0x11650, 0x116C0, 0x11730, 0x118E0, 0x11950, 0x11C50, 0x11D50, 0x11DA0, 0x16A60, 0x16AC0,
    0x16B50, 0x1D7CE, 0x1D7D8, 0x1D7E2, 0x1D7EC, 0x1D7F6, 0x1E140, 0x1E2F0, 0x1E950, 0x1FBF0};

bool is_unicode_space_beyond_ascii(char32_t code_point) {
  switch (code_point) {
    case 0x85: case 0xA0: case 0x1680: case 0x2028: case 0x2029: case 0x202F: case 0x205F: case 0x3000:
      return true;
    default:
      return code_point >= 0x2000 && code_point <= 0x200A;
  }
}

// Py_ISSPACE: the ASCII whitespace float() and int() strip (not \x1c-\x1f).
bool is_ascii_space(char character) {
  return character == ' ' || (character >= '\t' && character <= '\r');
}

bool is_digit(char character) { return character >= '0' && character <= '9'; }

// CPython's _PyUnicode_TransformDecimalAndSpaceToASCII: non-ASCII whitespace becomes ' ',
// decimal digits their ASCII digit, and anything else ends the text with an invalid '?'.
std::string transform_to_ascii(std::u32string_view text) {
  std::string ascii;
  ascii.reserve(text.size());
  for (const char32_t code_point : text) {
    if (code_point < 127) {
      ascii.push_back(static_cast<char>(code_point));
    } else if (is_unicode_space_beyond_ascii(code_point)) {
      ascii.push_back(' ');
    } else if (const int digit = unicode_decimal_value(code_point); digit >= 0) {
      ascii.push_back(static_cast<char>('0' + digit));
    } else {
      ascii.push_back('?');
      break;
    }
  }
  return ascii;
}

// float()'s underscore rule, applied to the whole text before whitespace is stripped.
std::optional<std::string> remove_float_underscores(std::string_view text) {
  if (text.find('_') == std::string_view::npos) return std::string(text);
  std::string result;
  char previous = '\0';
  for (const char character : text) {
    if (character == '_') {
      if (!is_digit(previous)) return std::nullopt;
    } else {
      if (previous == '_' && !is_digit(character)) return std::nullopt;
      result.push_back(character);
    }
    previous = character;
  }
  if (previous == '_') return std::nullopt;
  return result;
}

bool equals_ignoring_case(std::string_view text, std::string_view lower) {
  return text.size() == lower.size() &&
         std::equal(text.begin(), text.end(), lower.begin(), [](char a, char b) {
           return (a >= 'A' && a <= 'Z' ? static_cast<char>(a - 'A' + 'a') : a) == b;
         });
}

// The decimal part after an optional sign: digits [. digits] [e [sign] digits], at least one
// mantissa digit. Returns the value, or nullopt for anything else.
std::optional<double> parse_unsigned_decimal(std::string_view text) {
  std::size_t position = 0;
  std::size_t mantissa_digits = 0;
  bool seen_nonzero = false;
  long long integer_digits_after_first_nonzero = 0;
  while (position < text.size() && is_digit(text[position])) {
    if (text[position] != '0') seen_nonzero = true;
    if (seen_nonzero) ++integer_digits_after_first_nonzero;
    ++position;
    ++mantissa_digits;
  }
  long long leading_fraction_zeros = 0;
  if (position < text.size() && text[position] == '.') {
    ++position;
    while (position < text.size() && is_digit(text[position])) {
      if (!seen_nonzero && text[position] == '0') ++leading_fraction_zeros;
      if (text[position] != '0') seen_nonzero = true;
      ++position;
      ++mantissa_digits;
    }
  }
  if (mantissa_digits == 0) return std::nullopt;
  long long exponent = 0;
  if (position < text.size() && (text[position] == 'e' || text[position] == 'E')) {
    ++position;
    bool negative_exponent = false;
    if (position < text.size() && (text[position] == '+' || text[position] == '-')) {
      negative_exponent = text[position] == '-';
      ++position;
    }
    const std::size_t exponent_start = position;
    while (position < text.size() && is_digit(text[position])) {
      exponent = std::min<long long>(exponent * 10 + (text[position] - '0'), 1'000'000'000'000LL);
      ++position;
    }
    if (position == exponent_start) return std::nullopt;
    if (negative_exponent) exponent = -exponent;
  }
  if (position != text.size()) return std::nullopt;

  double value = 0.0;
  const auto result = std::from_chars(text.data(), text.data() + text.size(), value, std::chars_format::general);
  if (result.ec == std::errc::result_out_of_range) {
    // from_chars leaves the value alone when it rounds to zero or infinity; which one follows
    // from the decimal magnitude of the first significant digit.
    const long long magnitude =
        (integer_digits_after_first_nonzero > 0 ? integer_digits_after_first_nonzero : -leading_fraction_zeros) +
        exponent;
    return magnitude > 0 ? std::numeric_limits<double>::infinity() : 0.0;
  }
  if (result.ec != std::errc{} || result.ptr != text.data() + text.size()) return std::nullopt;
  return value;
}

[[noreturn]] void throw_float_value_error(const std::string& repr) {
  throw EditError("ValueError", "could not convert string to float: " + repr);
}

// int()'s message formats its argument with "%.200R": the repr of the whole value (its quote
// chosen for the whole text), cut after 200 code points, closing quote and all.
[[noreturn]] void throw_int_value_error(std::string repr) {
  constexpr std::size_t kMaxCodePoints = 200;
  std::size_t code_points = 0;
  for (std::size_t offset = 0; offset < repr.size(); ++offset) {
    const bool starts_code_point = (static_cast<unsigned char>(repr[offset]) & 0xC0) != 0x80;
    if (starts_code_point && ++code_points > kMaxCodePoints) {
      repr.resize(offset);
      break;
    }
  }
  throw EditError("ValueError", "invalid literal for int() with base 10: " + repr);
}

// PyLong_FromString in base 10 on the ASCII text.
std::optional<BigInt> parse_python_int_ascii(std::string_view text) {
  std::size_t position = 0;
  while (position < text.size() && is_ascii_space(text[position])) ++position;
  bool negative = false;
  if (position < text.size() && (text[position] == '+' || text[position] == '-')) {
    negative = text[position] == '-';
    ++position;
  }
  std::string digits;
  char previous = '\0';
  while (position < text.size() && (is_digit(text[position]) || text[position] == '_')) {
    if (text[position] == '_') {
      if (!is_digit(previous)) return std::nullopt;  // leading or doubled underscore
    } else {
      digits.push_back(text[position]);
    }
    previous = text[position];
    ++position;
  }
  if (previous == '_' || digits.empty()) return std::nullopt;
  while (position < text.size() && is_ascii_space(text[position])) ++position;
  if (position != text.size()) return std::nullopt;
  if (digits.size() > 4300) {
    throw EditError("ValueError", "Exceeds the limit (4300 digits) for integer string conversion: value has " +
                                      std::to_string(digits.size()) +
                                      " digits; use sys.set_int_max_str_digits() to increase the limit");
  }
  const BigInt magnitude = BigInt::from_digits(digits, 10);
  return negative ? magnitude.negated() : magnitude;
}

// The exact integer value of a finite double, truncated toward zero.
BigInt truncate_double(double value) {
  const double truncated = std::trunc(value);
  if (std::fabs(truncated) < 9.2e18) return BigInt(static_cast<std::int64_t>(truncated));
  int exponent = 0;
  const double fraction = std::frexp(std::fabs(truncated), &exponent);  // in [0.5, 1)
  const auto mantissa = static_cast<std::uint64_t>(std::ldexp(fraction, 53));
  std::string binary;
  for (int bit = 52; bit >= 0; --bit) binary.push_back(((mantissa >> bit) & 1) != 0 ? '1' : '0');
  binary.append(static_cast<std::size_t>(exponent - 53), '0');
  const BigInt magnitude = BigInt::from_digits(binary, 2);
  return value < 0 ? magnitude.negated() : magnitude;
}

}  // namespace

int unicode_decimal_value(char32_t code_point) {
  if (code_point >= U'0' && code_point <= U'9') return static_cast<int>(code_point - U'0');
  const auto after = std::upper_bound(kDecimalRunStarts.begin(), kDecimalRunStarts.end(), code_point);
  if (after == kDecimalRunStarts.begin()) return -1;
  const char32_t start = *(after - 1);
  return code_point - start < 10 ? static_cast<int>(code_point - start) : -1;
}

std::optional<double> parse_python_float_ascii(std::string_view text) {
  if (text.find('\0') != std::string_view::npos) return std::nullopt;
  const auto without_underscores = remove_float_underscores(text);
  if (!without_underscores) return std::nullopt;
  std::string_view rest = *without_underscores;
  while (!rest.empty() && is_ascii_space(rest.front())) rest.remove_prefix(1);
  while (!rest.empty() && is_ascii_space(rest.back())) rest.remove_suffix(1);
  bool negative = false;
  if (!rest.empty() && (rest.front() == '+' || rest.front() == '-')) {
    negative = rest.front() == '-';
    rest.remove_prefix(1);
  }
  std::optional<double> magnitude;
  if (equals_ignoring_case(rest, "inf") || equals_ignoring_case(rest, "infinity")) {
    magnitude = std::numeric_limits<double>::infinity();
  } else if (equals_ignoring_case(rest, "nan")) {
    magnitude = std::numeric_limits<double>::quiet_NaN();
  } else {
    magnitude = parse_unsigned_decimal(rest);
  }
  if (!magnitude) return std::nullopt;
  return negative ? -*magnitude : *magnitude;
}

double python_float_of_str(std::u32string_view text) {
  const auto value = parse_python_float_ascii(transform_to_ascii(text));
  if (!value) throw_float_value_error(python_repr_str(text));
  return *value;
}

double python_float_of_bytes(std::string_view bytes) {
  const auto value = parse_python_float_ascii(bytes);
  if (!value) throw_float_value_error(python_repr_bytes(bytes));
  return *value;
}

double python_float(const PyValue& value) {
  switch (value.kind) {
    case PyValue::Kind::Bool: return value.boolean ? 1.0 : 0.0;
    case PyValue::Kind::Float: return value.real;
    case PyValue::Kind::Int: {
      const auto converted = value.integer.to_double();
      if (!converted) throw EditError("OverflowError", "int too large to convert to float");
      return *converted;
    }
    case PyValue::Kind::Str: return python_float_of_str(value.text());
    case PyValue::Kind::Bytes: return python_float_of_bytes(value.bytes());
    default:
      throw EditError("TypeError",
                      std::string("float() argument must be a string or a real number, not '") + value.type_name() + "'");
  }
}

BigInt python_int(const PyValue& value) {
  switch (value.kind) {
    case PyValue::Kind::Bool: return BigInt(value.boolean ? 1 : 0);
    case PyValue::Kind::Int: return value.integer;
    case PyValue::Kind::Float:
      if (std::isnan(value.real)) throw EditError("ValueError", "cannot convert float NaN to integer");
      if (std::isinf(value.real)) throw EditError("OverflowError", "cannot convert float infinity to integer");
      return truncate_double(value.real);
    case PyValue::Kind::Str:
    case PyValue::Kind::Bytes: {
      const bool is_str = value.kind == PyValue::Kind::Str;
      const std::string repr = is_str ? python_repr_str(value.text()) : python_repr_bytes(value.bytes());
      const std::string ascii = is_str ? transform_to_ascii(value.text()) : value.bytes();
      auto parsed = ascii.find('\0') == std::string::npos ? parse_python_int_ascii(ascii) : std::nullopt;
      if (!parsed) throw_int_value_error(repr);
      return *parsed;
    }
    default:
      throw EditError("TypeError", std::string("int() argument must be a string, a bytes-like object or a real "
                                               "number, not '") +
                                       value.type_name() + "'");
  }
}

}  // namespace weightspace
