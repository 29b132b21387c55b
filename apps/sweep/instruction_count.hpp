// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <weightspace/batch_grader.hpp>

namespace weightspace::app {

// The instructions it takes to grade a speed workload, counted by valgrind's callgrind (Debian's
// valgrind): `executable batch` grades the records on one thread with the cache off and the memo
// chosen by hit rate (`--memo hits`: the automatic choice follows the clock, which under valgrind
// measures valgrind), in a child process under `valgrind --tool=callgrind`, and the count is
// callgrind's summary. Unlike wall time it does not move with the machine's load: the same code on
// the same inputs and SIMD level gives the same count (to a few instructions of the loader's
// environment), so a gate on it raises no false alarm. valgrind slows the grading some 50-fold; a
// sanitized build does not run under it. Errors (no valgrind, the child failing) are
// CommandErrors; nullopt when cancelled (the child is then killed).
std::optional<std::int64_t> count_instructions(const std::string& executable, const std::vector<BatchRecord>& workload,
                                               int lockstep, const std::atomic<bool>& cancel);

// The instructions a command executes, counted by `valgrind --tool=callgrind` over the whole
// process; `make_command` gets a private temporary folder (removed afterwards) to write the
// command's inputs into and returns the command (PATH searched, e.g. {"/usr/bin/weightspace",
// "bench", ...}); its stdout is discarded. CommandError when valgrind cannot run or the command
// fails; nullopt when cancelled.
std::optional<std::int64_t> count_command_instructions(
    const std::function<std::vector<std::string>(const std::filesystem::path& folder)>& make_command,
    const std::atomic<bool>& cancel);

// The executable of this process (valgrind would read /proc/self/exe as itself).
std::string this_executable();

// The `summary:` (or else `totals:`) figure of a callgrind output file's text; nullopt without one.
std::optional<std::int64_t> callgrind_total(const std::string& text);

}  // namespace weightspace::app
