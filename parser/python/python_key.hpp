// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <unordered_map>

#include "parser/python/value.hpp"

namespace weightspace::python {

// The keys of a set or dict literal under Python's rules: 1, 1.0, True and (1+0j) are one
// key; lists, sets and dicts (also inside tuples) are unhashable (TypeError).
class KeySet {
 public:
  // Adds `value` unless an equal key is present; false if it was. Throws TypeError.
  bool insert(const PyValue& value);
  // Where an equal key was inserted (counting only successful inserts). Throws TypeError.
  std::optional<std::size_t> position(const PyValue& value) const;

 private:
  std::unordered_map<std::string, std::size_t> keys_;
};

}  // namespace weightspace::python
