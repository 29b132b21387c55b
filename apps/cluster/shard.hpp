// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <queue>
#include <string>
#include <utility>
#include <vector>

#include "apps/cli/cli_fwd.hpp"

#include <weightspace/batch_grader.hpp>

namespace weightspace::app {

// One shard of a run spread over a cluster: this process grades the records the balancer
// gives `index`, of `count` shards. `from` says where the numbers came from, for messages.
struct ShardSpec {
  std::int64_t index = 0;
  std::int64_t count = 1;
  std::string from;
};

// The most shards a run is split into; more would leave a shard almost nothing to grade.
inline constexpr std::int64_t kMaxShards = std::int64_t{1} << 20;

// --shard-index, --shard-count and --no-shard as given.
struct ShardFlags {
  std::optional<std::int64_t> index;
  std::optional<std::int64_t> count;
  bool none = false;

  // `output` names the file a shard writes beside its name, for --shard-index's help
  // ("--out": batch; "--db": sweep).
  void add_options(CLI::App& command, const std::string& output);
};

// Reads an environment variable; nullptr when it is not set. Tests pass their own.
using Environment = std::function<const char*(const char*)>;
const char* process_environment(const char* name);

// Which shard this process is, from the flags and the scheduler's environment:
//  * the index: --shard-index, else SLURM_ARRAY_TASK_ID (a Slurm job array), else
//    JOB_COMPLETION_INDEX (a Kubernetes Indexed Job);
//  * the count: --shard-count, else WEIGHTSPACE_SHARD_COUNT, else, when the index is the Slurm
//    task's, the array's size: SLURM_ARRAY_TASK_COUNT or SLURM_ARRAY_TASK_MIN..MAX, which must
//    number the tasks 0, 1, ..., count - 1 (a rerun of some tasks, --array=2, does not say the
//    count: it is then given explicitly).
// nullopt: not sharded (nothing set, or --no-shard). A flag overrides the environment, with a
// warning when they disagree. Anything else (a count without an index, an index not below the
// count, a value that is not a whole number, both Slurm and Kubernetes variables) is a
// UsageError naming the flag or variable.
std::optional<ShardSpec> resolve_shard(const ShardFlags& flags, const Environment& environment);

// The file a shard writes for `out`: ".shard-I-of-N" before the extension, I zero-padded to
// the width of N - 1 so that a listing sorts by shard (results.jsonl, shard 3 of 16:
// results.shard-03-of-16.jsonl).
std::string shard_file_name(const std::string& out, const ShardSpec& shard);

// The estimated work of grading one record, in environment steps: the episodes times the
// mean episode length of hand-written-like answers on that game and source, plus a parse's
// worth. Known before the answer is read, from what every shard sees of every record; a
// function of the three fields a batch line also carries, so `merge` can recompute it.
std::uint64_t record_work(const std::string& game, const std::string& source, std::int64_t episodes);
inline std::uint64_t record_work(const GradeRequest& request) {
  return record_work(request.game, request.source, request.episodes);
}

// Deals records to shards in input order, each to the shard with the least estimated work so
// far (the lowest index on a tie). Every shard runs the same deal over the same records, so
// each knows its own without talking to the others, and `merge` replays the deal from the
// shards' lines to put them back in input order. No shard ends more than one record's work
// above another.
class ShardBalancer {
 public:
  explicit ShardBalancer(std::int64_t count);
  // The shard of the next record, whose work is `work`.
  std::int64_t next_shard() const { return heap_.top().second; }
  std::int64_t assign(std::uint64_t work);
  std::uint64_t work_of(std::int64_t shard) const { return work_[static_cast<std::size_t>(shard)]; }
  std::int64_t count() const { return static_cast<std::int64_t>(work_.size()); }

 private:
  using Load = std::pair<std::uint64_t, std::int64_t>;  // (work so far, shard)
  std::priority_queue<Load, std::vector<Load>, std::greater<>> heap_;
  std::vector<std::uint64_t> work_;
};

// SHA-256 over the records of a run, in order (id, input, game, source, episodes, kind and,
// for an answer or trajectory written in a manifest line, its text): equal for two runs
// exactly when they enumerate the same records. A file's content is not read (a shard reads
// only its own records' files); each line's weights_sha256 says what was graded.
class RecordsFingerprint {
 public:
  RecordsFingerprint();
  ~RecordsFingerprint();
  RecordsFingerprint(const RecordsFingerprint&) = delete;
  RecordsFingerprint& operator=(const RecordsFingerprint&) = delete;

  void add(const BatchRecord& record);
  std::string hex() const;  // of the records added so far

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace weightspace::app
