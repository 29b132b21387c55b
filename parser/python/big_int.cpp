// SPDX-License-Identifier: GPL-3.0-or-later
#include <weightspace/big_int.hpp>

#include <algorithm>
#include <bit>
#include <cmath>
#include <stdexcept>

namespace weightspace {
namespace {

using Limbs = std::vector<std::uint32_t>;

int digit_value(char character) {
  if (character >= '0' && character <= '9') return character - '0';
  if (character >= 'a' && character <= 'f') return character - 'a' + 10;
  if (character >= 'A' && character <= 'F') return character - 'A' + 10;
  return 99;
}

void trim(Limbs& limbs) {
  while (!limbs.empty() && limbs.back() == 0) limbs.pop_back();
}

// Power-of-two bases: every digit contributes a fixed number of bits, so packing from the
// least significant digit is linear in the length (long hex literals have no digit limit).
Limbs from_power_of_two_digits(std::string_view digits, int bits_per_digit, int base) {
  Limbs limbs;
  limbs.reserve(digits.size() * static_cast<std::size_t>(bits_per_digit) / 32 + 1);
  std::uint64_t accumulator = 0;
  int accumulated_bits = 0;
  for (auto position = digits.rbegin(); position != digits.rend(); ++position) {
    const int value = digit_value(*position);
    if (value >= base) throw std::invalid_argument("BigInt::from_digits: bad digit");
    accumulator |= static_cast<std::uint64_t>(value) << accumulated_bits;
    accumulated_bits += bits_per_digit;
    if (accumulated_bits >= 32) {
      limbs.push_back(static_cast<std::uint32_t>(accumulator));
      accumulator >>= 32;
      accumulated_bits -= 32;
    }
  }
  if (accumulated_bits > 0) limbs.push_back(static_cast<std::uint32_t>(accumulator));
  trim(limbs);
  return limbs;
}

// limbs = limbs * multiplier + addend
void multiply_add(Limbs& limbs, std::uint32_t multiplier, std::uint32_t addend) {
  std::uint64_t carry = addend;
  for (auto& limb : limbs) {
    const std::uint64_t product = static_cast<std::uint64_t>(limb) * multiplier + carry;
    limb = static_cast<std::uint32_t>(product);
    carry = product >> 32;
  }
  if (carry != 0) limbs.push_back(static_cast<std::uint32_t>(carry));
}

// Nine decimal digits per step: quadratic, which is ~0.2 ms for the 4300 digits CPython allows.
Limbs from_decimal_digits(std::string_view digits) {
  Limbs limbs;
  limbs.reserve(digits.size() / 9 + 2);
  std::size_t position = 0;
  while (position < digits.size()) {
    const std::size_t chunk = std::min<std::size_t>(9, digits.size() - position);
    std::uint32_t value = 0;
    std::uint32_t scale = 1;
    for (std::size_t i = 0; i < chunk; ++i) {
      const int digit = digit_value(digits[position + i]);
      if (digit >= 10) throw std::invalid_argument("BigInt::from_digits: bad digit");
      value = value * 10 + static_cast<std::uint32_t>(digit);
      scale *= 10;
    }
    multiply_add(limbs, scale, value);
    position += chunk;
  }
  trim(limbs);
  return limbs;
}

// Divides in place by divisor, returns the remainder.
std::uint32_t divide_small(Limbs& limbs, std::uint32_t divisor) {
  std::uint64_t remainder = 0;
  for (auto limb = limbs.rbegin(); limb != limbs.rend(); ++limb) {
    const std::uint64_t current = (remainder << 32) | *limb;
    *limb = static_cast<std::uint32_t>(current / divisor);
    remainder = current % divisor;
  }
  trim(limbs);
  return static_cast<std::uint32_t>(remainder);
}

int compare_magnitudes(const Limbs& a, const Limbs& b) {
  if (a.size() != b.size()) return a.size() < b.size() ? -1 : 1;
  for (std::size_t i = a.size(); i-- > 0;) {
    if (a[i] != b[i]) return a[i] < b[i] ? -1 : 1;
  }
  return 0;
}

std::uint64_t bit_length(const Limbs& limbs) {
  if (limbs.empty()) return 0;
  return (limbs.size() - 1) * 32 + static_cast<std::uint64_t>(std::bit_width(limbs.back()));
}

// Bits [start, start + 64) of the magnitude.
std::uint64_t bits_at(const Limbs& limbs, std::uint64_t start) {
  std::uint64_t result = 0;
  for (int bit_offset = 0; bit_offset < 64; bit_offset += 32) {
    const std::uint64_t bit = start + static_cast<std::uint64_t>(bit_offset);
    const std::size_t limb = bit / 32;
    const unsigned shift = bit % 32;
    if (limb >= limbs.size()) break;
    std::uint64_t chunk = limbs[limb] >> shift;
    if (shift != 0 && limb + 1 < limbs.size()) chunk |= static_cast<std::uint64_t>(limbs[limb + 1]) << (32 - shift);
    result |= (chunk & 0xffffffffULL) << bit_offset;
  }
  return result;
}

bool any_bit_below(const Limbs& limbs, std::uint64_t end) {
  const std::size_t whole = end / 32;
  for (std::size_t i = 0; i < whole && i < limbs.size(); ++i) {
    if (limbs[i] != 0) return true;
  }
  const unsigned rest = end % 32;
  return rest != 0 && whole < limbs.size() && (limbs[whole] & ((1U << rest) - 1)) != 0;
}

}  // namespace

BigInt::BigInt(std::int64_t value)
    : negative_(value < 0),
      small_(value < 0 ? 0 - static_cast<std::uint64_t>(value) : static_cast<std::uint64_t>(value)) {}

BigInt::BigInt(const BigInt& other)
    : negative_(other.negative_),
      small_(other.small_),
      large_(other.large_ ? std::make_unique<Limbs>(*other.large_) : nullptr) {}

BigInt& BigInt::operator=(const BigInt& other) {
  if (this != &other) *this = BigInt(other);
  return *this;
}

void BigInt::set_magnitude(Limbs limbs) {
  trim(limbs);
  if (limbs.size() > 2) {
    small_ = 0;
    large_ = std::make_unique<Limbs>(std::move(limbs));
    return;
  }
  large_.reset();
  small_ = bits_at(limbs, 0);
}

BigInt BigInt::from_digits(std::string_view digits, int base) {
  BigInt result;
  switch (base) {
    case 2: result.set_magnitude(from_power_of_two_digits(digits, 1, 2)); break;
    case 8: result.set_magnitude(from_power_of_two_digits(digits, 3, 8)); break;
    case 16: result.set_magnitude(from_power_of_two_digits(digits, 4, 16)); break;
    case 10:
      // 19 decimal digits are below 10^19 < 2^64: no limbs needed.
      if (digits.size() <= 19) {
        for (const char character : digits) {
          const int digit = digit_value(character);
          if (digit >= 10) throw std::invalid_argument("BigInt::from_digits: bad digit");
          result.small_ = result.small_ * 10 + static_cast<std::uint64_t>(digit);
        }
      } else {
        result.set_magnitude(from_decimal_digits(digits));
      }
      break;
    default: throw std::invalid_argument("BigInt::from_digits: base must be 2, 8, 10 or 16");
  }
  return result;
}

BigInt BigInt::negated() const {
  BigInt result = *this;
  result.negative_ = !negative_ && !is_zero();
  return result;
}

std::optional<double> BigInt::to_double() const {
  double magnitude = 0.0;
  if (!large_) {
    // A 64-bit integer converts with round-to-nearest-even, as CPython rounds.
    magnitude = static_cast<double>(small_);
  } else {
    // Top 64 bits plus a sticky bit for everything below them, then round to 53 bits.
    const Limbs& limbs = *large_;
    const std::uint64_t length = bit_length(limbs);
    if (length > 1100) return std::nullopt;  // far beyond DBL_MAX; also keeps the shift an int
    const std::uint64_t shift = length - 64;
    const std::uint64_t top = bits_at(limbs, shift);
    const bool sticky = any_bit_below(limbs, shift);
    std::uint64_t mantissa = top >> 11;
    const std::uint64_t dropped = top & 0x7ff;
    const bool round_up = dropped > 0x400 || (dropped == 0x400 && (sticky || (mantissa & 1) != 0));
    if (round_up) ++mantissa;  // 2^53 after carrying is still exact as a double
    magnitude = std::ldexp(static_cast<double>(mantissa), static_cast<int>(shift + 11));
    if (std::isinf(magnitude)) return std::nullopt;
  }
  return negative_ ? -magnitude : magnitude;
}

std::optional<std::int64_t> BigInt::to_int64() const {
  if (large_) return std::nullopt;
  if (negative_) {
    if (small_ > (std::uint64_t{1} << 63)) return std::nullopt;
    return static_cast<std::int64_t>(0 - small_);
  }
  if (small_ >= (std::uint64_t{1} << 63)) return std::nullopt;
  return static_cast<std::int64_t>(small_);
}

int BigInt::compare(const BigInt& other) const {
  if (negative_ != other.negative_) return negative_ ? -1 : 1;
  int magnitude_order = 0;
  if (large_ && other.large_) {
    magnitude_order = compare_magnitudes(*large_, *other.large_);
  } else if (large_ || other.large_) {
    magnitude_order = large_ ? 1 : -1;
  } else if (small_ != other.small_) {
    magnitude_order = small_ < other.small_ ? -1 : 1;
  }
  return negative_ ? -magnitude_order : magnitude_order;
}

std::string BigInt::to_decimal() const {
  if (!large_) return (negative_ ? "-" : "") + std::to_string(small_);
  // str() of an int beyond CPython's 4300-digit limit raises; messages only need a description.
  const std::uint64_t bits = bit_length(*large_);
  if (bits > 14300) return std::string(negative_ ? "-" : "") + "<int of " + std::to_string(bits) + " bits>";
  Limbs work = *large_;
  std::string reversed;
  while (!work.empty()) {
    std::uint32_t chunk = divide_small(work, 1000000000U);
    for (int i = 0; i < 9; ++i) {
      reversed.push_back(static_cast<char>('0' + chunk % 10));
      chunk /= 10;
      if (work.empty() && chunk == 0) break;
    }
  }
  while (reversed.size() > 1 && reversed.back() == '0') reversed.pop_back();
  if (negative_) reversed.push_back('-');
  return {reversed.rbegin(), reversed.rend()};
}

}  // namespace weightspace
