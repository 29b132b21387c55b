// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <weightspace/big_int.hpp>
#include "parser/python/boxed.hpp"

namespace weightspace {

struct PyValueContents;

// A Python object that ast.literal_eval can return. Values are trees; no sharing.
struct PyValue {
  enum class Kind { None, Bool, Int, Float, Complex, Str, Bytes, Ellipsis, Tuple, List, Set, Dict };

  Kind kind = Kind::None;
  bool boolean = false;          // Bool
  BigInt integer;                // Int (arbitrary precision, like Python's int)
  double real = 0.0;             // Float; real part of Complex
  double imag = 0.0;             // imaginary part of Complex

  // Str, as code points (Python str semantics).
  const std::u32string& text() const;
  // Bytes.
  const std::string& bytes() const;
  // Tuple, List, Set (in source order); Dict: key, value, key, value, ...
  const std::vector<PyValue>& items() const;
  std::u32string& mutable_text();
  std::string& mutable_bytes();
  std::vector<PyValue>& mutable_items();

  // Python's type name, as error messages print it: 'int', 'float', 'list', 'NoneType', ...
  const char* type_name() const;

 private:
  // Edits hold tens of thousands of numbers and few strings or containers: those live out of
  // line, which keeps a number at 56 bytes instead of 144.
  Boxed<PyValueContents> contents_;
};

struct PyValueContents {
  std::u32string text;
  std::string bytes;
  std::vector<PyValue> items;
};

}  // namespace weightspace
