// SPDX-License-Identifier: GPL-3.0-or-later
#include "parser/python/value.hpp"

namespace weightspace {

const char* PyValue::type_name() const {
  switch (kind) {
    case Kind::None: return "NoneType";
    case Kind::Bool: return "bool";
    case Kind::Int: return "int";
    case Kind::Float: return "float";
    case Kind::Complex: return "complex";
    case Kind::Str: return "str";
    case Kind::Bytes: return "bytes";
    case Kind::Ellipsis: return "ellipsis";
    case Kind::Tuple: return "tuple";
    case Kind::List: return "list";
    case Kind::Set: return "set";
    case Kind::Dict: return "dict";
  }
  return "object";
}

}  // namespace weightspace
