// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "apps/batch/sinks.hpp"
#include <weightspace/batch_grader.hpp>

namespace weightspace::app {

// `weightspace batch --resume`: an interrupted --out continued where it stopped.

// Drops a torn last line (a run killed mid-write) so the file ends after its last record.
void drop_torn_line(const std::string& path);

// Checks the lines already in `out` against the first records `next` gives (the same inputs
// and options, `timings` as this run writes them), replays them into the sinks and the
// grader's cache; returns how many there were. Any mismatch is a UsageError.
std::uint64_t replay_output(const std::string& out, bool timings,
                            const std::function<std::optional<BatchRecord>()>& next, BatchGrader& grader,
                            ResultSinks& sinks);

}  // namespace weightspace::app
