// SPDX-License-Identifier: GPL-3.0-or-later
// Compound statements (Grammar/python.gram, "COMPOUND STATEMENTS") with the second-pass
// messages of their invalid_* rules: "expected ':'" and the IndentationError for a missing
// indented block.
#include <algorithm>

#include "parser/python/parser.hpp"

namespace weightspace::python {

int Parser::compound_statement() {
  LevelGuard guard(*this, 2);
  const Token token = next_token();
  if (token.op() == Op::At) return decorated();
  switch (token.keyword()) {
    case Keyword::Def: return function_definition(false);
    case Keyword::If: {
      const Token keyword = token;
      return if_statement(keyword, "'if' statement");
    }
    case Keyword::Class: return class_definition();
    case Keyword::With: return with_statement(false);
    case Keyword::For: return for_statement(false);
    case Keyword::Try: return try_statement();
    case Keyword::While: return while_statement();
    case Keyword::Async: {
      const Keyword following = peek(1).keyword();
      if (following == Keyword::Def) return function_definition(true);
      if (following == Keyword::With) return with_statement(true);
      if (following == Keyword::For) return for_statement(true);
      consume();
      fail();
    }
    default: fail();
  }
}

// block: NEWLINE INDENT statements DEDENT | simple_stmts. `keyword` and `what` word the
// IndentationError of the statement's invalid_*_stmt rule.
int Parser::block(const Token& keyword, const char* what) {
  LevelGuard guard(*this, 1);
  if (next_token().kind != TokenKind::Newline) return simple_statements(false);
  consume();
  if (next_token().kind != TokenKind::Indent) {
    if (second_pass_) {
      raise_at_last_token(std::string("expected an indented block after ") + what + " on line " +
                              std::to_string(keyword.line + line_offset_),
                          "IndentationError");
    }
    fail();
  }
  consume();
  int deepest = 0;
  do {
    deepest = std::max(deepest, statement(false));
  } while (next_token().kind != TokenKind::Dedent);
  consume();
  return deepest;
}

// The ':' after a header; in the second pass a NEWLINE there is "expected ':'".
void Parser::header_colon() {
  if (accept(Op::Colon)) return;
  if (second_pass_ && next_token().kind == TokenKind::Newline) {
    raise_at_last_token("expected ':'");
  }
  fail();
}

int Parser::if_statement(const Token& keyword, const char* what) {
  LevelGuard guard(*this, 2);
  consume();
  const int test = depth(named_expression());
  header_colon();
  int deepest = std::max(test, block(keyword, what));
  if (at(Keyword::Elif)) {
    const Token elif = next_token();
    deepest = std::max(deepest, if_statement(elif, "'elif' statement"));
  } else if (at(Keyword::Else)) {
    deepest = std::max(deepest, else_block());
  }
  return 1 + deepest;
}

int Parser::else_block() {
  LevelGuard guard(*this, 1);
  const Token keyword = consume();
  if (second_pass_ && at(Op::Colon) && peek(1).kind == TokenKind::Newline &&
      peek(2).kind != TokenKind::Indent) {
    consume();
    consume();
    raise_at_last_token("expected an indented block after 'else' statement on line " +
                            std::to_string(keyword.line + line_offset_),
                        "IndentationError");
  }
  expect_forced(Op::Colon, ":");
  return block(keyword, "'else' statement");
}

int Parser::while_statement() {
  LevelGuard guard(*this, 2);
  const Token keyword = consume();
  const int test = depth(named_expression());
  header_colon();
  int deepest = std::max(test, block(keyword, "'while' statement"));
  if (at(Keyword::Else)) deepest = std::max(deepest, else_block());
  return 1 + deepest;
}

int Parser::for_statement(bool async) {
  LevelGuard guard(*this, 2);
  const Mark start = mark();
  if (async) consume();
  const Token keyword = consume();
  int deepest = 0;
  try {
    deepest = depth(star_targets());
    expect(Keyword::In);
  } catch (const SyntaxFailure&) {
    if (second_pass_) {
      // invalid_for_target: the target, read as an expression, holds something unassignable.
      reset(start);
      if (async) consume();
      consume();
      try {
        raise_invalid_target(star_expressions(), Targets::For);
      } catch (const SyntaxFailure&) {
      }
    }
    throw;
  }
  deepest = std::max(deepest, depth(star_expressions()));
  header_colon();
  deepest = std::max(deepest, block(keyword, "'for' statement"));
  if (at(Keyword::Else)) deepest = std::max(deepest, else_block());
  return 1 + deepest;
}

int Parser::with_statement(bool async) {
  LevelGuard guard(*this, 2);
  const Mark start = mark();
  try {
    return with_statement_body(async);
  } catch (const SyntaxFailure&) {
    if (second_pass_) invalid_with_statement(start, async);
    throw;
  }
}

// invalid_with_stmt: the items (targets unchecked) and then NEWLINE instead of ':'.
void Parser::invalid_with_statement(const Mark& start, bool async) {
  const auto items_then_newline = [&](bool parenthesized) {
    reset(start);
    if (async) consume();
    consume();
    if (parenthesized) expect(Op::LeftParen);
    for (;;) {
      expression();
      // `expressions` inside the parentheses: more expressions after commas (a trailing comma
      // is taken too), but no starred item.
      while (parenthesized && accept(Op::Comma)) {
        const Mark item = mark();
        try {
          expression();
        } catch (const SyntaxFailure&) {
          reset(item);
          break;
        }
      }
      if (accept(Keyword::As)) star_target();
      if (!accept(Op::Comma)) break;
      if (parenthesized && at(Op::RightParen)) break;
    }
    if (parenthesized) expect(Op::RightParen);
    if (next_token().kind == TokenKind::Newline) raise_at_last_token("expected ':'");
  };
  for (const bool parenthesized : {false, true}) {
    try {
      items_then_newline(parenthesized);
    } catch (const SyntaxFailure&) {
    }
  }
  reset(start);
}

int Parser::with_statement_body(bool async) {
  if (async) consume();
  const Token keyword = consume();
  int items = 0;
  if (at(Op::LeftParen)) {
    // 'with' '(' ','.with_item+ ','? ')' ':' first; else the items without parentheses.
    const Mark parenthesized = mark();
    try {
      consume();
      items = with_items(true);
      expect(Op::RightParen);
      if (!at(Op::Colon)) fail();
    } catch (const SyntaxFailure&) {
      reset(parenthesized);
      items = 0;
    }
  }
  if (items == 0) items = with_items(false);
  header_colon();
  return 1 + std::max(items, block(keyword, "'with' statement"));
}

// ','.with_item+ (with a trailing ',' allowed inside parentheses); returns the deepest item.
int Parser::with_items(bool parenthesized) {
  int deepest = 0;
  for (;;) {
    const NodeIndex context = expression();
    int item = depth(context);
    if (accept(Keyword::As)) {
      const Mark target_start = mark();
      NodeIndex target = kNoNode;
      try {
        target = star_target();
        const Op follower = next_token().op();
        if (follower != Op::Comma && follower != Op::RightParen && follower != Op::Colon) fail();
      } catch (const SyntaxFailure&) {
        if (second_pass_) {
          reset(target_start);
          try {
            const NodeIndex bad = expression();
            const Op follower = next_token().op();
            if (follower == Op::Comma || follower == Op::RightParen || follower == Op::Colon) {
              raise_invalid_target(bad, Targets::Star);
            }
          } catch (const SyntaxFailure&) {
          }
        }
        throw;
      }
      item = std::max(item, depth(target));
    }
    deepest = std::max(deepest, item + 1);
    if (!accept(Op::Comma)) break;
    if (parenthesized && at(Op::RightParen)) break;
  }
  return deepest;
}

int Parser::try_statement() {
  LevelGuard guard(*this, 2);
  const Token keyword = consume();
  if (second_pass_ && at(Op::Colon) && peek(1).kind == TokenKind::Newline &&
      peek(2).kind != TokenKind::Indent) {
    consume();
    consume();
    raise_at_last_token("expected an indented block after 'try' statement on line " +
                            std::to_string(keyword.line + line_offset_),
                        "IndentationError");
  }
  expect_forced(Op::Colon, ":");
  if (second_pass_ && at(Keyword::Except)) {
    // invalid_try_stmt's `'try' ':' block* except_block+ ...` with no block at all: the
    // clauses' own errors (`try: except` is "expected ':'") come from there.
    const Mark after_colon = mark();
    try {
      while (at(Keyword::Except)) except_clause(peek(1).op() == Op::Star);
    } catch (const SyntaxFailure&) {
    }
    reset(after_colon);
  }
  int deepest = block(keyword, "'try' statement");
  if (at(Keyword::Finally)) return 1 + std::max(deepest, finally_block());
  if (!at(Keyword::Except)) {
    if (second_pass_) raise_at_last_token("expected 'except' or 'finally' block");
    fail();
  }
  const bool star_group = peek(1).op() == Op::Star;
  while (at(Keyword::Except)) {
    const bool star = peek(1).op() == Op::Star;
    if (star != star_group) {
      if (second_pass_) mixed_except(star);
      fail();
    }
    deepest = std::max(deepest, except_clause(star));
  }
  if (at(Keyword::Else)) deepest = std::max(deepest, else_block());
  if (at(Keyword::Finally)) deepest = std::max(deepest, finally_block());
  return 1 + deepest;
}

// invalid_try_stmt: `except` and `except*` on one try, if the clause is otherwise complete.
void Parser::mixed_except(bool star) {
  const Mark start = mark();
  const Token except = consume();
  try {
    if (star) {
      const Token asterisk = consume();
      expression();
      if (accept(Keyword::As)) expect_name();
      expect(Op::Colon);
      (void)asterisk;
      raise_at_token("cannot have both 'except' and 'except*' on the same 'try'", except);
    }
    if (!at(Op::Colon)) {
      expression();
      if (accept(Keyword::As)) expect_name();
    }
    expect(Op::Colon);
    raise_at_token("cannot have both 'except' and 'except*' on the same 'try'", except);
  } catch (const SyntaxFailure&) {
  }
  reset(start);
}

int Parser::except_clause(bool star) {
  LevelGuard guard(*this, 1);
  const Token keyword = consume();
  const char* what = star ? "'except*' statement" : "'except' statement";
  if (star) {
    consume();
    if (at(Op::Colon) || next_token().kind == TokenKind::Newline) {
      if (second_pass_) raise_at_last_token("expected one or more exception types");
      fail();
    }
  }
  int deepest = 0;
  // invalid_except_stmt: `a='except' NEWLINE`
  if (!star && second_pass_ && next_token().kind == TokenKind::Newline) {
    raise_at_last_token("expected ':'");
  }
  if (star || !at(Op::Colon)) {
    const NodeIndex type = expression();
    deepest = depth(type);
    if (second_pass_ && at(Op::Comma)) {
      const Mark after_type = mark();
      try {
        consume();
        expression();
        while (accept(Op::Comma) && can_start_expression(false)) expression();
        if (accept(Keyword::As)) expect_name();
        expect(Op::Colon);
        raise_at_node("multiple exception types must be parenthesized", type);
      } catch (const SyntaxFailure&) {
      }
      reset(after_type);
    }
    if (accept(Keyword::As)) expect_name();
  }
  header_colon();
  return 1 + std::max(deepest, block(keyword, what));
}

int Parser::finally_block() {
  LevelGuard guard(*this, 1);
  const Token keyword = consume();
  if (second_pass_ && at(Op::Colon) && peek(1).kind == TokenKind::Newline &&
      peek(2).kind != TokenKind::Indent) {
    consume();
    consume();
    raise_at_last_token("expected an indented block after 'finally' statement on line " +
                            std::to_string(keyword.line + line_offset_),
                        "IndentationError");
  }
  expect_forced(Op::Colon, ":");
  return block(keyword, "'finally' statement");
}

int Parser::decorated() {
  LevelGuard guard(*this, 2);
  int deepest = 0;
  while (accept(Op::At)) {
    deepest = std::max(deepest, depth(named_expression()));
    if (next_token().kind != TokenKind::Newline) fail();
    consume();
  }
  if (at(Keyword::Class)) return std::max(deepest + 1, class_definition());
  if (at(Keyword::Def)) return std::max(deepest + 1, function_definition(false));
  if (at(Keyword::Async) && peek(1).keyword() == Keyword::Def) {
    return std::max(deepest + 1, function_definition(true));
  }
  fail();
}

int Parser::function_definition(bool async) {
  LevelGuard guard(*this, 2);
  if (async) consume();
  const Token keyword = consume();
  expect_name();
  expect_forced(Op::LeftParen, "(");
  int deepest = 1;  // the arguments object
  if (!at(Op::RightParen)) deepest = parameters(false);
  expect(Op::RightParen);
  if (at(Op::RightArrow)) {
    // ['->' expression] is optional: when no expression follows, the forced ':' is expected at '->'.
    const Mark arrow = mark();
    try {
      consume();
      deepest = std::max(deepest, depth(expression()));
    } catch (const SyntaxFailure&) {
      reset(arrow);
      if (!error_pass_) annotation_prefix(arrow);
    }
  }
  expect_forced(Op::Colon, ":");
  return 1 + std::max(deepest, block(keyword, "function definition"));
}

// pegen's left recursion and repetition give back a trailing operator whose operand does not
// parse, in the first pass too: `def f() -> int+:` has an annotation `int`, and the forced ':'
// is then expected at the '+'. The first pass otherwise needs no give-back (its failures are
// placed at the furthest token), so only here, before a forced token, it parses again with it.
void Parser::annotation_prefix(const Mark& arrow) {
  const bool saved = error_pass_;
  error_pass_ = true;
  try {
    consume();
    expression();
  } catch (const SyntaxFailure&) {
    reset(arrow);
  } catch (...) {
    error_pass_ = saved;
    throw;
  }
  error_pass_ = saved;
}

int Parser::class_definition() {
  LevelGuard guard(*this, 2);
  const Token keyword = consume();
  expect_name();
  int deepest = 0;
  if (accept(Op::LeftParen)) {
    if (!at(Op::RightParen)) deepest = arguments_depth();
    expect(Op::RightParen);
  }
  header_colon();
  return 1 + std::max(deepest, block(keyword, "class definition"));
}

}  // namespace weightspace::python
