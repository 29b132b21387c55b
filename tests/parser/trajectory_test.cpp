// SPDX-License-Identifier: GPL-3.0-or-later
#include "parser/trajectory.hpp"

#include <string>

#include <gtest/gtest.h>

#include "parser/python/error.hpp"
#include "support/golden.hpp"

namespace weightspace {
namespace {

using weightspace::testing::golden;

// The kind and message of what assistant_answer throws, or "" if it returns.
struct Raised {
  std::string kind;
  std::string message;
};

Raised raised_by(std::string_view text) {
  try {
    (void)assistant_answer(text);
  } catch (const EditError& error) {
    return {error.kind(), error.what()};
  }
  return {};
}

// A trajectory document as the grader's json.loads sees it. `trajectory` documents are
// re-serialised; nlohmann sorts their keys, which assistant_answer never depends on.
std::string document_text(const nlohmann::json& golden_case) {
  if (golden_case.contains("trajectory_text")) return golden_case["trajectory_text"].get<std::string>();
  return golden_case["trajectory"].dump();
}

TEST(Trajectory, EveryGoldenCase) {
  int checked = 0;
  for (const auto& golden_case : golden("trajectories.json")["cases"]) {
    const std::string id = golden_case["id"].get<std::string>();
    const std::string text = document_text(golden_case);
    const auto& expected = golden_case["expected"];
    ++checked;
    if (expected["raises"].get<bool>()) {
      const Raised raised = raised_by(text);
      EXPECT_EQ(raised.kind, expected["error_type"].get<std::string>()) << id << ": " << raised.message;
      const std::string python_message = expected["message"].get<std::string>();
      if (expected["stage"] == "json.loads") {
        EXPECT_EQ(raised.message, python_message) << id;  // json errors are reproduced exactly
      } else {
        EXPECT_TRUE(raised.message.starts_with(python_message)) << id << ": " << raised.message;
      }
      continue;
    }
    try {
      const std::string answer = assistant_answer(text);
      EXPECT_EQ(answer, expected["answer"].get<std::string>()) << id;
    } catch (const EditError& error) {
      ADD_FAILURE() << id << ": unexpected " << error.kind() << ": " << error.what();
    }
  }
  EXPECT_EQ(checked, 66);
}

// Facts about CPython 3.11's json.loads checked by hand (messages copied from Python).
TEST(Trajectory, JsonDecodeErrorsLikePython) {
  const std::pair<std::string, std::string> cases[] = {
      {"", "Expecting value: line 1 column 1 (char 0)"},
      {"[1,]", "Expecting value: line 1 column 4 (char 3)"},
      {"{\"a\":1,}", "Expecting property name enclosed in double quotes: line 1 column 8 (char 7)"},
      {"-", "Expecting value: line 1 column 1 (char 0)"},
      {"1.", "Extra data: line 1 column 2 (char 1)"},
      {"01", "Extra data: line 1 column 2 (char 1)"},
      {"1e+", "Extra data: line 1 column 2 (char 1)"},
      {"\"\\u12\"", "Invalid \\uXXXX escape: line 1 column 3 (char 2)"},
      {"\"abc\\", "Unterminated string starting at: line 1 column 1 (char 0)"},
      {"\"\\x\"", "Invalid \\escape: line 1 column 2 (char 1)"},
      {"\xEF\xBB\xBF{}", "Unexpected UTF-8 BOM (decode using utf-8-sig): line 1 column 1 (char 0)"},
      {" \xEF\xBB\xBF{}", "Expecting value: line 1 column 2 (char 1)"},
      {"\"a\x01\"", "Invalid control character at: line 1 column 3 (char 2)"},
      {"-NaN", "Expecting value: line 1 column 1 (char 0)"},
      {"[1 2]", "Expecting ',' delimiter: line 1 column 4 (char 3)"},
      {"{\"a\" 1}", "Expecting ':' delimiter: line 1 column 6 (char 5)"},
      {"\"\\ud800\\udc0\"", "Invalid \\uXXXX escape: line 1 column 9 (char 8)"},
      {"\u00a01", "Expecting value: line 1 column 1 (char 0)"},
      // Columns count code points, not bytes.
      {"{\"\u00e9\u00e9\": x}", "Expecting value: line 1 column 8 (char 7)"},
      {"[\n1,\n  x]", "Expecting value: line 3 column 3 (char 7)"},
  };
  for (const auto& [text, message] : cases) {
    const Raised raised = raised_by(text);
    EXPECT_EQ(raised.kind, "JSONDecodeError") << text;
    EXPECT_EQ(raised.message, message) << text;
  }
}

TEST(Trajectory, PythonJsonQuirks) {
  const auto answer_of = [](const std::string& content_json) {
    return assistant_answer(R"({"steps": [{"messages": [{"role": "assistant", "content": )" + content_json + "}]}]}");
  };
  // Lone surrogates stay, as WTF-8; an escaped pair becomes one 4-byte character.
  EXPECT_EQ(answer_of(R"("a\ud800b")"), "a\xED\xA0\x80" "b");
  EXPECT_EQ(answer_of(R"("\udc00\ud800")"), "\xED\xB0\x80\xED\xA0\x80");
  EXPECT_EQ(answer_of(R"("\ud835\udc16")"), "\xF0\x9D\x90\x96");
  EXPECT_EQ(answer_of(R"("\ud800\u0041")"), "\xED\xA0\x80" "A");
  EXPECT_EQ(answer_of(R"("\u0000\/\b\f\n\r\t\"\\")"), std::string("\0/\b\f\n\r\t\"\\", 9));
  // Duplicate keys: the last value wins.
  EXPECT_EQ(answer_of(R"("x", "content": "y")"), "y");
  EXPECT_EQ(assistant_answer(R"({"steps": [], "steps": [{"messages": [{"role": "assistant", "content": "z"}]}]})"), "z");
  // Falsy steps: 0, -0, 0.0, and floats that round to zero; NaN is truthy.
  for (const char* steps : {"0", "-0", "0.0", "-0e5", "1e-400", "2.4703282292062327e-324", "false", "\"\"", "{}"}) {
    EXPECT_EQ(assistant_answer(std::string(R"({"steps": )") + steps + "}"), "") << steps;
  }
  for (const char* steps : {"2.4703282292062328e-324", "NaN", "-Infinity", "1e999", "1"}) {
    EXPECT_EQ(raised_by(std::string(R"({"steps": )") + steps + "}").kind, "TypeError") << steps;
  }
}

TEST(Trajectory, InterpreterLimits) {
  // json.loads under verify.main nests 994 containers and raises RecursionError at 995.
  const auto nested = [](int depth) { return std::string(depth, '[') + std::string(depth, ']'); };
  EXPECT_EQ(raised_by(nested(994)).kind, "AttributeError");  // a list has no .get
  EXPECT_EQ(raised_by(nested(995)).kind, "RecursionError");
  EXPECT_EQ(raised_by(std::string(100000, '[')).kind, "RecursionError");
  EXPECT_EQ(raised_by(std::string(100000, '{')).kind, "JSONDecodeError");  // {{ wants a key first
  // int("1" * 4301) exceeds sys.get_int_max_str_digits().
  EXPECT_EQ(raised_by(R"({"steps": 1)" + std::string(4299, '0') + "}").kind, "TypeError");
  const Raised huge = raised_by(R"({"steps": -1)" + std::string(4300, '0') + "}");
  EXPECT_EQ(huge.kind, "ValueError");
  EXPECT_EQ(huge.message,
            "Exceeds the limit (4300 digits) for integer string conversion: value has 4301 digits; "
            "use sys.set_int_max_str_digits() to increase the limit");
}

TEST(Trajectory, FileThatIsNotUtf8) {
  const Raised raised = raised_by("{\"steps\": \"\xED\xA0\x80\"}");  // an encoded surrogate
  EXPECT_EQ(raised.kind, "UnicodeDecodeError");
  EXPECT_TRUE(raised.message.starts_with("'utf-8' codec can't decode byte 0xed in position 11: invalid continuation byte"))
      << raised.message;
  EXPECT_TRUE(raised_by("[\"\xF0\x9F\x98\"]").message.starts_with(
      "'utf-8' codec can't decode bytes in position 2-4: invalid continuation byte"));
  EXPECT_TRUE(raised_by("\xFF").message.starts_with("'utf-8' codec can't decode byte 0xff in position 0: invalid start byte"));
}

TEST(Trajectory, ErrorsNameThePlace) {
  const Raised raised = raised_by("{\"steps\": [{\"messages\": [{\"role\": \"assistant\", \"content\": \"a\"}]},\n null]}");
  EXPECT_EQ(raised.kind, "AttributeError");
  EXPECT_EQ(raised.message,
            "'NoneType' object has no attribute 'get' (assistant_answer, at trajectory[\"steps\"][1], line 2 column 2 of "
            "the trajectory)");
  const Raised join = raised_by(R"({"steps": [{"messages": [{"role": "assistant", "content": ["x", {}, {"text": 5}]}]}]})");
  EXPECT_EQ(join.kind, "TypeError");
  EXPECT_TRUE(join.message.starts_with("sequence item 1: expected str instance, int found (assistant_answer, at "
                                       "trajectory[\"steps\"][0][\"messages\"][0][\"content\"][2][\"text\"]"))
      << join.message;
}

// No size limit: 129 MiB of whitespace (past the old 128 MiB limit) is json.loads' error.
TEST(Trajectory, NoSizeLimit) {
  const std::string text((std::size_t{129} << 20) + 1, ' ');
  EXPECT_EQ(raised_by(text).kind, "JSONDecodeError");  // "Expecting value"
}

// Large documents read completely, with the grader's outcome: a 16 MiB answer string, a
// million null steps before an empty one (Python's `step.get` on None raises), and a million
// nulls in a user message's content list (skipped by role, so the answer is ""). How fast they
// read is measured by parser_bench (BM_AssistantAnswerLarge), not here.
TEST(Trajectory, LargeDocuments) {
  const std::string content(std::size_t{16} << 20, 'x');
  std::string steps;
  for (int i = 0; i < 1'000'000; ++i) steps += "null,";
  const std::string answer_document =
      R"({"steps": [{"messages": [{"role": "assistant", "content": ")" + content + "\"}]}]}";
  EXPECT_EQ(assistant_answer(answer_document).size(), content.size());
  EXPECT_EQ(raised_by(R"({"steps": [)" + steps + "{}]}").kind, "AttributeError");
  const std::string user_document =
      R"({"steps": [{"messages": [{"role": "user", "content": [)" + steps + R"({"text": "a"}]}]}]})";
  EXPECT_EQ(raised_by(user_document).kind, "");
  EXPECT_EQ(assistant_answer(user_document), "");
}

}  // namespace
}  // namespace weightspace
