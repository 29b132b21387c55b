// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "apps/cluster/shard.hpp"
#include "apps/cluster/shard_meta.hpp"
#include "apps/cluster/shard_set.hpp"
#include "apps/sweep/config.hpp"

namespace weightspace::app {

// A sweep spread over a cluster (docs/cluster.md, "Sweeps"): each shard grades the records the
// batch deal (ShardBalancer, over the sweep's record order) gives it into its own database,
// DB with .shard-I-of-N before the extension, described like a batch shard by DB.shard.json;
// `weightspace merge` joins the shards' runs into one run of the one-process sweep.

// What a sweep shard's records depend on: shards of one sweep agree on all of it.
nlohmann::ordered_json sweep_shard_options(const SweepConfig& config);

// The description of shard `shard` of the sweep writing `db` (unsharded path). With `complete`,
// every record of the sweep is dealt again (no answer is read) for the fingerprint and counts;
// run in the config's folder, as the sweep is.
ShardMeta sweep_shard_meta(const SweepConfig& config, const ShardSpec& shard, const std::string& db, bool complete);

// Whether `path` starts as an SQLite database does (a sweep shard, not batch JSONL).
bool is_sqlite_file(const std::string& path);

// Joins the shards' runs, given in shard order and checked by `merge` (each once, all finished,
// one sweep), into one new finished run of `out` (created when missing): the records in the
// one-process order with `cached` decided again as one process decides it. Returns the run.
std::int64_t merge_sweep_shards(const std::vector<ShardOutput>& shards, const std::string& out, bool quiet);

}  // namespace weightspace::app
