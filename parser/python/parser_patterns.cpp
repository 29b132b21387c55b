// SPDX-License-Identifier: GPL-3.0-or-later
// The match statement (python.gram "Match statement"). `match` is a soft keyword: the
// statement is tried first and, if it does not parse, the line is read as a simple statement.
// Patterns only matter for validity and ast depth, so they return depths, not nodes.
#include <algorithm>

#include "parser/python/parser.hpp"

namespace weightspace::python {

bool Parser::try_match_statement(int& statement_depth) {
  const Mark start = mark();
  try {
    statement_depth = match_statement();
    return true;
  } catch (const SyntaxFailure&) {
    reset(start);
  }
  if (second_pass_) invalid_match_statement(start);
  return false;
}

int Parser::match_statement() {
  LevelGuard guard(*this, 2);
  const Token keyword = consume();
  // subject_expr: star_named_expression ',' star_named_expressions? | named_expression
  const Token first = next_token();
  int deepest = 0;
  const NodeIndex head = star_named_expression();
  if (at(Op::Comma)) {
    const std::size_t base = scratch_.size();
    scratch_.push_back(head);
    while (accept(Op::Comma)) {
      if (!can_start_expression(true)) break;
      const NodeIndex element = star_named_expression();
      scratch_.push_back(element);
    }
    deepest = depth(make_node(NodeKind::Tuple, first, children_since(base)));
    scratch_.resize(base);
  } else {
    if (node(head).kind == NodeKind::Starred) fail();
    deepest = depth(head);
  }
  expect(Op::Colon);
  if (next_token().kind != TokenKind::Newline) fail();
  consume();
  if (next_token().kind != TokenKind::Indent) fail();
  consume();
  do {
    deepest = std::max(deepest, case_block());
  } while (next_token().kind != TokenKind::Dedent);
  consume();
  (void)keyword;
  return 1 + deepest;
}

void Parser::invalid_match_statement(const Mark& start) {
  const Token keyword = consume();
  try {
    // subject_expr as in match_statement: a lone starred subject is no subject, and the
    // tokens after it are never read (they would move the place of the syntax error).
    const NodeIndex subject = star_named_expression();
    const bool tuple = at(Op::Comma);
    while (accept(Op::Comma)) {
      if (!can_start_expression(true)) break;
      star_named_expression();
    }
    if (!tuple && node(subject).kind == NodeKind::Starred) fail();
    if (next_token().kind == TokenKind::Newline) raise_at_last_token("expected ':'");
    if (accept(Op::Colon) && next_token().kind == TokenKind::Newline) {
      consume();
      if (next_token().kind != TokenKind::Indent) {
        raise_at_last_token("expected an indented block after 'match' statement on line " +
                                std::to_string(keyword.line + line_offset_),
                            "IndentationError");
      }
    }
  } catch (const SyntaxFailure&) {
  }
  reset(start);
}

int Parser::case_block() {
  LevelGuard guard(*this, 2);
  const Token keyword_token = next_token();
  if (keyword_token.keyword() != Keyword::SoftCase) fail();
  const Token keyword = consume();
  int deepest = patterns();
  if (accept(Keyword::If)) deepest = std::max(deepest, depth(named_expression()));
  header_colon();
  return 1 + std::max(deepest, block(keyword, "'case' statement"));
}

// patterns: open_sequence_pattern | pattern
int Parser::patterns() {
  const bool starred = at(Op::Star);
  int deepest = maybe_star_pattern();
  if (!at(Op::Comma)) {
    if (starred) fail();
    return deepest;
  }
  while (accept(Op::Comma)) {
    if (at(Op::Colon) || at(Keyword::If)) break;
    deepest = std::max(deepest, maybe_star_pattern());
  }
  return 1 + deepest;
}

int Parser::maybe_star_pattern() {
  if (!at(Op::Star)) return pattern();
  consume();
  expect_name();  // a capture target or `_`
  return 1;
}

// pattern: or_pattern ['as' pattern_capture_target]
int Parser::pattern() {
  LevelGuard guard(*this, 2);
  const int alternatives = or_pattern();
  if (!accept(Keyword::As)) return alternatives;
  const Token target = next_token();
  if (target.keyword() == Keyword::SoftUnderscore) {
    if (second_pass_) raise_at_token("cannot use '_' as a target", target);
    fail();
  }
  if (target.kind != TokenKind::Name || (target.keyword() != Keyword::None &&
                                         target.keyword() < Keyword::SoftMatch)) {
    if (second_pass_) {
      const Mark before = mark();
      try {
        const NodeIndex bad = expression();
        raise_at_node("invalid pattern target", bad);
      } catch (const SyntaxFailure&) {
      }
      reset(before);
    }
    fail();
  }
  consume();
  const Op follower = next_token().op();
  if (follower == Op::Dot || follower == Op::LeftParen || follower == Op::Equal) fail();
  return 1 + alternatives;
}

int Parser::or_pattern() {
  int deepest = closed_pattern();
  int count = 1;
  while (accept(Op::VerticalBar)) {
    deepest = std::max(deepest, closed_pattern());
    ++count;
  }
  return count == 1 ? deepest : 1 + deepest;
}

int Parser::closed_pattern() {
  LevelGuard guard(*this, 2);
  const Token token = next_token();
  switch (token.kind) {
    case TokenKind::Number: return signed_number_pattern();
    case TokenKind::String: return 1 + depth(strings());
    case TokenKind::Name:
      switch (token.keyword()) {
        case Keyword::NoneValue:
        case Keyword::True:
        case Keyword::False: consume(); return 1;
        case Keyword::None:
        case Keyword::SoftMatch:
        case Keyword::SoftCase:
        case Keyword::SoftUnderscore: return name_pattern();
        default: fail();
      }
    case TokenKind::Operator:
      switch (token.op()) {
        case Op::Minus: return signed_number_pattern();
        case Op::LeftParen: return group_or_sequence_pattern();
        case Op::LeftBracket: {
          consume();
          int deepest = 0;
          while (!at(Op::RightBracket)) {
            deepest = std::max(deepest, maybe_star_pattern());
            if (!accept(Op::Comma)) break;
          }
          expect(Op::RightBracket);
          return 1 + deepest;
        }
        case Op::LeftBrace: return mapping_pattern();
        default: fail();
      }
    default: fail();
  }
}

// literal_pattern: signed_number !('+' | '-') | complex_number
int Parser::signed_number_pattern() {
  accept(Op::Minus);
  if (next_token().kind != TokenKind::Number) fail();
  const Token number_token = consume();
  if (!at(Op::Plus) && !at(Op::Minus)) return 2;
  ensure_number(number_token, false);
  consume();
  if (next_token().kind != TokenKind::Number) fail();
  ensure_number(consume(), true);
  return 3;
}

// _PyPegen_ensure_real / _PyPegen_ensure_imaginary
void Parser::ensure_number(const Token& token, bool imaginary) {
  const std::string_view text = source_.substr(token.start, token.end - token.start);
  const bool is_imaginary = text.back() == 'j' || text.back() == 'J';
  if (is_imaginary == imaginary) return;
  raise_at_token(imaginary ? "imaginary number required in complex literal"
                           : "real number required in complex literal",
                 token);
}

// capture, wildcard, value and class patterns
int Parser::name_pattern() {
  const Token first = consume();
  bool dotted = false;
  while (accept(Op::Dot)) {
    expect_name();
    dotted = true;
  }
  if (at(Op::LeftParen)) return class_pattern_arguments();
  const Op follower = next_token().op();
  if (follower == Op::Equal) fail();
  (void)first;
  return dotted ? 3 : 1;
}

int Parser::class_pattern_arguments() {
  consume();
  int deepest = 0;
  bool seen_keyword = false;
  while (!at(Op::RightParen)) {
    if (next_token().kind == TokenKind::Name && peek(1).op() == Op::Equal) {
      consume();
      consume();
      seen_keyword = true;
    } else if (seen_keyword) {
      if (second_pass_) {
        const Token where = next_token();
        try {
          pattern();
          raise_at_token("positional patterns follow keyword patterns", where);
        } catch (const SyntaxFailure&) {
        }
      }
      fail();
    }
    deepest = std::max(deepest, pattern());
    if (!accept(Op::Comma)) break;
  }
  expect(Op::RightParen);
  return 2 + deepest;
}

// group_pattern: '(' pattern ')' | sequence_pattern: '(' open_sequence_pattern? ')'
int Parser::group_or_sequence_pattern() {
  consume();
  if (accept(Op::RightParen)) return 1;
  const bool starred = at(Op::Star);
  int deepest = maybe_star_pattern();
  if (accept(Op::RightParen)) {
    if (starred) fail();
    return deepest;
  }
  expect(Op::Comma);
  while (!at(Op::RightParen)) {
    deepest = std::max(deepest, maybe_star_pattern());
    if (!accept(Op::Comma)) break;
  }
  expect(Op::RightParen);
  return 1 + deepest;
}

int Parser::mapping_pattern() {
  consume();
  int deepest = 0;
  while (!at(Op::RightBrace)) {
    if (accept(Op::DoubleStar)) {
      expect_name();
      accept(Op::Comma);
      break;
    }
    // key: literal_expr | attr
    const Token key = next_token();
    if (key.kind == TokenKind::String) {
      strings();
    } else if (key.kind == TokenKind::Number || key.op() == Op::Minus) {
      signed_number_pattern();
    } else if (key.keyword() == Keyword::NoneValue || key.keyword() == Keyword::True ||
               key.keyword() == Keyword::False) {
      consume();
    } else {
      expect_name();
      expect(Op::Dot);
      expect_name();
      while (accept(Op::Dot)) expect_name();
    }
    expect(Op::Colon);
    deepest = std::max(deepest, pattern());
    if (!accept(Op::Comma)) break;
  }
  expect(Op::RightBrace);
  return 2 + deepest;
}

}  // namespace weightspace::python
