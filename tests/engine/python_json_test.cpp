// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/python_json.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include <weightspace/reward.hpp>
#include "support/golden.hpp"

namespace weightspace {
namespace {

// Each expectation is what CPython 3.11 prints for repr(x).
TEST(PythonFloatRepr, MatchesCPythonAroundTheNotationSwitches) {
  EXPECT_EQ(python_float_repr(0.0), "0.0");
  EXPECT_EQ(python_float_repr(-0.0), "-0.0");
  EXPECT_EQ(python_float_repr(1.0), "1.0");
  EXPECT_EQ(python_float_repr(0.1), "0.1");
  EXPECT_EQ(python_float_repr(0.0005), "0.0005");
  EXPECT_EQ(python_float_repr(0.0001), "0.0001");
  EXPECT_EQ(python_float_repr(0.00001), "1e-05");
  EXPECT_EQ(python_float_repr(1.5e-7), "1.5e-07");
  EXPECT_EQ(python_float_repr(1e15), "1000000000000000.0");
  EXPECT_EQ(python_float_repr(1e16), "1e+16");
  EXPECT_EQ(python_float_repr(123456789012345678.0), "1.2345678901234568e+17");
  EXPECT_EQ(python_float_repr(2501.0), "2501.0");
  EXPECT_EQ(python_float_repr(68.896), "68.896");
  EXPECT_EQ(python_float_repr(1.0 / 3.0), "0.3333333333333333");
  EXPECT_EQ(python_float_repr(5e-324), "5e-324");
  EXPECT_EQ(python_float_repr(1.7976931348623157e308), "1.7976931348623157e+308");
  EXPECT_EQ(python_json_float(std::numeric_limits<double>::quiet_NaN()), "NaN");
  EXPECT_EQ(python_json_float(-std::numeric_limits<double>::infinity()), "-Infinity");
}

// json.dumps(s) with ensure_ascii=True.
TEST(PythonJsonString, EscapesAsJsonDumps) {
  EXPECT_EQ(python_json_string("plain"), "\"plain\"");
  EXPECT_EQ(python_json_string("a\"b\\c\n\t\r\b\f"), "\"a\\\"b\\\\c\\n\\t\\r\\b\\f\"");
  EXPECT_EQ(python_json_string(std::string("\x01\x1f\x7f", 3)), "\"\\u0001\\u001f\\u007f\"");
  EXPECT_EQ(python_json_string("caf\xc3\xa9"), "\"caf\\u00e9\"");
  EXPECT_EQ(python_json_string("\xf0\x9d\x90\x96"), "\"\\ud835\\udc16\"");  // U+1D416
  EXPECT_EQ(python_json_string("\xed\xa0\x80"), "\"\\ud800\"");            // a lone surrogate
}

// Every reward.json the grader wrote, rebuilt from its own metadata.
TEST(RewardJson, ReproducesEveryGoldenRewardText) {
  int checked = 0;
  for (const auto& grade_case : testing::golden("grades.json").at("cases")) {
    if (grade_case.at("expected").is_null()) continue;  // the grader crashed: no reward.json
    const auto& expected = grade_case.at("expected");
    Reward reward;
    reward.normalized_score = grade_case.at("expected_normalized_score").get<double>();
    reward.game = expected.at("game").get<std::string>();
    reward.source = expected.at("source").get<std::string>();
    reward.episodes = BigInt(expected.at("episodes").get<std::int64_t>());
    reward.parse_success = expected.at("parse_success").get<double>() == 1.0;
    if (reward.parse_success) {
      reward.raw_score = expected.at("raw_score").get<double>();
      reward.score_cap = expected.at("score_cap").get<double>();
      reward.mean_episode_length = expected.at("mean_episode_length").get<double>();
      reward.edit_count = expected.at("edit_count").get<std::int64_t>();
      reward.nonzero_weights = expected.at("nonzero_weights").get<std::int64_t>();
    } else {
      reward.error = PythonError{"ValueError", expected.at("error").get<std::string>()};
    }
    EXPECT_EQ(reward_json(reward), grade_case.at("expected_reward_json").get<std::string>())
        << grade_case.at("id");
    ++checked;
  }
  EXPECT_GT(checked, 40);
}

}  // namespace
}  // namespace weightspace
