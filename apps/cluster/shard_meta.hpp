// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace weightspace::app {

// What a shard's output is, in a small JSON file beside it (FILE.shard.json): written when the
// shard starts, with `complete` false, and again when its last record is written. `merge`
// reads it to find the shards of one run, refuse a mixture and name the shard to rerun.
struct ShardMeta {
  std::string weightspace_version;
  std::int64_t index = 0;
  std::int64_t count = 1;
  std::string out;  // --out as given; each shard's file is named from it (shard_file_name)
  // Everything the records and their lines depend on (inputs as given, games, source,
  // episodes, cache, timings, ...); the thread count and the like are not among them.
  nlohmann::ordered_json options;
  bool complete = false;
  // Known once complete:
  std::string inputs_sha256;         // RecordsFingerprint over every record of the run
  std::uint64_t records = 0;         // this shard's
  std::uint64_t total_records = 0;   // every shard's
  std::uint64_t work = 0;            // this shard's estimated work (record_work), in steps
  std::uint64_t total_work = 0;
};

std::string shard_meta_path(const std::string& shard_output);
// Replaces the file atomically, so a reader sees the old or the new one, never half of one.
void write_shard_meta(const std::string& shard_output, const ShardMeta& meta);
// CommandError naming the file when it is missing or is not a shard description.
ShardMeta read_shard_meta(const std::string& shard_output);
// The run options the merges read, checked when the description was read: whether it is a
// sweep's shard (options "sweep", its name), a batch shard's timings (a CommandError naming
// `shard_output` for a sweep shard's description) and the run's cache size.
bool is_sweep_shard(const ShardMeta& meta);
bool shard_timings(const ShardMeta& meta, const std::string& shard_output);
std::size_t shard_cache(const ShardMeta& meta);
// read_shard_meta's check of the description's text, read from `path` (named in the errors).
ShardMeta parse_shard_meta(std::string_view text, const std::string& path);

}  // namespace weightspace::app
