// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <optional>
#include <string>

#include <CLI/CLI.hpp>

#include "parser/python/error.hpp"

namespace weightspace::app {

// Where a command takes its answer from: --answer FILE (the assistant's text), --trajectory
// FILE (an agent trajectory JSON, of which the last assistant message is taken), or `-` /
// `--answer -` for the answer on standard input.
struct AnswerSource {
  std::string answer_path;
  std::string trajectory_path;
  std::string stdin_marker;  // "-"

  void add_options(CLI::App& command);

  // The answer text, or the error the grader would crash with on this trajectory (the file
  // is not JSON, or its shape makes assistant_answer raise). Unreadable files throw
  // CommandError.
  struct Loaded {
    std::string answer;
    std::optional<EditError> error;
  };
  Loaded load() const;
};

}  // namespace weightspace::app
