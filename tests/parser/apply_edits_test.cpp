// SPDX-License-Identifier: GPL-3.0-or-later
#include "parser/numpy/apply_edits.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "numpy_statements.hpp"

// Expected values were checked with Python 3.11 + numpy 1.24 running the statement shown in the
// comment on float32 zeros (verify.apply_edits' tensors); float32 results are given as bits.

namespace weightspace {
namespace {

using namespace weightspace::testing::statements;
using Operator = Statement::Operator;

std::uint32_t bits(float value) {
  std::uint32_t result = 0;
  std::memcpy(&result, &value, sizeof result);
  return result;
}

struct Outcome {
  std::string kind;  // empty on success
  std::string message;
  Weights weights;
  EditSummary summary;
};

Outcome run(const std::vector<Statement>& statements) {
  Outcome outcome;
  try {
    outcome.summary = apply_statements(statements, outcome.weights);
  } catch (const EditError& error) {
    outcome.kind = error.kind();
    outcome.message = error.what();
  }
  return outcome;
}

// Our messages are Python's followed by the place.
void expect_error(const std::vector<Statement>& statements, const std::string& kind, const std::string& message) {
  const Outcome outcome = run(statements);
  EXPECT_EQ(outcome.kind, kind) << outcome.message;
  EXPECT_EQ(outcome.message.substr(0, message.size()), message) << outcome.message;
}

float at(const Outcome& outcome, Tensor tensor, std::size_t flat_index) { return outcome.weights.tensor(tensor)[flat_index]; }

TEST(ApplyEdits, EmptyEditsGiveZeroWeights) {
  const Outcome outcome = run({});
  EXPECT_EQ(outcome.kind, "");
  EXPECT_EQ(outcome.summary.edit_count, 0);
  EXPECT_EQ(outcome.summary.nonzero_weights, 0);
  // hashlib.sha256(np.zeros(20486, np.float32).tobytes()).hexdigest()
  EXPECT_EQ(weights_sha256(outcome.weights), "e6fdf476d629c1a3c5db6062accafd307d7779da9789bacce5c90fbd6b2c8251");
}

TEST(ApplyEdits, ElementIndicesGoThroughInt) {
  // W1[-1, -1] = 0.1; W1[-1.5, ' 3 '] = 2; b1[True] = '١٢'; b3[-6] = -0.0
  const Outcome outcome = run({assign("W1", {index(integer(-1)), index(integer(-1))}, real(0.1)),
                               assign("W1", {index(real(-1.5)), index(text(U" 3 "))}, integer(2)),
                               assign("b1", {index(boolean(true))}, text(U"\u0661\u0662")),
                               assign("b3", {index(integer(-6))}, real(-0.0))});
  ASSERT_EQ(outcome.kind, "") << outcome.message;
  EXPECT_EQ(at(outcome, Tensor::W1, 599 * 32 + 31), 0.1f);
  EXPECT_EQ(at(outcome, Tensor::W1, 599 * 32 + 3), 2.0f);  // int(-1.5) == -1, the last row
  EXPECT_EQ(at(outcome, Tensor::b1, 1), 12.0f);
  EXPECT_EQ(bits(at(outcome, Tensor::b3, 0)), 0x80000000u);
  EXPECT_EQ(outcome.summary.edit_count, 4);
  EXPECT_EQ(outcome.summary.nonzero_weights, 3);  // -0.0 is stored but not counted
}

TEST(ApplyEdits, IndexErrors) {
  expect_error({assign("W1", {index(integer(0)), index(integer(32))}, integer(1))}, "IndexError",
               "index 32 is out of bounds for axis 1 with size 32");
  expect_error({assign("W1", {index(integer(-601)), index(integer(0))}, integer(1))}, "IndexError",
               "index -601 is out of bounds for axis 0 with size 600");
  expect_error({assign("W1", {index(integer(0)), index(integer(0)), index(integer(0))}, integer(1))}, "IndexError",
               "too many indices for array: array is 2-dimensional, but 3 were indexed");
  // W1[2**63, 0]: numpy's uint64 fallback overflows a C long; W1[10**30, 0] is no index at all.
  expect_error({assign("W1", {index(big_integer("9223372036854775808")), index(integer(0))}, integer(1))},
               "OverflowError", "Python int too large to convert to C long");
  expect_error({assign("W1", {index(big_integer("1" + std::string(30, '0'))), index(integer(0))}, integer(1))},
               "IndexError", "only integers, slices (`:`), ellipsis (`...`), numpy.newaxis (`None`)");
  // W1[1e300, 0]: int(1e300) is a 301-digit int; W1[1e400, 0]: int(inf).
  expect_error({assign("W1", {index(real(1e300)), index(integer(0))}, integer(1))}, "IndexError", "only integers");
  expect_error({assign("W1", {index(real(INFINITY)), index(integer(0))}, integer(1))}, "OverflowError",
               "cannot convert float infinity to integer");
  // Integers are converted before the number of indices is checked: W1[0, 0, 2**63].
  expect_error({assign("W1", {index(integer(0)), index(integer(0)), index(big_integer("9223372036854775808"))},
                       integer(1))},
               "OverflowError", "Python int too large");
  expect_error({assign("W1", {index(none()), index(integer(0))}, integer(1))}, "TypeError",
               "int() argument must be a string, a bytes-like object or a real number, not 'NoneType'");
  expect_error({assign("W1", {index(text(U"3.5")), index(integer(0))}, integer(1))}, "ValueError",
               "invalid literal for int() with base 10: '3.5'");
}

TEST(ApplyEdits, Slices) {
  // b3[5:-7:-1] = [1, 2, 3, 4, 5, 6]; W3[::-1, ::-1] = 1 is all ones; b1[::-3] = 7
  const Outcome reversed = run({assign("b3", {slice(integer(5), integer(-7), integer(-1))},
                                       list({integer(1), integer(2), integer(3), integer(4), integer(5), integer(6)})),
                                assign("b1", {slice(std::nullopt, std::nullopt, integer(-3))}, integer(7))});
  ASSERT_EQ(reversed.kind, "") << reversed.message;
  for (std::size_t i = 0; i < 6; ++i) EXPECT_EQ(at(reversed, Tensor::b3, i), static_cast<float>(6 - i));
  for (std::size_t i = 0; i < 32; ++i) EXPECT_EQ(at(reversed, Tensor::b1, i), (31 - i) % 3 == 0 ? 7.0f : 0.0f) << i;
  // Huge bounds clamp: W1[10**30:, 0] selects nothing, W1[-10**30:3, 0] rows 0..2.
  const Outcome clamped = run({assign("W1", {slice(big_integer("1" + std::string(30, '0'))), index(integer(0))},
                                      list({})),
                               assign("W1", {slice(big_integer("1" + std::string(30, '0'), true), integer(3)),
                                             index(integer(0))},
                                      real(0.5))});
  ASSERT_EQ(clamped.kind, "") << clamped.message;
  EXPECT_EQ(clamped.summary.nonzero_weights, 3);
  expect_error({assign("W1", {slice(std::nullopt, std::nullopt, integer(0)), index(integer(0))}, integer(1))},
               "ValueError", "slice step cannot be zero");
  expect_error({assign("W1", {slice(real(1.0), integer(3)), index(integer(0))}, integer(1))}, "TypeError",
               "slice indices must be integers or None or have an __index__ method");
  // numpy checks axis by axis: W1[700, ::0] is an IndexError, W1[::0, 700] a ValueError.
  expect_error({assign("W1", {index(integer(700)), slice(std::nullopt, std::nullopt, integer(0))}, integer(1))},
               "IndexError", "index 700 is out of bounds for axis 0 with size 600");
  expect_error({assign("W1", {slice(std::nullopt, std::nullopt, integer(0)), index(integer(700))}, integer(1))},
               "ValueError", "slice step cannot be zero");
}

TEST(ApplyEdits, ValueShapes) {
  // W2[0:3, 0:2] = [[1], [2], [3]] broadcasts each row value across the two columns.
  const Outcome column = run({assign("W2", {slice(integer(0), integer(3)), slice(integer(0), integer(2))},
                                     list({list({integer(1)}), list({integer(2)}), list({integer(3)})}))});
  ASSERT_EQ(column.kind, "") << column.message;
  EXPECT_EQ(at(column, Tensor::W2, 2 * 32 + 1), 3.0f);
  EXPECT_EQ(column.summary.nonzero_weights, 6);
  expect_error({assign("W2", {slice(integer(0), integer(3)), slice(integer(0), integer(2))},
                       list({list({integer(1)}), list({integer(2)})}))},
               "ValueError", "could not broadcast input array from shape (2,1) into shape (3,2)");
  expect_error({assign("W2", {slice(integer(0), integer(2)), slice(integer(0), integer(2))},
                       list({list({integer(1), integer(2)}), list({integer(3)})}))},
               "ValueError",
               "setting an array element with a sequence. The requested array has an inhomogeneous shape after 1 "
               "dimensions. The detected shape was (2,) + inhomogeneous part.");
  expect_error({assign("b1", {slice(std::nullopt, integer(1))}, list({list({integer(1)})}))}, "ValueError",
               "setting an array element with a sequence. The requested array would exceed the maximum number of "
               "dimension of 1.");
  expect_error({assign("b1", {index(integer(0))}, list({integer(1)}))}, "ValueError",
               "setting an array element with a sequence.");
  // Conversion errors come before broadcasting: b1[:2] = [1, 2, 3, 'x'].
  expect_error({assign("b1", {slice(std::nullopt, integer(2))},
                       list({integer(1), integer(2), integer(3), text(U"x")}))},
               "ValueError", "could not convert string to float: 'x'");
  expect_error({assign("b3", {slice(std::nullopt, integer(2))}, list({complex_number(0, 1), integer(2)}))},
               "TypeError", "float() argument must be a string or a real number, not 'complex'");
  PyValue set_value = list({});
  set_value.kind = PyValue::Kind::Set;
  expect_error({assign("b1", {index(integer(4))}, set_value)}, "TypeError",
               "float() argument must be a string or a real number, not 'set'");
  // Ints beyond a double: float(10**400) fails even for an empty selection, b1[:0] = 10**400.
  expect_error({assign("b1", {slice(std::nullopt, integer(0))}, big_integer("1" + std::string(400, '0')))},
               "OverflowError", "int too large to convert to float");
}

TEST(ApplyEdits, ScalarsRoundThroughDouble) {
  // b1[0] = '1.00000005960464477539062500000001' -> 1.0 (the double rounds down to the tie,
  // the tie to even); b1[1] = 16777217 stores 16777216.0, so b1[1] *= 2**-24 gives exactly 1.0;
  // b1[2] = None is NaN until overwritten.
  const Outcome outcome = run({assign("b1", {index(integer(0))}, text(U"1.00000005960464477539062500000001")),
                               assign("b1", {index(integer(1))}, integer(16777217)),
                               augment("b1", Operator::Mult, {index(integer(1))}, real(0x1p-24)),
                               assign("b1", {index(integer(2))}, none()),
                               assign("b1", {index(integer(2))}, bytes(" 2.5 "))});
  ASSERT_EQ(outcome.kind, "") << outcome.message;
  EXPECT_EQ(at(outcome, Tensor::b1, 0), 1.0f);
  EXPECT_EQ(at(outcome, Tensor::b1, 1), 1.0f);
  EXPECT_EQ(at(outcome, Tensor::b1, 2), 2.5f);
}

TEST(ApplyEdits, AugmentedElementUsesFloat64SliceUsesValueBasedCasting) {
  // b1[0] = 0.3; b1[0] += 1.1 -> 0x3fb33333 (float64 sum); b1[1:2] = 0.3; b1[1:2] += 1.1 ->
  // 0x3fb33334 (1.1 rounded to float32 first).
  const Outcome sums = run({assign("b1", {index(integer(0))}, real(0.3)),
                            augment("b1", Operator::Add, {index(integer(0))}, real(1.1)),
                            assign("b1", {slice(integer(1), integer(2))}, real(0.3)),
                            augment("b1", Operator::Add, {slice(integer(1), integer(2))}, real(1.1))});
  ASSERT_EQ(sums.kind, "") << sums.message;
  EXPECT_EQ(bits(at(sums, Tensor::b1, 0)), 0x3fb33333u);
  EXPECT_EQ(bits(at(sums, Tensor::b1, 1)), 0x3fb33334u);
  // b1[:1] = 0.05; b1[:1] *= 16777217 -> 0x494cccce: ints beyond 65535 use the float64 loop.
  // b1[:1] = 1e-33; b1[:1] *= 1e39 -> 1e6: floats beyond 3.4e38 also do.
  const Outcome products = run({assign("b1", {slice(std::nullopt, integer(1))}, real(0.05)),
                                augment("b1", Operator::Mult, {slice(std::nullopt, integer(1))}, integer(16777217)),
                                assign("b2", {slice(std::nullopt, integer(1))}, real(1e-33)),
                                augment("b2", Operator::Mult, {slice(std::nullopt, integer(1))}, real(1e39))});
  ASSERT_EQ(products.kind, "") << products.message;
  EXPECT_EQ(bits(at(products, Tensor::b1, 0)), 0x494cccceu);
  EXPECT_EQ(bits(at(products, Tensor::b2, 0)), 0x49742400u);
  // b1[0] = 1; b1[0] *= 2+1j keeps the real part, 2.0; b1[:1] += 1j has no float32 result.
  const Outcome complex_element = run({assign("b1", {index(integer(0))}, integer(1)),
                                       augment("b1", Operator::Mult, {index(integer(0))}, complex_number(2, 1))});
  EXPECT_EQ(at(complex_element, Tensor::b1, 0), 2.0f);
  expect_error({augment("b1", Operator::Add, {slice(std::nullopt, integer(1))}, complex_number(0, 1))},
               "UFuncTypeError",
               "Cannot cast ufunc 'add' output from dtype('complex64') to dtype('float32') with casting rule "
               "'same_kind'");
}

TEST(ApplyEdits, AugmentedOperandKinds) {
  const IndexItem element = index(integer(0));
  const IndexItem first_two = slice(std::nullopt, integer(2));
  expect_error({augment("b1", Operator::Add, {element}, text(U"1"))}, "UFuncTypeError",
               "ufunc 'add' did not contain a loop with signature matching types (dtype('float32'), dtype('<U1')) -> "
               "None");
  expect_error({augment("b1", Operator::Mult, {element}, text(U"2"))}, "TypeError",
               "can't multiply sequence by non-int of type 'numpy.float32'");
  expect_error({augment("b1", Operator::Add, {element}, none())}, "TypeError",
               "unsupported operand type(s) for +: 'float' and 'NoneType'");
  expect_error({augment("b1", Operator::Sub, {first_two}, ellipsis())}, "UFuncTypeError",
               "Cannot cast ufunc 'subtract' output from dtype('O')");
  expect_error({augment("b1", Operator::Add, {element}, list({integer(1), integer(2)}))}, "ValueError",
               "setting an array element with a sequence.");
  expect_error({augment("b1", Operator::Mult, {first_two}, tuple({}))}, "ValueError",
               "operands could not be broadcast together with shapes (2,) (0,) (2,) ");
  expect_error({augment("b1", Operator::Add, {slice(std::nullopt, integer(1))}, list({integer(1), integer(2)}))},
               "ValueError", "non-broadcastable output operand with shape (1,) doesn't match the broadcast shape (2,)");
  // b1[:1] += 10**20 is an object operand; b1[0] += 10**20 computes in float64.
  expect_error({augment("b1", Operator::Add, {slice(std::nullopt, integer(1))}, big_integer("1" + std::string(20, '0')))},
               "UFuncTypeError", "Cannot cast ufunc 'add' output from dtype('O')");
  const Outcome huge = run({augment("b1", Operator::Add, {element}, big_integer("1" + std::string(20, '0')))});
  EXPECT_EQ(huge.kind, "ValueError");  // then the final check fails on 1e20
  // b1[0] += [1] works (a one-value array); b1[0] *= [1] is sequence repetition.
  const Outcome one = run({augment("b1", Operator::Add, {element}, list({integer(1)}))});
  EXPECT_EQ(at(one, Tensor::b1, 0), 1.0f);
  expect_error({augment("b1", Operator::Mult, {element}, list({integer(1)}))}, "TypeError",
               "can't multiply sequence by non-int of type 'numpy.float32'");
  // W1[3] += [1] * 32 as a literal row broadcasts into the row.
  std::vector<PyValue> ones(32, integer(1));
  const Outcome row = run({augment("W1", Operator::Add, {index(integer(3))}, list(ones))});
  EXPECT_EQ(row.summary.nonzero_weights, 32);
}

TEST(ApplyEdits, StatementOrder) {
  // Errors are raised in the grader's order: the shape, the target, the key, the value, then
  // the operator, and only then numpy.
  Statement bad_value = assign("b1", {index(integer(700))}, EditError("ValueError", "malformed node or string"));
  expect_error({bad_value}, "ValueError", "malformed node or string");
  Statement divide = augment("b1", Operator::Other, {index(integer(700))}, integer(2));
  expect_error({divide}, "ValueError", "only *=, +=, and -= augmented edits are allowed");
  Statement unknown = augment("W9", Operator::Other, {index(integer(0))}, EditError("ValueError", "malformed"));
  expect_error({unknown}, "ValueError", "unknown tensor 'W9'");
  Statement bad_key = assign("b1", {index(text(U"x")), index(EditError("ValueError", "second"))}, integer(1));
  expect_error({bad_key}, "ValueError", "invalid literal for int() with base 10: 'x'");
  Statement not_assignment;
  expect_error({assign("b1", {index(integer(0))}, integer(1)), not_assignment}, "ValueError",
               "edits may contain only assignments");
  Statement target;
  target.shape = Statement::Shape::Assign;
  target.target_error = EditError("ValueError", "edit target must index a named tensor");
  expect_error({target}, "ValueError", "edit target must index a named tensor");
}

TEST(ApplyEdits, FinalCheck) {
  // 1000000.03 rounds to 1e6 in float32 and passes; 1000000.04 does not.
  EXPECT_EQ(run({assign("b1", {index(integer(0))}, real(1000000.03))}).kind, "");
  expect_error({assign("b1", {index(integer(0))}, real(1000000.04))}, "ValueError",
               "weights must be finite and have absolute value at most 1e6");
  expect_error({assign("b1", {index(integer(0))}, real(1e39))}, "ValueError", "weights must be finite");
  // Intermediate NaN is fine when overwritten: b1[:] = 'nan'; b1[:] = 0.
  const Outcome overwritten = run({assign("b1", {slice()}, text(U"nan")), assign("b1", {slice()}, integer(0))});
  EXPECT_EQ(overwritten.kind, "");
  EXPECT_EQ(overwritten.summary.edit_count, 2);
}

// A realistic full answer sets every W1 element one by one (its speed: parser_bench
// BM_ParseElementByElement).
TEST(ApplyEdits, NineteenThousandElementAssignments) {
  std::vector<Statement> statements;
  statements.reserve(600 * 32);
  for (int row = 0; row < 600; ++row) {
    for (int column = 0; column < 32; ++column) {
      statements.push_back(assign("W1", {index(integer(row)), index(integer(column))},
                                  real((row * 32 + column + 1) * 1e-4)));
    }
  }
  Weights weights;
  const EditSummary summary = apply_statements(statements, weights);
  EXPECT_EQ(summary.edit_count, 19200);
  EXPECT_EQ(summary.nonzero_weights, 19200);
  const auto w1 = weights.tensor(Tensor::W1);
  for (int k : {0, 31, 32, 12345, 19199}) EXPECT_EQ(w1[static_cast<std::size_t>(k)], static_cast<float>((k + 1) * 1e-4)) << k;
}

}  // namespace
}  // namespace weightspace

