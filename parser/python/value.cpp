// SPDX-License-Identifier: GPL-3.0-or-later
#include "parser/python/value.hpp"

namespace weightspace {
namespace {

const PyValueContents& no_contents() {
  static const PyValueContents empty;
  return empty;
}

}  // namespace

const std::u32string& PyValue::text() const { return contents_ ? contents_->text : no_contents().text; }
const std::string& PyValue::bytes() const { return contents_ ? contents_->bytes : no_contents().bytes; }
const std::vector<PyValue>& PyValue::items() const {
  return contents_ ? contents_->items : no_contents().items;
}
std::u32string& PyValue::mutable_text() { return contents_.ensure().text; }
std::string& PyValue::mutable_bytes() { return contents_.ensure().bytes; }
std::vector<PyValue>& PyValue::mutable_items() { return contents_.ensure().items; }

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
