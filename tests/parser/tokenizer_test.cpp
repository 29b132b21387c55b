// SPDX-License-Identifier: GPL-3.0-or-later
// The tokenizer on its own. Expected messages and columns are CPython 3.11.2's (checked with
// `ast.parse` on the same text); columns are Python's SyntaxError.offset.
#include "parser/python/tokenizer.hpp"

#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace weightspace::python {
namespace {

std::vector<Token> tokenize(std::string_view source) {
  Tokenizer tokenizer(source);
  std::vector<Token> tokens;
  for (;;) {
    tokens.push_back(tokenizer.next());
    const TokenKind kind = tokens.back().kind;
    if (kind == TokenKind::EndMarker || kind == TokenKind::Error) return tokens;
  }
}

std::vector<TokenKind> kinds(std::string_view source) {
  std::vector<TokenKind> result;
  for (const Token& token : tokenize(source)) result.push_back(token.kind);
  return result;
}

// The error the tokenizer raises itself (the `Immediate` ones), or "" if none.
std::string immediate_error(std::string_view source, int* line = nullptr, int* column = nullptr) {
  Tokenizer tokenizer(source);
  for (;;) {
    const Token token = tokenizer.next();
    if (token.kind == TokenKind::EndMarker) return "";
    if (token.kind != TokenKind::Error) continue;
    const TokenizerError& error = tokenizer.error();
    if (error.type != TokenizerError::Type::Immediate) return "<not immediate>";
    if (line) *line = error.error->line();
    if (column) *column = error.error->column();
    return error.error->what();
  }
}

TokenizerError::Type deferred_error(std::string_view source) {
  Tokenizer tokenizer(source);
  for (;;) {
    const Token token = tokenizer.next();
    if (token.kind == TokenKind::Error) return tokenizer.error().type;
    if (token.kind == TokenKind::EndMarker) {
      ADD_FAILURE() << "no error in " << source;
      return TokenizerError::Type::Immediate;
    }
  }
}

TEST(Tokenizer, EditStatementTokensAndPositions) {
  const std::string source = "W1[0, 12] = -0.5\n";
  const std::vector<Token> tokens = tokenize(source);
  ASSERT_EQ(tokens.size(), 11u);  // W1 [ 0 , 12 ] = - 0.5 NEWLINE ENDMARKER
  EXPECT_EQ(tokens[0].kind, TokenKind::Name);
  EXPECT_EQ(source.substr(tokens[0].start, tokens[0].end - tokens[0].start), "W1");
  EXPECT_EQ(tokens[1].op(), Op::LeftBracket);
  EXPECT_EQ(tokens[1].level, 1);  // the level once the bracket is read, like pegen's token->level
  EXPECT_EQ(tokens[4].kind, TokenKind::Number);
  EXPECT_EQ(tokens[4].column, 6);
  EXPECT_EQ(tokens[5].op(), Op::RightBracket);
  EXPECT_EQ(tokens[5].level, 0);
  EXPECT_EQ(tokens[6].op(), Op::Equal);
  EXPECT_EQ(tokens[7].op(), Op::Minus);
  EXPECT_EQ(tokens[9].kind, TokenKind::Newline);
  EXPECT_EQ(tokens[9].column, 16);
  EXPECT_EQ(tokens[10].kind, TokenKind::EndMarker);
}

TEST(Tokenizer, IndentationAndBlankLines) {
  EXPECT_EQ(kinds("if x:\n    pass\n\n  # comment only\nx\n"),
            (std::vector<TokenKind>{TokenKind::Name, TokenKind::Name, TokenKind::Operator,
                                    TokenKind::Newline, TokenKind::Indent, TokenKind::Name,
                                    TokenKind::Newline, TokenKind::Dedent, TokenKind::Name,
                                    TokenKind::Newline, TokenKind::EndMarker}));
  // Inside brackets newlines and indentation do not count.
  EXPECT_EQ(kinds("x = [1,\n     2]\n").size(), 9u);
  // A form feed at the start of a line resets the column count.
  EXPECT_EQ(kinds("\fx = 1\n")[0], TokenKind::Name);
  // A backslash joins lines.
  EXPECT_EQ(kinds("x = \\\n  1\n").size(), 5u);
}

TEST(Tokenizer, Keywords) {
  const std::vector<Token> tokens = tokenize("if match _ x else None\n");
  EXPECT_EQ(tokens[0].keyword(), Keyword::If);
  EXPECT_EQ(tokens[1].keyword(), Keyword::SoftMatch);
  EXPECT_EQ(tokens[2].keyword(), Keyword::SoftUnderscore);
  EXPECT_EQ(tokens[3].keyword(), Keyword::None);
  EXPECT_EQ(tokens[4].keyword(), Keyword::Else);
  EXPECT_EQ(tokens[5].keyword(), Keyword::NoneValue);
}

TEST(Tokenizer, NumbersThatAreValid) {
  for (const char* source : {"0\n", "00\n", "0_0\n", "1_000\n", "0x_fF\n", "0o17\n", "0b1_0\n",
                             "1.\n", ".5\n", "1e5\n", "1E+5\n", "1.5e-3j\n", "09.5\n", "1J\n",
                             "1if x else y\n", "0x1for x in y\n"}) {
    EXPECT_EQ(immediate_error(source), "") << source;
  }
  const std::vector<Token> tokens = tokenize("1else\n");
  EXPECT_EQ(tokens[0].end - tokens[0].start, 1u);  // `1e` backs up before `else`
}

TEST(Tokenizer, NumberErrors) {
  int line = 0;
  int column = 0;
  EXPECT_EQ(immediate_error("x = 1_\n", &line, &column), "invalid decimal literal (<unknown>, line 1)");
  EXPECT_EQ(column, 6);
  EXPECT_EQ(immediate_error("x = 1__0\n", nullptr, &column), "invalid decimal literal (<unknown>, line 1)");
  EXPECT_EQ(column, 6);
  EXPECT_EQ(immediate_error("x = 1e_5\n", nullptr, &column), "invalid decimal literal (<unknown>, line 1)");
  EXPECT_EQ(column, 5);
  EXPECT_EQ(immediate_error("x = 09\n", nullptr, &column),
            "leading zeros in decimal integer literals are not permitted; use an 0o prefix for "
            "octal integers (<unknown>, line 1)");
  EXPECT_EQ(column, 5);
  EXPECT_EQ(immediate_error("x = 0b\n"), "invalid binary literal (<unknown>, line 1)");
  EXPECT_EQ(immediate_error("x = 0o8\n"), "invalid digit '8' in octal literal (<unknown>, line 1)");
  EXPECT_EQ(immediate_error("x = 0xg\n"), "invalid hexadecimal literal (<unknown>, line 1)");
  EXPECT_EQ(immediate_error("x = 1L\n", nullptr, &column), "invalid decimal literal (<unknown>, line 1)");
  EXPECT_EQ(column, 5);
  EXPECT_EQ(immediate_error("x = 5_j\n"), "invalid decimal literal (<unknown>, line 1)");
  EXPECT_EQ(immediate_error("x = 1jx\n"), "invalid imaginary literal (<unknown>, line 1)");
}

TEST(Tokenizer, Strings) {
  for (const char* source : {"'a'\n", "\"a\"\n", "'''a\nb'''\n", "rb'x'\n", "Rb'x'\n", "bR'x'\n",
                             "f'{x}'\n", "u'x'\n", "'a\\\nb'\n", "''\n", "'\\''\n"}) {
    EXPECT_EQ(immediate_error(source), "") << source;
  }
  // `ub''` is not a prefix: a name, then a string.
  EXPECT_EQ(kinds("ub''\n")[0], TokenKind::Name);
  int column = 0;
  EXPECT_EQ(immediate_error("b1[0] = 'abc\n", nullptr, &column),
            "unterminated string literal (detected at line 1) (<unknown>, line 1)");
  EXPECT_EQ(column, 9);
  EXPECT_EQ(immediate_error("x = '''abc\n\n"),
            "unterminated triple-quoted string literal (detected at line 2) (<unknown>, line 1)");
}

TEST(Tokenizer, Brackets) {
  int column = 0;
  EXPECT_EQ(immediate_error("x = 1)\n", nullptr, &column), "unmatched ')' (<unknown>, line 1)");
  EXPECT_EQ(column, 6);
  EXPECT_EQ(immediate_error("x = (1]\n"),
            "closing parenthesis ']' does not match opening parenthesis '(' (<unknown>, line 1)");
  EXPECT_EQ(immediate_error("x = [1,\n2}\n"),
            "closing parenthesis '}' does not match opening parenthesis '[' on line 1 (<unknown>, "
            "line 2)");
  // CPython's MAXLEVEL: 200 open brackets are fine, the 201st is an error.
  EXPECT_EQ(immediate_error(std::string(200, '[') + std::string(200, ']') + "\n"), "");
  EXPECT_EQ(immediate_error(std::string(201, '[') + std::string(201, ']') + "\n"),
            "too many nested parentheses (<unknown>, line 1)");
  EXPECT_EQ(deferred_error("x = (1,\n"), TokenizerError::Type::EndOfFile);
}

TEST(Tokenizer, IndentationErrors) {
  EXPECT_EQ(deferred_error("if 1:\n\tx\n        y\n"), TokenizerError::Type::InconsistentTabs);
  EXPECT_EQ(deferred_error("if 1:\n    x\n  y\n"), TokenizerError::Type::Dedent);
  EXPECT_EQ(deferred_error("x = 1 \\ \n"), TokenizerError::Type::LineContinuation);
  EXPECT_EQ(deferred_error("x = 1\\\n"), TokenizerError::Type::EndOfFile);
  // MAXINDENT is 100: 99 nested blocks are the most.
  std::string deep;
  for (int level = 0; level < 99; ++level) deep += std::string(level, ' ') + "if 1:\n";
  EXPECT_EQ(immediate_error(deep + std::string(99, ' ') + "pass\n"), "");
  deep += std::string(99, ' ') + "if 1:\n";
  EXPECT_EQ(deferred_error(deep + std::string(100, ' ') + "pass\n"), TokenizerError::Type::TooDeep);
}

TEST(Tokenizer, InvalidCharacters) {
  int column = 0;
  EXPECT_EQ(immediate_error("x\xC2\xA0= 1\n", nullptr, &column),  // U+00A0
            "invalid non-printable character U+00A0 (<unknown>, line 1)");
  EXPECT_EQ(column, 2);
  EXPECT_EQ(immediate_error("x = \xE2\x88\x92" "1\n", nullptr, &column),  // U+2212 minus sign
            "invalid character '\xE2\x88\x92' (U+2212) (<unknown>, line 1)");
  EXPECT_EQ(column, 5);
  EXPECT_EQ(immediate_error("W\xE2\x82\x81 = 1\n", nullptr, &column),  // W + U+2081
            "invalid character '\xE2\x82\x81' (U+2081) (<unknown>, line 1)");
  EXPECT_EQ(column, 2);
  EXPECT_EQ(immediate_error("x =\v1\n", nullptr, &column),
            "invalid non-printable character U+000B (<unknown>, line 1)");
  EXPECT_EQ(column, 4);
  EXPECT_EQ(immediate_error("\xEF\xBB\xBFx = 1\n"),  // a byte order mark is not skipped
            "invalid non-printable character U+FEFF (<unknown>, line 1)");
  // Fullwidth letters are identifier characters; `$` and `?` are tokens the parser rejects.
  EXPECT_EQ(immediate_error("\xEF\xBC\xB7\xEF\xBC\x91 = 1\n"), "");
  EXPECT_EQ(tokenize("$\n")[0].op(), Op::Other);
}

}  // namespace
}  // namespace weightspace::python
