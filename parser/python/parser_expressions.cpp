// SPDX-License-Identifier: GPL-3.0-or-later
// Expressions (Grammar/python.gram, "EXPRESSIONS"): one function per precedence level, binary
// operators by precedence climbing. Each function charges the rule calls pegen makes for it,
// so deep nesting hits the MemoryError limit where CPython does (see kMaxParserLevel). The
// standalone-atom fast path is in parser_atoms.cpp, lambda in parser_parameters.cpp.
#include <algorithm>
#include <utility>

#include "parser/python/parser.hpp"

namespace weightspace::python {
namespace {

// Binary operator precedence, loosest first: | ^ & << >> + - * / // % @
int precedence(Op op) {
  switch (op) {
    case Op::VerticalBar: return 1;
    case Op::Circumflex: return 2;
    case Op::Ampersand: return 3;
    case Op::LeftShift:
    case Op::RightShift: return 4;
    case Op::Plus:
    case Op::Minus: return 5;
    case Op::Star:
    case Op::Slash:
    case Op::DoubleSlash:
    case Op::Percent:
    case Op::At: return 6;
    default: return 0;
  }
}

BinaryOperator binary_operator(Op op) {
  switch (op) {
    case Op::VerticalBar: return BinaryOperator::BitOr;
    case Op::Circumflex: return BinaryOperator::BitXor;
    case Op::Ampersand: return BinaryOperator::BitAnd;
    case Op::LeftShift: return BinaryOperator::LShift;
    case Op::RightShift: return BinaryOperator::RShift;
    case Op::Plus: return BinaryOperator::Add;
    case Op::Minus: return BinaryOperator::Sub;
    case Op::Star: return BinaryOperator::Mult;
    case Op::Slash: return BinaryOperator::Div;
    case Op::DoubleSlash: return BinaryOperator::FloorDiv;
    case Op::Percent: return BinaryOperator::Mod;
    default: return BinaryOperator::MatMult;
  }
}

}  // namespace

bool Parser::can_start_expression(bool allow_star) {
  const Token token = next_token();
  switch (token.kind) {
    case TokenKind::Name: {
      const Keyword keyword = token.keyword();
      return keyword == Keyword::None || keyword >= Keyword::SoftMatch ||
             keyword == Keyword::False || keyword == Keyword::NoneValue ||
             keyword == Keyword::True || keyword == Keyword::Not || keyword == Keyword::Lambda ||
             keyword == Keyword::Await;
    }
    case TokenKind::Number:
    case TokenKind::String: return true;
    case TokenKind::Operator:
      switch (token.op()) {
        case Op::LeftParen:
        case Op::LeftBracket:
        case Op::LeftBrace:
        case Op::Ellipsis:
        case Op::Minus:
        case Op::Plus:
        case Op::Tilde: return true;
        case Op::Star: return allow_star;
        default: return false;
      }
    default: return false;
  }
}

NodeIndex Parser::star_expressions() {
  const bool as_targets = std::exchange(parse_targets_next_, false);
  LevelGuard guard(*this, 1);
  const struct RestoreTargetHead {
    std::size_t& slot;
    std::size_t saved;
    ~RestoreTargetHead() { slot = saved; }
  } restore{target_head_, target_head_};
  const auto element_starts = [&] {
    if (as_targets) target_head_ = token_base_ + position_;
  };
  const Token first = next_token();
  element_starts();
  const NodeIndex head = star_expression();
  if (!at(Op::Comma)) return head;
  const std::size_t base = scratch_.size();
  scratch_.push_back(head);
  // (',' star_expression)+ [',']: later elements sit two rule calls deeper, and in the second
  // pass one that does not parse leaves its comma to the optional trailing one.
  LevelGuard elements(*this, 2);
  for (;;) {
    const Mark before_comma = mark();
    if (!accept(Op::Comma)) break;
    if (!can_start_expression(true)) break;
    NodeIndex element = kNoNode;
    element_starts();
    if (!operand_or_give_back(before_comma, [&] { return star_expression(); }, element)) {
      consume();
      break;
    }
    scratch_.push_back(element);
  }
  const NodeIndex tuple = make_node(NodeKind::Tuple, first, children_since(base));
  scratch_.resize(base);
  return tuple;
}

// star_expressions where pegen's assignment tries star_targets first (see target_head_).
NodeIndex Parser::star_expressions_as_targets() {
  parse_targets_next_ = second_pass_;
  return star_expressions();
}

NodeIndex Parser::star_expression() {
  LevelGuard guard(*this, 1);
  if (!at(Op::Star)) return expression();
  const Token star = consume();
  const NodeIndex value = bitwise_or();
  return make_node(NodeKind::Starred, star, {&value, 1});
}

NodeIndex Parser::star_named_expression() {
  LevelGuard guard(*this, 1);
  if (!at(Op::Star)) return named_expression();
  const Token star = consume();
  const NodeIndex value = bitwise_or();
  return make_node(NodeKind::Starred, star, {&value, 1});
}

NodeIndex Parser::named_expression() {
  LevelGuard guard(*this, second_pass_ ? 3 : 2);  // + invalid_named_expression
  const Token first = next_token();
  if (first.kind == TokenKind::Name &&
      (first.keyword() == Keyword::None || first.keyword() >= Keyword::SoftMatch) &&
      peek(1).op() == Op::ColonEqual) {
    const Token name = consume();
    consume();
    const NodeIndex children[2] = {name_node(name), expression()};
    return make_node(NodeKind::NamedExpr, name, children);
  }
  const Mark start = mark();
  NodeIndex value = kNoNode;
  try {
    value = expression();
  } catch (const SyntaxFailure&) {
    if (second_pass_) invalid_named_expression_display(start);
    throw;
  }
  if (second_pass_) invalid_named_expression_checks(start, value);
  if (at(Op::ColonEqual)) fail();
  return value;
}

NodeIndex Parser::expression() {
  // Near the level limit the full descent runs, so the atom is charged what CPython charges
  // (the innermost body of 2984 nested lambdas is what tips pegen over MAXSTACK).
  if (!error_pass_ && level_ < kMaxParserLevel - 64) {
    const NodeIndex atom = simple_atom_fast_path();
    if (atom != kNoNode) return atom;
  }
  if (error_pass_) {
    // expression_without_invalid is a rule of its own, not a memoised `expression`.
    if (without_invalid_entry_) {
      without_invalid_entry_ = false;
    } else if (reuse_without_invalid(Memoised::Expression)) {
      const InvalidRulesOff off(*this);
      return expression();
    }
  }
  LevelGuard guard(*this, second_pass_ ? 2 : 1);  // + invalid_expression
  if (at(Keyword::Lambda)) return lambda_expression();
  const Token first = next_token();
  const Mark start = mark();
  const NodeIndex body = disjunction();
  if (second_pass_) invalid_expression_checks(start, body);
  if (!at(Keyword::If)) return body;
  // `disjunction 'if' disjunction 'else' expression`, else plain `disjunction`: in the second
  // pass an incomplete conditional gives the `if` back (`print 1, print if` ends at `print`).
  const Mark before_if = mark();
  NodeIndex test = kNoNode;
  NodeIndex orelse = kNoNode;
  const auto conditional = [&] {
    consume();
    test = disjunction();
    if (!accept(Keyword::Else)) fail();
    return expression();
  };
  if (!operand_or_give_back(before_if, conditional, orelse)) return body;
  const NodeIndex children[3] = {test, body, orelse};
  return make_node(NodeKind::IfExp, first, children);
}

NodeIndex Parser::expression_without_invalid() {
  const InvalidRulesOff off(*this);
  without_invalid_entry_ = true;
  return expression();
}

// pegen's repetition and left recursion give back an operator whose operand does not parse;
// that only matters in the second pass, where the next token then starts something else.
template <class Operand>
bool Parser::operand_or_give_back(const Mark& before_operator, Operand&& parse, NodeIndex& out) {
  if (!error_pass_) {
    out = parse();
    return true;
  }
  try {
    out = parse();
    return true;
  } catch (const SyntaxFailure&) {
    reset(before_operator);
    return false;
  }
}

NodeIndex Parser::disjunction() {
  if (error_pass_ && reuse_without_invalid(Memoised::Disjunction)) {
    const InvalidRulesOff off(*this);
    return disjunction();
  }
  LevelGuard guard(*this, 1);
  const Token first = next_token();
  const NodeIndex head = conjunction();
  if (!at(Keyword::Or)) return head;
  const std::size_t base = scratch_.size();
  scratch_.push_back(head);
  for (;;) {
    const Mark before = mark();
    if (!accept(Keyword::Or)) break;
    NodeIndex operand = kNoNode;
    if (!operand_or_give_back(before, [&] { return conjunction(); }, operand)) break;
    scratch_.push_back(operand);
  }
  if (scratch_.size() == base + 1) {
    scratch_.resize(base);
    return head;
  }
  const NodeIndex result = make_node(NodeKind::BoolOp, first, children_since(base), 1);
  scratch_.resize(base);
  return result;
}

NodeIndex Parser::conjunction() {
  LevelGuard guard(*this, 1);
  const Token first = next_token();
  const NodeIndex head = inversion();
  if (!at(Keyword::And)) return head;
  const std::size_t base = scratch_.size();
  scratch_.push_back(head);
  for (;;) {
    const Mark before = mark();
    if (!accept(Keyword::And)) break;
    NodeIndex operand = kNoNode;
    if (!operand_or_give_back(before, [&] { return inversion(); }, operand)) break;
    scratch_.push_back(operand);
  }
  if (scratch_.size() == base + 1) {
    scratch_.resize(base);
    return head;
  }
  const NodeIndex result = make_node(NodeKind::BoolOp, first, children_since(base), 0);
  scratch_.resize(base);
  return result;
}

NodeIndex Parser::inversion() {
  LevelGuard guard(*this, 1);
  if (!at(Keyword::Not)) return comparison();
  const Token keyword = consume();
  const NodeIndex operand = inversion();
  return make_node(NodeKind::UnaryOp, keyword, {&operand, 1},
                   static_cast<std::uint8_t>(UnaryOperator::Not));
}

NodeIndex Parser::comparison() {
  LevelGuard guard(*this, 1);
  const Token first = next_token();
  const NodeIndex left = bitwise_or();
  const std::size_t base = scratch_.size();
  bool first_is_in = false;
  for (;;) {
    const Mark before = mark();
    const Token token = next_token();
    const Op op = token.op();
    const Keyword keyword = token.keyword();
    if (op == Op::EqualEqual || op == Op::NotEqual || op == Op::Less || op == Op::LessEqual ||
        op == Op::Greater || op == Op::GreaterEqual || keyword == Keyword::In) {
      if (scratch_.size() == base) first_is_in = keyword == Keyword::In;
      consume();
    } else if (keyword == Keyword::Not && peek(1).keyword() == Keyword::In) {
      consume();
      consume();
    } else if (keyword == Keyword::Is) {
      consume();
      accept(Keyword::Not);
    } else {
      break;
    }
    NodeIndex operand = kNoNode;
    if (!operand_or_give_back(before, [&] { return bitwise_or(); }, operand)) break;
    if (scratch_.size() == base) scratch_.push_back(left);
    scratch_.push_back(operand);
  }
  if (scratch_.size() == base) return left;
  const NodeIndex result =
      make_node(NodeKind::Compare, first, children_since(base), first_is_in ? 1 : 0);
  scratch_.resize(base);
  return result;
}

NodeIndex Parser::bitwise_or() {
  // `print _[*x[1:=1]]`: invalid_expression reads `_[...]` without the invalid_* rules, its
  // starred slice's `x[1:=1]` among it; invalid_legacy_expression's second read of the list
  // `[*x[1:=1]]` gets `*` bitwise_or's memoised `x` back, so no walrus error, and `print` is
  // the message.
  if (error_pass_ && reuse_without_invalid(Memoised::BitwiseOr)) {
    const InvalidRulesOff off(*this);
    return bitwise_or();
  }
  LevelGuard guard(*this, 12);  // bitwise_or .. term, each a rule plus its left-recursion loop
  return binary(1);
}

NodeIndex Parser::binary(int minimum_precedence) {
  const Token first = next_token();
  NodeIndex left = factor();
  for (;;) {
    const Op op = next_token().op();
    const int level = precedence(op);
    if (level == 0 || level < minimum_precedence) return left;
    const Mark before = mark();
    consume();
    NodeIndex right = kNoNode;
    if (!operand_or_give_back(before, [&] { return binary(level + 1); }, right)) return left;
    const NodeIndex children[2] = {left, right};
    left = make_node(NodeKind::BinOp, first, children,
                     static_cast<std::uint8_t>(binary_operator(op)));
  }
}

NodeIndex Parser::factor() {
  LevelGuard guard(*this, 1);
  const Op op = next_token().op();
  if (op != Op::Plus && op != Op::Minus && op != Op::Tilde) return power();
  const Token sign = consume();
  const NodeIndex operand = factor();
  const UnaryOperator unary = op == Op::Plus    ? UnaryOperator::Plus
                              : op == Op::Minus ? UnaryOperator::Minus
                                                : UnaryOperator::Invert;
  return make_node(NodeKind::UnaryOp, sign, {&operand, 1}, static_cast<std::uint8_t>(unary));
}

NodeIndex Parser::power() {
  LevelGuard guard(*this, 1);
  const Token first = next_token();
  const NodeIndex base = await_primary();
  const Mark before = mark();
  if (!accept(Op::DoubleStar)) return base;
  NodeIndex exponent = kNoNode;
  if (!operand_or_give_back(before, [&] { return factor(); }, exponent)) return base;
  const NodeIndex children[2] = {base, exponent};
  return make_node(NodeKind::BinOp, first, children,
                   static_cast<std::uint8_t>(BinaryOperator::Pow));
}

NodeIndex Parser::await_primary() {
  LevelGuard guard(*this, 1);
  if (!at(Keyword::Await)) return primary();
  const Token keyword = consume();
  const NodeIndex value = primary();
  return make_node(NodeKind::Await, keyword, {&value, 1});
}

NodeIndex Parser::yield_expression() {
  LevelGuard guard(*this, 1);
  const Token keyword = consume();
  if (accept(Keyword::From)) {
    const NodeIndex value = expression();
    return make_node(NodeKind::YieldFrom, keyword, {&value, 1});
  }
  if (!can_start_expression(true)) return make_node(NodeKind::Yield, keyword, {});
  const NodeIndex value = star_expressions();
  return make_node(NodeKind::Yield, keyword, {&value, 1});
}

}  // namespace weightspace::python
