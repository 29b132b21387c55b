// SPDX-License-Identifier: GPL-3.0-or-later
#include "apps/sweep/sweep_shard.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <optional>

#include "apps/sweep/run_data.hpp"
#include "apps/sweep/store.hpp"
#include "apps/sweep/sweep_lock.hpp"
#include "apps/sweep/sweep_run.hpp"
#include "apps/cluster/merge_order.hpp"
#include "apps/version.hpp"
#include "apps/cli/plural.hpp"
#include "parser/numpy/apply_edits.hpp"

namespace weightspace::app {

nlohmann::ordered_json sweep_shard_options(const SweepConfig& config) {
  nlohmann::ordered_json options;
  options["sweep"] = config.name;
  // The text decides the records (answer sets, games, sources, episodes) and the cache size;
  // the path does not: shards on other machines may read it from elsewhere.
  options["config_sha256"] = sha256_hex(config.text);
  options["cache"] = config.cache;
  return options;
}

ShardMeta sweep_shard_meta(const SweepConfig& config, const ShardSpec& shard, const std::string& db, bool complete) {
  ShardMeta meta;
  meta.weightspace_version = kVersion;
  meta.index = shard.index;
  meta.count = shard.count;
  meta.out = db;
  meta.options = sweep_shard_options(config);
  meta.complete = complete;
  if (complete) {
    SweepRecords records(config, shard);
    while (records.next(false)) {
    }
    const ShardSelection& selection = *records.selection();
    meta.inputs_sha256 = selection.inputs_sha256();
    meta.records = selection.records();
    meta.total_records = selection.total_records();
    meta.work = selection.work();
    meta.total_work = selection.total_work();
  }
  return meta;
}

bool is_sqlite_file(const std::string& path) {
  static constexpr std::string_view kHeader("SQLite format 3\0", 16);
  std::ifstream file(path, std::ios::binary);
  std::string header(kHeader.size(), '\0');
  return file.read(header.data(), static_cast<std::streamsize>(header.size())) && header == kHeader;
}

namespace {

struct ShardRun {
  std::string path;
  ShardMeta meta;
  RunInfo run;
  std::vector<StoredRecord> records;
};

// The shard's newest run of the sweep: the one its description speaks of.
ShardRun read_shard_run(const std::string& path, const ShardMeta& meta) {
  const std::string name = meta.options.at("sweep").get<std::string>();
  const std::string rerun = sweep_rerun_hint(name, meta.index, meta.count);
  Store store(path, sqlite::Database::Mode::Existing);
  const std::vector<RunInfo> runs = store.runs(name);
  if (runs.empty()) throw CommandError(path + " holds no run of sweep \"" + name + "\": " + rerun);
  const RunInfo& newest = runs.front();
  if (newest.status != "finished") {
    throw CommandError(path + " run " + std::to_string(newest.id) + " is " + newest.status + ": " + rerun);
  }
  if (static_cast<std::uint64_t>(newest.records) != meta.records) {
    throw CommandError(path + " run " + std::to_string(newest.id) + " holds " + std::to_string(newest.records) +
                       " records, but its description says " + std::to_string(meta.records) + ": " + rerun);
  }
  return {path, meta, newest, store.records(newest.id)};
}

bool same_number(double a, double b) { return a == b || (std::isnan(a) && std::isnan(b)); }

// Every column equal (apps/batch_output.hpp's same_record compares a written line with an input).
bool same_stored_record(const StoredRecord& a, const StoredRecord& b) {
  return a.seq == b.seq && a.answer_set == b.answer_set && a.id_json == b.id_json && a.input == b.input &&
         a.game == b.game && a.source == b.source && a.episodes == b.episodes && a.weights_sha256 == b.weights_sha256 &&
         a.input_sha256 == b.input_sha256 && a.reward == b.reward &&
         same_number(a.normalized_score, b.normalized_score) && a.error_kind == b.error_kind &&
         a.error_line == b.error_line && a.error_column == b.error_column && a.cached == b.cached &&
         a.steps == b.steps && same_number(a.seconds, b.seconds);
}

// A finished run of `store` that these shard runs were merged into before: same sweep, same
// config, same start (the earliest shard's) and the same records to the per-record times. A
// retried merge job must not add a second copy of the run to the history that compare, runs
// and report read; shards rerun since (other times) make a new run.
std::optional<std::int64_t> merged_before(Store& store, const RunInfo& run, const std::vector<StoredRecord>& merged) {
  for (const RunInfo& earlier : store.runs(run.name)) {
    if (earlier.status != "finished" || earlier.started_at != run.started_at ||
        earlier.config_text != run.config_text || earlier.records != static_cast<std::int64_t>(merged.size())) {
      continue;
    }
    std::size_t k = 0;
    bool same = true;
    store.each_record(earlier.id, [&](StoredRecord&& record) {
      same = k < merged.size() && same_stored_record(record, merged[k++]);
      return same;
    });
    if (same && k == merged.size()) return earlier.id;
  }
  return std::nullopt;
}

}  // namespace

std::int64_t merge_sweep_shards(const std::vector<ShardOutput>& shards, const std::string& out, bool quiet) {
  std::vector<ShardRun> runs;
  for (const ShardOutput& shard : shards) runs.push_back(read_shard_run(shard.path, shard.meta));
  const ShardRun& first = runs.front();
  for (const ShardRun& shard : runs) {
    if (shard.run.config_text != first.run.config_text) {  // the description's SHA-256 says so too
      throw CommandError(shard.path + " and " + first.path + " ran different configs");
    }
  }

  // In the one-process order: the deal replayed over each record's game, source and episodes.
  const std::uint64_t total = first.meta.total_records;
  MergeOrder order(static_cast<std::int64_t>(runs.size()), shard_cache(first.meta));
  std::vector<std::size_t> taken(runs.size(), 0);
  std::vector<StoredRecord> merged;
  merged.reserve(total);
  std::int64_t steps = 0;
  for (std::uint64_t position = 0; position < total; ++position) {
    const std::size_t index = order.next_shard();
    ShardRun& shard = runs[index];
    if (taken[index] == shard.records.size()) {
      throw CommandError(shard.path + " holds " + std::to_string(shard.records.size()) +
                         " records, fewer than the deal gives its shard: " +
                         sweep_rerun_hint(shard.run.name, shard.meta.index, shard.meta.count));
    }
    StoredRecord record = std::move(shard.records[taken[index]++]);
    record.cached = order.take(to_batch_result(record).record.request, record.weights_sha256);
    record.seq = static_cast<std::int64_t>(position);
    steps += record.cached ? 0 : record.steps;
    merged.push_back(std::move(record));
  }

  RunInfo run = first.run;
  double slowest = 0.0;  // the sharded sweep's wall time is its slowest shard's
  for (const ShardRun& shard : runs) {
    run.started_at = std::min(run.started_at, shard.run.started_at);
    slowest = std::max(slowest, shard.run.grade_seconds);
  }
  run.version = kVersion;
  run.git_revision = kGitRevision;
  run.pinned = false;
  run.grade_seconds = 0.0;
  run.grade_steps = 0;
  const SweepLock lock(out);
  Store store(out, sqlite::Database::Mode::Create);
  if (const std::optional<std::int64_t> earlier = merged_before(store, run, merged)) {
    if (!quiet) spdlog::info("{} run {} already holds these {} sweep shards merged: nothing added", out, *earlier, runs.size());
    return *earlier;
  }
  const std::int64_t id = store.begin_run(run);
  try {
    store.add_records(id, merged, slowest, steps);
    store.set_status(id, "finished", std::nullopt);
  } catch (const CommandError& error) {
    store.set_status(id, "failed", std::string("merge: ") + error.what());
    throw;
  }
  if (!quiet) {
    spdlog::info("merged {}, {}, into {} run {}", count_of(runs.size(), "sweep shard"), count_of(total, "record"), out,
                 id);
  }
  return id;
}

}  // namespace weightspace::app
