// SPDX-License-Identifier: GPL-3.0-or-later
#include "parser/python/python_key.hpp"

#include <bit>
#include <cmath>
#include <cstdint>
#include <vector>

#include "parser/python/error.hpp"

namespace weightspace::python {
namespace {

// The exact decimal digits of an integral double (|x| may reach 1.8e308).
std::string integral_decimal(double value) {
  const bool negative = value < 0;
  value = std::fabs(value);
  if (value < 9.2e18) {
    const auto whole = static_cast<std::uint64_t>(value);
    std::string text = negative && whole != 0 ? "-" : "";
    text.append(std::to_string(whole));
    return text;
  }
  int exponent = 0;
  const double mantissa = std::frexp(value, &exponent);  // value = mantissa * 2^exponent
  auto integer = static_cast<std::uint64_t>(std::ldexp(mantissa, 53));
  exponent -= 53;
  std::vector<std::uint32_t> limbs;  // base 1e9, little-endian
  while (integer != 0) {
    limbs.push_back(static_cast<std::uint32_t>(integer % 1000000000u));
    integer /= 1000000000u;
  }
  for (int step = 0; step < exponent; ++step) {
    std::uint32_t carry = 0;
    for (std::uint32_t& limb : limbs) {
      const std::uint64_t doubled = std::uint64_t{limb} * 2 + carry;
      limb = static_cast<std::uint32_t>(doubled % 1000000000u);
      carry = static_cast<std::uint32_t>(doubled / 1000000000u);
    }
    if (carry != 0) limbs.push_back(carry);
  }
  std::string text = negative ? "-" : "";
  text.append(std::to_string(limbs.back()));
  for (std::size_t index = limbs.size() - 1; index-- > 0;) {
    const std::string part = std::to_string(limbs[index]);
    text.append(9 - part.size(), '0');
    text.append(part);
  }
  return text;
}

// GCC 12 misreports `"literal" + std::string` (-Wrestrict), hence the appends below.
std::string tagged(char tag, const std::string& text) {
  std::string key(1, tag);
  key.append(text);
  return key;
}

std::string real_key(double value) {
  if (std::isfinite(value) && value == std::trunc(value)) return tagged('I', integral_decimal(value));
  return tagged('F', std::to_string(std::bit_cast<std::uint64_t>(value)));
}

[[noreturn]] void unhashable(const PyValue& value) {
  throw EditError("TypeError", std::string("unhashable type: '") + value.type_name() + "'");
}

std::string key_of(const PyValue& value) {
  switch (value.kind) {
    case PyValue::Kind::None: return "N";
    case PyValue::Kind::Ellipsis: return "E";
    case PyValue::Kind::Bool: return value.boolean ? "I1" : "I0";
    case PyValue::Kind::Int: return tagged('I', value.integer.to_decimal());
    case PyValue::Kind::Float: return real_key(value.real);
    case PyValue::Kind::Complex:
    {
      if (value.imag == 0.0) return real_key(value.real);
      std::string key = tagged('C', real_key(value.real));
      key += ',';
      key.append(std::to_string(std::bit_cast<std::uint64_t>(value.imag)));
      return key;
    }
    case PyValue::Kind::Str:
      return tagged('S', std::string(reinterpret_cast<const char*>(value.text().data()),
                                     value.text().size() * sizeof(char32_t)));
    case PyValue::Kind::Bytes: return tagged('B', value.bytes());
    case PyValue::Kind::Tuple: {
      std::string key = "T";
      for (const PyValue& item : value.items()) {
        const std::string part = key_of(item);
        key.append(std::to_string(part.size()));
        key += ':';
        key.append(part);
      }
      return key;
    }
    default: unhashable(value);
  }
}

}  // namespace

bool KeySet::insert(const PyValue& value) {
  const std::size_t next = keys_.size();
  return keys_.emplace(key_of(value), next).second;
}

std::optional<std::size_t> KeySet::position(const PyValue& value) const {
  const auto found = keys_.find(key_of(value));
  if (found == keys_.end()) return std::nullopt;
  return found->second;
}

}  // namespace weightspace::python
