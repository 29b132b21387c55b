// SPDX-License-Identifier: GPL-3.0-or-later
#include "parser/python/python_float.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>

#include "parser/python/error.hpp"

namespace weightspace {
namespace {

PyValue str_value(std::u32string text) {
  PyValue value;
  value.kind = PyValue::Kind::Str;
  value.mutable_text() = std::move(text);
  return value;
}

PyValue bytes_value(std::string bytes) {
  PyValue value;
  value.kind = PyValue::Kind::Bytes;
  value.mutable_bytes() = std::move(bytes);
  return value;
}

PyValue float_value(double real) {
  PyValue value;
  value.kind = PyValue::Kind::Float;
  value.real = real;
  return value;
}

// Expected results were checked with Python 3.11: float(text).hex(), or the ValueError.
struct FloatCase {
  std::u32string text;
  double expected;  // NaN: expect NaN
};

constexpr double kInf = std::numeric_limits<double>::infinity();

TEST(PythonFloat, AcceptsWhatPythonAccepts) {
  const FloatCase cases[] = {
      {U"1.5", 1.5},
      {U"  2.5  ", 2.5},
      {U" 1.5\n", 1.5},
      {U"1_000", 1000.0},
      {U"1e3", 1000.0},
      {U"+1", 1.0},
      {U"-iNf", -kInf},
      {U"Infinity", kInf},
      {U"nan", std::nan("")},
      {U"\u0661\u0662", 12.0},             // Arabic-Indic digits
      {U"\uff11\uff12", 12.0},             // fullwidth digits
      {U"\u0663.\u0665", 3.5},
      {U"\U0001D7CE\U0001D7CF", 1.0},      // mathematical bold digits 0 and 1 -> "01"
      {U"1e1_0", 1e10},
      {U".5", 0.5},
      {U"5.", 5.0},
      {U"\u00a01\u3000", 1.0},             // non-ASCII whitespace becomes a space
      {U"\u00851", 1.0},
      {U"\u20001", 1.0},
      {U"\t\v\f\r1\n", 1.0},
      {U"1e400", kInf},
      {U"-1e400", -kInf},
      {U"1e-400", 0.0},
      {U"4.9e-324", 0x0.0000000000001p-1022},
      {U"2.4703282292062327e-324", 0.0},   // just below half the smallest subnormal
      {U"1.7976931348623158e308", std::numeric_limits<double>::max()},
      {U"1.7976931348623159e308", kInf},
      {U"0.1", 0x1.999999999999ap-4},
      {U"1.00000005960464477539062500000001", 0x1.0000010000000p+0},
  };
  for (const auto& test_case : cases) {
    const double value = python_float_of_str(test_case.text);
    if (std::isnan(test_case.expected)) {
      EXPECT_TRUE(std::isnan(value));
    } else {
      EXPECT_EQ(value, test_case.expected) << python_repr_str(test_case.text);
    }
  }
  EXPECT_TRUE(std::signbit(python_float_of_str(U"-1e-400")));
}

TEST(PythonFloat, RejectsWhatPythonRejects) {
  const std::u32string rejected[] = {
      U"0x10", U"", U"  ", U"abc", U"1,5", U"1.5.", U"1.5e", U"\\d", U"1__0", U"_1", U"1_", U"1_.5",
      U"1._5", U"1e_1", U".", U"e5", U"\x1c" U"1", std::u32string(U"1\0", 2), U"infinit", U"nan1",
      U"+-1", U"- 1", U"1\u200b", U"1 _0",
  };
  for (const auto& text : rejected) {
    try {
      python_float_of_str(text);
      ADD_FAILURE() << "accepted " << python_repr_str(text);
    } catch (const EditError& error) {
      EXPECT_EQ(error.kind(), "ValueError");
      EXPECT_EQ(std::string(error.what()), "could not convert string to float: " + python_repr_str(text));
    }
  }
}

TEST(PythonFloat, Bytes) {
  EXPECT_EQ(python_float_of_bytes("1.5"), 1.5);
  EXPECT_EQ(python_float_of_bytes(" 1 "), 1.0);
  // bytes get no Unicode transformation: b'\xa01' is not a number.
  for (const std::string& bytes : {std::string("\xa0" "1"), std::string("abc"), std::string(), std::string("it's")}) {
    EXPECT_THROW(python_float_of_bytes(bytes), EditError);
  }
  try {
    python_float_of_bytes("it's");
  } catch (const EditError& error) {
    EXPECT_EQ(std::string(error.what()), "could not convert string to float: b\"it's\"");
  }
}

TEST(PythonFloat, OfValues) {
  PyValue value;
  value.kind = PyValue::Kind::Bool;
  value.boolean = true;
  EXPECT_EQ(python_float(value), 1.0);
  value.kind = PyValue::Kind::Int;
  value.integer = BigInt::from_digits("1" + std::string(400, '0'), 10);
  try {
    python_float(value);
    ADD_FAILURE();
  } catch (const EditError& error) {
    EXPECT_EQ(error.kind(), "OverflowError");
    EXPECT_EQ(std::string(error.what()), "int too large to convert to float");
  }
  value.kind = PyValue::Kind::Complex;
  try {
    python_float(value);
    ADD_FAILURE();
  } catch (const EditError& error) {
    EXPECT_EQ(error.kind(), "TypeError");
    EXPECT_EQ(std::string(error.what()), "float() argument must be a string or a real number, not 'complex'");
  }
}

TEST(PythonInt, OfStrings) {
  // int(text) in Python 3.11.
  const std::pair<std::u32string, std::int64_t> accepted[] = {
      {U"3", 3}, {U" 3 ", 3}, {U"1_0", 10}, {U"\u0663", 3}, {U"+1", 1}, {U"\t-1\n", -1},
      {U"00", 0}, {U"0_0", 0}, {U"\uff11\uff12", 12},
  };
  for (const auto& [text, expected] : accepted) {
    EXPECT_EQ(python_int(str_value(text)).to_int64(), expected) << python_repr_str(text);
  }
  EXPECT_EQ(python_int(str_value(std::u32string(30, U'9'))).to_decimal(), std::string(30, '9'));
  for (const char32_t* text : {U"3.5", U"", U"0x1", U"1e1", U"1__0", U"_1", U"1_", U"- 1", U"+ 1"}) {
    try {
      python_int(str_value(text));
      ADD_FAILURE() << python_repr_str(text);
    } catch (const EditError& error) {
      EXPECT_EQ(error.kind(), "ValueError");
      EXPECT_EQ(std::string(error.what()), "invalid literal for int() with base 10: " + python_repr_str(text));
    }
  }
  EXPECT_EQ(python_int(bytes_value(" 3 ")).to_int64(), 3);
  EXPECT_THROW(python_int(bytes_value("\xa0" "3")), EditError);
  try {
    python_int(str_value(std::u32string(4301, U'1')));
    ADD_FAILURE();
  } catch (const EditError& error) {
    EXPECT_EQ(error.kind(), "ValueError");
    EXPECT_NE(std::string(error.what()).find("value has 4301 digits"), std::string::npos);
  }
}

// int() formats its argument with "%.200R": the whole value's repr, cut after 200 code points.
// The expected endings and lengths are Python 3.11's.
TEST(PythonInt, MessageCutsTheReprAfter200CodePoints) {
  const auto message = [](const PyValue& value) {
    try {
      python_int(value);
    } catch (const EditError& error) {
      return std::string(error.what());
    }
    return std::string("no error");
  };
  const std::string prefix = "invalid literal for int() with base 10: ";
  EXPECT_EQ(message(str_value(std::u32string(198, U'x'))), prefix + "'" + std::string(198, 'x') + "'");
  EXPECT_EQ(message(str_value(std::u32string(199, U'x'))), prefix + "'" + std::string(199, 'x'));
  EXPECT_EQ(message(str_value(std::u32string(198, U'x') + U"\ny")), prefix + "'" + std::string(198, 'x') + "\\");
  EXPECT_EQ(message(bytes_value(std::string(100, '\xff'))), prefix + "b'" + [] {
    std::string escapes;
    for (int i = 0; i < 49; ++i) escapes += "\\xff";
    return escapes + "\\x";
  }());
  // Code points, not bytes: 199 two-byte characters after the quote.
  std::string accents = prefix + "'";
  for (int i = 0; i < 199; ++i) accents += "\u00e9";
  EXPECT_EQ(message(str_value(std::u32string(300, U'\u00e9'))), accents);
  // The quote is chosen for the whole text, also when the ' is past the cut.
  EXPECT_EQ(message(str_value(std::u32string(250, U'x') + U"'")), prefix + "\"" + std::string(199, 'x'));
}

TEST(PythonInt, OfFloatsAndOthers) {
  EXPECT_EQ(python_int(float_value(-1.5)).to_int64(), -1);
  EXPECT_EQ(python_int(float_value(-0.5)).to_int64(), 0);
  EXPECT_EQ(python_int(float_value(599.9999)).to_int64(), 599);
  // int(1e300) is the exact value of the double 1e300: 301 digits starting 100000000000000005250476025520.
  const BigInt huge = python_int(float_value(1e300));
  EXPECT_EQ(huge.to_double(), 1e300);
  EXPECT_EQ(huge.to_decimal().substr(0, 30), "100000000000000005250476025520");
  EXPECT_EQ(huge.to_decimal().size(), 301u);
  EXPECT_EQ(python_int(float_value(-9223372036854775808.0)).to_int64(), std::numeric_limits<std::int64_t>::min());
  EXPECT_EQ(python_int(float_value(9223372036854775808.0)).to_int64(), std::nullopt);

  auto expect_error = [](const PyValue& value, const char* kind, const std::string& message) {
    try {
      python_int(value);
      ADD_FAILURE() << message;
    } catch (const EditError& error) {
      EXPECT_EQ(error.kind(), kind);
      EXPECT_EQ(std::string(error.what()), message);
    }
  };
  expect_error(float_value(kInf), "OverflowError", "cannot convert float infinity to integer");
  expect_error(float_value(-kInf), "OverflowError", "cannot convert float infinity to integer");
  expect_error(float_value(std::nan("")), "ValueError", "cannot convert float NaN to integer");
  PyValue none;
  expect_error(none, "TypeError",
               "int() argument must be a string, a bytes-like object or a real number, not 'NoneType'");
  PyValue list;
  list.kind = PyValue::Kind::List;
  expect_error(list, "TypeError", "int() argument must be a string, a bytes-like object or a real number, not 'list'");
  PyValue truth;
  truth.kind = PyValue::Kind::Bool;
  truth.boolean = true;
  EXPECT_EQ(python_int(truth).to_int64(), 1);
}

TEST(PythonRepr, QuotesAndEscapes) {
  // repr() in Python 3.11.
  EXPECT_EQ(python_repr_str(U"it's"), "\"it's\"");
  EXPECT_EQ(python_repr_str(U"a\"b"), "'a\"b'");
  EXPECT_EQ(python_repr_str(U"a'b\"c"), "'a\\'b\"c'");
  EXPECT_EQ(python_repr_str(std::u32string(U"\0\t\u00e9\u200b\U0001F600", 5)),
            "'\\x00\\t\u00e9\\u200b\U0001F600'");
  EXPECT_EQ(python_repr_bytes("\xa0" "3"), "b'\\xa03'");
}

TEST(UnicodeDecimal, Values) {
  EXPECT_EQ(unicode_decimal_value(U'7'), 7);
  EXPECT_EQ(unicode_decimal_value(U'\u0669'), 9);
  EXPECT_EQ(unicode_decimal_value(U'\u066A'), -1);  // ARABIC PERCENT SIGN follows the digits
  EXPECT_EQ(unicode_decimal_value(U'\U0001FBF9'), 9);
  EXPECT_EQ(unicode_decimal_value(U'\u00B2'), -1);  // SUPERSCRIPT TWO is No, not Nd
  EXPECT_EQ(unicode_decimal_value(U'a'), -1);
}

}  // namespace
}  // namespace weightspace
