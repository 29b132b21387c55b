// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>
#include <vector>

#include "apps/cluster/shard_set.hpp"

namespace weightspace::app {

struct BatchMergeOptions {
  std::string out;          // the merged JSONL, written whole
  std::string csv;          // when not empty, the run's CSV table
  std::string rewards_dir;  // when not empty, each record's reward.json
  bool no_timings = false;
};

// Joins the outputs of the shards of one sharded batch, given in shard order and checked
// (check_shards), into the file a one-process run of the same inputs writes: the lines in input
// order, `cached` decided again over the whole run (MergeOrder). A line that is not as its
// shard wrote it, or a shard with more or fewer lines than its description says, is a
// CommandError saying how to rerun that shard.
void merge_batch_shards(const std::vector<ShardOutput>& shards, const BatchMergeOptions& options);

}  // namespace weightspace::app
