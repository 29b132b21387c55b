// SPDX-License-Identifier: GPL-3.0-or-later
#include <weightspace/big_int.hpp>

#include <gtest/gtest.h>

#include <charconv>
#include <cmath>
#include <limits>
#include <random>
#include <string>

#include "parser/python/value.hpp"

namespace weightspace {
namespace {

double correctly_rounded(const std::string& text, std::chars_format format) {
  double value = 0.0;
  const auto result = std::from_chars(text.data(), text.data() + text.size(), value, format);
  // from_chars reports a result that rounds past DBL_MAX as out of range.
  if (result.ec == std::errc::result_out_of_range) return std::numeric_limits<double>::infinity();
  EXPECT_EQ(result.ec, std::errc{}) << text;
  return value;
}

std::string random_digits(std::mt19937_64& random, std::size_t count, const char* alphabet, int base) {
  std::string digits;
  digits.push_back(alphabet[1 + random() % static_cast<unsigned>(base - 1)]);
  for (std::size_t i = 1; i < count; ++i) digits.push_back(alphabet[random() % static_cast<unsigned>(base)]);
  return digits;
}

TEST(BigInt, SmallValuesRoundTrip) {
  for (std::int64_t value : {std::int64_t{0}, std::int64_t{1}, std::int64_t{-1}, std::int64_t{1000000000},
                             std::numeric_limits<std::int64_t>::max(), std::numeric_limits<std::int64_t>::min()}) {
    const BigInt number(value);
    EXPECT_EQ(number.to_int64(), value);
    EXPECT_EQ(number.to_decimal(), std::to_string(value));
    EXPECT_EQ(number.to_double(), static_cast<double>(value));
  }
  EXPECT_TRUE(BigInt(0).is_zero());
  EXPECT_FALSE(BigInt(0).negated().is_negative());  // -0 is 0 for ints
}

TEST(BigInt, BasesAgree) {
  // 0x7fffffffffffffff written in four bases.
  const BigInt decimal = BigInt::from_digits("9223372036854775807", 10);
  EXPECT_EQ(BigInt::from_digits("7fffffffffffffff", 16), decimal);
  EXPECT_EQ(BigInt::from_digits("7FFFFFFFFFFFFFFF", 16), decimal);
  EXPECT_EQ(BigInt::from_digits("777777777777777777777", 8), decimal);
  EXPECT_EQ(BigInt::from_digits(std::string(63, '1'), 2), decimal);
  EXPECT_EQ(BigInt::from_digits("000123", 10), BigInt(123));
  EXPECT_TRUE(BigInt::from_digits("0000", 16).is_zero());
}

TEST(BigInt, ToInt64MatchesPyLongAsLong) {
  // 2**63 overflows a C long; -2**63 fits.
  const BigInt two_to_63 = BigInt::from_digits("9223372036854775808", 10);
  EXPECT_EQ(two_to_63.to_int64(), std::nullopt);
  EXPECT_EQ(two_to_63.negated().to_int64(), std::numeric_limits<std::int64_t>::min());
  EXPECT_EQ(BigInt::from_digits("1" + std::string(30, '0'), 10).to_int64(), std::nullopt);
  EXPECT_EQ(BigInt::from_digits("ffffffffffffffff", 16).to_int64(), std::nullopt);
}

TEST(BigInt, Compare) {
  const BigInt big = BigInt::from_digits("123456789012345678901234567890", 10);
  EXPECT_EQ(big.compare(big), 0);
  EXPECT_EQ(big.compare(BigInt(5)), 1);
  EXPECT_EQ(big.negated().compare(BigInt(-5)), -1);
  EXPECT_EQ(BigInt(-5).compare(BigInt(3)), -1);
  EXPECT_EQ(BigInt(3).compare(BigInt(-5)), 1);
  EXPECT_EQ(BigInt(0).compare(BigInt(0).negated()), 0);
}

// Magnitudes up to 2^64 - 1 are stored inline, larger ones in limbs: values on either side of
// that boundary, built from every base and with leading zeros, must behave as one number line.
TEST(BigInt, InlineAndLimbMagnitudesAgree) {
  const BigInt below = BigInt::from_digits("18446744073709551615", 10);  // 2^64 - 1
  const BigInt at = BigInt::from_digits("18446744073709551616", 10);     // 2^64
  EXPECT_EQ(BigInt::from_digits("ffffffffffffffff", 16), below);
  EXPECT_EQ(BigInt::from_digits("000" + std::string(16, 'f'), 16), below);
  EXPECT_EQ(BigInt::from_digits("1" + std::string(64, '0'), 2), at);
  EXPECT_EQ(BigInt::from_digits("0000018446744073709551616", 10), at);
  EXPECT_EQ(below.to_decimal(), "18446744073709551615");
  EXPECT_EQ(at.negated().to_decimal(), "-18446744073709551616");
  EXPECT_EQ(below.compare(at), -1);
  EXPECT_EQ(at.compare(below), 1);
  EXPECT_EQ(at.negated().compare(below.negated()), -1);
  EXPECT_EQ(below.to_double(), 18446744073709551616.0);  // rounds up to 2^64
  EXPECT_EQ(at.to_double(), 18446744073709551616.0);
  EXPECT_EQ(below.to_int64(), std::nullopt);
  EXPECT_EQ(at.to_int64(), std::nullopt);
  BigInt copy = at;
  EXPECT_EQ(copy, at);
  copy = below;
  EXPECT_EQ(copy, below);
  EXPECT_EQ(at, BigInt::from_digits("18446744073709551616", 10));  // the copy left `at` intact
}

// float(int) is correctly rounded, as is std::from_chars of the same digits.
TEST(BigInt, ToDoubleIsCorrectlyRoundedForRandomDecimals) {
  std::mt19937_64 random(12345);
  for (int trial = 0; trial < 3000; ++trial) {
    const std::size_t length = 1 + random() % 320;
    const std::string digits = random_digits(random, length, "0123456789", 10);
    const BigInt number = BigInt::from_digits(digits, 10);
    EXPECT_EQ(number.to_decimal(), digits);
    const double expected = correctly_rounded(digits, std::chars_format::general);
    if (std::isinf(expected)) {
      EXPECT_EQ(number.to_double(), std::nullopt) << digits;
    } else {
      EXPECT_EQ(number.to_double(), expected) << digits;
      EXPECT_EQ(number.negated().to_double(), -expected) << digits;
    }
  }
}

// Hex digits exercise the halfway cases (digits after bit 53 all zero but one) that random
// decimals almost never hit.
TEST(BigInt, ToDoubleRoundsHalfToEvenForHexPatterns) {
  std::mt19937_64 random(777);
  for (int trial = 0; trial < 3000; ++trial) {
    std::string digits = random_digits(random, 14 + random() % 250, "0123456789abcdef", 16);
    // Make a tie or a near tie: keep 15 leading digits, then a pattern of 8s and 0s / 1s.
    if (trial % 3 != 0) {
      for (std::size_t i = 15; i < digits.size(); ++i) digits[i] = '0';
      if (digits.size() > 15) digits[14] = trial % 2 ? '8' : '4';
      if (trial % 5 == 0) digits.back() = '1';
    }
    const BigInt number = BigInt::from_digits(digits, 16);
    const double expected = correctly_rounded(digits, std::chars_format::hex);
    EXPECT_EQ(BigInt::from_digits(number.to_decimal(), 10), number);
    if (std::isinf(expected)) {
      EXPECT_EQ(number.to_double(), std::nullopt) << digits;
    } else {
      EXPECT_EQ(number.to_double(), expected) << digits;
    }
  }
}

TEST(BigInt, OverflowThresholdIsTwoTo1024MinusTwoTo970) {
  // 2**1024 - 2**970 rounds up to 2**1024 and CPython raises OverflowError; one less rounds to
  // DBL_MAX.
  const std::string limit = std::string(13, 'f') + "c" + std::string(242, '0');  // 256 hex digits
  const BigInt threshold = BigInt::from_digits(limit, 16);
  EXPECT_EQ(threshold.to_double(), std::nullopt);
  EXPECT_EQ(threshold.negated().to_double(), std::nullopt);
  const std::string below = std::string(13, 'f') + "b" + std::string(242, 'f');
  EXPECT_EQ(BigInt::from_digits(below, 16).to_double(), std::numeric_limits<double>::max());
  EXPECT_EQ(BigInt::from_digits("1" + std::string(400, '0'), 10).to_double(), std::nullopt);
}

TEST(BigInt, LongLiteralsAreFast) {
  // 4300 decimal digits (CPython's limit) and a million hex digits must not be slow.
  const std::string decimal(4300, '7');
  EXPECT_EQ(BigInt::from_digits(decimal, 10).to_decimal(), decimal);
  const BigInt hex = BigInt::from_digits(std::string(1000000, 'f'), 16);
  EXPECT_EQ(hex.to_double(), std::nullopt);
  EXPECT_EQ(hex.compare(BigInt(1)), 1);
}

TEST(PyValue, TypeNames) {
  PyValue value;
  EXPECT_STREQ(value.type_name(), "NoneType");
  value.kind = PyValue::Kind::Ellipsis;
  EXPECT_STREQ(value.type_name(), "ellipsis");
  value.kind = PyValue::Kind::Dict;
  EXPECT_STREQ(value.type_name(), "dict");
  value.kind = PyValue::Kind::Bool;
  EXPECT_STREQ(value.type_name(), "bool");
}

}  // namespace
}  // namespace weightspace
