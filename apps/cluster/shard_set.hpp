// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "apps/cluster/shard_meta.hpp"

namespace weightspace::app {

// One shard's output (a batch shard's JSONL or a sweep shard's database) and its description.
struct ShardOutput {
  std::string path;
  ShardMeta meta;
};

// The descriptions of the shard outputs given to `merge` writing `out`; a UsageError when a
// path is `out` itself or a description rather than an output.
std::vector<ShardOutput> read_shard_outputs(const std::vector<std::string>& paths, const std::string& out);

// The shards in shard order when they are every shard of one run, each once, finished, with the
// same options and records; otherwise a CommandError listing every problem and the shard to
// rerun or add.
std::vector<ShardOutput> check_shards(std::vector<ShardOutput> given);

// How to rerun one shard of a run described by `options` (a batch's, or a sweep's: with "sweep").
std::string rerun_hint(std::int64_t index, std::int64_t count, const nlohmann::ordered_json& options);
// How to rerun one shard of the sweep named `name`.
std::string sweep_rerun_hint(const std::string& name, std::int64_t index, std::int64_t count);
// rerun_hint for `shard`.
std::string rerun_hint(const ShardOutput& shard);

}  // namespace weightspace::app
