// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "apps/sweep/store.hpp"
#include <weightspace/batch_grader.hpp>

namespace weightspace::app {

// One side of a comparison or a report: a run of the store, or a `weightspace batch` JSONL file.
struct RunRecords {
  std::string label;           // "run 7" or the file's path
  std::optional<RunInfo> run;  // when it is a stored run
  std::vector<StoredRecord> records;
  std::vector<SpeedRow> speed;
};

// A stored record as the batch engine's result (the reward parsed back from its text; a text
// this weightspace would not write is a CommandError naming the record).
BatchResult to_batch_result(const StoredRecord& record);
// The reward of a stored record, or nullopt when its text is not one this weightspace writes
// (another version's format): callers then show the text itself.
std::optional<Reward> parse_reward(const StoredRecord& record);
// A failed record's error message, or the reward text itself when parse_reward cannot read it.
std::string error_message(const StoredRecord& record);
// A result as the store keeps it.
StoredRecord to_stored(const BatchResult& result, std::int64_t seq, const std::string& answer_set,
                       std::optional<std::string> input_sha256);

// Every line of a batch JSONL file (`weightspace batch --out`), written by any weightspace
// version. UsageError naming FILE:LINE for a line that is not a batch record.
RunRecords read_batch_file(const std::string& path);

// Resolves a compare / report operand against a store: a run id, "latest" (the newest finished
// run), "previous" (the finished run before `reference`, or before the latest) or "baseline"
// (the pinned run). Keywords are taken among the runs named `name` (any name for "latest"
// when it is empty). UsageError when there is no such run.
std::int64_t resolve_run(Store& store, const std::string& operand, const std::string& name,
                         std::optional<std::int64_t> reference);
// Whether an operand names a batch JSONL file rather than a run: *.jsonl or a path with '/'.
bool is_batch_file(const std::string& operand);

RunRecords load_run(Store& store, std::int64_t id);

}  // namespace weightspace::app
