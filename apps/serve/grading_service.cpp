// SPDX-License-Identifier: GPL-3.0-or-later
#include "apps/serve/grading_service.hpp"

namespace weightspace::serve {

std::optional<BatchResult> Ticket::next(std::chrono::steady_clock::time_point until) {
  std::unique_lock lock(mutex_);
  const bool ready = ready_.wait_until(lock, until, [this] {
    return cancelled() || (taken_ < results_.size() && results_[taken_].has_value());
  });
  if (!ready || cancelled()) return std::nullopt;
  BatchResult result = std::move(*results_[taken_]);
  results_[taken_].reset();
  ++taken_;
  return result;
}

void Ticket::cancel() {
  {
    const std::lock_guard lock(mutex_);
    cancelled_.store(true, std::memory_order_relaxed);
  }
  ready_.notify_all();
}

void Ticket::deliver(std::size_t index, BatchResult&& result) {
  {
    const std::lock_guard lock(mutex_);
    if (cancelled()) return;
    results_[index] = std::move(result);
  }
  ready_.notify_all();
}

GradingService::GradingService(ServiceOptions options)
    : options_(options),
      grader_(BatchOptions{RunOptions{.threads = options.threads}, options.cache_entries, 0}),
      feeder_([this] { feed(); }) {}

GradingService::~GradingService() { stop(); }

std::shared_ptr<Ticket> GradingService::submit(std::vector<BatchRecord> records) {
  auto ticket = std::make_shared<Ticket>(records.size());
  {
    const std::lock_guard lock(mutex_);
    if (stopping_ || queue_.size() + flight_.size() + records.size() > options_.queue) return nullptr;
    for (std::size_t index = 0; index < records.size(); ++index) {
      queue_.push_back(Pending{ticket, index, std::move(records[index])});
    }
    counts_.queued = queue_.size();
  }
  work_.notify_one();
  return ticket;
}

ServiceCounts GradingService::counts() const {
  const std::lock_guard lock(mutex_);
  return counts_;
}

void GradingService::stop() {
  std::deque<Pending> dropped;
  {
    const std::lock_guard lock(mutex_);
    if (stopping_) return;
    stopping_ = true;
    cancel_.store(true, std::memory_order_relaxed);
    dropped.swap(queue_);
    counts_.dropped += dropped.size();
    counts_.queued = 0;
    for (auto& [ticket, index] : flight_) ticket->cancel();
  }
  for (Pending& pending : dropped) pending.ticket->cancel();
  work_.notify_all();
  if (feeder_.joinable()) feeder_.join();
}

// The engine's next(): the next record of a request still waiting for it. With nothing in
// flight it waits for work (the arena is idle then anyway); with records in flight and none
// waiting it ends the run, which returns once those are done, rather than hold one of the
// arena's threads in a wait.
std::optional<BatchRecord> GradingService::take() {
  std::unique_lock lock(mutex_);
  for (;;) {
    if (flight_.empty()) work_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
    if (stopping_ || queue_.empty()) return std::nullopt;
    Pending pending = std::move(queue_.front());
    queue_.pop_front();
    counts_.queued = queue_.size();
    if (pending.ticket->cancelled()) {
      ++counts_.dropped;
      continue;
    }
    flight_.emplace_back(std::move(pending.ticket), pending.index);
    counts_.in_flight = flight_.size();
    return std::move(pending.record);
  }
}

void GradingService::deliver(BatchResult&& result) {
  std::pair<std::shared_ptr<Ticket>, std::size_t> owner;
  {
    const std::lock_guard lock(mutex_);
    owner = std::move(flight_.front());
    flight_.pop_front();
    counts_.in_flight = flight_.size();
    ++counts_.grades;
    counts_.failed += result.reward.parse_success ? 0 : 1;
    counts_.cached += result.cached ? 1 : 0;
    counts_.steps += result.cached ? 0 : result.steps;
  }
  owner.first->deliver(owner.second, std::move(result));
}

void GradingService::feed() {
  for (;;) {
    {
      const std::lock_guard lock(mutex_);
      if (stopping_) break;
    }
    grader_.run([this] { return take(); }, [this](BatchResult&& result) { deliver(std::move(result)); }, &cancel_);
  }
  // A stopped run reports none of the records it had started.
  const std::lock_guard lock(mutex_);
  flight_.clear();
  counts_.in_flight = 0;
}

}  // namespace weightspace::serve
