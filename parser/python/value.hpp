// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "parser/python/big_int.hpp"

namespace weightspace {

// A Python object that ast.literal_eval can return. Values are trees; no sharing.
struct PyValue {
  enum class Kind { None, Bool, Int, Float, Complex, Str, Bytes, Ellipsis, Tuple, List, Set, Dict };

  Kind kind = Kind::None;
  bool boolean = false;          // Bool
  BigInt integer;                // Int (arbitrary precision, like Python's int)
  double real = 0.0;             // Float; real part of Complex
  double imag = 0.0;             // imaginary part of Complex
  std::u32string text;           // Str, as code points (Python str semantics)
  std::string bytes;             // Bytes
  std::vector<PyValue> items;    // Tuple, List, Set (in source order); Dict: key, value, key, value, ...

  // Python's type name, as error messages print it: 'int', 'float', 'list', 'NoneType', ...
  const char* type_name() const;
};

}  // namespace weightspace
