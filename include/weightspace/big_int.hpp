// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace weightspace {

// Python's arbitrary-precision int, only as far as literals and the grader need it: build from
// digits, negate, compare, and convert the way CPython converts (float(x): correctly rounded,
// half to even, OverflowError past DBL_MAX; int -> C long for indices).
class BigInt {
 public:
  BigInt() = default;
  explicit BigInt(std::int64_t value);
  BigInt(const BigInt& other);
  BigInt& operator=(const BigInt& other);
  BigInt(BigInt&&) noexcept = default;
  BigInt& operator=(BigInt&&) noexcept = default;
  ~BigInt() = default;

  // digits without sign, prefix or underscores, in base 2, 8, 10 or 16.
  static BigInt from_digits(std::string_view digits, int base);

  BigInt negated() const;
  bool is_zero() const { return !large_ && small_ == 0; }
  bool is_negative() const { return negative_; }

  // float(x): nullopt when CPython raises OverflowError("int too large to convert to float").
  std::optional<double> to_double() const;
  // PyLong_AsLong: nullopt when CPython raises OverflowError ("Python int too large to convert
  // to C long").
  std::optional<std::int64_t> to_int64() const;

  int compare(const BigInt& other) const;  // -1, 0, 1
  std::string to_decimal() const;          // str(x), for messages

  friend bool operator==(const BigInt& a, const BigInt& b) { return a.compare(b) == 0; }

 private:
  using Limbs = std::vector<std::uint32_t>;  // little-endian base 2^32, no leading zeros

  // Almost every literal fits 64 bits: those keep their magnitude inline, so building one
  // allocates nothing; only larger magnitudes live in heap limbs.
  void set_magnitude(Limbs limbs);

  bool negative_ = false;
  std::uint64_t small_ = 0;       // the magnitude when large_ is null
  std::unique_ptr<Limbs> large_;  // the magnitude when it is 2^64 or more
};

}  // namespace weightspace
