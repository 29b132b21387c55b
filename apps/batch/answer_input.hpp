// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstddef>
#include <optional>
#include <string>

#include "apps/cli/cli_fwd.hpp"

#include "parser/python/error.hpp"

namespace weightspace::app {

// The most bytes read for one answer or trajectory, unless --max-input-bytes says otherwise:
// the parser's own ceiling (kMaxEditsBlockBytes, 4 GiB), or a quarter of the physical memory
// when that is less. No answer the grader can score in its own time and memory comes near it.
std::size_t default_max_input_bytes();

// --max-input-bytes SIZE (bytes, or with a unit: 64MiB, 2GB), checked to lie between 1 byte
// and the ceiling above (at most half the physical memory).
void add_max_input_bytes_option(CLI::App& command, std::size_t& limit);

// The bytes of an answer or a trajectory file ("-": standard input), read no further than
// `limit`: a larger input is an EditError (MemoryError) naming it and the option, an
// unreadable one a CommandError.
std::string read_answer_input(const std::string& path, bool trajectory, std::size_t limit);

// Where a command takes its answer from: --answer FILE or a positional FILE (the assistant's
// text), --trajectory FILE (an agent trajectory JSON, of which the last assistant message is
// taken); `-` for either answer form reads standard input.
struct AnswerSource {
  std::string answer_path;
  std::string trajectory_path;
  std::string positional_path;
  std::size_t max_input_bytes = default_max_input_bytes();

  void add_options(CLI::App& command);
  // The file the answer comes from, as given ("-" for standard input).
  const std::string& path() const {
    return !trajectory_path.empty() ? trajectory_path : answer_path.empty() ? positional_path : answer_path;
  }
  bool given() const { return !answer_path.empty() || !trajectory_path.empty() || !positional_path.empty(); }

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
