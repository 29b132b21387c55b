// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <chrono>
#include <cstdint>
#include <deque>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "apps/batch/sinks.hpp"
#include "apps/sweep/store.hpp"

namespace weightspace::app {

// A sweep's results store as a ResultSink: each record goes into run `run`, after the
// `resumed` records it holds already, in transactions of up to kCommitRecords records and at
// least every kCommitSeconds (apps/sweep/sweep_run.hpp), so that a killed sweep keeps what it
// graded. The store keeps more of a record than its result: the answer set it came from and
// its input's SHA-256, given by tag() as the record is read.
class StoreSink : public ResultSink {
 public:
  StoreSink(Store& store, std::int64_t run, std::uint64_t resumed);

  // What the store keeps of the next record read; called in input order, on the pipeline stage
  // that reads inputs, while write() runs on another.
  void tag(std::string answer_set, std::optional<std::string> input_sha256);

  void write(std::uint64_t line, const BatchResult& result) override;
  // The sweep replays a resumed run from the store itself: a record it holds is not written again.
  void replay(std::uint64_t, const BatchResult&) override {}
  // Commits what is pending; what was graded before a cancel is whole, so it is kept too.
  void finish() override;

 private:
  struct Tag {
    std::string answer_set;
    std::optional<std::string> input_sha256;
  };
  using Clock = std::chrono::steady_clock;

  Store& store_;
  std::int64_t run_;
  std::uint64_t resumed_;
  std::mutex tags_mutex_;
  std::deque<Tag> tags_;
  std::vector<StoredRecord> pending_;
  std::int64_t pending_steps_ = 0;
  Clock::time_point last_commit_ = Clock::now();
};

}  // namespace weightspace::app
