// SPDX-License-Identifier: GPL-3.0-or-later
// The second-pass checks run at every expression: pegen's invalid_expression,
// invalid_legacy_expression and invalid_named_expression rules.
#include <algorithm>

#include "parser/python/names.hpp"
#include "parser/python/parser.hpp"

namespace weightspace::python {

// invalid_expression and invalid_legacy_expression, in pegen's order.
void Parser::invalid_expression_checks(const Mark& start, NodeIndex first) {
  const Mark after = mark();
  const Token first_token = tokens_[start.position];
  const bool first_is_name = first_token.kind == TokenKind::Name &&
                             (first_token.keyword() == Keyword::None ||
                              first_token.keyword() >= Keyword::SoftMatch);
  const bool name_then_string = first_is_name && start.position + 1 < tokens_.size() &&
                                tokens_[start.position + 1].kind == TokenKind::String;
  const bool soft_keyword = first_token.kind == TokenKind::Name &&
                            first_token.keyword() >= Keyword::SoftMatch;
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
    try {
      star_expressions();
      const std::string_view raw =
          source_.substr(first_token.start, first_token.end - first_token.start);
      const bool ascii = std::all_of(raw.begin(), raw.end(), [](char character) {
        return static_cast<unsigned char>(character) < 0x80;
      });
      const std::string name = ascii ? std::string(raw) : nfkc_normalize(raw);
      if (name == "print" || name == "exec") {
        raise_at_token("Missing parentheses in call to '" + name + "'. Did you mean " + name +
                           "(...)?",
                       first_token);
      }
    } catch (const SyntaxFailure&) {
    }
    reset(after);
  }
}

// invalid_named_expression: `a.b := 1`, `x = 1` and `f() = 1` where a condition is expected.
void Parser::invalid_named_expression_checks(const Mark& start, NodeIndex value) {
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

}  // namespace weightspace::python
