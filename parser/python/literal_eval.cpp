// SPDX-License-Identifier: GPL-3.0-or-later
// ast.literal_eval as Lib/ast.py (3.11) defines it, on this parser's tree. Errors come out in
// the same order Python raises them: containers are converted element by element, and a set
// or dict hashes each element right after converting it.
#include "parser/python/literal_eval.hpp"

#include <charconv>
#include <algorithm>
#include <cmath>
#include <string>

#include "parser/python/python_key.hpp"
#include "parser/python/string_literal.hpp"

namespace weightspace::python {
namespace {

// A double from the digits of a float literal (underscores removed), correctly rounded; out
// of range means infinity (1e400) or zero (1e-400), as CPython's PyOS_string_to_double gives.
double parse_double(std::string_view digits) {
  double value = 0.0;
  const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
  (void)end;
  if (error != std::errc::result_out_of_range) return value;
  const std::size_t exponent_mark = digits.find_first_of("eE");
  const std::string_view mantissa = digits.substr(0, exponent_mark);
  long exponent = 0;  // saturated: 1e99999999999999999999 is still just infinity
  if (exponent_mark != std::string_view::npos) {
    std::size_t position = exponent_mark + 1;
    const bool negative = position < digits.size() && digits[position] == '-';
    if (position < digits.size() && (digits[position] == '-' || digits[position] == '+')) ++position;
    for (; position < digits.size(); ++position) {
      exponent = std::min(exponent * 10 + (digits[position] - '0'), 1000000000L);
    }
    if (negative) exponent = -exponent;
  }
  const std::size_t point = mantissa.find('.');
  const std::size_t integer_digits = point == std::string_view::npos ? mantissa.size() : point;
  const std::size_t first_nonzero = mantissa.find_first_not_of("0.");
  if (first_nonzero == std::string_view::npos) return 0.0;
  const long position = first_nonzero < integer_digits
                            ? static_cast<long>(integer_digits - first_nonzero) - 1
                            : -static_cast<long>(first_nonzero - integer_digits);
  return position + exponent > 0 ? HUGE_VAL : 0.0;
}

class Evaluator {
 public:
  Evaluator(const Tree& tree, std::string_view source) : tree_(tree), source_(source) {}

  PyValue convert(NodeIndex index) {
    if (index == kNoNode) throw EditError("ValueError", "malformed node or string: None");
    const Node& node = tree_.at(index);
    switch (node.kind) {
      case NodeKind::Constant: return constant(node);
      case NodeKind::Tuple: return sequence(node, PyValue::Kind::Tuple);
      case NodeKind::List: return sequence(node, PyValue::Kind::List);
      case NodeKind::Set: return set(node);
      case NodeKind::Dict: return dict(node);
      case NodeKind::Call:
        if (empty_set_call(node)) {
          PyValue value;
          value.kind = PyValue::Kind::Set;
          return value;
        }
        break;
      case NodeKind::BinOp:
        if (const auto sum = complex_sum(node)) return *sum;
        break;
      default:
        break;
    }
    return signed_number(index);
  }

 private:
  [[noreturn]] void malformed(NodeIndex index) const {
    const Node& node = tree_.at(index);
    throw EditError("ValueError",
                    "malformed node or string on line " + std::to_string(node.line) + ": <ast." +
                        node_class_name(node.kind) + " object at 0x?>",
                    node.line, node.column + 1);
  }

  PyValue constant(const Node& node) const {
    PyValue value;
    switch (static_cast<ConstantKind>(node.detail)) {
      case ConstantKind::Number: return number_value(source_.substr(node.begin, node.end - node.begin));
      case ConstantKind::String: return string(node);
      case ConstantKind::True:
      case ConstantKind::False:
        value.kind = PyValue::Kind::Bool;
        value.boolean = static_cast<ConstantKind>(node.detail) == ConstantKind::True;
        return value;
      case ConstantKind::None: return value;
      case ConstantKind::Ellipsis: value.kind = PyValue::Kind::Ellipsis; return value;
    }
    return value;
  }

  PyValue string(const Node& node) const {
    PyValue value;
    bool bytes = false;
    for (const StringPiece& piece : tree_.pieces(node)) {
      const std::string_view token = source_.substr(piece.begin, piece.end - piece.begin);
      const StringPrefix prefix = string_prefix(token);
      bytes = prefix.bytes;
      // The parser has already decoded every piece once, so this cannot throw.
      if (bytes) {
        decode_bytes(string_body(token, prefix), prefix.raw, value.mutable_bytes());
      } else {
        decode_str(string_body(token, prefix), prefix.raw, value.mutable_text());
      }
    }
    value.kind = bytes ? PyValue::Kind::Bytes : PyValue::Kind::Str;
    return value;
  }

  PyValue sequence(const Node& node, PyValue::Kind kind) {
    PyValue value;
    value.kind = kind;
    const auto children = tree_.children(node);
    value.mutable_items().reserve(children.size());
    for (const NodeIndex child : children) value.mutable_items().push_back(convert(child));
    return value;
  }

  // set(map(_convert, elts)): convert, then hash, element by element.
  PyValue set(const Node& node) {
    PyValue value;
    value.kind = PyValue::Kind::Set;
    KeySet seen;
    for (const NodeIndex child : tree_.children(node)) {
      PyValue element = convert(child);
      if (seen.insert(element)) value.mutable_items().push_back(std::move(element));
    }
    return value;
  }

  // dict(zip(map(_convert, keys), map(_convert, values))): key, value, then the key's hash.
  // A repeated key keeps its first object and its last value, as dict does.
  PyValue dict(const Node& node) {
    PyValue value;
    value.kind = PyValue::Kind::Dict;
    KeySet seen;
    const auto children = tree_.children(node);
    for (std::size_t index = 0; index + 1 < children.size(); index += 2) {
      PyValue key = convert(children[index]);
      PyValue item = convert(children[index + 1]);
      const std::optional<std::size_t> previous = seen.position(key);
      if (previous) {
        value.mutable_items()[2 * *previous + 1] = std::move(item);
        continue;
      }
      seen.insert(key);
      value.mutable_items().push_back(std::move(key));
      value.mutable_items().push_back(std::move(item));
    }
    return value;
  }

  bool empty_set_call(const Node& node) const {
    if (node.child_count != 1 || node.extra != 0) return false;
    const Node& callee = tree_.at(tree_.child(node, 0));
    if (callee.kind != NodeKind::Name) return false;
    const std::string_view name = callee.extra >= 0 ? std::string_view(tree_.name(callee.extra))
                                                    : source_.substr(callee.begin, callee.end - callee.begin);
    return name == "set";
  }

  // `-1.5+2j`: a signed real number plus or minus an imaginary literal.
  std::optional<PyValue> complex_sum(const Node& node) {
    const auto operation = static_cast<BinaryOperator>(node.detail);
    if (operation != BinaryOperator::Add && operation != BinaryOperator::Sub) return std::nullopt;
    const PyValue left = signed_number(tree_.child(node, 0));
    const PyValue right = plain_number(tree_.child(node, 1));
    if (left.kind == PyValue::Kind::Complex || right.kind != PyValue::Kind::Complex) {
      return std::nullopt;
    }
    double real = left.real;
    if (left.kind == PyValue::Kind::Int) {
      const std::optional<double> converted = left.integer.to_double();
      if (!converted) throw EditError("OverflowError", "int too large to convert to float");
      real = *converted;
    }
    PyValue value;
    value.kind = PyValue::Kind::Complex;
    // complex(real, 0.0) + right, component by component as CPython's complex arithmetic.
    if (operation == BinaryOperator::Add) {
      value.real = real + right.real;
      value.imag = 0.0 + right.imag;
    } else {
      value.real = real - right.real;
      value.imag = 0.0 - right.imag;
    }
    return value;
  }

  PyValue signed_number(NodeIndex index) {
    const Node& node = tree_.at(index);
    if (node.kind == NodeKind::UnaryOp) {
      const auto operation = static_cast<UnaryOperator>(node.detail);
      if (operation == UnaryOperator::Plus || operation == UnaryOperator::Minus) {
        PyValue operand = plain_number(tree_.child(node, 0));
        if (operation == UnaryOperator::Minus) {
          operand.integer = operand.integer.negated();
          operand.real = -operand.real;
          operand.imag = -operand.imag;
        }
        return operand;
      }
    }
    return plain_number(index);
  }

  // _convert_num: a Constant whose type is exactly int, float or complex.
  PyValue plain_number(NodeIndex index) const {
    const Node& node = tree_.at(index);
    if (node.kind != NodeKind::Constant ||
        static_cast<ConstantKind>(node.detail) != ConstantKind::Number) {
      malformed(index);
    }
    return number_value(source_.substr(node.begin, node.end - node.begin));
  }

  const Tree& tree_;
  std::string_view source_;
};

}  // namespace

const char* node_class_name(NodeKind kind) {
  switch (kind) {
    case NodeKind::Name: return "Name";
    case NodeKind::Constant: return "Constant";
    case NodeKind::Tuple: return "Tuple";
    case NodeKind::List: return "List";
    case NodeKind::Set: return "Set";
    case NodeKind::Dict: return "Dict";
    case NodeKind::Call: return "Call";
    case NodeKind::BinOp: return "BinOp";
    case NodeKind::UnaryOp: return "UnaryOp";
    case NodeKind::BoolOp: return "BoolOp";
    case NodeKind::Compare: return "Compare";
    case NodeKind::IfExp: return "IfExp";
    case NodeKind::Lambda: return "Lambda";
    case NodeKind::NamedExpr: return "NamedExpr";
    case NodeKind::Await: return "Await";
    case NodeKind::Yield: return "Yield";
    case NodeKind::YieldFrom: return "YieldFrom";
    case NodeKind::JoinedStr: return "JoinedStr";
    case NodeKind::FormattedValue: return "FormattedValue";
    case NodeKind::ListComp: return "ListComp";
    case NodeKind::SetComp: return "SetComp";
    case NodeKind::DictComp: return "DictComp";
    case NodeKind::GeneratorExp: return "GeneratorExp";
    case NodeKind::Attribute: return "Attribute";
    case NodeKind::Subscript: return "Subscript";
    case NodeKind::Starred: return "Starred";
    case NodeKind::Slice: return "Slice";
  }
  return "AST";
}

PyValue number_value(std::string_view token) {
  // One pass over the token tells what kind of literal it is (a hexadecimal one may hold 'e',
  // but the prefix is checked first); underscores are rare, and only then are digits copied.
  bool underscore = false;
  bool point_or_exponent = false;
  for (const char character : token) {
    underscore = underscore || character == '_';
    point_or_exponent = point_or_exponent || character == '.' || character == 'e' || character == 'E';
  }
  std::string without_underscores;
  std::string_view digits = token;
  if (underscore) {
    without_underscores.reserve(token.size());
    for (const char character : token) {
      if (character != '_') without_underscores += character;
    }
    digits = without_underscores;
  }
  PyValue value;
  const char letter = digits.size() > 1 && digits[0] == '0' ? static_cast<char>(digits[1] | 0x20) : '\0';
  if (letter == 'x' || letter == 'o' || letter == 'b') {
    value.kind = PyValue::Kind::Int;
    value.integer = BigInt::from_digits(digits.substr(2), letter == 'x' ? 16 : letter == 'o' ? 8 : 2);
    return value;
  }
  const char last = digits.back();
  if (last == 'j' || last == 'J') {
    digits.remove_suffix(1);
    value.kind = PyValue::Kind::Complex;
    value.imag = parse_double(digits);
    return value;
  }
  if (point_or_exponent) {
    value.kind = PyValue::Kind::Float;
    value.real = parse_double(digits);
    return value;
  }
  value.kind = PyValue::Kind::Int;
  value.integer = BigInt::from_digits(digits, 10);
  return value;
}

Evaluated<PyValue> literal_eval(const Tree& tree, std::string_view source, NodeIndex node) {
  try {
    Evaluator evaluator(tree, source);
    return evaluator.convert(node);
  } catch (EditError& error) {
    return std::move(error);
  }
}

}  // namespace weightspace::python
