// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// One engine for every request of `weightspace serve`: a BatchGrader (one oneTBB arena, one
// cache of identical weights) fed from a bounded queue by a thread of its own, so many small
// requests keep all cores busy. No I/O.

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <utility>
#include <vector>

#include <weightspace/batch_grader.hpp>

namespace weightspace::serve {

// One request's records: their results arrive in order. The request's handler waits on it
// and cancels it when its client goes away or its deadline passes; the cancelled records that
// have not reached the engine yet are dropped.
class Ticket {
 public:
  explicit Ticket(std::size_t records) : results_(records) {}

  std::size_t size() const { return results_.size(); }
  // The next result in order, once it is there; nullopt when `until` passed first, or when
  // the ticket was cancelled.
  std::optional<BatchResult> next(std::chrono::steady_clock::time_point until);
  void cancel();
  bool cancelled() const { return cancelled_.load(std::memory_order_relaxed); }

 private:
  friend class GradingService;
  void deliver(std::size_t index, BatchResult&& result);

  std::mutex mutex_;
  std::condition_variable ready_;
  std::vector<std::optional<BatchResult>> results_;
  std::size_t taken_ = 0;
  std::atomic<bool> cancelled_{false};
};

struct ServiceOptions {
  int threads = 0;             // the arena's threads; 0: all cores
  std::size_t queue = 1024;    // records accepted and not yet graded (waiting or in the engine), at most
  std::size_t cache_entries = 4096;
};

// What the engine has done so far, for /metrics.
struct ServiceCounts {
  std::uint64_t grades = 0;  // results delivered
  std::uint64_t failed = 0;  // of those, parse_success 0
  std::uint64_t cached = 0;  // of those, rollouts reused
  std::int64_t steps = 0;    // steps played (cache hits play none)
  std::uint64_t dropped = 0; // records of cancelled requests never graded
  std::size_t queued = 0;    // records waiting now
  std::size_t in_flight = 0; // records in the engine now
};

class GradingService {
 public:
  explicit GradingService(ServiceOptions options);
  ~GradingService();  // stop()
  GradingService(const GradingService&) = delete;
  GradingService& operator=(const GradingService&) = delete;

  // Queues the records as one request; nullptr when the queue has no room for all of them
  // (the caller answers 503) or the service stopped. Records are graded in the order they were submitted.
  std::shared_ptr<Ticket> submit(std::vector<BatchRecord> records);
  std::size_t capacity() const { return options_.queue; }
  ServiceCounts counts() const;
  // Stops the engine: no further record starts, the waiting ones are dropped, and every
  // ticket's waiter is woken. Idempotent.
  void stop();

 private:
  struct Pending {
    std::shared_ptr<Ticket> ticket;
    std::size_t index = 0;
    BatchRecord record;
  };
  std::optional<BatchRecord> take();
  void deliver(BatchResult&& result);
  void feed();

  ServiceOptions options_;
  BatchGrader grader_;
  mutable std::mutex mutex_;
  std::condition_variable work_;
  std::deque<Pending> queue_;
  // The records handed to the engine, in order: its results come back in the same order.
  std::deque<std::pair<std::shared_ptr<Ticket>, std::size_t>> flight_;
  ServiceCounts counts_;
  bool stopping_ = false;
  std::atomic<bool> cancel_{false};
  std::thread feeder_;
};

}  // namespace weightspace::serve
