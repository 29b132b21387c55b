// SPDX-License-Identifier: GPL-3.0-or-later
#include "apps/answer_input.hpp"

#include <spdlog/spdlog.h>

#include "apps/files.hpp"
#include "parser/answer.hpp"
#include "parser/trajectory.hpp"

namespace weightspace::app {

std::string read_answer_input(const std::string& path, bool trajectory) {
  const std::size_t limit = trajectory ? kMaxTrajectoryBytes : kMaxAnswerBytes;
  BoundedRead read = read_bounded(path, limit);
  if (read.truncated) {
    const std::string name = path == "-" ? "standard input" : path;
    throw EditError("ValueError", name + " is larger than " + std::to_string(limit) +
                                      " bytes, the most weightspace reads for " +
                                      (trajectory ? "a trajectory" : "an answer"));
  }
  return std::move(read.bytes);
}

void AnswerSource::add_options(CLI::App& command) {
  auto* answer = command.add_option("--answer", answer_path, "File holding the assistant's answer text ('-' = stdin)");
  auto* trajectory = command.add_option("--trajectory", trajectory_path, "Agent trajectory JSON; its last assistant message is graded");
  auto* positional = command.add_option("ANSWER", positional_path, "The answer file, as --answer ('-' = stdin)");
  answer->excludes(trajectory)->excludes(positional);
  trajectory->excludes(positional);
}

AnswerSource::Loaded AnswerSource::load() const {
  try {
    if (!trajectory_path.empty()) {
      const std::string answer = assistant_answer(read_answer_input(trajectory_path, true));
      if (answer.empty()) spdlog::warn("{}: no assistant message with text; the grader grades \"\"", trajectory_path);
      return {answer, std::nullopt};
    }
    const std::string& path = answer_path.empty() ? positional_path : answer_path;
    if (!path.empty()) return {read_answer_input(path, false), std::nullopt};
  } catch (const EditError& error) {
    const std::string& path = trajectory_path.empty() ? (answer_path.empty() ? positional_path : answer_path)
                                                      : trajectory_path;
    const bool named = std::string_view(error.what()).starts_with(path == "-" ? "standard input" : path);
    return {"", EditError(error.kind(), named ? error.what() : path + ": " + error.what(), error.line(),
                          error.column())};
  }
  throw UsageError("no answer given: use --answer FILE, --trajectory FILE, FILE or - (stdin)");
}

}  // namespace weightspace::app
