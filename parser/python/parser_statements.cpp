// SPDX-License-Identifier: GPL-3.0-or-later
// Simple statements (Grammar/python.gram, "SIMPLE STATEMENTS"). Assignment targets are parsed
// as expressions and checked afterwards, which accepts the same statements as pegen's
// separate target rules and fails at the same token.
#include <algorithm>

#include "parser/python/parser.hpp"

namespace weightspace::python {
namespace {

std::optional<BinaryOperator> augmented_operator(Op op) {
  switch (op) {
    case Op::PlusEqual: return BinaryOperator::Add;
    case Op::MinusEqual: return BinaryOperator::Sub;
    case Op::StarEqual: return BinaryOperator::Mult;
    case Op::AtEqual: return BinaryOperator::MatMult;
    case Op::SlashEqual: return BinaryOperator::Div;
    case Op::PercentEqual: return BinaryOperator::Mod;
    case Op::AmpersandEqual: return BinaryOperator::BitAnd;
    case Op::VerticalBarEqual: return BinaryOperator::BitOr;
    case Op::CircumflexEqual: return BinaryOperator::BitXor;
    case Op::LeftShiftEqual: return BinaryOperator::LShift;
    case Op::RightShiftEqual: return BinaryOperator::RShift;
    case Op::DoubleStarEqual: return BinaryOperator::Pow;
    case Op::DoubleSlashEqual: return BinaryOperator::FloorDiv;
    default: return std::nullopt;
  }
}

}  // namespace

int Parser::statement(bool top_level) {
  LevelGuard guard(*this, second_pass_ ? 6 : 4);  // file, statements, loop, statement
  if (top_level) tree_.clear();
  const Token token = next_token();
  if (token.kind == TokenKind::Operator && token.op() == Op::At) return compound_top_level(top_level);
  switch (token.keyword()) {
    case Keyword::Def:
    case Keyword::If:
    case Keyword::Class:
    case Keyword::With:
    case Keyword::For:
    case Keyword::Try:
    case Keyword::While:
    case Keyword::Async:
      return compound_top_level(top_level);
    case Keyword::SoftMatch: {
      int depth = 0;
      if (try_match_statement(depth)) {
        report_other(top_level, token);
        return depth;
      }
      break;
    }
    default:
      break;
  }
  return simple_statements(top_level);
}

// A compound statement is one "edits may contain only assignments" statement.
int Parser::compound_top_level(bool top_level) {
  const Token first = next_token();
  const int statement_depth = compound_statement();
  report_other(top_level, first);
  return statement_depth;
}

void Parser::report_other(bool top_level, const Token& first) {
  if (!top_level || on_statement_ == nullptr) return;
  ParsedStatement parsed;
  parsed.line = first.line;
  parsed.column = first.column;
  parsed.begin = first.start;
  (*on_statement_)(tree_, parsed);
}

int Parser::simple_statements(bool top_level) {
  LevelGuard guard(*this, 1);
  int deepest = simple_statement(top_level);
  while (accept(Op::Semicolon)) {
    if (next_token().kind == TokenKind::Newline) break;
    if (top_level) tree_.clear();
    deepest = std::max(deepest, simple_statement(top_level));
  }
  if (next_token().kind != TokenKind::Newline) fail();
  consume();
  return deepest;
}

int Parser::simple_statement(bool top_level) {
  LevelGuard guard(*this, 1);
  const Token first = next_token();
  ParsedStatement parsed;
  parsed.line = first.line;
  parsed.column = first.column;
  parsed.begin = first.start;
  int statement_depth = 1;
  switch (first.keyword()) {
    case Keyword::Return: statement_depth = return_statement(); break;
    case Keyword::Import:
    case Keyword::From: statement_depth = import_statement(); break;
    case Keyword::Raise: statement_depth = raise_statement(); break;
    case Keyword::Pass:
    case Keyword::Break:
    case Keyword::Continue: consume(); break;
    case Keyword::Del: statement_depth = del_statement(); break;
    case Keyword::Yield: {
      const NodeIndex value = yield_expression();
      if (second_pass_ && at(Op::Equal)) {
        raise_at_node("assignment to yield expression not possible", value);
      }
      statement_depth = 1 + depth(value);
      break;
    }
    case Keyword::Assert: statement_depth = assert_statement(); break;
    case Keyword::Global:
    case Keyword::Nonlocal: statement_depth = global_statement(); break;
    default: statement_depth = expression_statement(parsed); break;
  }
  if (top_level && on_statement_ != nullptr) (*on_statement_)(tree_, parsed);
  return statement_depth;
}

// Levels pegen saves on a primary parsed through the target rules (measured on 3.11.2 with
// 5900+ unary minuses inside its brackets or call arguments).
constexpr int kShallowStatementStart = 19;
constexpr int kShallowAssignedValue = 18;

// pegen tries invalid_assignment whenever the assignment alternatives fail, also when they
// fail part way (`x = _, =` is "Maybe you meant '==' ..." from its first target); not once
// one of them has matched (`b1[0]: float =@1` is an annotation without value, then an error).
int Parser::expression_statement(ParsedStatement& parsed) {
  bool assignment_matched = false;
  if (!second_pass_) return expression_statement_body(parsed, assignment_matched);
  const Mark start = mark();
  try {
    const int statement_depth = expression_statement_body(parsed, assignment_matched);
    held_legacy_errors_.clear();  // the statement parsed: pegen raises none of them
    return statement_depth;
  } catch (const SyntaxFailure&) {
    if (!assignment_matched) invalid_assignment(start);
    throw;
  }
}

int Parser::expression_statement_body(ParsedStatement& parsed, bool& assignment_matched) {
  const Mark start = mark();
  // In the second pass each part before an `=`, ':' or augmented operator is a target, where
  // pegen never looks for a legacy print; the part after the last one is an expression again.
  const auto not_a_target = [&](const Mark& part) {
    if (second_pass_) raise_held_legacy_error(token_base_ + part.position, token_base_ + position_);
  };
  mark_shallow_primary(kShallowStatementStart);
  const NodeIndex first = star_expressions_as_targets();
  const Op op = next_token().op();
  if (op == Op::Colon) {
    if (!is_single_target(first) || annotation_group_comes_first(first)) {
      if (second_pass_) invalid_assignment(start);
      fail();
    }
    consume();
    const NodeIndex annotation = expression();
    assignment_matched = true;
    NodeIndex value = kNoNode;
    if (accept(Op::Equal)) {
      LevelGuard guard(*this, 2);
      value = at(Keyword::Yield) ? yield_expression() : star_expressions();
    }
    return 1 + std::max({depth(first), depth(annotation), depth(value)});
  }
  if (op == Op::Equal) {
    LevelGuard guard(*this, 2);  // assignment, (star_targets '=')+
    NodeIndex value = first;
    int targets = 0;
    int deepest = depth(first);
    Mark part = start;
    while (at(Op::Equal)) {
      if (!is_star_target(value)) {
        not_a_target(part);
        if (second_pass_) invalid_assignment(start);
        fail();
      }
      ++targets;
      consume();
      mark_shallow_primary(kShallowAssignedValue + (second_pass_ ? 1 : 0));
      part = mark();
      value = at(Keyword::Yield) ? yield_expression() : star_expressions_as_targets();
      deepest = std::max(deepest, depth(value));
    }
    not_a_target(part);
    assignment_matched = true;
    if (targets == 1) {
      parsed.shape = ParsedStatement::Shape::Assign;
      parsed.target = first;
      parsed.value = value;
    }
    return 1 + deepest;
  }
  if (const auto operation = augmented_operator(op)) {
    if (!is_single_target(first)) {
      if (second_pass_) invalid_assignment(start);
      fail();
    }
    consume();
    assignment_matched = true;  // augassign ~ (a cut)
    LevelGuard guard(*this, 2);
    NodeIndex value = kNoNode;
    try {
      value = at(Keyword::Yield) ? yield_expression() : star_expressions();
    } catch (const SyntaxFailure&) {
      // The cut fails the whole assignment rule; simple_stmt's next alternative,
      // star_expressions, then parses the target as an expression.
      not_a_target(start);
      throw;
    }
    parsed.shape = ParsedStatement::Shape::AugAssign;
    parsed.operation = *operation;
    parsed.target = first;
    parsed.value = value;
    return 1 + std::max(depth(first), depth(value));
  }
  not_a_target(start);
  if (second_pass_ && next_token().kind != TokenKind::Newline && op != Op::Semicolon) {
    invalid_assignment(start);
    fail();  // the statement cannot end here
  }
  return 1 + depth(first);
}

// invalid_assignment, tried in pegen's order; raises the first message that applies.
void Parser::invalid_assignment(const Mark& start) {
  const auto attempt = [&](auto&& body) {
    reset(start);
    try {
      body();
    } catch (const SyntaxFailure&) {
    }
  };
  // `[a]: int` / `(a, b): int` (parentheses around them are part of the atom)
  attempt([&] {
    if (!at(Op::LeftBracket) && !at(Op::LeftParen)) fail();
    const NodeIndex target = atom();
    const NodeKind kind = node(target).kind;
    if (kind != NodeKind::List && kind != NodeKind::Tuple) fail();
    expect(Op::Colon);
    expression();
    raise_at_node(std::string("only single target (not ") +
                      (kind == NodeKind::List ? "list" : "tuple") + ") can be annotated",
                  target);
  });
  // `a, b: int`
  attempt([&] {
    const NodeIndex first = star_named_expression();
    expect(Op::Comma);
    // star_named_expressions*: lists of expressions, one after another.
    while (can_start_expression(true)) {
      star_named_expression();
      accept(Op::Comma);
    }
    expect(Op::Colon);
    expression();
    raise_at_node("only single target (not tuple) can be annotated", first);
  });
  // `f(): int`
  attempt([&] {
    const NodeIndex target = expression();
    expect(Op::Colon);
    expression();
    raise_at_node("illegal target for annotation", target);
  });
  const auto skip_valid_targets = [&] {
    for (;;) {
      const Mark before = mark();
      try {
        const NodeIndex target = star_expressions_as_targets();
        if (!is_star_target(target) || !accept(Op::Equal)) fail();
      } catch (const SyntaxFailure&) {
        reset(before);
        return;
      }
    }
  };
  // `f() = 1`, `x = 1 = y`
  attempt([&] {
    skip_valid_targets();
    const NodeIndex target = star_expressions();
    expect(Op::Equal);
    raise_invalid_target(target, Targets::Star);
  });
  // `x = yield = 1`
  attempt([&] {
    skip_valid_targets();
    if (!at(Keyword::Yield)) fail();
    const NodeIndex target = yield_expression();
    expect(Op::Equal);
    raise_at_node("assignment to yield expression not possible", target);
  });
  // `f() += 1`
  attempt([&] {
    const NodeIndex target = star_expressions();
    const Op op = next_token().op();
    if (!augmented_operator(op)) fail();
    consume();
    if (at(Keyword::Yield)) {
      yield_expression();
    } else {
      star_expressions();
    }
    raise_at_node(std::string("'") + expression_name(target) +
                      "' is an illegal expression for augmented assignment",
                  target);
  });
  reset(start);
}

int Parser::return_statement() {
  consume();
  if (!can_start_expression(true)) return 1;
  return 1 + depth(star_expressions());
}

int Parser::raise_statement() {
  consume();
  if (!can_start_expression(false)) return 1;
  int deepest = depth(expression());
  if (accept(Keyword::From)) deepest = std::max(deepest, depth(expression()));
  return 1 + deepest;
}

int Parser::assert_statement() {
  consume();
  int deepest = depth(expression());
  if (accept(Op::Comma)) deepest = std::max(deepest, depth(expression()));
  return 1 + deepest;
}

int Parser::global_statement() {
  consume();
  expect_name();
  while (accept(Op::Comma)) expect_name();
  return 1;
}

int Parser::del_statement() {
  const Mark start = mark();
  consume();
  // del_targets: ','.del_target+ [','], then ';' or NEWLINE; parsed as primaries and checked.
  int deepest = 0;
  try {
    for (;;) {
      const NodeIndex target = primary();
      if (!is_delete_target(target)) fail();
      deepest = std::max(deepest, depth(target));
      if (!accept(Op::Comma) || !can_start_expression(false)) break;
    }
    if (next_token().kind != TokenKind::Newline && !at(Op::Semicolon)) fail();
  } catch (const SyntaxFailure&) {
    if (second_pass_) invalid_delete(start);
    throw;
  }
  return 1 + deepest;
}

void Parser::invalid_delete(const Mark& start) {
  reset(start);
  consume();
  try {
    const NodeIndex targets = star_expressions();
    raise_invalid_target(targets, Targets::Delete);
  } catch (const SyntaxFailure&) {
  }
  reset(start);
}

// import_name | import_from; aliases count one ast level each.
int Parser::import_statement() {
  const Token keyword = consume();
  int aliases_depth = 2;
  if (keyword.keyword() == Keyword::Import) {
    do {
      expect_name();
      while (accept(Op::Dot)) expect_name();
      if (accept(Keyword::As)) expect_name();
    } while (accept(Op::Comma));
    return aliases_depth;
  }
  bool dots = false;
  while (at(Op::Dot) || at(Op::Ellipsis)) {
    consume();
    dots = true;
  }
  if (!at(Keyword::Import) || !dots) {
    expect_name();
    while (accept(Op::Dot)) expect_name();
  }
  expect(Keyword::Import);
  if (accept(Op::Star)) return aliases_depth;
  const bool parenthesized = accept(Op::LeftParen);
  for (;;) {
    expect_name();
    if (accept(Keyword::As)) expect_name();
    if (!accept(Op::Comma)) break;
    if (parenthesized && at(Op::RightParen)) break;
    if (!parenthesized && next_token().kind == TokenKind::Newline) {
      if (second_pass_) raise_at_last_token("trailing comma not allowed without surrounding parentheses");
      fail();
    }
  }
  if (parenthesized) expect(Op::RightParen);
  return aliases_depth;
}

}  // namespace weightspace::python
