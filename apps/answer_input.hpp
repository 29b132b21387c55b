// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <optional>
#include <string>

#include <CLI/CLI.hpp>

#include "parser/python/error.hpp"

namespace weightspace::app {

// The bytes of an answer or a trajectory file ("-": standard input), read no further than
// the parser's limit for it: a larger input is an EditError (ValueError) naming it, an
// unreadable one a CommandError.
std::string read_answer_input(const std::string& path, bool trajectory);

// Where a command takes its answer from: --answer FILE or a positional FILE (the assistant's
// text), --trajectory FILE (an agent trajectory JSON, of which the last assistant message is
// taken); `-` for either answer form reads standard input.
struct AnswerSource {
  std::string answer_path;
  std::string trajectory_path;
  std::string positional_path;

  void add_options(CLI::App& command);

  // The answer text, or the error the grader would crash with on this trajectory (the file
  // is not JSON, or its shape makes assistant_answer raise) or weightspace's size limit.
  // Unreadable files throw CommandError.
  struct Loaded {
    std::string answer;
    std::optional<EditError> error;
  };
  Loaded load() const;
};

}  // namespace weightspace::app
