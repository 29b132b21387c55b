// SPDX-License-Identifier: GPL-3.0-or-later
// Node construction, assignment targets, and the names pegen gives expressions in messages.
#include <algorithm>

#include "parser/python/parser.hpp"

namespace weightspace::python {

NodeIndex Parser::make_node(NodeKind kind, const Token& first, std::span<const NodeIndex> children,
                            std::uint8_t detail, int extra_depth) {
  int deepest = extra_depth;
  for (const NodeIndex child : children) deepest = std::max(deepest, depth(child));
  const std::int32_t first_child = tree_.add_children(children);
  const Token& last = position_ > 0 ? tokens_[position_ - 1] : first;
  // Filled where it lives: a node built aside and copied in is read back while its fields are
  // still being stored, which stalls (half of this function's time on the benchmark).
  const NodeIndex index = tree_.add_node();
  Node& made = tree_.at(index);
  made.kind = kind;
  made.detail = detail;
  made.line = first.line;
  made.column = first.column;
  made.begin = first.start;
  made.end_line = last.end_line;
  made.end_column = last.end_column;
  made.end = last.end;
  made.depth = 1 + deepest;
  made.first_child = first_child;
  made.child_count = static_cast<std::int32_t>(children.size());
  return index;
}

std::span<const NodeIndex> Parser::children_since(std::size_t base) const {
  return {scratch_.data() + base, scratch_.size() - base};
}

bool Parser::can_start_target() {
  const Token token = next_token();
  if (token.op() == Op::Star) return true;
  if (token.kind == TokenKind::Name) {
    const Keyword keyword = token.keyword();
    return keyword == Keyword::None || keyword >= Keyword::SoftMatch ||
           keyword == Keyword::True || keyword == Keyword::False || keyword == Keyword::NoneValue;
  }
  return token.kind == TokenKind::Number || token.kind == TokenKind::String ||
         token.op() == Op::LeftParen || token.op() == Op::LeftBracket ||
         token.op() == Op::LeftBrace || token.op() == Op::Ellipsis;
}

// star_targets for `for` loops, comprehensions and `with ... as`: primaries, checked.
NodeIndex Parser::star_targets() {
  LevelGuard guard(*this, 1);
  const Token first = next_token();
  const NodeIndex head = star_target();
  if (!at(Op::Comma)) return head;
  const std::size_t base = scratch_.size();
  scratch_.push_back(head);
  while (accept(Op::Comma)) {
    if (!can_start_target()) break;
    const NodeIndex element = star_target();
    scratch_.push_back(element);
  }
  const NodeIndex tuple = make_node(NodeKind::Tuple, first, children_since(base));
  scratch_.resize(base);
  return tuple;
}

NodeIndex Parser::star_target() {
  LevelGuard guard(*this, 2);
  if (at(Op::Star)) {
    const Token star = consume();
    if (at(Op::Star)) fail();
    const NodeIndex inner = star_target();
    return make_node(NodeKind::Starred, star, {&inner, 1});
  }
  const NodeIndex target = primary();
  if (!is_star_target(target)) fail();
  return target;
}

bool Parser::is_star_target(NodeIndex index) const {
  const Node& target = node(index);
  switch (target.kind) {
    case NodeKind::Name:
    case NodeKind::Attribute:
    case NodeKind::Subscript: return true;
    case NodeKind::Starred: {
      const NodeIndex inner = tree_.child(target, 0);
      return node(inner).kind != NodeKind::Starred && is_star_target(inner);
    }
    case NodeKind::Tuple:
    case NodeKind::List:
      for (const NodeIndex element : tree_.children(target)) {
        if (!is_star_target(element)) return false;
      }
      return true;
    default: return false;
  }
}

bool Parser::is_single_target(NodeIndex index) const {
  const NodeKind kind = node(index).kind;
  return kind == NodeKind::Name || kind == NodeKind::Attribute || kind == NodeKind::Subscript;
}

// assignment's `('(' single_target ')' | single_subscript_attribute_target) ':'` takes the
// group whenever one parses, so `(x)[0]: int` is "illegal target for annotation" (while
// `(x, y)[0]: int` and `f()[0]: int` are fine).
bool Parser::annotation_group_comes_first(NodeIndex index) const {
  if (node(index).parenthesized) return false;
  for (;;) {
    const Node& current = node(index);
    if (current.kind != NodeKind::Attribute && current.kind != NodeKind::Subscript &&
        current.kind != NodeKind::Call) {
      return false;
    }
    index = tree_.child(current, 0);
    if (node(index).parenthesized) return is_single_target(index);
  }
}

bool Parser::is_delete_target(NodeIndex index) const {
  const Node& target = node(index);
  if (is_single_target(index)) return true;
  if (target.kind != NodeKind::Tuple && target.kind != NodeKind::List) return false;
  for (const NodeIndex element : tree_.children(target)) {
    if (!is_delete_target(element)) return false;
  }
  return true;
}

// _PyPegen_get_invalid_target
NodeIndex Parser::invalid_target(NodeIndex index, Targets type) const {
  const Node& target = node(index);
  switch (target.kind) {
    case NodeKind::List:
    case NodeKind::Tuple:
      for (const NodeIndex element : tree_.children(target)) {
        const NodeIndex invalid = invalid_target(element, type);
        if (invalid != kNoNode) return invalid;
      }
      return kNoNode;
    case NodeKind::Starred:
      if (type == Targets::Delete) return index;
      return invalid_target(tree_.child(target, 0), type);
    case NodeKind::Compare:
      if (type == Targets::For) {
        return target.detail == 1 ? invalid_target(tree_.child(target, 0), type) : kNoNode;
      }
      return index;
    case NodeKind::Name:
    case NodeKind::Subscript:
    case NodeKind::Attribute: return kNoNode;
    default: return index;
  }
}

void Parser::raise_invalid_target(NodeIndex index, Targets type) {
  const NodeIndex invalid = invalid_target(index, type);
  if (invalid == kNoNode) return;
  raise_at_node(std::string(type == Targets::Delete ? "cannot delete " : "cannot assign to ") +
                    expression_name(invalid),
                invalid);
}

// _PyPegen_get_expr_name
const char* Parser::expression_name(NodeIndex index) const {
  const Node& expression = node(index);
  switch (expression.kind) {
    case NodeKind::Attribute: return "attribute";
    case NodeKind::Subscript: return "subscript";
    case NodeKind::Starred: return "starred";
    case NodeKind::Name: return "name";
    case NodeKind::List: return "list";
    case NodeKind::Tuple: return "tuple";
    case NodeKind::Lambda: return "lambda";
    case NodeKind::Call: return "function call";
    case NodeKind::BoolOp:
    case NodeKind::BinOp:
    case NodeKind::UnaryOp: return "expression";
    case NodeKind::GeneratorExp: return "generator expression";
    case NodeKind::Yield:
    case NodeKind::YieldFrom: return "yield expression";
    case NodeKind::Await: return "await expression";
    case NodeKind::ListComp: return "list comprehension";
    case NodeKind::SetComp: return "set comprehension";
    case NodeKind::DictComp: return "dict comprehension";
    case NodeKind::Dict: return "dict literal";
    case NodeKind::Set: return "set display";
    case NodeKind::JoinedStr:
    case NodeKind::FormattedValue: return "f-string expression";
    case NodeKind::Constant:
      switch (static_cast<ConstantKind>(expression.detail)) {
        case ConstantKind::None: return "None";
        case ConstantKind::False: return "False";
        case ConstantKind::True: return "True";
        case ConstantKind::Ellipsis: return "ellipsis";
        default: return "literal";
      }
    case NodeKind::Compare: return "comparison";
    case NodeKind::IfExp: return "conditional expression";
    case NodeKind::NamedExpr: return "named expression";
    case NodeKind::Slice: return "slice";
  }
  return "expression";
}

// Could pegen's bitwise_or rule have produced this node (it stops before comparisons)?
bool Parser::is_bitwise_or_level(NodeIndex index) const {
  const Node& expression = node(index);
  if (expression.parenthesized) return true;
  switch (expression.kind) {
    case NodeKind::Compare:
    case NodeKind::BoolOp:
    case NodeKind::IfExp:
    case NodeKind::Lambda:
    case NodeKind::NamedExpr:
    case NodeKind::Starred:
    case NodeKind::Yield:
    case NodeKind::YieldFrom: return false;
    case NodeKind::UnaryOp:
      return static_cast<UnaryOperator>(expression.detail) != UnaryOperator::Not;
    default: return true;
  }
}

// invalid_named_expression's `!(list|tuple|genexp|'True'|'None'|'False')` at `start`.
bool Parser::starts_with_display_or_constant(const Mark& start, NodeIndex) const {
  const Token first = tokens_[start.position];
  const Keyword keyword = first.keyword();
  if (keyword == Keyword::True || keyword == Keyword::False || keyword == Keyword::NoneValue) {
    return true;
  }
  if (first.op() != Op::LeftParen && first.op() != Op::LeftBracket) return false;
  for (std::size_t index = start.nodes; index < tree_.node_count(); ++index) {
    const Node& candidate = tree_.at(static_cast<NodeIndex>(index));
    if (candidate.begin != first.start) continue;
    if (candidate.kind == NodeKind::List || candidate.kind == NodeKind::GeneratorExp ||
        (candidate.kind == NodeKind::Tuple && first.op() == Op::LeftParen)) {
      return true;
    }
  }
  return false;
}

bool Parser::is_legacy_call_name(NodeIndex index) const {
  const Node& expression = node(index);
  if (expression.kind != NodeKind::Name) return false;
  const std::string_view name = expression.extra >= 0
                                    ? std::string_view(tree_.name(expression.extra))
                                    : source_.substr(expression.begin, expression.end - expression.begin);
  return name == "print" || name == "exec";
}

void Parser::raise_range(const std::string& message, NodeIndex first, NodeIndex) {
  raise_at_node(message, first);
}

}  // namespace weightspace::python
