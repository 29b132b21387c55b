// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <spdlog/sinks/sink.h>

#include <weightspace/batch_grader.hpp>

namespace weightspace::app {

// The progress of a batch on stderr: on a terminal, one line redrawn at most ten times a
// second, which log lines clear and redraw around (they go through a sink installed on the
// default logger while this lives); elsewhere, a log line every five seconds. Counts come from
// record() (the results, in input order); the total may grow while manifests are counted.
class BatchProgress {
 public:
  enum class Mode { Off, Terminal, Log };
  explicit BatchProgress(Mode mode);
  ~BatchProgress();
  BatchProgress(const BatchProgress&) = delete;
  BatchProgress& operator=(const BatchProgress&) = delete;

  void add_total(std::uint64_t records) { total_.fetch_add(records, std::memory_order_relaxed); }
  // Called once every count has been added.
  void total_complete() { total_known_.store(true, std::memory_order_relaxed); }
  void record(const BatchResult& result);
  // Records a resumed output held already: counted as done, not in the rates.
  void resumed(std::uint64_t records) { resumed_.store(records, std::memory_order_relaxed); }
  // Stops redrawing and clears the line; the summary is the caller's to log.
  void stop();
  // Stops redrawing and leaves the last line on stderr (ended by a newline; logged when not
  // on a terminal), for a batch that is interrupted. Safe beside stop() on another thread.
  void finish();

  std::string line() const;  // e.g. "120/2000 records, 35.2 grades/s, 14.1 M steps/s, ..."

 private:
  class Sink;
  void draw_locked();
  void loop();
  void stop(bool keep_line);

  Mode mode_;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
  std::atomic<std::uint64_t> total_{0};
  std::atomic<bool> total_known_{false};
  std::atomic<std::uint64_t> done_{0};
  std::atomic<std::uint64_t> resumed_{0};
  std::atomic<std::uint64_t> failed_{0};
  std::atomic<std::uint64_t> cached_{0};
  std::atomic<std::int64_t> steps_{0};
  std::mutex stop_mutex_;  // stop() and finish(), which may race (a signal's thread)
  std::mutex mutex_;  // stderr and the fields below
  std::condition_variable wake_;
  bool stopping_ = false;
  bool drawn_ = false;
  std::vector<std::shared_ptr<spdlog::sinks::sink>> saved_sinks_;
  std::thread thread_;
};

}  // namespace weightspace::app
