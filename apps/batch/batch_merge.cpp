// SPDX-License-Identifier: GPL-3.0-or-later
#include "apps/batch/batch_merge.hpp"

#include <fstream>
#include <memory>

#include "apps/batch/batch_output.hpp"
#include "apps/batch/sinks.hpp"
#include "apps/cli/files.hpp"
#include "apps/cluster/merge_order.hpp"

namespace weightspace::app {

namespace {

// The shards' lines, each read back and checked to be exactly as its shard wrote it.
class ShardLines {
 public:
  ShardLines(const std::vector<ShardOutput>& shards, bool timings)
      : shards_(shards), timings_(timings), read_(shards.size(), 0) {
    for (const ShardOutput& shard : shards) {
      inputs_.emplace_back(shard.path, std::ios::binary);
      if (!inputs_.back()) throw CommandError("cannot read " + shard.path);
    }
  }

  BatchResult next(std::size_t index) {
    const ShardOutput& shard = shards_[index];
    const std::string place = shard.path + " line " + std::to_string(read_[index] + 1);
    if (!std::getline(inputs_[index], line_)) {
      throw CommandError(shard.path + " ends after " + std::to_string(read_[index]) +
                         " lines, but its description says " + std::to_string(shard.meta.records) + ": " +
                         rerun_hint(shard));
    }
    ++read_[index];
    bool line_timings = false;
    BatchResult result;
    try {
      result = parse_batch_line(line_, line_timings);
    } catch (const EditError& error) {
      throw CommandError(place + " is not a weightspace batch record (" + error.what() + "): " + rerun_hint(shard));
    }
    if (line_timings != timings_ || batch_line(result, line_timings) != line_) {
      throw CommandError(place + " is not as this shard wrote it (edited?): " + rerun_hint(shard));
    }
    return result;
  }

  // Every shard read to its end, and no further than its description says.
  void check_all_read() {
    for (std::size_t index = 0; index < shards_.size(); ++index) {
      const ShardOutput& shard = shards_[index];
      if (read_[index] != shard.meta.records || std::getline(inputs_[index], line_)) {
        throw CommandError(shard.path + " holds more lines than the " + std::to_string(shard.meta.records) +
                           " records its description says: " + rerun_hint(shard));
      }
    }
  }

 private:
  const std::vector<ShardOutput>& shards_;
  bool timings_;
  std::vector<std::ifstream> inputs_;
  std::vector<std::uint64_t> read_;
  std::string line_;
};

// The merged file in large writes, put in place whole when the CSV is; the reward files as
// each record comes.
ResultSinks merge_sinks(const BatchMergeOptions& options, bool timings) {
  ResultSinks sinks;
  sinks.add(std::make_unique<JsonlSink>(options.out, ResultFile::Mode::Whole, timings));
  if (!options.csv.empty()) sinks.add(std::make_unique<CsvSink>(options.csv, ResultFile::Mode::Buffered, timings));
  if (!options.rewards_dir.empty()) sinks.add(std::make_unique<RewardFilesSink>(options.rewards_dir));
  return sinks;
}

}  // namespace

void merge_batch_shards(const std::vector<ShardOutput>& shards, const BatchMergeOptions& options) {
  const bool timings = shard_timings(shards.front().meta, shards.front().path);
  ShardLines lines(shards, timings);
  ResultSinks sinks = merge_sinks(options, timings && !options.no_timings);
  MergeOrder order(static_cast<std::int64_t>(shards.size()), shard_cache(shards.front().meta));
  for (std::uint64_t position = 0; position < shards.front().meta.total_records; ++position) {
    BatchResult result = lines.next(order.next_shard());
    result.cached = order.take(result.record.request, result.weights_sha256);
    sinks.write(result);
  }
  lines.check_all_read();
  sinks.finish();
}

}  // namespace weightspace::app
