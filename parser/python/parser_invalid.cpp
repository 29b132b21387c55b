// SPDX-License-Identifier: GPL-3.0-or-later
// The second-pass checks pegen runs at every expression (invalid_expression,
// invalid_legacy_expression, invalid_named_expression), at brackets (invalid_comprehension)
// and in failing dictionaries (invalid_double_starred_kvpairs).
#include <algorithm>
#include <iterator>
#include <string_view>

#include "parser/python/names.hpp"
#include "parser/python/parser.hpp"

namespace weightspace::python {
namespace {

// star_expressions, star_expression, expression (and invalid_expression), disjunction ..
// comparison, the six binary levels (rule and loop each), factor, power, await_primary,
// primary (and its loop), atom.
constexpr int kFailingStarExpressionsLevels = 26;

// pegen's SOFT_KEYWORD (_PyPegen_soft_keyword_token) compares a NAME's source bytes with each
// soft keyword by strncmp over the NAME's length, so any prefix of "_", "case" or "match" (`m`,
// `ca`, ...) counts too; a non-ASCII spelling such as `ｍ` does not (it compares the raw bytes).
bool soft_keyword_prefix(std::string_view raw_name) {
  constexpr std::string_view kSoftKeywords[] = {"_", "case", "match"};
  return std::any_of(std::begin(kSoftKeywords), std::end(kSoftKeywords),
                     [&](std::string_view keyword) { return keyword.starts_with(raw_name); });
}

}  // namespace

// invalid_expression and invalid_legacy_expression, in pegen's order.
void Parser::invalid_expression_checks(const Mark& start, NodeIndex first) {
  const std::size_t position = token_base_ + start.position;
  const bool target_head = position == target_head_;
  if (already_checked(start, 0)) {
    if (!target_head) raise_held_legacy_error(position, position + 1);
    return;
  }
  const Mark after = mark();
  const Token first_token = tokens_[start.position];
  const bool first_is_name = first_token.kind == TokenKind::Name &&
                             (first_token.keyword() == Keyword::None ||
                              first_token.keyword() >= Keyword::SoftMatch);
  const bool name_then_string = first_is_name && start.position + 1 < tokens_.size() &&
                                tokens_[start.position + 1].kind == TokenKind::String;
  const bool soft_keyword =
      first_is_name &&
      soft_keyword_prefix(source_.substr(first_token.start, first_token.end - first_token.start));
  const bool legacy = is_legacy_call_name(first);
  if (!name_then_string && !soft_keyword && can_start_expression(false)) {
    try {
      const NodeIndex second = expression_without_invalid();
      if (previous_token().level != 0 && !legacy) {
        raise_range("invalid syntax. Perhaps you forgot a comma?", first, second);
      }
    } catch (const SyntaxFailure&) {
    }
    reset(after);
  }
  if (at(Keyword::If)) {
    try {
      consume();
      const NodeIndex test = disjunction();
      if (!at(Keyword::Else) && !at(Op::Colon)) {
        raise_range("expected 'else' after 'if' expression", first, test);
      }
    } catch (const SyntaxFailure&) {
    }
    reset(after);
  }
  // invalid_legacy_expression: NAME !'(' star_expressions, for any name; only print and exec
  // then get the message, but the expressions are parsed (and checked) in any case.
  const bool plain_name = first_token.kind == TokenKind::Name &&
                          (first_token.keyword() == Keyword::None ||
                           first_token.keyword() >= Keyword::SoftMatch);
  if (plain_name && tokens_[start.position + 1].op() != Op::LeftParen) {
    position_ = start.position + 1;  // re-read after the name; the nodes made so far stay
    // Tokens that cannot start one are not parsed (a failing parse costs an exception), but
    // the rule calls of pegen's failing descent down to `atom` still count against MAXSTACK.
    if (!can_start_expression(true)) {
      const LevelGuard failing_descent(*this, kFailingStarExpressionsLevels);
    } else {
      try {
        star_expressions();
        const std::string_view raw =
            source_.substr(first_token.start, first_token.end - first_token.start);
        const bool ascii = std::all_of(raw.begin(), raw.end(), [](char character) {
          return static_cast<unsigned char>(character) < 0x80;
        });
        const std::string name = ascii ? std::string(raw) : nfkc_normalize(raw);
        if (name == "print" || name == "exec") {
          std::string message =
              "Missing parentheses in call to '" + name + "'. Did you mean " + name + "(...)?";
          if (!target_head) raise_at_token(message, first_token);
          held_legacy_errors_.push_back({position, first_token, std::move(message)});
        }
      } catch (const SyntaxFailure&) {
      }
    }
    reset(after);
  }
}

// The first legacy print/exec error held at a token in [from, to), if any (see target_head_).
void Parser::raise_held_legacy_error(std::size_t from, std::size_t to) {
  for (const HeldLegacyError& held : held_legacy_errors_) {
    if (held.position >= from && held.position < to) raise_at_token(held.message, held.name);
  }
}

// invalid_named_expression: `a.b := 1`, `x = 1` and `f() = 1` where a condition is expected.
void Parser::invalid_named_expression_checks(const Mark& start, NodeIndex value) {
  if (already_checked(start, 1)) return;
  const Mark after = mark();
  if (at(Op::ColonEqual)) {
    try {
      consume();
      expression();
      raise_at_node(std::string("cannot use assignment expressions with ") +
                        expression_name(value),
                    value);
    } catch (const SyntaxFailure&) {
    }
    reset(after);
    return;
  }
  if (!at(Op::Equal)) return;
  const Token first_token = tokens_[start.position];
  const Node& target = node(value);
  const bool bare_name = target.kind == NodeKind::Name && !target.parenthesized &&
                         first_token.kind == TokenKind::Name;
  const auto right_side_stands_alone = [&] {
    consume();
    bitwise_or();
    return !at(Op::Equal) && !at(Op::ColonEqual);
  };
  try {
    if (bare_name) {
      const Mark before_equal = mark();
      if (right_side_stands_alone()) {
        raise_range("invalid syntax. Maybe you meant '==' or ':=' instead of '='?", value,
                    static_cast<NodeIndex>(tree_.node_count() - 1));
      }
      reset(before_equal);
    }
    if (is_bitwise_or_level(value) && !starts_with_display_or_constant(start, value) &&
        right_side_stands_alone()) {
      raise_at_node(std::string("cannot assign to ") + expression_name(value) +
                        " here. Maybe you meant '==' instead of '='?",
                    value);
    }
  } catch (const SyntaxFailure&) {
  }
  reset(after);
}

// invalid_named_expression's last alternative starts `!(list|tuple|genexp|'True'|'None'|'False')`,
// which, where `expression` failed at a bracket, parses the display with the invalid_* rules
// on. That finds something new only where the failure is pegen's memo of a parse without the
// rules (expression_without_invalid's `disjunction` there): in `a, b C(x=1, 2)` the call's
// failed arguments, read as the tuple `(x=1, 2)`, give `x=1` its "Maybe you meant '=='".
// Only the elements' own errors can come out (no invalid_group: `(*x)` is no tuple).
void Parser::invalid_named_expression_display(const Mark& start) {
  reset(start);
  const Op open = next_token().op();
  if ((open != Op::LeftParen && open != Op::LeftBracket) ||
      !reuse_without_invalid(Memoised::Disjunction) || already_checked(start, 1)) {
    reset(start);
    return;
  }
  const Op close = open == Op::LeftParen ? Op::RightParen : Op::RightBracket;
  try {
    LevelGuard guard(*this, 2);
    consume();
    if (!at(close)) {
      star_named_expression();
      if (open == Op::LeftParen && !at(Op::Comma)) {
        if (at_comprehension()) comprehension_clauses();  // genexp, after the tuple
        fail();
      }
      while (accept(Op::Comma) && !at(close)) star_named_expression();
    }
  } catch (const SyntaxFailure&) {
  }
  reset(start);
}

// invalid_comprehension at a bracket. The second pass tries it where a display fails (listcomp,
// setcomp and genexp end with it) and after every primary, whose left recursion tries
// `primary genexp`: `x [*a for a in b]`, `1 {a, b for a, b in c}` and the errors inside
// `1 {a=1}` or `[*a b` (whose `expression` looks past `b`) come from here.
void Parser::invalid_comprehension_at_bracket() {
  const Mark start = mark();
  if (already_checked(start, 2)) return;
  const Op open = next_token().op();
  const auto attempt = [&](auto&& body) {
    reset(start);
    consume();  // the bracket
    try {
      body();
    } catch (const SyntaxFailure&) {
    }
  };
  // ('[' | '(' | '{') a=starred_expression for_if_clauses
  // (Alternatives that cannot start return early: exceptions are slow.)
  attempt([&] {
    if (!at(Op::Star)) return;
    const Token star = consume();
    expression();
    comprehension_clauses();
    raise_at_token("iterable unpacking cannot be used in comprehension", star);
  });
  if (open != Op::LeftParen) {
    // ('[' | '{') a=star_named_expression ',' b=star_named_expressions for_if_clauses
    //  | ('[' | '{') a=star_named_expression b=',' for_if_clauses
    NodeIndex first = kNoNode;
    Mark after_comma = start;
    attempt([&] {
      first = star_named_expression();
      if (!accept(Op::Comma)) return;
      after_comma = mark();
      if (!can_start_expression(true)) return;
      star_named_expression();
      for (;;) {
        const Mark before_comma = mark();
        if (!accept(Op::Comma)) break;
        try {
          star_named_expression();
        } catch (const SyntaxFailure&) {
          reset(before_comma);
          consume();  // the optional trailing comma
          break;
        }
      }
      if (!at_comprehension()) return;
      comprehension_clauses();
      raise_at_node("did you forget parentheses around the comprehension target?", first);
    });
    if (first != kNoNode && after_comma.position != start.position) {
      reset(after_comma);
      if (!at_comprehension()) {
        reset(start);
        return;
      }
      try {
        comprehension_clauses();
        raise_at_node("did you forget parentheses around the comprehension target?", first);
      } catch (const SyntaxFailure&) {
      }
    }
  }
  reset(start);
}

// invalid_double_starred_kvpairs, with pegen's backtracking inside the expressions.
void Parser::invalid_dictionary(const Mark& open) {
  const bool saved = error_pass_;
  error_pass_ = true;
  const auto attempt = [&](auto&& body) {
    reset(open);
    consume();  // '{'
    try {
      body();
    } catch (const SyntaxFailure&) {
    }
  };
  const auto pair = [&] {
    if (accept(Op::DoubleStar)) {
      bitwise_or();
    } else {
      expression();
      expect(Op::Colon);
      expression();
    }
  };
  // expression ':' '*' bitwise_or  |  expression ':' &('}' | ',')
  const auto starred_or_missing_value = [&] {
    expression();
    const Token colon = next_token();
    expect(Op::Colon);
    if (at(Op::Star)) {
      const Token star = consume();
      bitwise_or();
      raise_at_token("cannot use a starred expression in a dictionary value", star);
    }
    if (at(Op::RightBrace) || at(Op::Comma)) {
      raise_at_token("expression expected after dictionary key and ':'", colon);
    }
  };
  try {
    // ','.double_starred_kvpair+ ',' invalid_kvpair
    attempt([&] {
      pair();
      for (;;) {
        const Mark before = mark();
        try {
          expect(Op::Comma);
          pair();
        } catch (const SyntaxFailure&) {
          reset(before);
          break;
        }
      }
      expect(Op::Comma);
      const Mark key_start = mark();
      try {
        const NodeIndex key = expression();
        if (!at(Op::Colon)) {
          const Node& target = node(key);
          raise_at("':' expected after dictionary key", target.line, target.end_column - 1);
        }
      } catch (const SyntaxFailure&) {
      }
      for (int alternative = 0; alternative < 2; ++alternative) {
        reset(key_start);
        try {
          starred_or_missing_value();
        } catch (const SyntaxFailure&) {
        }
      }
    });
    attempt(starred_or_missing_value);
  } catch (...) {
    error_pass_ = saved;
    throw;
  }
  error_pass_ = saved;
  reset(open);
}

}  // namespace weightspace::python
