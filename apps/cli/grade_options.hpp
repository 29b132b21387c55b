// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "apps/cli/cli_fwd.hpp"

#include "engine/grade.hpp"
#include <weightspace/big_int.hpp>

namespace weightspace::app {

// The most worker threads a command accepts; oneTBB runs no more than the machine's cores
// anyway, and a larger arena only costs memory (10^7 crashed inside oneTBB).
inline constexpr int kMaxThreads = 1024;

// The threads to run for a --threads of `requested` (0 = all cores): at most the machine's
// cores. oneTBB runs no more than that anyway, and past them prints its own "TBB Warning:
// The number of workers is currently limited to ..." on stderr, even under --quiet. `note`
// is set to the line to log, in our words, when the request was lowered.
int usable_threads(int requested, std::string& note);

// An episode count as Python's int() reads it (decimal digits, underscores between them,
// surrounding whitespace; "010" is 10, "0x10" an error), from 0 to kMaxEpisodes. `name`
// starts the UsageError for anything else.
std::int64_t parse_episodes(const std::string& name, const std::string& text);
// Python's int(text); UsageError (starting with `name`) where int() raises.
BigInt parse_python_int(const std::string& name, const std::string& text);

// Options shared by `grade` and `verify`: how to run, and what to report besides the reward.
struct RunFlags {
  int threads = 0;
  int lockstep = 32;  // episodes stepped together per thread (--lockstep)
  bool diagnostics = false;
  std::string episodes_out;

  void add_options(CLI::App& command);
};

// The games a --game flag names for `source`, checked before any work: each name trimmed
// (`--game "breakout, freeway"`), "all" for every game of the source (as sweep configs
// write it). A name no game of the source has, or an empty one, is a UsageError with the
// nearest names: a typo would otherwise grade every record as a failure.
std::vector<std::string> flag_games(const std::vector<std::string>& given, const std::string& source);

// Logs a warning naming the close game names when `request` names a game weightspace does not
// have: the reward is the grader's failed grade (exit 0), but a typo in a script should not
// pass unseen.
void warn_if_unknown_game(const GradeRequest& request);

// A failed reward's error as a compiler's diagnostic, for editors to jump to (the reward
// itself holds only the grader's message): "FILE:LINE:COLUMN: Kind: message", or
// "FILE: Kind: message" when the error has no single place. `file` is the file given on the
// command line ("-" prints as <stdin>); the line counts from the first line of `answer` (the
// answer file, or a trajectory's last assistant message), the column as the parser does.
std::string error_place_line(const std::string& file, std::string_view answer, const PythonError& error);

// Grades, then writes --episodes-out and the --diagnostics lines (stderr) if asked for.
// The reward itself is the caller's to print or write.
Grade grade_and_report(GradeRequest request, const std::string& answer, const RunFlags& flags);

}  // namespace weightspace::app
