// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "parser/python/statement.hpp"

// Hand-built Python values and statements, for testing the numpy back end without the front end.
namespace weightspace::testing::statements {

inline PyValue none() { return PyValue{}; }

inline PyValue boolean(bool value) {
  PyValue result;
  result.kind = PyValue::Kind::Bool;
  result.boolean = value;
  return result;
}

inline PyValue integer(std::int64_t value) {
  PyValue result;
  result.kind = PyValue::Kind::Int;
  result.integer = BigInt(value);
  return result;
}

inline PyValue big_integer(const std::string& decimal_digits, bool negative = false) {
  PyValue result;
  result.kind = PyValue::Kind::Int;
  result.integer = BigInt::from_digits(decimal_digits, 10);
  if (negative) result.integer = result.integer.negated();
  return result;
}

inline PyValue real(double value) {
  PyValue result;
  result.kind = PyValue::Kind::Float;
  result.real = value;
  return result;
}

inline PyValue complex_number(double real_part, double imaginary_part) {
  PyValue result;
  result.kind = PyValue::Kind::Complex;
  result.real = real_part;
  result.imag = imaginary_part;
  return result;
}

inline PyValue text(std::u32string value) {
  PyValue result;
  result.kind = PyValue::Kind::Str;
  result.mutable_text() = std::move(value);
  return result;
}

inline PyValue bytes(std::string value) {
  PyValue result;
  result.kind = PyValue::Kind::Bytes;
  result.mutable_bytes() = std::move(value);
  return result;
}

inline PyValue container(PyValue::Kind kind, std::vector<PyValue> items) {
  PyValue result;
  result.kind = kind;
  result.mutable_items() = std::move(items);
  return result;
}
inline PyValue list(std::vector<PyValue> items) { return container(PyValue::Kind::List, std::move(items)); }
inline PyValue tuple(std::vector<PyValue> items) { return container(PyValue::Kind::Tuple, std::move(items)); }

inline PyValue ellipsis() {
  PyValue result;
  result.kind = PyValue::Kind::Ellipsis;
  return result;
}

inline IndexItem index(Evaluated<PyValue> value) {
  IndexItem item;
  item.index = std::move(value);
  return item;
}

inline IndexItem slice(std::optional<Evaluated<PyValue>> lower = std::nullopt,
                       std::optional<Evaluated<PyValue>> upper = std::nullopt,
                       std::optional<Evaluated<PyValue>> step = std::nullopt) {
  IndexItem item;
  item.slice.ensure();
  item.slice->lower = std::move(lower);
  item.slice->upper = std::move(upper);
  item.slice->step = std::move(step);
  return item;
}

inline Statement assign(std::string tensor, std::vector<IndexItem> key, Evaluated<PyValue> value) {
  Statement statement;
  statement.shape = Statement::Shape::Assign;
  statement.tensor = std::move(tensor);
  statement.index_is_tuple = key.size() != 1;
  statement.index = std::move(key);
  statement.value = std::move(value);
  statement.line = 1;
  statement.column = 1;
  return statement;
}

inline Statement augment(std::string tensor, Statement::Operator op, std::vector<IndexItem> key,
                         Evaluated<PyValue> value) {
  Statement statement = assign(std::move(tensor), std::move(key), std::move(value));
  statement.shape = Statement::Shape::AugAssign;
  statement.op = op;
  return statement;
}

}  // namespace weightspace::testing::statements
