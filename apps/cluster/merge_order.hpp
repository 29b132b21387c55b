// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "apps/cluster/shard.hpp"
#include <weightspace/batch_grader.hpp>
#include "engine/rollout_cache.hpp"

namespace weightspace::app {

// The records of a sharded run put back into the order and state one process gives them, for
// both merges (`weightspace merge` of batch shards and of sweep shards). The shards' records
// are taken in the order of the deal that split them (ShardBalancer over each record's game,
// source and episodes, as the shards dealt them), and each record's `cached` is decided again
// over the whole run: the first record of a rollout key plays it, within the last `cache`
// distinct keys.
class MergeOrder {
 public:
  MergeOrder(std::int64_t shards, std::size_t cache) : deal_(shards), cache_(cache) {}

  // The shard whose next record is the run's next.
  std::size_t next_shard() const { return static_cast<std::size_t>(deal_.next_shard()); }

  // Deals the record just taken from next_shard(), of this request and these weights (none
  // when the answer did not parse); returns whether one process finds its rollout cached.
  bool take(const GradeRequest& request, const std::optional<std::string>& weights_sha256) {
    deal_.assign(record_work(request));
    return weights_sha256 && cache_.find_or_insert(cache_.key(*weights_sha256, request)).second;
  }

 private:
  ShardBalancer deal_;
  RolloutCache cache_;
};

}  // namespace weightspace::app
