// SPDX-License-Identifier: GPL-3.0-or-later
// Names, strings and operators, as CPython 3.11's tok_get reads them.
#include <cstdio>
#include <string>

#include "parser/python/tokenizer.hpp"
#include "parser/python/unicode_tables.hpp"
#include "parser/utf8.hpp"

namespace weightspace::python {
namespace {

bool is_identifier_start(int character) {
  return (character >= 'a' && character <= 'z') || (character >= 'A' && character <= 'Z') ||
         character == '_' || character >= 128;
}

bool is_identifier_char(int character) {
  return is_identifier_start(character) || (character >= '0' && character <= '9');
}

struct KeywordEntry {
  std::string_view text;
  Keyword keyword;
};
constexpr KeywordEntry kKeywords[] = {
    {"False", Keyword::False},   {"None", Keyword::NoneValue},  {"True", Keyword::True},
    {"and", Keyword::And},       {"as", Keyword::As},           {"assert", Keyword::Assert},
    {"async", Keyword::Async},   {"await", Keyword::Await},     {"break", Keyword::Break},
    {"class", Keyword::Class},   {"continue", Keyword::Continue}, {"def", Keyword::Def},
    {"del", Keyword::Del},       {"elif", Keyword::Elif},       {"else", Keyword::Else},
    {"except", Keyword::Except}, {"finally", Keyword::Finally}, {"for", Keyword::For},
    {"from", Keyword::From},     {"global", Keyword::Global},   {"if", Keyword::If},
    {"import", Keyword::Import}, {"in", Keyword::In},           {"is", Keyword::Is},
    {"lambda", Keyword::Lambda}, {"nonlocal", Keyword::Nonlocal}, {"not", Keyword::Not},
    {"or", Keyword::Or},         {"pass", Keyword::Pass},       {"raise", Keyword::Raise},
    {"return", Keyword::Return}, {"try", Keyword::Try},         {"while", Keyword::While},
    {"with", Keyword::With},     {"yield", Keyword::Yield},     {"match", Keyword::SoftMatch},
    {"case", Keyword::SoftCase}, {"_", Keyword::SoftUnderscore},
};

Keyword keyword_of(std::string_view text) {
  if (text.size() > 8) return Keyword::None;
  for (const KeywordEntry& entry : kKeywords) {
    if (text == entry.text) return entry.keyword;
  }
  return Keyword::None;
}

Op two_char_operator(int first, int second) {
  switch (first) {
    case '!': return second == '=' ? Op::NotEqual : Op::None;
    case '%': return second == '=' ? Op::PercentEqual : Op::None;
    case '&': return second == '=' ? Op::AmpersandEqual : Op::None;
    case '*': return second == '*' ? Op::DoubleStar : second == '=' ? Op::StarEqual : Op::None;
    case '+': return second == '=' ? Op::PlusEqual : Op::None;
    case '-': return second == '=' ? Op::MinusEqual : second == '>' ? Op::RightArrow : Op::None;
    case '/': return second == '/' ? Op::DoubleSlash : second == '=' ? Op::SlashEqual : Op::None;
    case ':': return second == '=' ? Op::ColonEqual : Op::None;
    case '<':
      return second == '<'   ? Op::LeftShift
             : second == '=' ? Op::LessEqual
             : second == '>' ? Op::LessGreater
                             : Op::None;
    case '=': return second == '=' ? Op::EqualEqual : Op::None;
    case '>': return second == '=' ? Op::GreaterEqual : second == '>' ? Op::RightShift : Op::None;
    case '@': return second == '=' ? Op::AtEqual : Op::None;
    case '^': return second == '=' ? Op::CircumflexEqual : Op::None;
    case '|': return second == '=' ? Op::VerticalBarEqual : Op::None;
    default: return Op::None;
  }
}

Op three_char_operator(Op two, int third) {
  if (third != '=') return Op::None;
  switch (two) {
    case Op::DoubleStar: return Op::DoubleStarEqual;
    case Op::DoubleSlash: return Op::DoubleSlashEqual;
    case Op::LeftShift: return Op::LeftShiftEqual;
    case Op::RightShift: return Op::RightShiftEqual;
    default: return Op::None;
  }
}

Op one_char_operator(int character) {
  switch (character) {
    case '(': return Op::LeftParen;
    case ')': return Op::RightParen;
    case '[': return Op::LeftBracket;
    case ']': return Op::RightBracket;
    case '{': return Op::LeftBrace;
    case '}': return Op::RightBrace;
    case ':': return Op::Colon;
    case ',': return Op::Comma;
    case ';': return Op::Semicolon;
    case '+': return Op::Plus;
    case '-': return Op::Minus;
    case '*': return Op::Star;
    case '/': return Op::Slash;
    case '|': return Op::VerticalBar;
    case '&': return Op::Ampersand;
    case '<': return Op::Less;
    case '>': return Op::Greater;
    case '=': return Op::Equal;
    case '.': return Op::Dot;
    case '%': return Op::Percent;
    case '~': return Op::Tilde;
    case '^': return Op::Circumflex;
    case '@': return Op::At;
    default: return Op::Other;
  }
}

std::string hex4(char32_t code_point) {
  char buffer[16];
  std::snprintf(buffer, sizeof buffer, "%04X", static_cast<unsigned>(code_point));
  return buffer;
}

}  // namespace

Token Tokenizer::name_or_string(int character, std::uint32_t start) {
  bool saw_b = false, saw_r = false, saw_u = false, saw_f = false;
  for (;;) {
    if (!(saw_b || saw_u || saw_f) && (character == 'b' || character == 'B')) {
      saw_b = true;
    } else if (!(saw_b || saw_u || saw_r || saw_f) && (character == 'u' || character == 'U')) {
      saw_u = true;
    } else if (!(saw_r || saw_u) && (character == 'r' || character == 'R')) {
      saw_r = true;
    } else if (!(saw_f || saw_b || saw_u) && (character == 'f' || character == 'F')) {
      saw_f = true;
    } else {
      break;
    }
    character = next_char();
    if (character == '"' || character == '\'') return string(character, start);
  }
  bool non_ascii = false;
  while (is_identifier_char(character)) {
    if (character >= 128) non_ascii = true;
    character = next_char();
  }
  backup(character);
  if (non_ascii && !verify_identifier(start)) return invalid_character(start);
  const std::string_view text = source_.substr(start, cursor_ - start);
  const Keyword keyword = non_ascii ? Keyword::None : keyword_of(text);
  return make(TokenKind::Name, start, cursor_, static_cast<std::uint8_t>(keyword));
}

// verify_identifier(): false when a character of the name is not XID; the cursor then stands
// right after the offending character, as CPython leaves it for the error column.
bool Tokenizer::verify_identifier(std::uint32_t start) {
  std::uint32_t offset = start;
  bool first = true;
  while (offset < cursor_) {
    const char32_t code_point = utf8::decode(source_, offset);
    const bool valid = first ? (code_point == '_' || is_xid_start(code_point))
                             : is_xid_continue(code_point);
    if (!valid) {
      invalid_code_point_ = code_point;
      cursor_ = offset;
      return false;
    }
    first = false;
  }
  return true;
}

Token Tokenizer::invalid_character(std::uint32_t /*start*/) {
  const char32_t code_point = invalid_code_point_;
  if (is_printable(code_point)) {
    std::string text = "invalid character '";
    utf8::append_code_point(text, code_point);
    text += "' (U+" + hex4(code_point) + ")";
    return fail_immediate(std::move(text));
  }
  return fail_immediate("invalid non-printable character U+" + hex4(code_point));
}

Token Tokenizer::operator_token(int character, std::uint32_t start) {
  const int second = next_char();
  const Op two = two_char_operator(character, second);
  if (two != Op::None) {
    const int third = next_char();
    const Op three = three_char_operator(two, third);
    if (three == Op::None) backup(third);
    const Op op = three != Op::None ? three : two;
    return make(TokenKind::Operator, start, cursor_, static_cast<std::uint8_t>(op));
  }
  backup(second);
  switch (character) {
    case '(':
    case '[':
    case '{':
      if (level_ >= kMaxBrackets) return fail_immediate("too many nested parentheses");
      brackets_[static_cast<std::size_t>(level_)] = {static_cast<char>(character), line_,
                                                    line_start_, start};
      ++level_;
      break;
    case ')':
    case ']':
    case '}': {
      if (level_ == 0) {
        return fail_immediate(std::string("unmatched '") + static_cast<char>(character) + "'");
      }
      --level_;
      const Bracket& opening = brackets_[static_cast<std::size_t>(level_)];
      const bool matches = (opening.character == '(' && character == ')') ||
                           (opening.character == '[' && character == ']') ||
                           (opening.character == '{' && character == '}');
      if (!matches) {
        std::string text = std::string("closing parenthesis '") + static_cast<char>(character) +
                           "' does not match opening parenthesis '" + opening.character + "'";
        if (opening.line != line_) text += " on line " + std::to_string(opening.line);
        return fail_immediate(std::move(text));
      }
      break;
    }
    default:
      break;
  }
  if (character < 0x20 || character == 0x7F) {
    return fail_immediate("invalid non-printable character U+" +
                          hex4(static_cast<char32_t>(character)));
  }
  return make(TokenKind::Operator, start, cursor_,
              static_cast<std::uint8_t>(one_char_operator(character)));
}

Token Tokenizer::string(int quote, std::uint32_t start) {
  first_line_of_string_ = line_;
  string_line_start_ = line_start_;
  int quote_size = 1;
  int end_quote_size = 0;
  int character = next_char();
  if (character == quote) {
    character = next_char();
    if (character == quote) {
      quote_size = 3;
    } else {
      end_quote_size = 1;  // the empty string
    }
  }
  if (character != quote) backup(character);
  while (end_quote_size != quote_size) {
    character = next_char();
    if (character == kEof || (quote_size == 1 && character == '\n')) {
      // CPython reports it at the opening quote's line, one character into the token.
      const int detected_at = line_;
      cursor_ = start + 1;
      line_start_ = string_line_start_;
      line_ = first_line_of_string_;
      const char* what = quote_size == 3 ? "unterminated triple-quoted string literal"
                                         : "unterminated string literal";
      return fail_immediate(std::string(what) + " (detected at line " +
                            std::to_string(detected_at) + ")");
    }
    if (character == quote) {
      ++end_quote_size;
    } else {
      end_quote_size = 0;
      if (character == '\\') next_char();
    }
  }
  return make(TokenKind::String, start, cursor_);
}

}  // namespace weightspace::python
