// SPDX-License-Identifier: GPL-3.0-or-later
// pegen's error machinery (Parser/pegen_errors.c): the first pass fails at the furthest token
// read; a second pass over the failing statement looks for a specialised message; a tokenizer
// error further down the source still wins over either.
#include "parser/python/parser.hpp"
#include "parser/utf8.hpp"

namespace weightspace::python {
namespace {

constexpr const char* kFStringPrefix = "f-string: ";
// The second pass re-parses some alternatives pegen finds in its memo. It stays linear for
// everything measured (about 25 rule calls per source byte: 14 million for a 2 MB file, 0.3 s),
// but a contrived input could still grow faster; past a budget linear in the source (a base of
// about two seconds, plus 64 calls per byte) the search for a specialised message stops and the
// plain "invalid syntax" of the first pass is reported. No golden case, no generated case and
// no file of CPython's own library comes near it.
constexpr std::uint64_t kSecondPassRuleCalls = 100'000'000;
constexpr std::uint64_t kSecondPassRuleCallsPerByte = 64;

}  // namespace

void Parser::raise_at(const std::string& message, int line, int byte_column, const char* kind) {
  const int column = byte_column < 0 ? 0 : character_column(line, byte_column);
  const std::string text = fstring_mode_ ? kFStringPrefix + message : message;
  throw RaisedSyntaxError{syntax_error(kind, text, line + line_offset_, column)};
}

void Parser::raise_at_token(const std::string& message, const Token& token, const char* kind) {
  raise_at(message, token.line, token.column, kind);
}

void Parser::raise_at_node(const std::string& message, NodeIndex index) {
  const Node& target = node(index);
  raise_at(message, target.line, target.column);
}

// pegen keeps every token of the first pass; its "last token" is the furthest token read by
// either pass. This parser re-reads the source in the second pass, so it remembers the first
// pass's furthest token and tokenizer.
bool Parser::second_pass_is_further() const {
  return !first_pass_tokenizer_ || token_base_ + tokens_.size() - 1 > first_pass_last_index_;
}

const Token& Parser::last_token() const {
  return second_pass_is_further() ? tokens_.back() : first_pass_last_;
}

Tokenizer& Parser::furthest_tokenizer() {
  return second_pass_is_further() ? tokenizer_ : *first_pass_tokenizer_;
}

// Where the tokenizer stands, for tokens without a position (pegen's col_offset == -1 case).
int Parser::tokenizer_column(const Tokenizer& tokenizer) const {
  // pegen: col_offset = cur - line_start bytes, decoded from tok->buf (the two differ after a
  // string or a continuation running over lines).
  const std::uint32_t line_start = tokenizer.line_start();
  const std::uint32_t cursor = tokenizer.cursor();
  return cursor <= line_start ? 0 : tokenizer.buffer_column(cursor - line_start);
}

// RAISE_SYNTAX_ERROR without a location: the last token read, or where the tokenizer stands
// when that token has no position.
void Parser::raise_at_last_token(const std::string& message, const char* kind) {
  const Token last = last_token();
  if (last.column >= 0) raise_at(message, last.line, last.column, kind);
  const std::string text = fstring_mode_ ? kFStringPrefix + message : message;
  throw RaisedSyntaxError{
      syntax_error(kind, text, last.line + line_offset_, tokenizer_column(furthest_tokenizer()))};
}

EditError Parser::generic_error(const Token& last) {
  const int column = last.column < 0 ? 0 : character_column(last.line, last.column);
  const std::string text = fstring_mode_ ? std::string(kFStringPrefix) + "invalid syntax"
                                         : std::string("invalid syntax");
  return syntax_error("SyntaxError", text, last.line + line_offset_, column);
}

// _PyPegen_tokenize_full_source_to_check_for_errors: tokenize the rest of the source; an
// error the tokenizer raises itself there replaces the parser's error, and so does a bracket
// left open on a line before the error's line.
void Parser::check_rest_of_source(EditError& error) {
  if (fstring_mode_) return;
  const int error_line = last_token().line;
  Tokenizer& tokenizer = furthest_tokenizer();
  for (;;) {
    const Token token = tokenizer.next();
    if (token.kind == TokenKind::EndMarker) return;
    if (token.kind != TokenKind::Error) continue;
    if (tokenizer.error().type == TokenizerError::Type::Immediate) {
      error = *tokenizer.error().error;
      return;
    }
    if (tokenizer.level() != 0 && error_line > tokenizer.open_bracket_line()) {
      std::string message = "'";
      message += tokenizer.open_bracket();
      message += "' was never closed";
      error = syntax_error("SyntaxError", message, tokenizer.open_bracket_line(),
                           tokenizer.open_bracket_column());
    }
    return;
  }
}

void Parser::parse_file(const StatementCallback& on_statement) {
  try {
    on_statement_ = &on_statement;
    run_statements();
  } catch (const SyntaxFailure&) {
    const Token last = tokens_.back();
    try {
      run_second_pass();
    } catch (RaisedSyntaxError& raised) {
      check_rest_of_source(raised.error);
      throw raised.error;
    } catch (const SyntaxFailure&) {
    } catch (const SecondPassExhausted&) {
    }
    const Token furthest = last_token();
    if (furthest.kind == TokenKind::Indent || furthest.kind == TokenKind::Dedent) {
      throw syntax_error("IndentationError",
                         furthest.kind == TokenKind::Indent ? "unexpected indent"
                                                            : "unexpected unindent",
                         furthest.line, tokenizer_column(furthest_tokenizer()));
    }
    EditError error = generic_error(last);
    check_rest_of_source(error);
    throw error;
  } catch (RaisedSyntaxError& raised) {
    check_rest_of_source(raised.error);
    throw raised.error;
  }
  if (max_depth_ > kMaxAstDepth) {
    throw EditError("RecursionError", "maximum recursion depth exceeded during ast construction");
  }
}

void Parser::run_statements() {
  for (;;) {
    if (position_ > kTokenWindowSize) {
      // Statements are independent: forget the tokens of finished ones.
      tokens_.erase(tokens_.begin(), tokens_.begin() + static_cast<std::ptrdiff_t>(position_));
      memo_.drop_front(position_);
      token_base_ += position_;
      position_ = 0;
    }
    if (next_token().kind == TokenKind::EndMarker) return;
    const int statement_depth = statement(on_statement_ != nullptr);
    max_depth_ = std::max(max_depth_, statement_depth + 1);
  }
}

// pegen's second pass: the whole source again, with the invalid_* rules active.
void Parser::run_second_pass() {
  start_second_pass();
  run_statements();
  fail();  // the source failed once; it cannot pass now
}

void Parser::start_second_pass() {
  first_pass_tokenizer_.emplace(tokenizer_);
  first_pass_last_ = tokens_.back();
  first_pass_last_index_ = token_base_ + tokens_.size() - 1;
  tokenizer_ = Tokenizer(source_);
  tokens_.clear();
  token_base_ = 0;
  position_ = 0;
  tree_.clear();
  scratch_.clear();
  level_ = 0;
  shallow_primary_position_ = static_cast<std::size_t>(-1);
  memo_.clear();
  rule_calls_ = 0;
  rule_call_budget_ = kSecondPassRuleCalls + kSecondPassRuleCallsPerByte * source_.size();
  second_pass_ = true;
  error_pass_ = true;
  on_statement_ = nullptr;
}

// The expression of an f-string replacement field, as fstring_compile_expr parses it.
int Parser::parse_fstring_expression(std::string_view source, int line) {
  Parser parser(source);
  parser.fstring_mode_ = true;
  parser.line_offset_ = line - 1;
  try {
    try {
      return parser.depth(parser.star_expressions());
    } catch (const SyntaxFailure&) {
      const Token last = parser.tokens_.back();
      parser.start_second_pass();
      try {
        parser.star_expressions();
      } catch (const SyntaxFailure&) {
      } catch (const SecondPassExhausted&) {
      }
      throw RaisedSyntaxError{parser.generic_error(last)};
    }
  } catch (RaisedSyntaxError& raised) {
    throw raised.error;
  } catch (const EditError& error) {
    // The tokenizer's own errors count the expression's lines from 1; CPython's sub-tokenizer
    // starts at the expression's line in the block, as the parser's errors above do.
    const std::string suffix = " (<unknown>, line " + std::to_string(error.line()) + ")";
    const std::string_view text = error.what();
    if (error.line() <= 0 || !text.ends_with(suffix)) throw;
    throw syntax_error(error.kind(), text.substr(0, text.size() - suffix.size()), error.line() + parser.line_offset_,
                       error.column());
  }
}

}  // namespace weightspace::python
