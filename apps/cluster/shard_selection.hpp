// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "apps/cluster/shard.hpp"
#include <weightspace/batch_grader.hpp>

namespace weightspace::app {

// Which records of a run this process grades. Every record of the inputs passes through
// keep(), in input order and before its file is read: it is dealt to a shard (ShardBalancer)
// and added to the run's fingerprint; keep() says whether it is this shard's. Without a
// shard, every record is kept.
class ShardSelection {
 public:
  explicit ShardSelection(std::optional<ShardSpec> shard);

  bool keep(const BatchRecord& record);

  const std::optional<ShardSpec>& shard() const { return shard_; }
  std::uint64_t records() const { return records_; }              // kept so far
  std::uint64_t total_records() const { return total_records_; }  // seen so far
  std::uint64_t work() const;                                     // estimated, kept so far
  std::uint64_t total_work() const { return total_work_; }
  std::uint64_t max_shard_work() const;  // the most any shard was dealt so far
  std::uint64_t last_work() const { return last_work_; }  // of the record keep() saw last
  std::string inputs_sha256() const { return fingerprint_.hex(); }

 private:
  std::optional<ShardSpec> shard_;
  ShardBalancer balancer_;
  RecordsFingerprint fingerprint_;
  std::uint64_t records_ = 0;
  std::uint64_t total_records_ = 0;
  std::uint64_t total_work_ = 0;
  std::uint64_t last_work_ = 0;
};

// `weightspace batch --dry-run`: the records `selection` keeps from `next`, as JSONL on stdout,
// graded by no one: first {"shard": {"index", "count", "from"}, "out"} (shard null when not
// sharded), then one {"position", "id", "input", "game", "source", "episodes", "work"} per
// record this shard would grade (position: 0-based in the whole run), then {"summary":
// {"records", "total_records", "work", "total_work", "max_shard_work"}}.
void print_dry_run(const std::function<std::optional<BatchRecord>()>& next, ShardSelection& selection,
                   const std::string& out);

}  // namespace weightspace::app
