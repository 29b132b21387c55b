// SPDX-License-Identifier: GPL-3.0-or-later
// Primaries and atoms: names, numbers, strings, displays, comprehensions, calls, subscripts.
#include <algorithm>

#include "parser/python/names.hpp"
#include "parser/python/parser.hpp"

namespace weightspace::python {

namespace {

// Lowers the level while a primary is parsed, restoring it even when the parse fails.
class LevelOverride {
 public:
  LevelOverride(int& level, int saving) : level_(level), saved_(level) { level -= saving; }
  ~LevelOverride() { level_ = saved_; }
  LevelOverride(const LevelOverride&) = delete;
  LevelOverride& operator=(const LevelOverride&) = delete;

 private:
  int& level_;
  int saved_;
};

}  // namespace

NodeIndex Parser::primary() {
  LevelGuard guard(*this, 2);
  const bool shallow = token_base_ + position_ == shallow_primary_position_;
  LevelOverride override_level(level_, shallow ? shallow_primary_saving_ : 0);
  const Token first = next_token();
  NodeIndex value = atom();
  for (;;) {
    const Op op = next_token().op();
    if (second_pass_ && (op == Op::LeftParen || op == Op::LeftBracket || op == Op::LeftBrace)) {
      invalid_comprehension_at_bracket();
    }
    if (op != Op::Dot && op != Op::LeftParen && op != Op::LeftBracket) return value;
    // A trailer that does not parse leaves the primary before it, as pegen's left recursion
    // does; only the second pass cares (the next token then starts whatever comes next).
    const Mark before = mark();
    try {
      if (op == Op::Dot) {
        consume();
        expect_name();
        value = make_node(NodeKind::Attribute, first, {&value, 1});
      } else if (op == Op::LeftParen) {
        value = unless_failed_before(Bracketed::Call, [&] { return call(first, value); });
      } else {
        value = unless_failed_before(Bracketed::Subscript, [&] { return subscript(first, value); });
      }
    } catch (const SyntaxFailure&) {
      if (!error_pass_) throw;
      reset(before);
      return value;
    }
  }
}

// A display whose own alternatives fail ends, in the second pass, with invalid_comprehension.
NodeIndex Parser::display(NodeIndex (Parser::*parse)()) {
  const Mark open = mark();
  try {
    return (this->*parse)();
  } catch (const SyntaxFailure&) {
    if (second_pass_) {
      reset(open);
      invalid_comprehension_at_bracket();
    }
    throw;
  }
}

// A name or number standing alone (`W1[3, 4] = 0.5` has three) needs none of the sixteen
// precedence levels; building its node directly is the same result, several times faster.
NodeIndex Parser::simple_atom_fast_path() {
  const Token& token = next_token();
  const bool plain_name = token.kind == TokenKind::Name && token.keyword() == Keyword::None;
  if (!plain_name && token.kind != TokenKind::Number) return kNoNode;
  switch (peek(1).kind) {
    case TokenKind::Newline: break;
    case TokenKind::Operator:
      switch (peek(1).op()) {
        case Op::Comma:
        case Op::RightParen:
        case Op::RightBracket:
        case Op::RightBrace:
        case Op::Colon:
        case Op::Equal:
        case Op::Semicolon: break;
        default: return kNoNode;
      }
      break;
    default: return kNoNode;
  }
  return plain_name ? name_node(consume()) : number();
}

NodeIndex Parser::atom() {
  LevelGuard guard(*this, 1);
  const Token token = next_token();
  switch (token.kind) {
    case TokenKind::Name:
      switch (token.keyword()) {
        case Keyword::True:
          return make_node(NodeKind::Constant, consume(), {},
                           static_cast<std::uint8_t>(ConstantKind::True));
        case Keyword::False:
          return make_node(NodeKind::Constant, consume(), {},
                           static_cast<std::uint8_t>(ConstantKind::False));
        case Keyword::NoneValue:
          return make_node(NodeKind::Constant, consume(), {},
                           static_cast<std::uint8_t>(ConstantKind::None));
        case Keyword::None:
        case Keyword::SoftMatch:
        case Keyword::SoftCase:
        case Keyword::SoftUnderscore:
          return name_node(consume());
        default:
          fail();
      }
    case TokenKind::Number: return number();
    case TokenKind::String: return strings();
    case TokenKind::Operator:
      switch (token.op()) {
        case Op::LeftParen:
          return unless_failed_before(Bracketed::Parenthesized,
                                      [&] { return display(&Parser::parenthesized); });
        case Op::LeftBracket:
          return unless_failed_before(Bracketed::List, [&] { return display(&Parser::bracketed); });
        case Op::LeftBrace:
          return unless_failed_before(Bracketed::Braced, [&] { return display(&Parser::braced); });
        case Op::Ellipsis:
          return make_node(NodeKind::Constant, consume(), {},
                           static_cast<std::uint8_t>(ConstantKind::Ellipsis));
        default: fail();
      }
    default: fail();
  }
}

NodeIndex Parser::name_node(const Token& token) {
  const NodeIndex index = make_node(NodeKind::Name, token, {});
  const std::string_view text = source_.substr(token.start, token.end - token.start);
  for (const char byte : text) {
    if (static_cast<unsigned char>(byte) >= 0x80) {
      node(index).extra = tree_.add_name(nfkc_normalize(text));
      break;
    }
  }
  return index;
}

// A NUMBER token. Decimal int literals longer than CPython's int_max_str_digits (4300) are a
// SyntaxError at parse time; hexadecimal, octal and binary ones have no limit.
NodeIndex Parser::number() {
  const Token token = consume();
  const std::string_view text = source_.substr(token.start, token.end - token.start);
  const bool decimal_int = text.find_first_of(".eEjJxXoObB") == std::string_view::npos;
  if (decimal_int && text.size() > kMaxIntDigits) {
    std::size_t digits = 0;
    bool nonzero = false;
    for (const char character : text) {
      if (character == '_') continue;
      ++digits;
      nonzero = nonzero || character != '0';
    }
    if (digits > kMaxIntDigits && nonzero) {
      raise_at(std::string("Exceeds the limit (4300 digits) for integer string conversion: value "
                           "has ") +
                   std::to_string(digits) +
                   " digits; use sys.set_int_max_str_digits() to increase the limit - Consider "
                   "hexadecimal for huge integer literals to avoid decimal conversion limits.",
               token.line, -1);
    }
  }
  return make_node(NodeKind::Constant, token, {}, static_cast<std::uint8_t>(ConstantKind::Number));
}

// '(' tuple | group | genexp
NodeIndex Parser::parenthesized() {
  LevelGuard guard(*this, 2);
  const Token open = consume();
  if (accept(Op::RightParen)) return make_node(NodeKind::Tuple, open, {});
  if (at(Keyword::Yield)) {
    const NodeIndex value = yield_expression();
    expect(Op::RightParen);
    node(value).parenthesized = true;
    return value;
  }
  if (at(Op::DoubleStar)) {
    if (second_pass_) {
      const Token stars = consume();
      try {
        expression();
        if (at(Op::RightParen)) {
          raise_at_token("cannot use double starred expression here", stars);
        }
      } catch (const SyntaxFailure&) {
      }
    }
    fail();
  }
  const NodeIndex first = star_named_expression();
  const bool starred = node(first).kind == NodeKind::Starred;
  if (!starred && at_comprehension()) {
    const int clauses = comprehension_clauses();
    expect(Op::RightParen);
    return make_node(NodeKind::GeneratorExp, open, {&first, 1}, 0, clauses);
  }
  if (at(Op::RightParen)) {
    if (starred) {
      if (second_pass_) raise_at_node("cannot use starred expression here", first);
      fail();
    }
    consume();
    node(first).parenthesized = true;
    return first;
  }
  if (starred && second_pass_ && at_comprehension()) {
    invalid_comprehension_check(first);
  }
  expect(Op::Comma);
  const std::size_t base = scratch_.size();
  scratch_.push_back(first);
  // pegen reaches later tuple elements through star_named_expressions and its gather: two
  // levels deeper than the first (measured with 4000+ unary minuses under 50 nested `(1, ...`).
  LevelGuard elements(*this, 2);
  while (!at(Op::RightParen)) {
    const NodeIndex element = star_named_expression();
    scratch_.push_back(element);
    if (!accept(Op::Comma)) break;
  }
  expect(Op::RightParen);
  const NodeIndex tuple = make_node(NodeKind::Tuple, open, children_since(base));
  scratch_.resize(base);
  node(tuple).parenthesized = true;
  return tuple;
}

// '[' list | listcomp: one level deeper than a parenthesized group (star_named_expressions).
NodeIndex Parser::bracketed() {
  LevelGuard guard(*this, 3);
  const Token open = consume();
  const std::size_t base = scratch_.size();
  while (!at(Op::RightBracket)) {
    const NodeIndex element = star_named_expression();
    // After a starred first element pegen's listcomp never looks for `for` (nor past `async`).
    const bool starred = node(element).kind == NodeKind::Starred;
    if (scratch_.size() == base && (!starred || second_pass_) && at_comprehension()) {
      if (!starred) {
        const int clauses = comprehension_clauses();
        expect(Op::RightBracket);
        return make_node(NodeKind::ListComp, open, {&element, 1}, 0, clauses);
      }
      if (second_pass_) invalid_comprehension_check(element);
    }
    scratch_.push_back(element);
    if (second_pass_ && scratch_.size() > base + 1 && at_comprehension()) {
      invalid_comprehension_target(base);
    }
    if (!accept(Op::Comma)) break;
    if (second_pass_ && at_comprehension()) invalid_comprehension_target(base);
  }
  expect(Op::RightBracket);
  const NodeIndex list = make_node(NodeKind::List, open, children_since(base));
  scratch_.resize(base);
  return list;
}

// '{' dict | set | dictcomp | setcomp. When the display does not parse, pegen's dict rule
// tries `'{' invalid_double_starred_kvpairs '}'` -- an alternative it does not guard, so its
// messages come already in the first pass.
NodeIndex Parser::braced() {
  LevelGuard guard(*this, 2);
  const Mark open = mark();
  try {
    return braced_display();
  } catch (const SyntaxFailure&) {
    invalid_dictionary(open);
    throw;
  }
}

NodeIndex Parser::braced_display() {
  const Token open = consume();
  if (accept(Op::RightBrace)) return make_node(NodeKind::Dict, open, {});
  const std::size_t base = scratch_.size();
  if (!at(Op::DoubleStar)) {
    const NodeIndex first = star_named_expression();
    const NodeKind kind = node(first).kind;
    const bool plain = kind != NodeKind::Starred &&
                       (kind != NodeKind::NamedExpr || node(first).parenthesized);
    if (!(plain && at(Op::Colon))) {
      // A set or a set comprehension (not looked for after a starred element).
      if ((kind != NodeKind::Starred || second_pass_) && at_comprehension()) {
        if (kind != NodeKind::Starred) {
          const int clauses = comprehension_clauses();
          expect(Op::RightBrace);
          return make_node(NodeKind::SetComp, open, {&first, 1}, 0, clauses);
        }
        if (second_pass_) invalid_comprehension_check(first);
      }
      scratch_.push_back(first);
      while (accept(Op::Comma)) {
        if (at(Op::RightBrace)) break;
        if (second_pass_ && at_comprehension()) invalid_comprehension_target(base);
        const NodeIndex element = star_named_expression();
        scratch_.push_back(element);
        if (second_pass_ && at_comprehension()) invalid_comprehension_target(base);
      }
      expect(Op::RightBrace);
      const NodeIndex set = make_node(NodeKind::Set, open, children_since(base));
      scratch_.resize(base);
      return set;
    }
    consume();
    const NodeIndex value = expression();
    if (scratch_.size() == base && at_comprehension()) {
      const NodeIndex pair[2] = {first, value};
      const int clauses = comprehension_clauses();
      expect(Op::RightBrace);
      return make_node(NodeKind::DictComp, open, pair, 0, clauses);
    }
    scratch_.push_back(first);
    scratch_.push_back(value);
    if (!accept(Op::Comma)) {
      expect(Op::RightBrace);
      const NodeIndex dict = make_node(NodeKind::Dict, open, children_since(base));
      scratch_.resize(base);
      return dict;
    }
  }
  // double_starred_kvpairs
  while (!at(Op::RightBrace)) {
    if (at(Op::DoubleStar)) {
      const Token stars = consume();
      const NodeIndex value = bitwise_or();
      // Only invalid_dict_comprehension (second pass) looks for `for` after `{**x`.
      if (scratch_.size() == base && second_pass_ && at_comprehension()) {
        if (second_pass_) {
          try {
            comprehension_clauses();
            if (at(Op::RightBrace)) {
              raise_at_token("dict unpacking cannot be used in dict comprehension", stars);
            }
          } catch (const SyntaxFailure&) {
          }
        }
        fail();
      }
      scratch_.push_back(kNoNode);
      scratch_.push_back(value);
    } else {
      const NodeIndex key = expression();
      expect(Op::Colon);
      const NodeIndex value = expression();
      scratch_.push_back(key);
      scratch_.push_back(value);
    }
    if (!accept(Op::Comma)) break;
  }
  expect(Op::RightBrace);
  const NodeIndex dict = make_node(NodeKind::Dict, open, children_since(base));
  scratch_.resize(base);
  return dict;
}

}  // namespace weightspace::python
