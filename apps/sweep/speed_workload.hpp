// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "apps/sweep/store.hpp"

namespace weightspace::app {

// The work the speed part of a sweep times, fixed by content rather than by position: answers
// by the SHA-256 of their weights, with the game, source and episode count each is graded on.
// Renaming, reordering or editing answers outside it leaves it unchanged, so two runs' speeds are
// compared on the same work; `compare` does not judge speed when the workloads differ.
struct WorkloadItem {
  std::string weights_sha256;
  std::string game;
  std::string source;
  std::int64_t episodes = 0;
  auto operator<=>(const WorkloadItem&) const = default;
};

// The items of a run: `inherited` (the baseline run's workload) when all of its items are among
// the run's records; otherwise the first `size` distinct items of the run's records that parsed,
// in SHA-256 order (a choice by content, independent of file names and order).
std::vector<WorkloadItem> choose_workload(const std::vector<StoredRecord>& records, std::int64_t size,
                                          const std::optional<std::vector<WorkloadItem>>& inherited);

// For each item, the sequence number of the first record of the run grading it (every item
// must have one).
std::vector<std::int64_t> workload_records(const std::vector<StoredRecord>& records,
                                           const std::vector<WorkloadItem>& workload);

// The JSON text the store keeps (an array of objects, in the workload's order), and back
// (nullopt for text that is not a workload, e.g. from a newer weightspace).
std::string workload_text(const std::vector<WorkloadItem>& workload);
std::optional<std::vector<WorkloadItem>> parse_workload(const std::string& text);
// A short name of a workload for people: its size and the start of its text's SHA-256.
std::string workload_label(const std::string& text);

}  // namespace weightspace::app
