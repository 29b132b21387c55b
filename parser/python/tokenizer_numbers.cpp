// SPDX-License-Identifier: GPL-3.0-or-later
// Number literals, as CPython 3.11's tok_get reads them (including its peculiar look-ahead
// that lets `1if x else y` through with only a DeprecationWarning).
#include "parser/python/tokenizer.hpp"

namespace weightspace::python {
namespace {

constexpr int kFailed = -2;

bool is_digit(int character) { return character >= '0' && character <= '9'; }

bool is_hex_digit(int character) {
  return is_digit(character) || (character >= 'a' && character <= 'f') ||
         (character >= 'A' && character <= 'F');
}

bool is_identifier_char(int character) {
  return (character >= 'a' && character <= 'z') || (character >= 'A' && character <= 'Z') ||
         character == '_' || character >= 128 || is_digit(character);
}

}  // namespace

// lookahead(): does `text` follow the cursor, and then a character that cannot continue a
// name? The cursor is left where it was.
bool Tokenizer::lookahead(const char* text) {
  const char* expected = text;
  for (;;) {
    const int character = next_char();
    bool matched = false;
    if (*expected == '\0') {
      matched = !is_identifier_char(character);
    } else if (character == *expected) {
      ++expected;
      continue;
    }
    backup(character);
    while (expected != text) {
      --expected;
      backup(*expected);
    }
    return matched;
  }
}

// False (with the error set) when a name character glues onto the number, except before the
// keywords that may follow a number in valid code (a DeprecationWarning in 3.11).
bool Tokenizer::verify_end_of_number(int character, const char* kind) {
  bool keyword_follows = false;
  if (character == 'a') {
    keyword_follows = lookahead("nd");
  } else if (character == 'e') {
    keyword_follows = lookahead("lse");
  } else if (character == 'f') {
    keyword_follows = lookahead("or");
  } else if (character == 'i') {
    const int second = next_char();
    keyword_follows = second == 'f' || second == 'n' || second == 's';
    backup(second);
  } else if (character == 'o') {
    keyword_follows = lookahead("r");
  } else if (character == 'n') {
    keyword_follows = lookahead("ot");
  }
  if (keyword_follows) return true;
  if (is_identifier_char(character)) {
    backup(character);
    fail_immediate(std::string("invalid ") + kind + " literal");
    return false;
  }
  return true;
}

int Tokenizer::decimal_tail() {
  int character;
  for (;;) {
    do {
      character = next_char();
    } while (is_digit(character));
    if (character != '_') break;
    character = next_char();
    if (!is_digit(character)) {
      backup(character);
      fail_immediate("invalid decimal literal");
      return kFailed;
    }
  }
  return character;
}

Token Tokenizer::number(int character, std::uint32_t start) {
  enum class Next { Done, Fraction, Exponent, Imaginary };
  Next next = Next::Done;
  const auto error_token = [this] {
    Token token;
    token.kind = TokenKind::Error;
    token.line = token.end_line = line_;
    return token;
  };
  if (character == '.') {
    character = next_char();
    next = Next::Fraction;
  } else if (character == '0') {
    character = next_char();
    if (character == 'x' || character == 'X') {
      character = next_char();
      do {
        if (character == '_') character = next_char();
        if (!is_hex_digit(character)) {
          backup(character);
          return fail_immediate("invalid hexadecimal literal");
        }
        do {
          character = next_char();
        } while (is_hex_digit(character));
      } while (character == '_');
      if (!verify_end_of_number(character, "hexadecimal")) return error_token();
    } else if (character == 'o' || character == 'O' || character == 'b' || character == 'B') {
      const bool octal = character == 'o' || character == 'O';
      const char* kind = octal ? "octal" : "binary";
      const int limit = octal ? '8' : '2';
      character = next_char();
      do {
        if (character == '_') character = next_char();
        if (character < '0' || character >= limit) {
          if (is_digit(character)) {
            return fail_immediate(std::string("invalid digit '") + static_cast<char>(character) +
                                  "' in " + kind + " literal");
          }
          backup(character);
          return fail_immediate(std::string("invalid ") + kind + " literal");
        }
        do {
          character = next_char();
        } while (character >= '0' && character < limit);
      } while (character == '_');
      if (is_digit(character)) {
        return fail_immediate(std::string("invalid digit '") + static_cast<char>(character) +
                              "' in " + kind + " literal");
      }
      if (!verify_end_of_number(character, kind)) return error_token();
    } else {
      // `0`, `00`, `0_0`, or the start of a float; `07` is the old octal syntax.
      bool nonzero = false;
      for (;;) {
        if (character == '_') {
          character = next_char();
          if (!is_digit(character)) {
            backup(character);
            return fail_immediate("invalid decimal literal");
          }
        }
        if (character != '0') break;
        character = next_char();
      }
      if (is_digit(character)) {
        nonzero = true;
        character = decimal_tail();
        if (character == kFailed) return error_token();
      }
      if (character == '.') {
        character = next_char();
        next = Next::Fraction;
      } else if (character == 'e' || character == 'E') {
        next = Next::Exponent;
      } else if (character == 'j' || character == 'J') {
        next = Next::Imaginary;
      } else if (nonzero) {
        backup(character);
        // syntaxerror_known_range: a byte column, unlike the other tokenizer errors.
        return fail_immediate(
            "leading zeros in decimal integer literals are not permitted; use an 0o prefix for "
            "octal integers",
            static_cast<int>(start - line_start_) + 1);
      } else if (!verify_end_of_number(character, "decimal")) {
        return error_token();
      }
    }
  } else {
    character = decimal_tail();
    if (character == kFailed) return error_token();
    if (character == '.') {
      character = next_char();
      next = Next::Fraction;
    } else if (character == 'e' || character == 'E') {
      next = Next::Exponent;
    } else if (character == 'j' || character == 'J') {
      next = Next::Imaginary;
    } else if (!verify_end_of_number(character, "decimal")) {
      return error_token();
    }
  }
  if (next == Next::Fraction) {
    if (is_digit(character)) {
      character = decimal_tail();
      if (character == kFailed) return error_token();
    }
    if (character == 'e' || character == 'E') {
      next = Next::Exponent;
    } else if (character == 'j' || character == 'J') {
      next = Next::Imaginary;
    } else if (!verify_end_of_number(character, "decimal")) {
      return error_token();
    } else {
      next = Next::Done;
    }
  }
  if (next == Next::Exponent) {
    const int exponent_letter = character;
    character = next_char();
    if (character == '+' || character == '-') {
      character = next_char();
      if (!is_digit(character)) {
        backup(character);
        return fail_immediate("invalid decimal literal");
      }
    } else if (!is_digit(character)) {
      // `1e` not followed by digits: the number ends before the `e`.
      backup(character);
      if (!verify_end_of_number(exponent_letter, "decimal")) return error_token();
      backup(exponent_letter);
      return make(TokenKind::Number, start, cursor_);
    }
    character = decimal_tail();
    if (character == kFailed) return error_token();
    if (character == 'j' || character == 'J') {
      next = Next::Imaginary;
    } else if (!verify_end_of_number(character, "decimal")) {
      return error_token();
    } else {
      next = Next::Done;
    }
  }
  if (next == Next::Imaginary) {
    character = next_char();
    if (!verify_end_of_number(character, "imaginary")) return error_token();
  }
  backup(character);
  return make(TokenKind::Number, start, cursor_);
}

}  // namespace weightspace::python
