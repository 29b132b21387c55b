// SPDX-License-Identifier: GPL-3.0-or-later
#include "apps/answer_input.hpp"

#include "apps/files.hpp"
#include "parser/trajectory.hpp"

namespace weightspace::app {

void AnswerSource::add_options(CLI::App& command) {
  auto* answer = command.add_option("--answer", answer_path, "File holding the assistant's answer text ('-' = stdin)");
  auto* trajectory = command.add_option("--trajectory", trajectory_path, "Agent trajectory JSON; its last assistant message is graded");
  auto* dash = command.add_option("stdin", stdin_marker, "'-' reads the answer text from standard input")
                   ->check(CLI::IsMember({"-"}));
  answer->excludes(trajectory)->excludes(dash);
  trajectory->excludes(dash);
}

AnswerSource::Loaded AnswerSource::load() const {
  if (!trajectory_path.empty()) {
    const std::string text = read_input(trajectory_path);
    try {
      return {assistant_answer(text), std::nullopt};
    } catch (const EditError& error) {
      return {"", EditError(error.kind(), trajectory_path + ": " + error.what(), error.line(), error.column())};
    }
  }
  if (!answer_path.empty()) return {read_input(answer_path), std::nullopt};
  if (!stdin_marker.empty()) return {read_input("-"), std::nullopt};
  throw CommandError("no answer given: use --answer FILE, --trajectory FILE or - (stdin)");
}

}  // namespace weightspace::app
