// SPDX-License-Identifier: GPL-3.0-or-later
// f-strings as Python 3.11 parses them (Parser/string_parser.c): the tokenizer hands over one
// STRING token; the literal parts are decoded like plain strings and each replacement field
// is parsed on its own as `(expression)`.
#include <string>

#include "parser/python/parser.hpp"
#include "parser/python/string_literal.hpp"

namespace weightspace::python {
namespace {

constexpr int kMaxFieldNesting = 200;  // string_parser.c's parenthesis stack (MAXLEVEL)

bool is_ascii_space(char character) {
  return character == ' ' || character == '\t' || character == '\n' || character == '\r' ||
         character == '\f' || character == '\v';
}

[[noreturn]] void fail(std::string message) { throw StringLiteralError{std::move(message)}; }

class FStringScanner {
 public:
  FStringScanner(std::string_view body, bool raw, int line) : body_(body), raw_(raw), line_(line) {}

  // _PyPegen_FstringParser_ConcatFstring: literals and fields up to the end (level 0) or up
  // to the '}' closing a format spec (deeper levels). Returns the deepest field.
  int parse(int level) {
    int deepest = 0;
    for (;;) {
      const bool doubled_brace = literal(level);
      if (doubled_brace) continue;
      if (position_ >= body_.size() || body_[position_] == '}') break;
      deepest = std::max(deepest, field(level));
    }
    if (level != 0 && (position_ >= body_.size() || body_[position_] != '}')) {
      fail("f-string: expecting '}'");
    }
    return deepest;
  }

 private:
  // fstring_find_literal: true when it stopped at a doubled brace (which it swallowed).
  bool literal(int level) {
    const std::size_t start = position_;
    std::size_t cursor = position_;
    bool doubled = false;
    std::size_t literal_end = 0;
    bool finished = false;
    while (cursor < body_.size() && !finished) {
      char character = body_[cursor++];
      if (!raw_ && character == '\\' && cursor < body_.size()) {
        character = body_[cursor++];
        if (character == 'N') {
          if (cursor < body_.size() && body_[cursor++] == '{') {
            while (cursor < body_.size() && body_[cursor++] != '}') {
            }
          }
          continue;
        }
      }
      if (character == '{' || character == '}') {
        if (level == 0) {
          if (cursor < body_.size() && body_[cursor] == character) {
            literal_end = cursor;
            position_ = cursor + 1;
            doubled = true;
            finished = true;
            break;
          }
          if (character == '}') fail("f-string: single '}' is not allowed");
        }
        --cursor;
        finished = true;
        break;
      }
    }
    if (!doubled) {
      literal_end = cursor;
      position_ = cursor;
    }
    if (literal_end > start && !raw_) {
      std::u32string ignored;
      decode_str(body_.substr(start, literal_end - start), false, ignored);
    }
    return doubled;
  }

  // fstring_find_expr: one `{expression[=][!conversion][:format_spec]}`.
  int field(int level) {
    if (level >= 2) fail("f-string: expressions nested too deeply");
    ++position_;  // '{'
    const std::size_t expression_start = position_;
    char quote = 0;
    int quote_size = 0;
    int nesting = 0;
    char brackets[kMaxFieldNesting];
    for (; position_ < body_.size(); ++position_) {
      const char character = body_[position_];
      if (character == '\\') fail("f-string expression part cannot include a backslash");
      if (quote != 0) {
        if (character == quote) {
          if (quote_size == 3) {
            if (position_ + 2 < body_.size() && body_[position_ + 1] == character &&
                body_[position_ + 2] == character) {
              position_ += 2;
              quote = 0;
            }
          } else {
            quote = 0;
          }
        }
        continue;
      }
      if (character == '\'' || character == '"') {
        if (position_ + 2 < body_.size() && body_[position_ + 1] == character &&
            body_[position_ + 2] == character) {
          quote_size = 3;
          position_ += 2;
        } else {
          quote_size = 1;
        }
        quote = character;
      } else if (character == '[' || character == '{' || character == '(') {
        if (nesting >= kMaxFieldNesting) fail("f-string: too many nested parenthesis");
        brackets[nesting++] = character;
      } else if (character == '#') {
        fail("f-string expression part cannot include '#'");
      } else if (nesting == 0 && (character == '!' || character == ':' || character == '}' ||
                                  character == '=' || character == '>' || character == '<')) {
        if (position_ + 1 < body_.size()) {
          const char next = body_[position_ + 1];
          if ((character == '!' || character == '=' || character == '<' || character == '>') &&
              next == '=') {
            ++position_;
            continue;
          }
        }
        if (character == '>' || character == '<') continue;
        break;
      } else if (character == ']' || character == '}' || character == ')') {
        if (nesting == 0) fail(std::string("f-string: unmatched '") + character + "'");
        const char opening = brackets[--nesting];
        if (!((opening == '(' && character == ')') || (opening == '[' && character == ']') ||
              (opening == '{' && character == '}'))) {
          fail(std::string("f-string: closing parenthesis '") + character +
               "' does not match opening parenthesis '" + opening + "'");
        }
      }
    }
    if (quote != 0) fail("f-string: unterminated string");
    if (nesting != 0) fail(std::string("f-string: unmatched '") + brackets[nesting - 1] + "'");
    if (position_ >= body_.size()) fail("f-string: expecting '}'");
    const int expression_depth = compile_expression(expression_start, position_);
    if (body_[position_] == '=') {
      ++position_;
      while (position_ < body_.size() && is_ascii_space(body_[position_])) ++position_;
      if (position_ >= body_.size()) fail("f-string: expecting '}'");
    }
    if (body_[position_] == '!') {
      ++position_;
      if (position_ >= body_.size()) fail("f-string: expecting '}'");
      const char conversion = body_[position_++];
      if (conversion != 's' && conversion != 'r' && conversion != 'a') {
        fail("f-string: invalid conversion character: expected 's', 'r', or 'a'");
      }
    }
    if (position_ >= body_.size()) fail("f-string: expecting '}'");
    int format_depth = 0;
    if (body_[position_] == ':') {
      ++position_;
      if (position_ >= body_.size()) fail("f-string: expecting '}'");
      format_depth = 1 + parse(level + 1);  // the format spec is a JoinedStr
    }
    if (position_ >= body_.size() || body_[position_] != '}') fail("f-string: expecting '}'");
    ++position_;
    return 1 + std::max(expression_depth, format_depth);
  }

  // fstring_compile_expr: the text must hold more than whitespace; it is parsed wrapped in
  // parentheses by a parser of its own.
  int compile_expression(std::size_t start, std::size_t end) {
    bool blank = true;
    for (std::size_t index = start; index < end && blank; ++index) {
      const char character = body_[index];
      blank = character == ' ' || character == '\t' || character == '\n' || character == '\f';
    }
    if (blank) {
      const char terminator = body_[end];
      if (terminator == '!' || terminator == ':' || terminator == '=') {
        fail(std::string("f-string: expression required before '") + terminator + "'");
      }
      fail("f-string: empty expression not allowed");
    }
    std::string source = "(";
    source.append(body_.substr(start, end - start));
    source += ")\n";
    int lines_before = 0;
    for (std::size_t index = 0; index < start; ++index) lines_before += body_[index] == '\n';
    return Parser::parse_fstring_expression(source, line_ + lines_before);
  }

  std::string_view body_;
  bool raw_;
  int line_;
  std::size_t position_ = 0;
};

}  // namespace

int check_fstring(std::string_view body, bool raw, int line) {
  FStringScanner scanner(body, raw, line);
  return scanner.parse(0);
}

}  // namespace weightspace::python
