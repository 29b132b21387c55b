// SPDX-License-Identifier: GPL-3.0-or-later
// Every golden answer through parse_answer, compared with what verify.apply_edits did:
// success -> the same tensor bytes (sha256), edit_count and nonzero count; failure -> the same
// Python exception class. Disagreements are listed one by one (case id, expected, actual, and
// which stage of ours produced the outcome), followed by a per-category agreement table.
#include "parser/answer.hpp"

#include <algorithm>
#include <bit>
#include <filesystem>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <unistd.h>

#include "parser/fence.hpp"
#include "parser/json_reader.hpp"
#include "parser/numpy/apply_edits.hpp"
#include "parser/python/grammar.hpp"
#include "parser/trajectory.hpp"
#include "support/golden.hpp"

namespace weightspace {
namespace {

using weightspace::testing::golden;
using weightspace::testing::golden_path;


// parser_cases_surrogates.json holds lone surrogates (\ud800), which nlohmann rejects; our own
// reader keeps them as WTF-8, and this builds the same nlohmann tree from its events.
class TreeBuilder final : public JsonEvents {
 public:
  nlohmann::json root;

  void begin_container(JsonType type, std::size_t) override {
    stack_.push_back(&place(type == JsonType::Object ? nlohmann::json::object() : nlohmann::json::array()));
  }
  void end_container(std::size_t) override { stack_.pop_back(); }
  void key(std::string_view key) override { key_ = key; }
  void scalar(const JsonScalar& value) override {
    switch (value.type) {
      case JsonType::Null: place(nullptr); break;
      case JsonType::Bool: place(value.truthy); break;
      case JsonType::Int: place(std::stoll(std::string(value.text))); break;
      case JsonType::Float: place(std::strtod(std::string(value.text).c_str(), nullptr)); break;
      default: place(std::string(value.text)); break;
    }
  }

 private:
  nlohmann::json& place(nlohmann::json value) {
    if (stack_.empty()) return root = std::move(value);
    nlohmann::json& parent = *stack_.back();
    if (parent.is_object()) return parent[key_] = std::move(value);
    parent.push_back(std::move(value));
    return parent.back();
  }
  std::vector<nlohmann::json*> stack_;
  std::string key_;
};

nlohmann::json read_with_our_reader(std::string_view relative) {
  std::ifstream in(golden_path(relative), std::ios::binary);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  TreeBuilder builder;
  read_python_json(text, builder);
  return builder.root;
}

std::string describe_expected(const nlohmann::json& outcome) {
  if (outcome["parse_success"].get<bool>()) {
    return "success, edit_count " + std::to_string(outcome["edit_count"].get<int>()) + ", nonzero " +
           std::to_string(outcome["nonzero_weights"].get<long long>()) + ", sha256 " +
           outcome["sha256"].get<std::string>().substr(0, 12);
  }
  return outcome["error_type"].get<std::string>() + ": " + outcome["message"].get<std::string>();
}

std::string describe_actual(const ParsedAnswer& parsed, const std::string& sha) {
  if (parsed.success) {
    return "success, edit_count " + std::to_string(parsed.edit_count) + ", nonzero " +
           std::to_string(parsed.nonzero_weights) + ", sha256 " + sha.substr(0, 12);
  }
  std::string text = parsed.error->kind() + ": " + parsed.error->what();
  if (parsed.error->line() != 0) {
    text += " [line " + std::to_string(parsed.error->line()) + ", column " + std::to_string(parsed.error->column()) + "]";
  }
  return text;
}

// Which of our stages decided the outcome: the one to look at when it is wrong.
std::string our_stage(std::string_view answer) {
  const auto block = last_edits_block(answer);
  if (!block) return "fence";
  std::vector<Statement> statements;
  try {
    statements = parse_edits_block(*block);
  } catch (const EditError&) {
    return "front end (parse_edits_block raised)";
  }
  return "back end or literal values (parse_edits_block gave " + std::to_string(statements.size()) +
         " statements)";
}

// For equal-outcome successes with different bytes: which tensors differ, and where first.
std::string tensor_differences(const nlohmann::json& outcome, const Weights& weights) {
  std::string text;
  for (const TensorShape& shape : kTensorShapes) {
    const auto values = weights.tensor(static_cast<Tensor>(&shape - kTensorShapes.data()));
    const std::string name(shape.name);
    const std::string_view bytes(reinterpret_cast<const char*>(values.data()), values.size_bytes());
    if (sha256_hex(bytes) == outcome["tensor_sha256"][name].get<std::string>()) continue;
    text += " " + name + " differs";
    bool listed = false;
    for (const auto& listed_name : outcome["listed_tensors"]) listed |= listed_name == name;
    if (!listed) continue;
    std::map<std::size_t, std::uint32_t> expected_bits;
    for (const auto& entry : outcome["nonzeros"]) {
      if (entry[0] == name) expected_bits[entry[1].get<std::size_t>()] = std::stoul(entry[2].get<std::string>(), nullptr, 16);
    }
    for (std::size_t flat = 0; flat < values.size(); ++flat) {
      const std::uint32_t actual = std::bit_cast<std::uint32_t>(values[flat]);
      const std::uint32_t expected = expected_bits.contains(flat) ? expected_bits[flat] : 0;
      if (actual == expected) continue;
      std::ostringstream where;
      where << std::hex << " (first at flat " << std::dec << flat << ": expected 0x" << std::hex << expected
            << ", got 0x" << actual << ")";
      text += where.str();
      break;
    }
  }
  return text;
}

// The rejection's text is str() of the grader's exception, exactly: the place is beside it
// (EditError::line/column), never in it.
bool same_message(std::string_view actual, std::string_view expected) { return actual == expected; }

// "" when parse_answer agrees with the golden outcome, else what differs. With `messages`, a
// rejection must also carry the grader's exact message.
std::string disagreement(std::string_view answer, const nlohmann::json& outcome, bool messages = false) {
  ParsedAnswer parsed;
  try {
    parsed = parse_answer(answer);
  } catch (const std::exception& error) {
    return "expected " + describe_expected(outcome) + "; parse_answer threw (it must not): " + error.what();
  }
  const std::string sha = parsed.success ? weights_sha256(parsed.weights) : "";
  const bool expected_success = outcome["parse_success"].get<bool>();
  bool agree = parsed.success == expected_success;
  if (agree && expected_success) {
    agree = sha == outcome["sha256"].get<std::string>() && parsed.edit_count == outcome["edit_count"].get<int>() &&
            parsed.nonzero_weights == outcome["nonzero_weights"].get<long long>();
  } else if (agree) {
    agree = parsed.error->kind() == outcome["error_type"].get<std::string>() &&
            (!messages || same_message(parsed.error->what(), outcome["message"].get<std::string>()));
  }
  if (agree) return "";
  std::string text = "expected " + describe_expected(outcome) + "; actual " + describe_actual(parsed, sha);
  if (parsed.success && expected_success) text += ";" + tensor_differences(outcome, parsed.weights);
  try {
    text += "; decided by " + our_stage(answer);
  } catch (const std::exception& error) {
    text += std::string("; the stages threw ") + error.what();
  }
  return text;
}

struct Tally {
  std::map<std::string, std::pair<int, int>> per_category;  // agreeing, total
  void add(const std::string& category, bool agree) {
    auto& [agreeing, total] = per_category[category];
    agreeing += agree ? 1 : 0;
    ++total;
  }
  void print(const std::string& title) const {
    int agreeing_total = 0, total = 0;
    std::cout << "[ agreement ] " << title << "\n";
    for (const auto& [category, counts] : per_category) {
      std::cout << "[ agreement ]   " << category << ": " << counts.first << " / " << counts.second << "\n";
      agreeing_total += counts.first;
      total += counts.second;
    }
    std::cout << "[ agreement ]   all: " << agreeing_total << " / " << total << std::endl;
  }
};

void check_cases(const nlohmann::json& cases, const std::string& title, bool messages = false) {
  Tally tally;
  for (const auto& golden_case : cases) {
    const std::string id = golden_case["id"].get<std::string>();
    const std::string answer = golden_case["answer"].get<std::string>();
    ASSERT_EQ(sha256_hex(answer), golden_case["answer_sha256"].get<std::string>()) << id << ": answer not read back exactly";
    const std::string problem = disagreement(answer, golden_case["outcome"], messages);
    tally.add(golden_case["category"].get<std::string>(), problem.empty());
    if (!problem.empty()) ADD_FAILURE() << id << ": " << problem;
  }
  tally.print(title);
}

// tests/golden/edge_cases/*.json: answers recorded by tests/support/record_parser_cases.py
// from the grader itself; there the message must be the grader's too.
TEST(ParserGoldenCases, EdgeCasesWithExactMessages) {
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(golden_path("edge_cases"))) {
    if (entry.path().extension() == ".json") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  ASSERT_FALSE(files.empty());
  for (const auto& file : files) {
    const nlohmann::json document = read_with_our_reader("edge_cases/" + file.filename().string());
    ASSERT_FALSE(document["cases"].empty()) << file;
    check_cases(document["cases"], file.filename().string(), true);
  }
}

TEST(ParserGoldenCases, EveryPublicCase) {
  const auto& cases = golden("parser_cases.json")["cases"];
  EXPECT_EQ(cases.size(), 1378u);
  check_cases(cases, "parser_cases.json");
}

TEST(ParserGoldenCases, SurrogateCases) {
  const nlohmann::json document = read_with_our_reader("parser_cases_surrogates.json");
  EXPECT_EQ(document["cases"].size(), 5u);
  check_cases(document["cases"], "parser_cases_surrogates.json");
}

// trajectory file -> assistant_answer -> parse_answer, for the trajectories that do not crash.
TEST(ParserGoldenCases, TrajectoriesEndToEnd) {
  Tally tally;
  for (const auto& golden_case : golden("trajectories.json")["cases"]) {
    const auto& expected = golden_case["expected"];
    if (expected["raises"].get<bool>()) continue;
    const std::string id = golden_case["id"].get<std::string>();
    const std::string text = golden_case.contains("trajectory_text") ? golden_case["trajectory_text"].get<std::string>()
                                                                     : golden_case["trajectory"].dump();
    std::string answer;
    try {
      answer = assistant_answer(text);
    } catch (const EditError& error) {
      ADD_FAILURE() << id << ": assistant_answer raised " << error.kind() << ": " << error.what();
      tally.add(golden_case["category"].get<std::string>(), false);
      continue;
    }
    EXPECT_EQ(sha256_hex(answer), expected["answer_sha256"].get<std::string>()) << id;
    const std::string problem = disagreement(answer, expected["parse"]);
    tally.add(golden_case["category"].get<std::string>(), problem.empty());
    if (!problem.empty()) ADD_FAILURE() << id << ": " << problem;
  }
  tally.print("trajectories.json (answer -> parse)");
}

// Answers past the limits weightspace used to have (a 4 MiB block, 16 MiB answers, 100,000
// statements, 250,000 literal values, a million tokens per statement) get the grader's
// outcome. Expectations recorded with verify.apply_edits under /usr/bin/python3 (3.11.2,
// numpy 1.24.2), e.g. `verify.apply_edits("```edits\n" + "b1[0] = 1\n" * 120000 + "```")`.
TEST(ParseAnswer, AnswersBeyondTheOldLimits) {
  const auto parse_block = [](const std::string& body) { return parse_answer("```edits\n" + body + "```"); };
  const ParsedAnswer comment = parse_block("b1[0] = 1\n#" + std::string(std::size_t{5} << 20, 'x') + "\n");
  ASSERT_TRUE(comment.success) << comment.error->what();
  EXPECT_EQ(comment.edit_count, 1);
  std::string statements;
  for (int i = 0; i < 120000; ++i) statements += "b1[0] = 1\n";
  const ParsedAnswer many = parse_block(statements);
  ASSERT_TRUE(many.success) << many.error->what();
  EXPECT_EQ(many.edit_count, 120000);
  std::string list = "b1[:] = [";
  for (int i = 0; i < 300000; ++i) list += "1, ";
  const ParsedAnswer long_list = parse_block(list + "]\n");
  ASSERT_FALSE(long_list.success);
  EXPECT_EQ(long_list.error->kind(), "ValueError");
  EXPECT_TRUE(same_message(long_list.error->what(), "could not broadcast input array from shape (300000,) into shape (32,)"))
      << long_list.error->what();
  std::string set = "b1[0] = {";
  for (int i = 0; i < 300000; ++i) set += std::to_string(i) + ",";
  const ParsedAnswer large_set = parse_block(set + "}\n");
  ASSERT_FALSE(large_set.success);
  EXPECT_EQ(large_set.error->kind(), "TypeError");
  EXPECT_TRUE(same_message(large_set.error->what(), "float() argument must be a string or a real number, not 'set'"))
      << large_set.error->what();
}

// parse_answer applies each statement as soon as it is parsed, yet verify.apply_edits runs
// ast.parse on the whole block first: an error ast.parse raises anywhere in the block wins over
// an edit error before it, and the first edit error wins over later ones and the final check.
TEST(ParseAnswer, ParseErrorsWinOverEarlierEditErrors) {
  const auto kind_of = [](const std::string& body) {
    const ParsedAnswer parsed = parse_answer("```edits\n" + body + "```");
    return parsed.success ? std::string("(none)") : parsed.error->kind();
  };
  EXPECT_EQ(kind_of("W9[0] = 1\nb1[0] = (\n"), "SyntaxError");
  EXPECT_EQ(kind_of("b1[0] = 1e9\nb1[1] = 1\n  b1[2] = 1\n"), "IndentationError");
  // ast conversion gives up on 4000 unary minuses (tests/parser/grammar_test.cpp), once the
  // whole block is parsed.
  EXPECT_EQ(kind_of("b1[99] = 1\nb1[0] = " + std::string(4000, '-') + "1\n"), "RecursionError");
  EXPECT_EQ(kind_of("W9[0] = 1\nb1[99] = 1\nb1[0] = 1e9\n"), "ValueError");  // unknown tensor
  EXPECT_EQ(kind_of("b1[99] = 1\nW9[0] = 1\n"), "IndexError");
  EXPECT_EQ(kind_of("b1[0] = 1e9\nb1[1] = 1\n"), "ValueError");  // the final check
  const ParsedAnswer fine = parse_answer("```edits\nb1[0] = 1\nb1[1] -= 2\nb1[0] *= 3\n```");
  ASSERT_TRUE(fine.success);
  EXPECT_EQ(fine.edit_count, 3);
  EXPECT_EQ(fine.nonzero_weights, 2);
}

TEST(ParseAnswer, BytesThatNoPythonStrHolds) {
  // Invalid UTF-8 cannot come from the grader's str; lone surrogates (WTF-8) can.
  const ParsedAnswer invalid = parse_answer("```edits\nb1[0] = 1\n```\xFF");
  ASSERT_FALSE(invalid.success);
  EXPECT_EQ(invalid.error->kind(), "UnicodeDecodeError");
  EXPECT_TRUE(parse_answer("\xED\xA0\x80 ```edits\nb1[0] = 1\n```").success);
  const ParsedAnswer truncated = parse_answer("```edits\nb1[0] = 1\n```\xE2\x82");
  ASSERT_FALSE(truncated.success);
  EXPECT_EQ(truncated.error->kind(), "UnicodeDecodeError");
}

// Inputs found by fuzz_parse_answer (fuzz/), with the outcome CPython 3.11 gives them (checked
// by hand: ast.parse raises SyntaxError for the first two; float("12e9999999999999999999") is
// inf, which fails the final check; float("0.001e-99999999999999999999") is 0.0, a fine edit;
// "" below means success; the braces are "'{' was never closed"). Each runs in a child process
// with a 10 s alarm, so a crash or a hang fails only this test.
TEST(ParseAnswerDeathTest, FuzzFindings) {
  const std::pair<std::string, std::string> cases[] = {
      {"```edits\nW, A 2.(,7\n```", "SyntaxError"},
      {"```edits\nb8, 0.18 0.2( 0>3, 0., 0.7, 0.9, a.0, 1.1, 1.2,,)1.4,```", "SyntaxError"},
      {"```edits\nb3[1] = 12e9999999999999999999\n```", "ValueError"},
      {"```edits\nb3[1] = 0.001e-99999999999999999999\n```", ""},
      {"```edits\n" + std::string(24, '{') + "a b\n```", "SyntaxError"},
  };
  for (const auto& [answer, kind] : cases) {
    EXPECT_EXIT(
        {
          alarm(10);
          const ParsedAnswer parsed = parse_answer(answer);
          std::exit(parsed.success ? (kind.empty() ? 0 : 1) : (parsed.error->kind() == kind ? 0 : 1));
        },
        ::testing::ExitedWithCode(0), "")
        << answer;
  }
}

}  // namespace
}  // namespace weightspace

namespace weightspace {
namespace {

// Columns on a line of many statements are counted on from the previous statement, not from
// the line's start each time (which was quadratic): the column must still be Python's.
TEST(ParseAnswer, ColumnsOnALongLineOfStatements) {
  std::string body;
  for (int i = 0; i < 1000; ++i) body += "b1[0] = 1; ";
  body += "b1[\"\xc3\xa9\", 99] = 1";  // the index item starts at column 11004 (1-based)
  const ParsedAnswer parsed = parse_answer("```edits\n" + body + "\n```");
  ASSERT_FALSE(parsed.success);
  EXPECT_EQ(parsed.error->kind(), "ValueError");
  EXPECT_EQ(parsed.error->line(), 1);
  EXPECT_EQ(parsed.error->column(), 11004);
}

}  // namespace
}  // namespace weightspace
