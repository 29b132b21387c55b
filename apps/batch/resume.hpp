// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "apps/batch/sinks.hpp"
#include <weightspace/batch_grader.hpp>

namespace weightspace::app {

// `weightspace batch --resume`: an interrupted --out continued where it stopped. A refused
// resume leaves every file as it was: check_output reads only; the torn line is dropped and
// the other outputs rebuilt after it accepted the file.

// Checks the complete lines in `out` against the first records `next` gives (the same inputs
// and options, `timings` as this run writes them) and gives them to the grader's cache;
// returns how many there were. A mismatch is a UsageError naming the field that differs.
std::uint64_t check_output(const std::string& out, bool timings,
                           const std::function<std::optional<BatchRecord>()>& next, BatchGrader& grader);

// Drops a torn last line (a run killed mid-write) so the file ends after its last record.
void drop_torn_line(const std::string& path);

// Replays the (checked) lines of `out` into the sinks: the CSV and reward files a resume
// rewrites.
void replay_output(const std::string& out, ResultSinks& sinks);

// Why `written` (a line of the output) is not `record` (what the inputs make now): the first
// field that differs, both values; "" when they are the same record.
std::string record_difference(const BatchResult& written, const BatchRecord& record);

}  // namespace weightspace::app
