// SPDX-License-Identifier: GPL-3.0-or-later
// Calls, subscripts and comprehension clauses, with pegen's invalid_arguments / invalid_kwarg /
// invalid_comprehension messages in the second pass.
#include <algorithm>

#include "parser/python/parser.hpp"

namespace weightspace::python {

bool Parser::at_comprehension() {
  return at(Keyword::For) || (at(Keyword::Async) && peek(1).keyword() == Keyword::For);
}

NodeIndex Parser::call(const Token& first, NodeIndex callee) {
  consume();  // '('
  const std::size_t base = scratch_.size();
  scratch_.push_back(callee);
  CallArguments arguments;
  if (!at(Op::RightParen)) arguments = call_arguments(base + 1);
  expect(Op::RightParen);
  const NodeIndex result =
      make_node(NodeKind::Call, first, children_since(base), 0, arguments.keyword_depth);
  node(result).extra = arguments.keywords;
  scratch_.resize(base);
  return result;
}

// The depth of class bases and keywords: `class A(B, metaclass=M)`.
int Parser::arguments_depth() {
  const std::size_t base = scratch_.size();
  const CallArguments arguments = call_arguments(base, false);
  int deepest = arguments.keyword_depth;
  for (std::size_t index = base; index < scratch_.size(); ++index) {
    deepest = std::max(deepest, depth(scratch_[index]));
  }
  scratch_.resize(base);
  return deepest;
}

// args [','] &')': positional arguments go to scratch_ (after `positional_base`).
Parser::CallArguments Parser::call_arguments(std::size_t positional_base, bool call) {
  // `x y[0](a=1, b)`: invalid_expression reads `y[0](...)` without the invalid_* rules, and
  // invalid_legacy_expression's second read of `[0](...)` gets the memoised `arguments`.
  if (error_pass_ && reuse_without_invalid(Memoised::Arguments)) {
    const InvalidRulesOff off(*this);
    return call_arguments(positional_base, call);
  }
  LevelGuard guard(*this, 3);
  CallArguments result;
  enum { Positional, Keywords, DoubleStarred } phase = Positional;
  const Token first = next_token();
  for (;;) {
    const Token token = next_token();
    const bool keyword_name = token.kind == TokenKind::Name &&
                              (token.keyword() == Keyword::None ||
                               token.keyword() >= Keyword::SoftMatch);
    if (token.op() == Op::Star) {
      if (phase == DoubleStarred) {
        if (second_pass_) {
          raise_at_token("iterable argument unpacking follows keyword argument unpacking", first);
        }
        fail();
      }
      const Token star = consume();
      NodeIndex value{};
      try {
        value = expression();
      } catch (const SyntaxFailure&) {
        // invalid_arguments' `args ',' '*'`: arguments, then a '*' that starts no argument.
        if (second_pass_ && token.start != first.start) {
          raise_at_token("iterable argument unpacking follows keyword argument unpacking", first);
        }
        throw;
      }
      const NodeIndex starred = make_node(NodeKind::Starred, star, {&value, 1});
      // invalid_arguments' `args for_if_clauses` with more than one positional argument
      if (second_pass_ && scratch_.size() > positional_base && at_comprehension()) {
        genexp_needs_parentheses(starred);
      }
      scratch_.push_back(starred);
    } else if (token.op() == Op::DoubleStar) {
      consume();
      result.keyword_depth = std::max(result.keyword_depth, 1 + depth(expression()));
      ++result.keywords;
      phase = DoubleStarred;
    } else if (keyword_name && peek(1).op() == Op::Equal) {
      const Token name = consume();
      const Token equal = consume();
      const NodeIndex value = expression();
      if (second_pass_ && at_comprehension()) {
        try {
          comprehension_clauses();
          raise_at_token("invalid syntax. Maybe you meant '==' or ':=' instead of '='?", name);
        } catch (const SyntaxFailure&) {
        }
        fail();
      }
      (void)equal;
      result.keyword_depth = std::max(result.keyword_depth, 1 + depth(value));
      ++result.keywords;
      if (phase == Positional) phase = Keywords;
    } else {
      if (second_pass_ && (token.keyword() == Keyword::True || token.keyword() == Keyword::False ||
                           token.keyword() == Keyword::NoneValue) &&
          peek(1).op() == Op::Equal) {
        raise_at_token("cannot assign to " +
                           std::string(source_.substr(token.start, token.end - token.start)),
                       token);
      }
      // invalid_kwarg's `!(NAME '=') expression '='`: an unparenthesized `x := y` is no
      // `expression`, so `f(x := y = 1)` is plain invalid syntax.
      const bool walrus = keyword_name && peek(1).op() == Op::ColonEqual;
      const NodeIndex value = argument_expression();
      if (at(Op::Equal)) {
        if (second_pass_ && !walrus) {
          raise_at_node("expression cannot contain assignment, perhaps you meant \"==\"?", value);
        }
        fail();
      }
      if (at_comprehension()) {
        const bool alone = scratch_.size() == positional_base && phase == Positional &&
                           result.keywords == 0;
        if (!alone) {
          if (second_pass_) genexp_needs_parentheses(value);
          fail();
        }
        // Class bases are `arguments` only, where `class C(x for x in y)` stops at `for`; the
        // second pass still looks for invalid_arguments' "must be parenthesized".
        if (!call && !second_pass_) fail();
        const int clauses = comprehension_clauses();
        if (!at(Op::RightParen)) {
          if (second_pass_ && at(Op::Comma)) {
            raise_at_node("Generator expression must be parenthesized", value);
          }
          fail();
        }
        if (!call) fail();
        scratch_.push_back(make_node(NodeKind::GeneratorExp, token, {&value, 1}, 0, clauses));
        return result;
      }
      if (phase != Positional) {
        if (second_pass_) positional_after_keyword(phase == DoubleStarred);
        fail();
      }
      scratch_.push_back(value);
    }
    if (!accept(Op::Comma) || at(Op::RightParen)) break;
  }
  if (!at(Op::RightParen)) fail();
  return result;
}

// (assignment_expression | expression !':=') -- no invalid_named_expression here.
NodeIndex Parser::argument_expression() {
  const Token token = next_token();
  if (token.kind == TokenKind::Name &&
      (token.keyword() == Keyword::None || token.keyword() >= Keyword::SoftMatch) &&
      peek(1).op() == Op::ColonEqual) {
    return named_expression();
  }
  const NodeIndex value = expression();
  if (at(Op::ColonEqual)) fail();
  return value;
}

void Parser::genexp_needs_parentheses(NodeIndex element) {
  try {
    comprehension_clauses();
    raise_at_node("Generator expression must be parenthesized", element);
  } catch (const SyntaxFailure&) {
  }
}

// _PyPegen_arguments_parsing_error: reported where the parser stops reading the arguments.
void Parser::positional_after_keyword(bool unpacking) {
  try {
    for (;;) {
      if (accept(Op::Star) || accept(Op::DoubleStar)) {
        expression();
      } else if (next_token().kind == TokenKind::Name && peek(1).op() == Op::Equal) {
        consume();
        consume();
        expression();
      } else {
        argument_expression();
        if (at(Op::Equal)) break;
      }
      if (!accept(Op::Comma) || at(Op::RightParen)) break;
    }
  } catch (const SyntaxFailure&) {
  }
  raise_at_last_token(unpacking ? "positional argument follows keyword argument unpacking"
                                : "positional argument follows keyword argument");
}

NodeIndex Parser::subscript(const Token& first, NodeIndex value) {
  consume();  // '['
  const Token item_start = next_token();
  const NodeIndex head = slice();
  NodeIndex index = head;
  if (at(Op::Comma) || node(head).kind == NodeKind::Starred) {
    const std::size_t base = scratch_.size();
    scratch_.push_back(head);
    while (accept(Op::Comma)) {
      if (at(Op::RightBracket)) break;
      const NodeIndex element = slice();
      scratch_.push_back(element);
    }
    index = make_node(NodeKind::Tuple, item_start, children_since(base));
    scratch_.resize(base);
  }
  expect(Op::RightBracket);
  const NodeIndex children[2] = {value, index};
  return make_node(NodeKind::Subscript, first, children);
}

// slice: [expression] ':' [expression] [':' [expression]] | named_expression | '*' expression
NodeIndex Parser::slice() {
  LevelGuard guard(*this, 2);
  const Token first = next_token();
  if (first.op() == Op::Star) {
    consume();
    const NodeIndex value = expression();
    return make_node(NodeKind::Starred, first, {&value, 1});
  }
  NodeIndex bounds[3] = {kNoNode, kNoNode, kNoNode};
  if (!at(Op::Colon)) {
    bounds[0] = named_expression();
    if (!at(Op::Colon)) return bounds[0];
    const Node& lower = node(bounds[0]);
    if (lower.kind == NodeKind::NamedExpr && !lower.parenthesized) fail();
  }
  consume();
  if (can_start_expression(false)) bounds[1] = expression();
  if (accept(Op::Colon) && can_start_expression(false)) bounds[2] = expression();
  return make_node(NodeKind::Slice, first, bounds);
}

// for_if_clauses; returns the deepest comprehension object.
int Parser::comprehension_clauses() {
  LevelGuard guard(*this, 2);
  int deepest = 0;
  bool first_clause = true;
  // for_if_clause+ and ('if' disjunction)* stop before a clause or condition that does not
  // parse, as pegen's loops do: `[*a for x in y if *b]` has clauses (and so gets its
  // invalid_comprehension message), and the caller fails on what is left.
  do {
    const Mark start = mark();
    int clause = 0;
    try {
      accept(Keyword::Async);
      expect(Keyword::For);
      try {
        clause = depth(star_targets());
        expect(Keyword::In);
      } catch (const SyntaxFailure&) {
        if (second_pass_) {
          reset(start);
          accept(Keyword::Async);
          consume();
          try {
            raise_invalid_target(star_expressions(), Targets::For);
          } catch (const SyntaxFailure&) {
          }
        }
        throw;
      }
      clause = std::max(clause, depth(disjunction()));
    } catch (const SyntaxFailure&) {
      if (first_clause) throw;
      reset(start);
      break;
    }
    for (;;) {
      const Mark condition = mark();
      if (!accept(Keyword::If)) break;
      try {
        clause = std::max(clause, depth(disjunction()));
      } catch (const SyntaxFailure&) {
        reset(condition);
        break;
      }
    }
    deepest = std::max(deepest, clause + 1);
    first_clause = false;
  } while (at_comprehension());
  return deepest;
}

// invalid_comprehension: `[*a for a in b]`
void Parser::invalid_comprehension_check(NodeIndex starred) {
  const Mark start = mark();
  try {
    comprehension_clauses();
    raise_at_node("iterable unpacking cannot be used in comprehension", starred);
  } catch (const SyntaxFailure&) {
  }
  reset(start);
}

// invalid_comprehension: `[a, b for a, b in c]`
void Parser::invalid_comprehension_target(std::size_t base) {
  const Mark start = mark();
  try {
    comprehension_clauses();
    raise_at_node("did you forget parentheses around the comprehension target?", scratch_[base]);
  } catch (const SyntaxFailure&) {
  }
  reset(start);
}

}  // namespace weightspace::python
