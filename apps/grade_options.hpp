// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>

#include <CLI/CLI.hpp>

#include "engine/grade.hpp"

namespace weightspace::app {

// Options shared by `grade` and `verify`: how to run, and what to report besides the reward.
struct RunFlags {
  int threads = 0;
  int batch = 32;
  bool diagnostics = false;
  std::string episodes_out;

  void add_options(CLI::App& command);
};

// Grades, then writes --episodes-out and the --diagnostics lines (stderr) if asked for.
// The reward itself is the caller's to print or write.
Grade grade_and_report(GradeRequest request, const std::string& answer, const RunFlags& flags);

}  // namespace weightspace::app
