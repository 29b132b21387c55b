// SPDX-License-Identifier: GPL-3.0-or-later
// Token access, the two passes, and how a failure becomes the exception CPython raises.
#include <unistd.h>

#include <algorithm>
#include <limits>
#include <string>

#include "parser/python/parser.hpp"
#include "parser/utf8.hpp"

namespace weightspace::python {
namespace {

// Converts to the tokenizer's next token, so that emplace_back has the tokenizer write it
// straight into the vector (guaranteed copy elision). A token returned into a temporary and
// copied in is read back while its fields are still being stored, which stalls on every token.
struct NextToken {
  Tokenizer& tokenizer;
  operator Token() const { return tokenizer.next(); }
};

// Tokens one statement may hold. A statement's tokens stay in memory until it is parsed (pegen
// backtracks over them), with its syntax nodes and literal values: about 100 bytes per token
// for a long list of numbers, measured. Past half the physical memory at 128 bytes a token
// the statement is refused as the MemoryError it would become; CPython needs several times
// as much for the same statement (docs/compatibility.md).
std::size_t statement_token_budget() {
  static const std::size_t budget = [] {
    const long pages = ::sysconf(_SC_PHYS_PAGES);
    const long page_size = ::sysconf(_SC_PAGE_SIZE);
    if (pages <= 0 || page_size <= 0) return std::numeric_limits<std::size_t>::max();
    return static_cast<std::size_t>(pages) / 2 * static_cast<std::size_t>(page_size) / 128;
  }();
  return budget;
}

}  // namespace

Parser::Parser(std::string_view source) : source_(source), tokenizer_(source) {
  tokens_.reserve(std::min<std::size_t>(source.size() / 2 + 16, 1 << 16));
}

const Token& Parser::fetch(std::size_t ahead) {
  if (tokens_.size() > statement_token_budget()) [[unlikely]] {
    throw EditError("MemoryError",
                    "a statement of the edits block has more than " + std::to_string(statement_token_budget()) +
                        " tokens, more than half of this machine's memory holds while it is parsed",
                    tokens_.back().line, 0);
  }
  while (tokens_.size() <= position_ + ahead) {
    tokens_.emplace_back(NextToken{tokenizer_});
    if (tokens_.back().kind == TokenKind::Error) raise_tokenizer_error(tokens_.back());
  }
  return tokens_[position_ + ahead];
}

Token Parser::consume() {
  const Token token = peek(0);
  ++position_;
  return token;
}

bool Parser::accept(Op op) {
  if (!at(op)) return false;
  ++position_;
  return true;
}

bool Parser::accept(Keyword keyword) {
  if (!at(keyword)) return false;
  ++position_;
  return true;
}

void Parser::expect(Op op) {
  if (!accept(op)) fail();
}

void Parser::expect(Keyword keyword) {
  if (!accept(keyword)) fail();
}

// pegen's forced tokens (`&&':'`): a missing one is an error at once, even in the first pass.
void Parser::expect_forced(Op op, const char* text) {
  if (accept(op)) return;
  raise_at_token(std::string("expected '") + text + "'", next_token());
}

Token Parser::expect_name() {
  const Token token = next_token();
  if (token.kind != TokenKind::Name || (token.keyword() != Keyword::None &&
                                        token.keyword() < Keyword::SoftMatch)) {
    fail();
  }
  return consume();
}

void Parser::fail() { throw SyntaxFailure{}; }

Parser::Mark Parser::mark() const {
  return Mark{position_, tree_.node_count(), tree_.child_slots(), scratch_.size()};
}

void Parser::reset(const Mark& saved) {
  position_ = saved.position;
  tree_.truncate(saved.nodes, saved.child_slots);
  scratch_.resize(saved.scratch);
}

void Parser::over_limit() {
  if (level_ > kMaxParserLevel) stack_overflow();
  throw SecondPassExhausted{};
}

void Parser::stack_overflow() {
  const Token token = tokens_.empty() ? Token{} : tokens_[std::min(position_, tokens_.size() - 1)];
  // pegen raises MemoryError (an empty message) when its rule stack overflows.
  throw EditError("MemoryError", "", token.line, 0);
}

EditError Parser::tokenizer_error(const Token& token) {
  const TokenizerError& error = tokenizer_.error();
  const std::uint32_t line_start = tokenizer_.line_start();
  const std::uint32_t cursor = std::max(tokenizer_.cursor(), line_start);
  const int cursor_column =
      cursor == line_start ? 0 : tokenizer_.character_column(line_start, cursor);
  switch (error.type) {
    case TokenizerError::Type::Immediate:
      return *error.error;
    case TokenizerError::Type::InconsistentTabs:
      return syntax_error("TabError", "inconsistent use of tabs and spaces in indentation",
                          token.line, 1);
    case TokenizerError::Type::TooDeep:
      return syntax_error("IndentationError", "too many levels of indentation", token.line, 1);
    case TokenizerError::Type::Dedent:
      return syntax_error("IndentationError",
                          "unindent does not match any outer indentation level", token.line,
                          cursor_column);
    case TokenizerError::Type::LineContinuation:
      // E_LINECONT: col_offset = cur - buf - 1, then the usual + 1, decoded from tok->buf.
      return syntax_error("SyntaxError", "unexpected character after line continuation character",
                          token.line, tokenizer_.buffer_column(cursor - tokenizer_.buffer_start()));
    case TokenizerError::Type::EndOfFile:
      if (tokenizer_.level() > 0) {
        const int line = tokenizer_.open_bracket_line();
        std::string message = "'";
        message += tokenizer_.open_bracket();
        message += "' was never closed";
        return syntax_error("SyntaxError", message, line, tokenizer_.open_bracket_column());
      }
      // RAISE_SYNTAX_ERROR at a token without a position: where the tokenizer stands.
      return syntax_error("SyntaxError", "unexpected EOF while parsing", token.line,
                          tokenizer_column(tokenizer_));
  }
  return syntax_error("SyntaxError", "unknown parsing error", token.line, 0);
}

void Parser::raise_tokenizer_error(const Token& token) { throw tokenizer_error(token); }

// 1-based character column of a byte column on `line` (1-based), as pegen converts it.
int Parser::character_column(int line, int byte_column) const {
  if (line <= 0 || byte_column < 0) return 0;
  // Find the line start by walking back from a token on that line.
  std::uint32_t line_start = 0;
  bool found = false;
  for (std::size_t index = tokens_.size(); index-- > 0;) {
    const Token& token = tokens_[index];
    if (token.line == line && token.column >= 0 && token.kind != TokenKind::Error) {
      line_start = token.start - static_cast<std::uint32_t>(token.column);
      found = true;
      break;
    }
  }
  if (!found) {
    int current = 1;
    for (std::uint32_t offset = 0; offset < source_.size() && current < line; ++offset) {
      if (source_[offset] == '\n') {
        ++current;
        line_start = offset + 1;
      }
    }
  }
  // pegen decodes the first byte_column + 1 bytes of the line it has (the byte at the column
  // counts even if it starts a multi-byte character). While the tokenizer still stands on the
  // error's line, that is its buffer, which starts where it last read a line outside a token:
  // after a string running over lines, at that string's first line (`x = b"""\né"""`: CPython
  // counts the column's bytes from `x`).
  const Tokenizer& furthest = second_pass_is_further() ? tokenizer_ : *first_pass_tokenizer_;
  const std::uint32_t buffer =
      furthest.line_start() == line_start ? furthest.buffer_start() : line_start;
  const auto size = static_cast<std::uint32_t>(source_.size());
  const std::uint32_t end = buffer + static_cast<std::uint32_t>(byte_column) + 1;
  // Past the end, the terminating NUL is the one more byte decoded.
  if (end > size) return static_cast<int>(utf8::count_code_points(source_.substr(buffer, size - buffer))) + 1;
  return static_cast<int>(utf8::count_code_points(source_.substr(buffer, end - buffer)));
}

}  // namespace weightspace::python
