// SPDX-License-Identifier: GPL-3.0-or-later
// parse_edits_block where CPython's error machinery is subtle: the second pass's alternatives
// and memo, pegen's stack limit, inputs that made a naive second pass exponential. Every
// expectation is what CPython 3.11.2's ast.parse does with the same text (checked by hand).
#include <string>
#include <string_view>
#include <vector>

#include <gtest/gtest.h>

#include "parser/python/grammar.hpp"
#include "raised.hpp"

namespace weightspace {
namespace {

using testing::Raised;
using testing::raised;

// Each expectation is CPython 3.11.2's ast.parse on the same one-line text.
void expect_syntax_error(std::string_view body, std::string_view message, int column) {
  const Raised error = raised(body);
  EXPECT_EQ(error.kind, "SyntaxError") << body;
  EXPECT_EQ(error.message, std::string(message) + " (<unknown>, line 1)") << body;
  EXPECT_EQ(error.column, column) << body;
}

TEST(PegenErrors, SecondPassFollowsPegenAlternativesAndMemo) {
  const auto check = expect_syntax_error;
  const std::string maybe_equal = "invalid syntax. Maybe you meant '==' or ':=' instead of '='?";
  // assignment's `('(' single_target ')' | single_subscript_attribute_target) ':'` commits
  // to the group: this annotation is not valid Python, `f()[0]: int` is.
  check("(x)[0]: int\n", "illegal target for annotation", 1);
  const std::vector<Statement> statements = parse_edits_block("f()[0]: int\n");
  ASSERT_EQ(statements.size(), 1u);
  EXPECT_EQ(statements[0].shape, Statement::Shape::NotAnAssignment);
  // invalid_assignment runs when the assignment alternatives fail part way, not after one
  // matched (an annotation whose `= value` does not parse).
  check("x = _ , =\n", maybe_equal, 1);
  check("b1[0]: float =@1\n", "invalid syntax", 15);
  // `primary genexp` tries invalid_comprehension at a bracket after any primary...
  check("1 {a=1}\n", maybe_equal, 4);
  check("x [*a for a in b]\n", "iterable unpacking cannot be used in comprehension", 4);
  // ...but a position first parsed inside expression_without_invalid is memoised unchecked.
  check("1 2 {a=1}\n", "invalid syntax", 3);
  check("x x {a=1}\n", "invalid syntax", 3);
  // Looking past `b` for invalid_expression reaches the end inside the bracket.
  check("[*a b\n", "'[' was never closed", 1);
  check("x {a=\n", "'{' was never closed", 3);
  check("f(a, *b for b in c)\n", "Generator expression must be parenthesized", 6);
  check("try: except\n", "expected ':'", 12);
  // invalid_legacy_expression nests once per name; without memoisation this took 2^n steps.
  std::string names;
  std::string prints;
  for (int index = 0; index < 25; ++index) names += "+1,foo ";
  for (int index = 0; index < 30; ++index) prints += "+1,print ";
  check(names + " if\n", "invalid syntax", 179);
  check(prints + " if\n", "Missing parentheses in call to 'print'. Did you mean print(...)?", 256);
}

// pegen memoises rules whether or not the invalid_* rules are on. What expression_without_invalid
// parsed is handed back, unchecked, to a later parse with the rules on at the same token; a
// token it did not start a rule at is parsed afresh, with the rules on.
TEST(PegenErrors, MemoFromExpressionWithoutInvalid) {
  const auto check = expect_syntax_error;
  const std::string maybe_equal = "invalid syntax. Maybe you meant '==' or ':=' instead of '='?";
  const std::string legacy_print = "Missing parentheses in call to 'print'. Did you mean print(...)?";
  // invalid_assignment's `star_named_expression ',' star_named_expressions*` gets the memoised
  // `C` (its call failed without the rules), then reads `(x=1, 2)` as a tuple, with them.
  check("a, b C(x=1, 2)\n", maybe_equal, 8);
  check("a, b 1 (x=1, 2)\n", maybe_equal, 9);
  check("a, b C (x=1, 2) = 3\n", maybe_equal, 9);
  check("a, b C[x=1]\n", maybe_equal, 8);
  check("a, b C(x=1 2)\n", maybe_equal, 8);
  check("a, b C(*x, 2, y=1, 3)\n", maybe_equal, 15);
  // A call that parses is memoised whole; no group is read (`(*x)` is no tuple).
  check("a, b C(x=1)\n", "invalid syntax", 6);
  check("a, b C(*x)\n", "invalid syntax", 6);
  check("a, b C(**x, 2)\n", "invalid syntax", 6);
  check("a b C(x=1, 2)\n", "invalid syntax", 3);
  check("x = a, b C(x=1, 2)\n", "invalid syntax", 10);
  // `*` bitwise_or in the list `[*x[1:=1]]` gets the memoised `x`: no walrus error inside, so
  // the legacy print is the message; a slice read afresh still has it.
  check("print _[*x[1:=1]]\n", legacy_print, 1);
  check("print _[x[1:=1]]\n", legacy_print, 1);
  check("print _[*x[1:=1]] = 1\n", legacy_print, 1);
  check("f(print _[*x[1:=1]])\n", legacy_print, 3);
  check("print _[1:=1]\n", "cannot use assignment expressions with literal", 9);
  check("foo _[*x[1:=1]]\n", "invalid syntax", 5);
}

// While the tokenizer stands on the error's line, pegen converts the byte column to characters
// with its buffer, which a string running over lines keeps at that string's first line: the
// column's bytes are counted from there (CPython 3.11.2's offsets).
TEST(PegenErrors, ColumnCountedInTheTokenizersBuffer) {
  const auto check = [](std::string_view body, int line, int column) {
    const Raised error = raised(body);
    EXPECT_EQ(error.kind, "SyntaxError") << body;
    EXPECT_EQ(error.line, line) << body;
    EXPECT_EQ(error.column, column) << body;
  };
  check("x = '''\u00e9\n\\N{x}'''\n", 2, 8);  // was 9
  check("x = b'''\n\u00e9'''\n", 2, 6);  // was 5
  check("x = '''\u00e9\nb''' '''\n\u00e9\n\\N{y}'''\n", 4, 8);
  check("x = '''\u00e9\nb''' b'\u00e9'\n", 2, 10);
  // The tokenizer past the error's line: that line alone.
  check("x = ('''\u00e9\n\\N{x}'''\n)\n", 3, 1);
  // A backslash continuation keeps the buffer on its first line too (the 100,000-answer
  // differential run's cases, issue 37): the column's bytes are counted from there.
  const auto at_eof = [](std::string_view body, int column) {
    const Raised error = raised(body);
    EXPECT_EQ(error.message, "unexpected EOF while parsing (<unknown>, line 2)") << body;
    EXPECT_EQ(error.column, column) << body;
  };
  at_eof("\uff37\uff11[:150 , 22:] *= 9E3; b2[None:] = \\\n1.865e-40 \\\n", 8);
  at_eof("\uff37\U0001d7da[0::3 , -31] = (-7.9, r\"5\" \\\nR\".\");\\\n", 3);
  const Raised continuation = raised("x = '\u00e9' + \\\n\u00e9\u00e9 \\ 1\n");
  EXPECT_EQ(continuation.message,
            "unexpected character after line continuation character (<unknown>, line 2)");
  EXPECT_EQ(continuation.column, 17);  // 20 bytes from `x`: 17 characters, not 5
}

TEST(PegenErrors, PlacesInFunctionHeaders) {
  // The first pass does not look past a leading '/': its furthest token, the '/', places the
  // generic error (the second pass's `"/" ','` lookahead does not move it).
  expect_syntax_error("def f(/):\n    pass\n", "invalid syntax", 7);
  expect_syntax_error("x = lambda /: 0\n", "invalid syntax", 12);
  expect_syntax_error("def f(/, a): pass\n", "at least one argument must precede /", 7);
  // invalid_star_etc places the bare '*' error at the '*'; invalid_lambda_star_etc raises it
  // without a place, so at the last token read.
  expect_syntax_error("def f(*, **k): pass\n", "named arguments must follow bare *", 7);
  expect_syntax_error("x = lambda *: 1\n", "named arguments must follow bare *", 13);
  expect_syntax_error("x = lambda *, **k: 1\n", "named arguments must follow bare *", 15);
  // The first pass gives back an operator whose operand does not parse, so the forced ':'
  // after a return annotation is expected after the annotation's longest prefix.
  const std::string colon = "expected ':'";
  expect_syntax_error("def f(*, k) -> int+:\n  pass\n", colon, 19);
  expect_syntax_error("def f() -> a if b:\n  pass\n", colon, 14);
  expect_syntax_error("def f() -> a.:\n  pass\n", colon, 13);
  expect_syntax_error("def f() -> lambda: x+:\n  pass\n", colon, 21);
  expect_syntax_error("def f() -> (a+):\n  pass\n", colon, 9);
  expect_syntax_error("def f() -> :\n  pass\n", colon, 9);
}

TEST(PegenErrors, ParserStackThresholds) {
  // pegen's MAXSTACK (6000 rule calls) is reached at exactly these depths on 3.11.2; one level
  // less parses and only then fails the ast depth check (RecursionError).
  const auto minuses = [](int count) { return std::string(static_cast<std::size_t>(count), '-'); };
  EXPECT_EQ(raised("x = (" + minuses(5958) + "1)\n").kind, "MemoryError");
  EXPECT_EQ(raised("x = (" + minuses(5957) + "1)\n").kind, "RecursionError");
  EXPECT_EQ(raised("x = [" + minuses(5957) + "1]\n").kind, "MemoryError");
  EXPECT_EQ(raised("x = [" + minuses(5956) + "1]\n").kind, "RecursionError");
  EXPECT_EQ(raised("b1[0] = f(" + minuses(5958) + "1)\n").kind, "RecursionError");
  std::string lambdas = "x = ";
  for (int index = 0; index < 2983; ++index) lambdas += "lambda: ";
  EXPECT_EQ(raised(lambdas + "1\n").kind, "RecursionError");
  EXPECT_EQ(raised(lambdas + "lambda: 1\n").kind, "MemoryError");
  // The error pass is deeper: 194 nested lists around a syntax error overflow it, 193 do not.
  const auto lists = [](int count) {
    const auto size = static_cast<std::size_t>(count);
    return "b1[:1] = " + std::string(size, '[') + "1;" + std::string(size, ']') + "\n";
  };
  EXPECT_EQ(raised(lists(194)).kind, "MemoryError");
  EXPECT_EQ(raised(lists(193)).kind, "SyntaxError");
}

TEST(PegenErrors, NestedFailuresAreNotReparsed) {
  // Each of these once took minutes: every enclosing alternative re-parsed the failing inner
  // display. pegen's memoisation makes them instant; so does remembering where brackets failed.
  const auto repeat = [](std::string_view unit, int count) {
    std::string text;
    for (int index = 0; index < count; ++index) text += unit;
    return text;
  };
  Raised error = raised(repeat("{", 24) + "a b\n");
  EXPECT_EQ(error.message, "'{' was never closed (<unknown>, line 1)");
  EXPECT_EQ(error.column, 24);
  EXPECT_EQ(raised(repeat("{1:", 40) + "a b\n").column, 118);
  error = raised(repeat("a[", 40) + "**\n");
  EXPECT_EQ(error.message, "invalid syntax (<unknown>, line 1)");
  EXPECT_EQ(error.column, 81);
  EXPECT_EQ(raised(repeat("{**", 40) + "a b\n").column, 123);
  EXPECT_EQ(raised(repeat("[{(", 30) + "a b\n").message,
            "'(' was never closed (<unknown>, line 1)");
  EXPECT_EQ(raised("x = " + repeat("{1:{", 30) + "yield\n").column, 125);
}

}  // namespace
}  // namespace weightspace
