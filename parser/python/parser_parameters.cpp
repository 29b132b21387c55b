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
  // invalid_star_etc reports a second '*' only when a parameter without default (followed by
  // ',' or the closing token) or a ',' comes after it: `*a, *b` but not `*a, *b=1` or `*a, *`.
  const auto parameter_after_star = [&] {
    const Mark start = mark();
    bool found = false;
    try {
      consume();
      if (at(Op::Comma)) {
        found = true;
      } else {
        expect_name();
        if (!lambda && accept(Op::Colon)) expression();
        found = at(Op::Comma) || at(closing);
      }
    } catch (const SyntaxFailure&) {
    }
    reset(start);
    return found;
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
      // invalid_parameters' `"/" ','`: without the comma `(/)` is plain invalid syntax. Only
      // the second pass looks past the '/': the first pass's furthest token places the error.
      if (positional == 0) {
        if (second_pass_ && peek(1).op() == Op::Comma) {
          message("at least one argument must precede /", token);
        }
        fail();
      }
      consume();
      seen_slash = true;
      // invalid_parameters' `param_maybe_default+ '/' '*'`: `def f(a, /*)`
      if (at(Op::Star)) message("expected comma between / and *", next_token());
    } else if (token.op() == Op::Star) {
      if (seen_star) {
        if (parameter_after_star()) message("* argument may appear only once", token);
        fail();
      }
      consume();
      seen_star = true;
      if (at(Op::Comma) || at(closing)) {
        if (at(closing) || peek(1).op() == closing || peek(1).op() == Op::DoubleStar) {
          // invalid_star_etc places this at the '*'; invalid_lambda_star_etc raises it without
          // a place, so at the last token read (the ':' or the '**').
          if (second_pass_ && lambda) raise_at_last_token("named arguments must follow bare *");
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
    } else if (token.op() == Op::LeftParen && second_pass_ && !seen_default && !seen_slash && !seen_star) {
      // invalid_parameters' `param_no_default* '(' ...`: only plain parameters come before.
      parenthesized_parameters(lambda, token);
      fail();
    } else {
      expect_name();
      int argument = 1;
      if (!lambda && accept(Op::Colon)) argument = 1 + depth(expression());
      deepest = std::max(deepest, argument);
      if (at(Op::Equal)) {
        const Token equal = consume();
        // invalid_default is `'=' &(')'|',')` for lambdas too: `lambda a=: 0` is plain invalid syntax.
        if (at(Op::Comma) || at(Op::RightParen)) message("expected default value expression", equal);
        deepest = std::max(deepest, depth(expression()));
        if (!seen_star) seen_default = true;
      } else if (seen_default && !seen_star) {
        // param_no_default: the parameter must end at ',' or the closing token.
        if (at(Op::Comma) || at(closing)) message("non-default argument follows default argument", token);
        fail();
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
    // def: param_no_default+ (annotations allowed); lambda: ','.lambda_param+
    const auto parameter = [&] {
      expect_name();
      if (!lambda && accept(Op::Colon)) expression();
    };
    parameter();
    while (accept(Op::Comma)) {
      if (at(Op::RightParen)) break;
      parameter();
    }
    expect(Op::RightParen);
    raise_at_token(lambda ? "Lambda expression parameters cannot be parenthesized"
                          : "Function parameters cannot be parenthesized",
                   open);
  } catch (const SyntaxFailure&) {
  }
  reset(start);
}

NodeIndex Parser::lambda_expression() {
  LevelGuard guard(*this, 1);
  const Token keyword = consume();
  int arguments = 1;  // an empty arguments object still counts
  if (!at(Op::Colon)) arguments = parameters(true);
  expect(Op::Colon);
  const NodeIndex body = expression();
  return make_node(NodeKind::Lambda, keyword, {&body, 1}, 0, arguments);
}

}  // namespace weightspace::python
