// SPDX-License-Identifier: GPL-3.0-or-later
#include "parser/fence.hpp"

#include <map>
#include <string>

#include <gtest/gtest.h>

#include "support/golden.hpp"

namespace weightspace {
namespace {

using weightspace::testing::golden;

// verify.apply_edits raises "answer has no edits block" exactly when findall finds nothing,
// and every other outcome (success or a later error) means it found a block. That pins the
// fence down on every golden case, not only the fence categories.
TEST(Fence, FindsABlockExactlyWhenTheGraderDoes) {
  std::map<std::string, int> checked_per_category;
  for (const auto& golden_case : golden("parser_cases.json")["cases"]) {
    const auto& outcome = golden_case["outcome"];
    const bool grader_found = outcome["parse_success"].get<bool>() ||
                              outcome["message"].get<std::string>() != "answer has no edits block";
    const std::string answer = golden_case["answer"].get<std::string>();
    EXPECT_EQ(last_edits_block(answer).has_value(), grader_found) << golden_case["id"].get<std::string>();
    ++checked_per_category[golden_case["category"].get<std::string>()];
  }
  // The four fence categories of the README are all there.
  EXPECT_EQ(checked_per_category["fence"], 43);
  EXPECT_EQ(checked_per_category["fence_case"], 9);
  EXPECT_EQ(checked_per_category["fence_whitespace"], 21);
  EXPECT_EQ(checked_per_category["fence_unicode_ws"], 49);
}

// Bodies checked by hand with CPython 3.11:
//   re.findall(r"```edits\s*\n(.*?)```", answer, re.DOTALL | re.IGNORECASE)[-1]
TEST(Fence, BodiesMatchPythonRe) {
  const std::pair<std::string, std::string> cases[] = {
      // \s*\n backtracks to the last LF of the whitespace run: indentation stays in the body.
      {"```edits\n  b1[0] = 1\n```", "  b1[0] = 1\n"},
      {"```edits \n  \n\t\nb1[0] = 1\n```", "b1[0] = 1\n"},
      {"```edits\n\n  \nb```", "b"},
      {"```edits\v\n\f\n x```", " x"},
      // Matches do not overlap: the second tag is the first block's closing fence.
      {"```edits\n```edits\nb1[0] = 1\n```", ""},
      {"```edits\na```edits\nb```", "a"},
      {"````edits\nb1[0] = 1\n````", "b1[0] = 1\n"},
      {"``````edits\nz```", "z"},
      {"Answer:\r\n```edits\r\nb1[0] = 1\r\nb1[1] = 2\r\n```\r\n", "b1[0] = 1\r\nb1[1] = 2\r\n"},
      {"```edits\nb1[0] = 1\n```python\nprint(1)\n```\n```", "b1[0] = 1\n"},
      {"```edits\nb1[0] = 1\n```\n```edits\nb1[1] = 2\n", "b1[0] = 1\n"},
      {"```edits\nb1[0] = 1```", "b1[0] = 1"},
      {"```edits\n```", ""},
      // Unicode case folding (İ U+0130, ſ U+017F) and whitespace (U+2028, U+3000, U+0085).
      {"```Ed\u0130t\u017f\u2028\u3000\n\u00a0x\n```", "\u00a0x\n"},
      {"```edits\u0085\n\u0085\nb```", "b"},
  };
  for (const auto& [answer, body] : cases) {
    const auto found = last_edits_block(answer);
    ASSERT_TRUE(found.has_value()) << answer;
    EXPECT_EQ(*found, body) << answer;
  }
  // U+2028 is whitespace but not the \n the pattern needs.
  EXPECT_FALSE(last_edits_block("```edits\u2028x\n```").has_value());
  // Fullwidth letters are not case variants of ASCII ones.
  EXPECT_FALSE(last_edits_block("```\uff45dits\nx```").has_value());
}

TEST(Fence, AnyBytesAreSafe) {
  // Invalid UTF-8 and lone lead bytes at the very end must not be read past.
  EXPECT_FALSE(last_edits_block("```edits\xC2").has_value());
  EXPECT_FALSE(last_edits_block("```edi\xC4").has_value());
  EXPECT_FALSE(last_edits_block("```edits\xE2\x80").has_value());
  EXPECT_FALSE(last_edits_block("```edits\xC2\n").has_value());  // C2 0A is no whitespace
  EXPECT_EQ(last_edits_block(std::string("```edits\n\xFF\0\x80```", 15)).value(), std::string("\xFF\0\x80", 3));
  EXPECT_FALSE(last_edits_block("").has_value());
  EXPECT_FALSE(last_edits_block("``").has_value());
}

// 1 MiB answers built to make a backtracking regex engine quadratic (Python's own re is, on
// "```edits" followed by " \n" repeated). The outcomes are those of the grader's regex (checked
// with Python on 8 KiB versions); how fast the scan is, is measured by parser_bench
// (BM_LastEditsBlockHostile), not here.
TEST(Fence, HostileInputs) {
  constexpr std::size_t kSize = std::size_t{1} << 20;
  const auto repeat = [&](const std::string& unit) {
    std::string text;
    while (text.size() < kSize) text += unit;
    return text;
  };
  const std::string without_block[] = {
      std::string(kSize, '`'),
      repeat("```edits"),
      "```edits" + std::string(kSize, ' '),
      "```edits" + repeat(" \n"),
      "```edits\n" + std::string(kSize, '`').substr(0, 2) + std::string(kSize, 'x'),
      repeat("``\n"),
      repeat("```EDIT"),
      repeat("```edits\u3000\u2028"),  // \s takes both, but no "\n" follows
  };
  for (const std::string& answer : without_block) EXPECT_FALSE(last_edits_block(answer).has_value()) << answer.substr(0, 20);
  // Repeated ```edits\n tags pair up as empty blocks; the last complete pair wins.
  EXPECT_EQ(last_edits_block(repeat("```edits\n")).value(), "");
  EXPECT_EQ(last_edits_block(repeat("```edits \n")).value(), "");
}

}  // namespace
}  // namespace weightspace
