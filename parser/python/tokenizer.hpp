// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "parser/python/error.hpp"

namespace weightspace::python {

enum class TokenKind : std::uint8_t {
  EndMarker, Name, Number, String, Newline, Indent, Dedent, Operator, Error
};

// Operator tokens, one code each so the parser compares a byte.
enum class Op : std::uint8_t {
  None, LeftParen, RightParen, LeftBracket, RightBracket, LeftBrace, RightBrace, Colon, Comma,
  Semicolon, Plus, Minus, Star, Slash, VerticalBar, Ampersand, Less, Greater, Equal, Dot,
  Percent, EqualEqual, NotEqual, LessEqual, GreaterEqual, Tilde, Circumflex, LeftShift,
  RightShift, DoubleStar, PlusEqual, MinusEqual, StarEqual, SlashEqual, PercentEqual,
  AmpersandEqual, VerticalBarEqual, CircumflexEqual, LeftShiftEqual, RightShiftEqual,
  DoubleStarEqual, DoubleSlash, DoubleSlashEqual, At, AtEqual, RightArrow, Ellipsis, ColonEqual,
  LessGreater,  // `<>`: a NOTEQUAL token that the 3.11 grammar always rejects
  Other,        // any other printable character ($, ?, `, !): always a syntax error
};

// NAME tokens that are keywords. Soft keywords (match, case, _) stay names but are flagged.
enum class Keyword : std::uint8_t {
  None, False, NoneValue, True, And, As, Assert, Async, Await, Break, Class, Continue, Def, Del,
  Elif, Else, Except, Finally, For, From, Global, If, Import, In, Is, Lambda, Nonlocal, Not, Or,
  Pass, Raise, Return, Try, While, With, Yield,
  SoftMatch, SoftCase, SoftUnderscore,  // still NAME tokens
};

struct Token {
  TokenKind kind = TokenKind::EndMarker;
  std::uint8_t code = 0;    // Op for operators, Keyword for names
  std::int16_t level = 0;   // bracket depth once the token is read (CPython's token->level)
  std::uint32_t start = 0;  // byte offsets into the source
  std::uint32_t end = 0;
  std::int32_t line = 0, end_line = 0;
  // Byte columns; -1 where CPython has no position (INDENT, DEDENT, ENDMARKER, errors).
  std::int32_t column = -1, end_column = -1;
  std::int32_t padding = 0;  // 32 bytes: cheap indexing

  Op op() const { return kind == TokenKind::Operator ? static_cast<Op>(code) : Op::None; }
  Keyword keyword() const {
    return kind == TokenKind::Name ? static_cast<Keyword>(code) : Keyword::None;
  }
};

// Why next() returned an Error token. Errors CPython's tokenizer raises itself (`immediate`)
// win over parser errors found earlier in the source; the others only matter when the parser
// asks for that token, and pegen words them using the parser state.
struct TokenizerError {
  enum class Type : std::uint8_t {
    Immediate,            // `error` is complete
    InconsistentTabs,     // TabError
    TooDeep,              // too many levels of indentation
    Dedent,               // unindent does not match any outer indentation level
    LineContinuation,     // unexpected character after line continuation character
    EndOfFile,            // EOF inside brackets (never closed) or after a backslash
  };
  Type type = Type::Immediate;
  std::optional<EditError> error;
  int line = 0;
  std::uint32_t position = 0;  // tokenizer cursor (byte offset) when it stopped
};

// CPython 3.11's tokenizer (Parser/tokenizer.c) over source whose line ends are already
// '\n' and which ends with '\n'. Pull-based: the parser asks for one token at a time, so
// errors surface exactly when CPython's parser would see them.
class Tokenizer {
 public:
  explicit Tokenizer(std::string_view source);

  Token next();
  const TokenizerError& error() const { return error_; }

  int level() const { return level_; }
  // The innermost open bracket: its character, line and byte column.
  char open_bracket() const { return brackets_[static_cast<std::size_t>(level_ - 1)].character; }
  int open_bracket_line() const { return brackets_[static_cast<std::size_t>(level_ - 1)].line; }
  // 1-based character column of the innermost open bracket, as pegen reports it.
  int open_bracket_column() const;
  std::uint32_t line_start() const { return line_start_; }
  // CPython's tok->buf: where the tokenizer last read a new line while no token was in
  // progress. A string or a backslash continuation running over lines leaves it on their first
  // line, and pegen decodes an error's byte column from there (Parser/pegen_errors.c).
  std::uint32_t buffer_start() const { return buffer_start_; }
  // Code points in the first `bytes` bytes of that buffer (bytes <= cursor() - buffer_start()).
  int buffer_column(std::uint32_t bytes) const {
    return character_column(buffer_start_, buffer_start_ + bytes);
  }
  std::uint32_t cursor() const { return cursor_; }
  int line() const { return line_; }
  std::string_view source() const { return source_; }

  // 1-based character column of byte `offset` in the line starting at `line_start`.
  int character_column(std::uint32_t line_start, std::uint32_t offset) const;

  static constexpr int kMaxBrackets = 200;  // CPython MAXLEVEL
  static constexpr int kMaxIndent = 100;    // CPython MAXINDENT

 private:
  static constexpr int kEof = -1;

  // Called for every byte: the common case stays inline, the move to the next line does not.
  int next_char() {
    if (cursor_ != line_end_) [[likely]] return static_cast<unsigned char>(source_[cursor_++]);
    return next_line_char();
  }
  int next_line_char();
  void backup(int character) {
    if (character != kEof) --cursor_;
  }
  Token make(TokenKind kind, std::uint32_t start, std::uint32_t end, std::uint8_t code = 0);
  Token fail_immediate(std::string message, int column = -1);
  Token fail(TokenizerError::Type type);
  bool read_indentation(Token& out);
  int continuation_line();
  Token name_or_string(int character, std::uint32_t start);
  Token number(int character, std::uint32_t start);
  Token string(int quote, std::uint32_t start);
  Token operator_token(int character, std::uint32_t start);
  bool verify_identifier(std::uint32_t start);
  bool verify_end_of_number(int character, const char* kind);
  bool lookahead(const char* text);
  int decimal_tail();
  Token invalid_character(std::uint32_t start);

  std::string_view source_;
  std::uint32_t cursor_ = 0;      // next byte to read
  std::uint32_t line_start_ = 0;  // first byte of the current line
  std::uint32_t line_end_ = 0;    // one past the current line's '\n'
  std::uint32_t token_start_ = 0;
  std::uint32_t buffer_start_ = 0;
  bool in_token_ = false;  // CPython's tok->start != NULL
  int line_ = 0;
  bool at_eof_ = false;
  bool at_line_start_ = true;
  int pending_indents_ = 0;  // >0: INDENTs to emit, <0: DEDENTs
  int indent_ = 0;
  std::array<int, kMaxIndent> indent_columns_{};
  std::array<int, kMaxIndent> indent_alt_columns_{};  // tabs counted as 1, to detect mixing
  struct Bracket {
    char character;
    int line;
    std::uint32_t line_start;
    std::uint32_t offset;
  };
  int level_ = 0;
  std::array<Bracket, kMaxBrackets> brackets_{};
  bool failed_ = false;
  bool blank_line_ = false;
  char32_t invalid_code_point_ = 0;
  int first_line_of_string_ = 0;
  std::uint32_t string_line_start_ = 0;
  TokenizerError error_;
};

// "message (<unknown>, line N)", as str() of a SyntaxError from ast.parse prints.
EditError syntax_error(std::string_view kind, std::string_view message, int line, int column);

}  // namespace weightspace::python
