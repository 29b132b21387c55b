// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "apps/batch/batch_inputs.hpp"
#include "apps/cluster/shard_selection.hpp"
#include "apps/sweep/config.hpp"
#include "apps/sweep/speed_workload.hpp"
#include "apps/sweep/store.hpp"

namespace weightspace::app {

// The records of a sweep, in its order: answer set by answer set, then source, then episode
// count, and within those the order of `weightspace batch` (its RecordStream) over the set's
// paths with the config's games. Paths are opened as the config writes them: the sweep runs in
// the config's folder, so ids, inputs and error messages are the same wherever it is run from.
class SweepRecords {
 public:
  // With a shard, every record is dealt (ShardSelection) and only the shard's own are returned;
  // the others' files are not read.
  explicit SweepRecords(const SweepConfig& config, const std::optional<ShardSpec>& shard = std::nullopt)
      : config_(config) {
    if (shard) selection_.emplace(shard);
  }

  struct Item {
    BatchRecord record;
    std::string answer_set;
  };
  std::optional<Item> next(bool load = true);
  // Manifest keys weightspace does not read, seen so far (each once).
  std::vector<std::string> take_unknown_keys();
  // The deal so far; nullptr when not sharded.
  const ShardSelection* selection() const { return selection_ ? &*selection_ : nullptr; }

 private:
  const SweepConfig& config_;
  std::size_t set_ = 0;
  std::size_t source_ = 0;
  std::size_t episodes_ = 0;
  std::unique_ptr<RecordStream> stream_;
  std::optional<ShardSelection> selection_;
};

struct PassSummary {
  std::uint64_t resumed = 0;  // records the run held already
  std::uint64_t graded = 0;
  std::uint64_t failed = 0;
  std::uint64_t cached = 0;
  std::int64_t steps = 0;
  double seconds = 0.0;
  bool cancelled = false;
};

// Grades the config's records into run `run`, after the records it holds already (checked to be
// the config's first records, and their rollouts put back into the cache as if just graded).
// Records are committed in transactions of up to kCommitRecords, at least every kCommitSeconds.
inline constexpr std::size_t kCommitRecords = 256;
inline constexpr double kCommitSeconds = 1.0;
// A shard grades only the records the deal gives it.
PassSummary grade_main_pass(const SweepConfig& config, Store& store, std::int64_t run, bool quiet,
                            const std::atomic<bool>& cancel, const std::optional<ShardSpec>& shard = std::nullopt);

// For each [speed] thread count the run has not measured: the run's pinned speed workload
// (speed_workload.hpp; `inherited` is the baseline run's) graded again with that many threads
// and no cache, in [speed] repeat repetitions of at least [speed] min_time seconds, interleaved
// across the thread counts; each reward is checked against the main pass's (a thread count never
// changes a result). Every repetition is stored. False when cancelled.
bool measure_speed(const SweepConfig& config, Store& store, std::int64_t run, bool quiet,
                   const std::atomic<bool>& cancel, const std::optional<std::vector<WorkloadItem>>& inherited);

}  // namespace weightspace::app
