// SPDX-License-Identifier: GPL-3.0-or-later
// def and lambda parameter lists (python.gram "Function parameters", "Lambda functions"), as
// one left-to-right pass over the same ordering rules, with the invalid_parameters messages.
#include <algorithm>

#include "parser/python/parser.hpp"

namespace weightspace::python {

// Returns the depth of the ast `arguments` object. Stops before ')' (def) or ':' (lambda).
int Parser::parameters(bool lambda) {
  LevelGuard guard(*this, 3);
  const Op closing = lambda ? Op::Colon : Op::RightParen;
  bool seen_default = false;  // a positional parameter with a default value
  bool seen_slash = false;
  bool seen_star = false;
  bool bare_star_pending = false;  // `*,` must be followed by a named parameter
  bool seen_double_star = false;
  int positional = 0;
  int deepest = 0;
  const auto message = [&](const std::string& text, const Token& where) {
    if (second_pass_) raise_at_token(text, where);
    fail();
  };
  for (;;) {
    const Token token = next_token();
    if (seen_double_star) {
      if (token.op() == Op::Star || token.op() == Op::DoubleStar || token.op() == Op::Slash ||
          token.kind == TokenKind::Name) {
        message("arguments cannot follow var-keyword argument", token);
      }
      fail();
    }
    if (token.op() == Op::Slash) {
      if (seen_star) message("/ must be ahead of *", token);
      if (seen_slash) message("/ may appear only once", token);
      if (positional == 0) message("at least one argument must precede /", token);
      consume();
      seen_slash = true;
    } else if (token.op() == Op::Star) {
      if (seen_star) message("* argument may appear only once", token);
      consume();
      seen_star = true;
      if (at(Op::Comma) || at(closing)) {
        if (at(closing) || peek(1).op() == closing || peek(1).op() == Op::DoubleStar) {
          message("named arguments must follow bare *", token);
        }
        bare_star_pending = true;
      } else {
        const Token name = expect_name();
        int argument = 1;
        if (!lambda && accept(Op::Colon)) {
          argument = 1 + depth(at(Op::Star) ? star_expression() : expression());
        }
        if (at(Op::Equal)) message("var-positional argument cannot have default value", next_token());
        (void)name;
        deepest = std::max(deepest, argument);
      }
    } else if (token.op() == Op::DoubleStar) {
      consume();
      expect_name();
      int argument = 1;
      if (!lambda && accept(Op::Colon)) argument = 1 + depth(expression());
      if (at(Op::Equal)) message("var-keyword argument cannot have default value", next_token());
      deepest = std::max(deepest, argument);
      seen_double_star = true;
    } else if (token.op() == Op::LeftParen && second_pass_) {
      parenthesized_parameters(lambda, token);
      fail();
    } else {
      expect_name();
      int argument = 1;
      if (!lambda && accept(Op::Colon)) argument = 1 + depth(expression());
      deepest = std::max(deepest, argument);
      if (at(Op::Equal)) {
        const Token equal = consume();
        if (at(Op::Comma) || at(closing)) message("expected default value expression", equal);
        deepest = std::max(deepest, depth(expression()));
        if (!seen_star) seen_default = true;
      } else if (seen_default && !seen_star) {
        message("non-default argument follows default argument", token);
      }
      if (!seen_star) ++positional;
      bare_star_pending = false;
    }
    if (!accept(Op::Comma)) break;
    if (at(closing)) break;
  }
  if (bare_star_pending || !at(closing)) fail();
  return 1 + deepest;
}

// invalid_parameters: `def f((a, b)):` / `lambda (x): 0`
void Parser::parenthesized_parameters(bool lambda, const Token& open) {
  const Mark start = mark();
  try {
    consume();
    expect_name();
    while (accept(Op::Comma)) {
      if (at(Op::RightParen)) break;
      expect_name();
    }
    expect(Op::RightParen);
    raise_at_token(lambda ? "Lambda expression parameters cannot be parenthesized"
                          : "Function parameters cannot be parenthesized",
                   open);
  } catch (const SyntaxFailure&) {
  }
  reset(start);
}

}  // namespace weightspace::python
