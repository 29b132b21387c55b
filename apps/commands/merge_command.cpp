// SPDX-License-Identifier: GPL-3.0-or-later
// `weightspace merge`: the outputs of the shards of one sharded batch, joined into the file a
// one-process run of the same inputs writes (apps/batch/batch_merge.hpp), or the databases of
// a sharded sweep, joined into one run (apps/sweep/sweep_shard.hpp). Both put the records back
// in one process's order with the deal that split them (apps/cluster/merge_order.hpp).
#include <CLI/CLI.hpp>
#include <spdlog/spdlog.h>

#include <chrono>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "apps/batch/batch_merge.hpp"
#include "apps/cli/errors.hpp"
#include "apps/cli/file_lock.hpp"
#include "apps/cluster/shard_set.hpp"
#include "apps/commands/commands.hpp"
#include "apps/sweep/sweep_lock.hpp"
#include "apps/sweep/sweep_shard.hpp"
#include "apps/cli/plural.hpp"

namespace weightspace::app {

namespace {

struct Options {
  std::vector<std::string> shards;
  BatchMergeOptions batch;
  bool quiet = false;
};

// True for a sweep's databases, false for a batch's JSONL; a mixture is a UsageError.
bool sweep_shards(const std::vector<ShardOutput>& given) {
  const bool sweep = is_sqlite_file(given.front().path);
  for (const ShardOutput& shard : given) {
    if (is_sqlite_file(shard.path) != sweep) {
      throw UsageError("cannot merge " + given.front().path + " with " + shard.path +
                       ": one is a sweep shard's database, the other a batch shard's JSONL");
    }
  }
  return sweep;
}

// A shard still running holds its output (a batch's JSONL locked, a sweep's database by its
// sweep lock): merged now it would be refused as unfinished, or read half-written. The batch
// shards stay locked shared while the merge reads them, so none starts writing meanwhile.
std::vector<std::unique_ptr<FileLock>> refuse_shards_in_use(const std::vector<std::string>& paths) {
  std::vector<std::unique_ptr<FileLock>> locks;
  for (const std::string& path : paths) {
    if (const std::optional<pid_t> holder = SweepLock::holder(path)) {
      throw CommandError(path + " is still being written by its sweep (process " + std::to_string(*holder) +
                         "); merge once every shard has finished");
    }
    std::error_code error;  // a missing shard is read_shard_outputs' to name
    if (!std::filesystem::is_regular_file(path, error) || is_sqlite_file(path)) continue;
    locks.push_back(std::make_unique<FileLock>(path, FileLock::Kind::Shared));
    if (!locks.back()->held()) {
      throw CommandError(path + " is still being written by its shard (a batch holds it); merge once every shard "
                         "has finished");
    }
  }
  return locks;
}

void merge(const Options& options) {
  const std::string& out = options.batch.out;
  if (options.shards.empty()) throw UsageError("no shard outputs: give every shard's --out file");
  if (out == "-") throw UsageError("--out must name a file: the merge is written whole, then renamed into place");
  const std::vector<std::unique_ptr<FileLock>> locks = refuse_shards_in_use(options.shards);
  std::vector<ShardOutput> given = read_shard_outputs(options.shards, out);
  const bool sweep = sweep_shards(given);
  const auto start = std::chrono::steady_clock::now();
  const std::vector<ShardOutput> shards = check_shards(std::move(given));
  if (sweep) {
    if (!options.batch.csv.empty() || !options.batch.rewards_dir.empty() || options.batch.no_timings) {
      throw UsageError("--csv, --rewards-dir and --no-timings are for batch shards; a sweep's merged run is read "
                       "with weightspace report, compare and runs");
    }
    merge_sweep_shards(shards, out, options.quiet);
    return;
  }
  merge_batch_shards(shards, options.batch);
  if (!options.quiet) {
    spdlog::info("merged {}, {}, into {} in {:.2f} s", count_of(shards.size(), "shard"),
                 count_of(shards.front().meta.total_records, "record"),
                 out, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
}

}  // namespace

void add_merge_command(CLI::App& app) {
  auto options = std::make_shared<Options>();
  auto* command = app.add_subcommand(
      "merge", "Join the outputs of a sharded batch into the file one process writes, or a sharded sweep's databases "
              "into one run of a results database (docs/cluster.md)");
  command->add_option("shards", options->shards,
                      "Every shard's output file (FILE.shard-I-of-N.jsonl, or a sweep's DB.shard-I-of-N.sqlite)")
      ->required();
  command->add_option("--out", options->batch.out,
                      "The merged JSONL (written whole, then renamed into place), or the results database the "
                      "merged sweep run is added to")
      ->required();
  command->add_option("--csv", options->batch.csv, "Also write the run's flat CSV table here");
  command->add_option("--rewards-dir", options->batch.rewards_dir,
                      "Also write each record's reward.json into this folder");
  command->add_flag("--no-timings", options->batch.no_timings, "Leave out seconds and steps, as batch --no-timings does");
  command->add_flag("--quiet", options->quiet, "No summary on stderr");
  command->callback([options] { merge(*options); });
}

}  // namespace weightspace::app
