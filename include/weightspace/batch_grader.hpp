// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include <weightspace/error.hpp>
#include <weightspace/grade.hpp>
#include <weightspace/reward.hpp>
#include <weightspace/run_options.hpp>

namespace weightspace {

// One answer to grade in a batch. `id` and `input` are the caller's labels, handed back with
// the result; `input` also starts the message of a trajectory that cannot be read, as
// `weightspace grade --trajectory` does.
struct BatchRecord {
  std::string id;
  std::string input;
  GradeRequest request;  // game, source, episodes; the run options are the batch's
  enum class Content { Answer, Trajectory };
  Content content = Content::Answer;
  std::string text;                // the answer, or the trajectory's JSON document
  std::optional<PythonError> error;  // the record could not be read: its reward reports this
};

struct BatchResult {
  std::uint64_t sequence = 0;  // 0-based position in the input
  BatchRecord record;          // text emptied
  Reward reward;               // exactly grade(record.request, answer).reward
  std::optional<std::string> weights_sha256;  // when the answer parsed
  bool cached = false;         // the rollout was reused from an earlier record
  double seconds = 0.0;        // this record's parse and rollout
  std::int64_t steps = 0;      // the rollout's episode lengths summed (also when cached)
  bool refused = false;        // past this machine's limits, not graded: Grade::refused
};

struct BatchOptions {
  RunOptions run;                     // threads and lockstep width; never change a result
  std::size_t cache_entries = 4096;   // distinct rollouts remembered; 0 turns the cache off
  int window = 0;                     // records in flight at once; 0: 8 per thread, at least 16
};

struct BatchSummary {
  std::uint64_t records = 0;
  std::uint64_t failed = 0;  // parse_success 0
  std::uint64_t cached = 0;
  std::int64_t steps = 0;    // steps played by this run (cache hits play none)
  bool cancelled = false;
};

// verify.grade_answer for a stream of records on one oneTBB arena: records are parsed and
// their episodes played in parallel (a long grade's episodes spread over idle threads), and
// results come back in input order through a bounded reorder window, so memory stays flat
// however long the stream. A record's result is the same bits whatever its neighbours, the
// thread count, the lockstep width or the window. Rollouts are cached by (weights SHA-256,
// game, source, episodes), decided in input order, so which records are `cached` is
// deterministic too. No I/O: records come from `next`, results go to `sink`.
class BatchGrader {
 public:
  explicit BatchGrader(BatchOptions options);
  ~BatchGrader();
  BatchGrader(const BatchGrader&) = delete;
  BatchGrader& operator=(const BatchGrader&) = delete;

  // A result graded before (a resumed run's output so far), in input order: its rollout
  // enters the cache exactly as if this grader had just graded it.
  void remember(const BatchResult& result);

  // Grades the records next() returns until it returns nullopt, calling sink once per record
  // in input order, never two calls at once. An exception from next or sink stops the run and
  // propagates. Once *cancel is true no record is started or reported; records already
  // playing finish their episodes first.
  BatchSummary run(const std::function<std::optional<BatchRecord>()>& next,
                   const std::function<void(BatchResult&&)>& sink, const std::atomic<bool>* cancel = nullptr);

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace weightspace
