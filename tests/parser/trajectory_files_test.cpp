// SPDX-License-Identifier: GPL-3.0-or-later
// Trajectory files as the grader's main() reads them (Path.read_text(), then json.loads):
// tests/golden/trajectory_files.json, recorded by tests/support/record_trajectory_files.py.
// Its cases hold CR and CRLF line ends, which read_text() translates before json.loads counts
// the line, column and character of an error.
#include <string>

#include <gtest/gtest.h>

#include "parser/python/error.hpp"
#include "parser/trajectory.hpp"
#include "support/golden.hpp"

namespace weightspace {
namespace {

std::string bytes_from_hex(const std::string& hex) {
  std::string bytes;
  for (std::size_t index = 0; index + 1 < hex.size(); index += 2) {
    bytes.push_back(static_cast<char>(std::stoi(hex.substr(index, 2), nullptr, 16)));
  }
  return bytes;
}

TEST(TrajectoryFiles, EveryRecordedFile) {
  const auto& cases = weightspace::testing::golden("trajectory_files.json")["cases"];
  ASSERT_GE(cases.size(), 20u);
  for (const auto& golden_case : cases) {
    const std::string id = golden_case["id"].get<std::string>();
    const std::string file = bytes_from_hex(golden_case["file_hex"].get<std::string>());
    const auto& expected = golden_case["expected"];
    try {
      const std::string answer = assistant_answer(file);
      ASSERT_FALSE(expected["raises"].get<bool>()) << id << ": returned " << answer;
      EXPECT_EQ(answer, expected["answer"].get<std::string>()) << id;
    } catch (const EditError& error) {
      ASSERT_TRUE(expected["raises"].get<bool>()) << id << ": " << error.kind() << ": " << error.what();
      EXPECT_EQ(error.kind(), expected["error_type"].get<std::string>()) << id;
      const std::string python_message = expected["message"].get<std::string>();
      if (expected["stage"] == "json.loads") {
        EXPECT_EQ(error.what(), python_message) << id;
      } else {
        // Python's text, then where weightspace found the problem.
        EXPECT_TRUE(std::string(error.what()).starts_with(python_message)) << id << ": " << error.what();
      }
    }
  }
}

TEST(TrajectoryFiles, LineEndsChangeNoAnswer) {
  const std::string lf = "{\"steps\": [{\"messages\": [\n{\"role\": \"assistant\", \"content\": \"a\\r\\nb\"}]}]}\n";
  std::string crlf;
  std::string cr;
  for (const char character : lf) {
    crlf += character == '\n' ? std::string("\r\n") : std::string(1, character);
    cr += character == '\n' ? '\r' : character;
  }
  EXPECT_EQ(assistant_answer(lf), "a\r\nb");
  EXPECT_EQ(assistant_answer(crlf), "a\r\nb");
  EXPECT_EQ(assistant_answer(cr), "a\r\nb");
}

}  // namespace
}  // namespace weightspace
