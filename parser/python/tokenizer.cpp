// SPDX-License-Identifier: GPL-3.0-or-later
// The token rules follow CPython 3.11's Parser/tokenizer.c (tok_get) step by step, because
// which error wins, and where, depends on the exact order in which it reads characters.
#include "parser/python/tokenizer.hpp"

#include <cstdio>
#include <cstring>

#include "parser/python/unicode_tables.hpp"
#include "parser/utf8.hpp"

namespace weightspace::python {
namespace {

constexpr int kTabSize = 8;

bool is_identifier_start(int character) {
  return (character >= 'a' && character <= 'z') || (character >= 'A' && character <= 'Z') ||
         character == '_' || character >= 128;
}



}  // namespace

EditError syntax_error(std::string_view kind, std::string_view message, int line, int column) {
  std::string text(message);
  text += " (<unknown>, line ";
  text += std::to_string(line);
  text += ')';
  return EditError(std::string(kind), std::move(text), line, column);
}

Tokenizer::Tokenizer(std::string_view source) : source_(source) {}

int Tokenizer::character_column(std::uint32_t line_start, std::uint32_t offset) const {
  return static_cast<int>(utf8::count_code_points(source_.substr(line_start, offset - line_start)));
}

int Tokenizer::open_bracket_column() const {
  const Bracket& bracket = brackets_[static_cast<std::size_t>(level_ - 1)];
  return character_column(bracket.line_start, bracket.offset) + 1;
}

int Tokenizer::next_line_char() {
  if (at_eof_ || line_end_ >= source_.size()) {
    at_eof_ = true;
    return kEof;
  }
  line_start_ = cursor_;
  if (!in_token_) buffer_start_ = cursor_;
  const void* newline = std::memchr(source_.data() + cursor_, '\n', source_.size() - cursor_);
  line_end_ = newline == nullptr
                  ? static_cast<std::uint32_t>(source_.size())
                  : static_cast<std::uint32_t>(static_cast<const char*>(newline) - source_.data()) + 1;
  ++line_;
  return static_cast<unsigned char>(source_[cursor_++]);
}

Token Tokenizer::make(TokenKind kind, std::uint32_t start, std::uint32_t end, std::uint8_t code) {
  Token token;
  token.kind = kind;
  token.code = code;
  token.level = static_cast<std::int16_t>(level_);
  token.start = start;
  token.end = end;
  const bool is_string = kind == TokenKind::String;
  token.line = is_string ? first_line_of_string_ : line_;
  token.end_line = line_;
  const std::uint32_t first_line_start = is_string ? string_line_start_ : line_start_;
  token.column = static_cast<std::int32_t>(start - first_line_start);
  token.end_column = static_cast<std::int32_t>(end - line_start_);
  return token;
}

Token Tokenizer::fail_immediate(std::string message, int column) {
  // CPython's syntaxerror(): the column counts the characters before the cursor.
  if (column < 0) column = character_column(line_start_, cursor_);
  failed_ = true;
  error_.type = TokenizerError::Type::Immediate;
  error_.error = syntax_error("SyntaxError", message, line_, column);
  error_.line = line_;
  error_.position = cursor_;
  Token token;
  token.kind = TokenKind::Error;
  token.line = token.end_line = line_;
  token.level = static_cast<std::int16_t>(level_);
  at_eof_ = true;  // like tok->done != E_OK: nothing more comes out
  line_end_ = cursor_;
  return token;
}

Token Tokenizer::fail(TokenizerError::Type type) {
  failed_ = true;
  error_.type = type;
  error_.error.reset();
  error_.line = line_;
  error_.position = cursor_;
  Token token;
  token.kind = TokenKind::Error;
  token.line = token.end_line = line_;
  token.level = static_cast<std::int16_t>(level_);
  at_eof_ = true;
  line_end_ = cursor_;
  return token;
}

int Tokenizer::continuation_line() {
  int character = next_char();
  if (character != '\n') {
    error_.type = TokenizerError::Type::LineContinuation;
    return -2;
  }
  character = next_char();
  if (character == kEof) {
    error_.type = TokenizerError::Type::EndOfFile;
    cursor_ = line_end_;
    return -2;
  }
  backup(character);
  return character;
}

// Returns false with `out` set to an INDENT/DEDENT bookkeeping error token.
bool Tokenizer::read_indentation(Token& out) {
  int column = 0;
  int alt_column = 0;
  int continuation_column = 0;
  int character;
  for (;;) {
    character = next_char();
    if (character == ' ') {
      ++column;
      ++alt_column;
    } else if (character == '\t') {
      column = (column / kTabSize + 1) * kTabSize;
      alt_column = alt_column + 1;
    } else if (character == '\f') {
      column = alt_column = 0;
    } else if (character == '\\') {
      // The first backslash fixes the indentation of a line split with backslashes.
      continuation_column = continuation_column != 0 ? continuation_column : column;
      character = continuation_line();
      if (character == -2) {
        out = fail(error_.type);
        return false;
      }
    } else {
      break;
    }
  }
  backup(character);
  const bool blank = character == '#' || character == '\n';
  blank_line_ = blank;
  if (blank || level_ != 0) return true;
  if (continuation_column != 0) column = alt_column = continuation_column;
  const auto depth = static_cast<std::size_t>(indent_);
  if (column == indent_columns_[depth]) {
    if (alt_column != indent_alt_columns_[depth]) {
      cursor_ = line_end_;
      out = fail(TokenizerError::Type::InconsistentTabs);
      return false;
    }
  } else if (column > indent_columns_[depth]) {
    if (indent_ + 1 >= kMaxIndent) {
      cursor_ = line_end_;
      out = fail(TokenizerError::Type::TooDeep);
      return false;
    }
    if (alt_column <= indent_alt_columns_[depth]) {
      cursor_ = line_end_;
      out = fail(TokenizerError::Type::InconsistentTabs);
      return false;
    }
    ++pending_indents_;
    ++indent_;
    indent_columns_[static_cast<std::size_t>(indent_)] = column;
    indent_alt_columns_[static_cast<std::size_t>(indent_)] = alt_column;
  } else {
    while (indent_ > 0 && column < indent_columns_[static_cast<std::size_t>(indent_)]) {
      --pending_indents_;
      --indent_;
    }
    if (column != indent_columns_[static_cast<std::size_t>(indent_)]) {
      cursor_ = line_end_;
      out = fail(TokenizerError::Type::Dedent);
      return false;
    }
    if (alt_column != indent_alt_columns_[static_cast<std::size_t>(indent_)]) {
      cursor_ = line_end_;
      out = fail(TokenizerError::Type::InconsistentTabs);
      return false;
    }
  }
  return true;
}

Token Tokenizer::next() {
  if (failed_) {
    Token again;
    again.kind = TokenKind::Error;
    again.line = again.end_line = line_;
    return again;
  }
  for (;;) {  // nextline
    in_token_ = false;
    blank_line_ = false;
    if (at_line_start_) {
      at_line_start_ = false;
      Token failure;
      if (!read_indentation(failure)) return failure;
    }
    token_start_ = cursor_;
    if (pending_indents_ != 0) {
      Token token;
      token.kind = pending_indents_ < 0 ? TokenKind::Dedent : TokenKind::Indent;
      pending_indents_ += pending_indents_ < 0 ? 1 : -1;
      token.level = static_cast<std::int16_t>(level_);
      token.start = token.end = cursor_;
      token.line = token.end_line = line_;
      return token;
    }
    for (;;) {  // again
      in_token_ = false;
      int character;
      do {
        character = next_char();
      } while (character == ' ' || character == '\t' || character == '\f');
      in_token_ = true;
      const std::uint32_t start = character == kEof ? cursor_ : cursor_ - 1;
      token_start_ = start;
      if (character == '#') {
        while (character != kEof && character != '\n') character = next_char();
      }
      if (character == kEof) {
        if (level_ != 0) return fail(TokenizerError::Type::EndOfFile);
        Token token;
        token.kind = TokenKind::EndMarker;
        token.start = token.end = cursor_;
        token.line = token.end_line = line_;
        return token;
      }
      if (is_identifier_start(character)) return name_or_string(character, start);
      if (character == '\n') {
        at_line_start_ = true;
        if (blank_line_ || level_ > 0) break;  // to nextline
        return make(TokenKind::Newline, start, cursor_ - 1);
      }
      if (character == '.') {
        character = next_char();
        if (character >= '0' && character <= '9') {
          backup(character);
          return number('.', start);
        }
        if (character == '.') {
          character = next_char();
          if (character == '.') {
            return make(TokenKind::Operator, start, cursor_, static_cast<std::uint8_t>(Op::Ellipsis));
          }
          backup(character);
          backup('.');
        } else {
          backup(character);
        }
        return make(TokenKind::Operator, start, cursor_, static_cast<std::uint8_t>(Op::Dot));
      }
      if (character >= '0' && character <= '9') return number(character, start);
      if (character == '\'' || character == '"') return string(character, start);
      if (character == '\\') {
        if (continuation_line() == -2) return fail(error_.type);
        continue;  // again
      }
      return operator_token(character, start);
    }
  }
}

}  // namespace weightspace::python
