// SPDX-License-Identifier: GPL-3.0-or-later
// The numpy-level categories of tests/golden/parser_cases.json end to end: the last ```edits
// block, the Python front end, then the numpy back end, compared with verify.apply_edits.
#include <gtest/gtest.h>

#include <iostream>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>

#include "parser/numpy/apply_edits.hpp"
#include "parser/python/grammar.hpp"
#include "support/golden.hpp"

namespace weightspace {
namespace {

bool is_fence_space(char character) { return character == ' ' || (character >= '\t' && character <= '\r'); }

bool starts_with_tag(std::string_view text, std::size_t position) {
  static constexpr std::string_view kTag = "```edits";
  if (text.size() - position < kTag.size()) return false;
  for (std::size_t i = 0; i < kTag.size(); ++i) {
    char character = text[position + i];
    if (character >= 'A' && character <= 'Z') character = static_cast<char>(character - 'A' + 'a');
    if (character != kTag[i]) return false;
  }
  return true;
}

// findall(r"```edits\s*\n(.*?)```", re.DOTALL | re.IGNORECASE)[-1] for ASCII fences, which is
// all these categories use (parser/fence.cpp handles the Unicode details).
std::optional<std::string_view> last_block(std::string_view answer) {
  std::optional<std::string_view> last;
  std::size_t position = 0;
  while ((position = answer.find("```", position)) != std::string_view::npos) {
    if (!starts_with_tag(answer, position)) {
      ++position;
      continue;
    }
    std::size_t cursor = position + 8;
    std::size_t last_line_feed = std::string_view::npos;
    while (cursor < answer.size() && is_fence_space(answer[cursor])) {
      if (answer[cursor] == '\n') last_line_feed = cursor;
      ++cursor;
    }
    if (last_line_feed == std::string_view::npos) {
      ++position;
      continue;
    }
    const std::size_t body_start = last_line_feed + 1;
    const std::size_t body_end = answer.find("```", body_start);
    if (body_end == std::string_view::npos) break;
    last = answer.substr(body_start, body_end - body_start);
    position = body_end + 3;
  }
  return last;
}

// Messages the numpy back end (and python_float) produce; they should read like Python's.
bool raised_by_back_end(const std::string& message) {
  static const char* const kPrefixes[] = {
      "index ", "too many indices", "only integers", "Python int too large", "slice ",
      "setting an array element", "could not broadcast", "operands could not", "non-broadcastable",
      "ufunc ", "Cannot cast", "can't multiply sequence", "unsupported operand", "float() argument",
      "int() argument", "invalid literal for int()", "could not convert string to float",
      "cannot convert float", "int too large", "weights must be finite", "unknown tensor", "only *=",
      "edits may contain only", "edit target must"};
  for (const char* prefix : kPrefixes) {
    if (message.rfind(prefix, 0) == 0) return true;
  }
  return false;
}

struct Tally {
  int total = 0;
  int agree = 0;
};

TEST(NumpyGolden, NumpyLevelCategoriesAgreeWithVerifyPy) {
  const std::set<std::string> categories{"literal_numeric", "literal_values", "value_shapes",
                                         "targets",         "indices",        "augassign",
                                         "final_check",     "parametric",     "variation"};
  std::map<std::string, Tally> tallies;
  int messages_compared = 0;
  int messages_equal = 0;
  for (const auto& test_case : testing::golden("parser_cases.json")["cases"]) {
    const std::string category = test_case["category"];
    if (!categories.contains(category)) continue;
    const std::string id = test_case["id"];
    const std::string answer = test_case["answer"];
    const auto& expected = test_case["outcome"];
    Tally& tally = tallies[category];
    ++tally.total;

    std::optional<EditError> error;
    Weights weights;
    EditSummary summary;
    try {
      const auto body = last_block(answer);
      if (!body) throw EditError("ValueError", "answer has no edits block");
      const std::vector<Statement> statements = parse_edits_block(*body);
      summary = apply_statements(statements, weights);
    } catch (const EditError& raised) {
      error = raised;
    }

    bool agrees = false;
    if (expected["parse_success"].get<bool>()) {
      agrees = !error && weights_sha256(weights) == expected["sha256"].get<std::string>() &&
               summary.edit_count == expected["edit_count"].get<int>() &&
               summary.nonzero_weights == expected["nonzero_weights"].get<std::int64_t>();
      EXPECT_TRUE(agrees) << id << ": " << (error ? error->kind() + ": " + error->what() : "different weights");
    } else {
      const std::string expected_type = expected["error_type"];
      agrees = error && error->kind() == expected_type;
      EXPECT_TRUE(agrees) << id << ": expected " << expected_type << ": " << expected["message"].get<std::string>()
                          << ", got " << (error ? error->kind() + ": " + error->what() : "success");
      const std::string expected_message = expected["message"];
      if (agrees && raised_by_back_end(expected_message)) {
        ++messages_compared;
        const std::string ours = error->what();
        const bool same = ours.rfind(expected_message, 0) == 0;
        messages_equal += same ? 1 : 0;
        EXPECT_TRUE(same) << id << ": message " << ours << " instead of " << expected_message;
      }
    }
    tally.agree += agrees ? 1 : 0;
  }
  for (const auto& [category, tally] : tallies) {
    std::cout << category << ": " << tally.agree << " / " << tally.total << " agree\n";
  }
  std::cout << "back-end messages equal to Python's: " << messages_equal << " / " << messages_compared << "\n";
  EXPECT_EQ(tallies.size(), categories.size());
}

}  // namespace
}  // namespace weightspace
