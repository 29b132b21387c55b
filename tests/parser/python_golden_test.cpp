// SPDX-License-Identifier: GPL-3.0-or-later
// The front end against every golden parser case (tests/golden/parser_cases.json): the edits
// block is cut out of the answer with verify.py's regex, then
//  * where Python's ast.parse raised, parse_edits_block must raise the same class with the same
//    message, line and column (SyntaxError.offset);
//  * where it parsed, parse_edits_block must not raise, and the first error the front end
//    decides (not an assignment, bad target, literal_eval error, unsupported augmented
//    operator), in the order verify.apply_edits meets them, must be the golden error -- or there
//    must be none when the golden answer succeeded.
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "parser/python/grammar.hpp"
#include "support/golden.hpp"

namespace weightspace {
namespace {

// One code point of well-formed UTF-8 at `offset` (advances it).
char32_t next_code_point(std::string_view text, std::size_t& offset) {
  const auto byte = [&](std::size_t index) { return static_cast<unsigned char>(text[index]); };
  const unsigned lead = byte(offset);
  const int length = lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4;
  char32_t value = length == 1 ? lead : lead & (0x3F >> (length - 1));
  for (int index = 1; index < length; ++index) value = (value << 6) | (byte(offset + index) & 0x3F);
  offset += static_cast<std::size_t>(length);
  return value;
}

// Python's \s in a str pattern.
bool is_regex_space(char32_t c) {
  return c == ' ' || (c >= 0x09 && c <= 0x0D) || (c >= 0x1C && c <= 0x1F) || c == 0x85 ||
         c == 0xA0 || c == 0x1680 || (c >= 0x2000 && c <= 0x200A) || c == 0x2028 ||
         c == 0x2029 || c == 0x202F || c == 0x205F || c == 0x3000;
}

// "edits" under re.IGNORECASE with Unicode: i also matches İ and ı, s also matches ſ.
bool matches_tag_letter(char32_t c, char letter) {
  const char32_t lower = c < 0x80 ? static_cast<char32_t>(c | 0x20) : c;
  if (lower == static_cast<char32_t>(letter)) return c < 0x80;
  if (letter == 'i') return c == 0x130 || c == 0x131;
  if (letter == 's') return c == 0x17F;
  return false;
}

// verify.EDITS_BLOCK.findall(answer)[-1]: r"```edits\s*\n(.*?)```", DOTALL | IGNORECASE.
std::optional<std::string> last_edits_block(std::string_view answer) {
  std::optional<std::string> last;
  std::size_t start = 0;
  while (start < answer.size()) {
    const std::size_t fence = answer.find("```", start);
    if (fence == std::string_view::npos) break;
    std::size_t cursor = fence + 3;
    bool tag = true;
    for (const char letter : std::string_view("edits")) {
      if (cursor >= answer.size() || !matches_tag_letter(next_code_point(answer, cursor), letter)) {
        tag = false;
        break;
      }
    }
    std::optional<std::size_t> body_start;
    while (tag && cursor < answer.size()) {  // \s*\n: the last newline of the whitespace run
      std::size_t next = cursor;
      const char32_t c = next_code_point(answer, next);
      if (!is_regex_space(c)) break;
      if (c == '\n') body_start = next;
      cursor = next;
    }
    if (!body_start) {
      start = fence + 1;
      continue;
    }
    const std::size_t end = answer.find("```", *body_start);
    if (end == std::string_view::npos) break;
    last = std::string(answer.substr(*body_start, end - *body_start));
    start = end + 3;
  }
  return last;
}

bool is_tensor(const std::string& name) {
  for (const char* tensor : {"W1", "b1", "W2", "b2", "W3", "b3"}) {
    if (name == tensor) return true;
  }
  return false;
}

// The first error the front end decides, in verify.apply_edits order, or nullopt. Stops (also
// nullopt) where the back end would have to decide first (unknown tensor).
std::optional<EditError> first_front_end_error(const std::vector<Statement>& statements) {
  const auto literal = [](const Evaluated<PyValue>& evaluated) -> std::optional<EditError> {
    if (const EditError* error = std::get_if<EditError>(&evaluated)) return *error;
    return std::nullopt;
  };
  for (const Statement& statement : statements) {
    if (statement.shape == Statement::Shape::NotAnAssignment) {
      return EditError("ValueError", "edits may contain only assignments");
    }
    if (statement.target_error) return statement.target_error;
    if (!is_tensor(statement.tensor)) return std::nullopt;
    for (const IndexItem& item : statement.index) {
      if (!item.is_slice()) {
        if (auto error = literal(item.index)) return error;
        continue;
      }
      for (const auto* bound : {&item.slice->lower, &item.slice->upper, &item.slice->step}) {
        if (*bound) {
          if (auto error = literal(**bound)) return error;
        }
      }
    }
    if (auto error = literal(statement.value)) return error;
    if (statement.shape == Statement::Shape::AugAssign && statement.op == Statement::Operator::Other) {
      return EditError("ValueError", "only *=, +=, and -= augmented edits are allowed");
    }
  }
  return std::nullopt;
}

bool front_end_message(const std::string& message) {
  return message == "edits may contain only assignments" ||
         message == "edit target must index a named tensor" ||
         message == "only *=, +=, and -= augmented edits are allowed" ||
         message.starts_with("malformed node or string") || message.starts_with("unhashable type");
}

TEST(PythonGolden, EveryParserCase) {
  const nlohmann::json& cases = weightspace::testing::golden("parser_cases.json")["cases"];
  int checked = 0;
  int agreed = 0;
  for (const nlohmann::json& item : cases) {
    const std::string id = item["id"].get<std::string>();
    const nlohmann::json& outcome = item["outcome"];
    const std::optional<std::string> body = last_edits_block(item["answer"].get<std::string>());
    const bool success = outcome["parse_success"].get<bool>();
    const std::string type = success ? "" : outcome["error_type"].get<std::string>();
    const std::string message = success ? "" : outcome["message"].get<std::string>();
    if (!body) {
      EXPECT_EQ(message, "answer has no edits block") << id;
      continue;
    }
    ++checked;
    std::vector<Statement> statements;
    std::optional<EditError> raised;
    try {
      statements = parse_edits_block(*body);
    } catch (const EditError& error) {
      raised = error;
    }
    const bool parser_level = outcome.contains("syntax") || type == "RecursionError" ||
                              type == "MemoryError" ||
                              message == "source code string cannot contain null bytes";
    bool ok = true;
    if (parser_level) {
      ok = raised && raised->kind() == type && raised->what() == message;
      if (ok && outcome.contains("syntax")) {
        ok = raised->line() == outcome["syntax"]["lineno"].get<int>() &&
             raised->column() == outcome["syntax"]["offset"].get<int>();
      }
      EXPECT_TRUE(ok) << id << ": expected " << type << ": " << message << ", got "
                      << (raised ? raised->kind() + ": " + raised->what() : "no error");
    } else if (raised) {
      ok = false;
      ADD_FAILURE() << id << ": parse_edits_block raised " << raised->kind() << ": " << raised->what();
    } else {
      const std::optional<EditError> ours = first_front_end_error(statements);
      if (success) {
        ok = !ours;
      } else if (front_end_message(message)) {
        ok = ours && ours->kind() == type && ours->what() == message;
      } else {
        // A back-end error: the front end must not claim an error before the back end does;
        // it cannot know where numpy fails, so only a front-end error of another kind at the
        // very first statement would be wrong. Nothing to compare.
        ok = true;
      }
      EXPECT_TRUE(ok) << id << ": expected " << (success ? "success" : type + ": " + message)
                      << ", front end gave " << (ours ? ours->kind() + ": " + ours->what() : "no error");
    }
    agreed += ok ? 1 : 0;
  }
  std::cout << "[ golden ] front end agrees on " << agreed << " of " << checked
            << " parser cases that have an edits block\n";
  EXPECT_EQ(agreed, checked);
}

}  // namespace
}  // namespace weightspace
