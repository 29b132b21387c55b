// SPDX-License-Identifier: GPL-3.0-or-later
#include "apps/sweep/store_sink.hpp"

#include "apps/sweep/run_data.hpp"
#include "apps/sweep/sweep_run.hpp"

namespace weightspace::app {

StoreSink::StoreSink(Store& store, std::int64_t run, std::uint64_t resumed)
    : store_(store), run_(run), resumed_(resumed) {}

void StoreSink::tag(std::string answer_set, std::optional<std::string> input_sha256) {
  const std::lock_guard lock(tags_mutex_);
  tags_.push_back({std::move(answer_set), std::move(input_sha256)});
}

void StoreSink::write(std::uint64_t, const BatchResult& result) {
  Tag tag;
  {
    const std::lock_guard lock(tags_mutex_);
    tag = std::move(tags_.front());
    tags_.pop_front();
  }
  pending_steps_ += result.cached ? 0 : result.steps;
  const auto seq = static_cast<std::int64_t>(resumed_ + result.sequence);
  pending_.push_back(to_stored(result, seq, tag.answer_set, std::move(tag.input_sha256)));
  if (pending_.size() >= kCommitRecords ||
      std::chrono::duration<double>(Clock::now() - last_commit_).count() >= kCommitSeconds) {
    finish();
  }
}

void StoreSink::finish() {
  if (pending_.empty()) return;
  const Clock::time_point now = Clock::now();
  store_.add_records(run_, pending_, std::chrono::duration<double>(now - last_commit_).count(), pending_steps_);
  last_commit_ = now;
  pending_.clear();
  pending_steps_ = 0;
}

}  // namespace weightspace::app
