// SPDX-License-Identifier: GPL-3.0-or-later
// libFuzzer target: a shard's description (FILE.shard.json) as `merge` reads it: parse_shard_meta,
// then check_shards over it alone and the run options the merges read (shard_timings,
// shard_cache, the rerun hint). Only CommandError (UsageError is one) may escape.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "apps/cli/errors.hpp"
#include "apps/cluster/shard_meta.hpp"
#include "apps/cluster/shard_set.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace weightspace::app;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    const ShardMeta meta = parse_shard_meta(text, "grades.shard-0-of-1.jsonl.shard.json");
    if (meta.count < 1 || meta.index < 0 || meta.index >= meta.count) __builtin_trap();
    if (rerun_hint(ShardOutput{"grades.shard-0-of-1.jsonl", meta}).empty()) __builtin_trap();
    static_cast<void>(shard_cache(meta));
    const std::vector<ShardOutput> shards = check_shards({ShardOutput{"grades.shard-0-of-1.jsonl", meta}});
    if (shards.size() != 1) __builtin_trap();
    static_cast<void>(shard_timings(meta, "grades.shard-0-of-1.jsonl"));
  } catch (const CommandError& error) {
    if (std::string_view(error.what()).empty()) __builtin_trap();
  }
  return 0;
}
