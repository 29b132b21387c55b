// SPDX-License-Identifier: GPL-3.0-or-later
#include "apps/cli/progress.hpp"

#include <spdlog/details/os.h>
#include <spdlog/pattern_formatter.h>
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <cstdio>

namespace weightspace::app {

namespace {

constexpr std::string_view kClearLine = "\r\x1b[2K";

void write_stderr(std::string_view text) {
  while (!text.empty()) {
    const ssize_t written = ::write(STDERR_FILENO, text.data(), text.size());
    if (written <= 0) return;  // a vanished terminal must not stop the batch
    text.remove_prefix(static_cast<std::size_t>(written));
  }
}

std::string duration_text(double seconds) {
  const auto total = static_cast<long long>(seconds + 0.5);
  char text[32];
  if (total >= 3600) {
    std::snprintf(text, sizeof text, "%lld:%02lld:%02lld", total / 3600, total / 60 % 60, total % 60);
  } else {
    std::snprintf(text, sizeof text, "%lld:%02lld", total / 60, total % 60);
  }
  return text;
}

}  // namespace

// Log lines while the progress line is up: clear it, write the line, draw it again.
class BatchProgress::Sink final : public spdlog::sinks::sink {
 public:
  explicit Sink(BatchProgress& progress)
      : progress_(progress), formatter_(std::make_unique<spdlog::pattern_formatter>("weightspace: %l: %v")) {}

  void log(const spdlog::details::log_msg& message) override {
    spdlog::memory_buf_t formatted;
    formatter_->format(message, formatted);
    const std::lock_guard lock(progress_.mutex_);
    if (progress_.drawn_) write_stderr(kClearLine);
    write_stderr(std::string_view(formatted.data(), formatted.size()));
    if (progress_.drawn_) progress_.draw_locked();
  }
  void flush() override {}
  void set_pattern(const std::string& pattern) override {
    formatter_ = std::make_unique<spdlog::pattern_formatter>(pattern);
  }
  void set_formatter(std::unique_ptr<spdlog::formatter> formatter) override { formatter_ = std::move(formatter); }

 private:
  BatchProgress& progress_;
  std::unique_ptr<spdlog::formatter> formatter_;
};

BatchProgress::BatchProgress(Mode mode) : mode_(mode) {
  if (mode_ == Mode::Off) return;
  if (mode_ == Mode::Terminal) {
    auto& sinks = spdlog::default_logger()->sinks();
    saved_sinks_ = sinks;
    sinks = {std::make_shared<Sink>(*this)};
  }
  thread_ = std::thread([this] { loop(); });
}

BatchProgress::~BatchProgress() { stop(); }

void BatchProgress::record(const BatchResult& result) {
  done_.fetch_add(1, std::memory_order_relaxed);
  if (!result.reward.parse_success) failed_.fetch_add(1, std::memory_order_relaxed);
  if (result.cached) cached_.fetch_add(1, std::memory_order_relaxed);
  if (!result.cached) steps_.fetch_add(result.steps, std::memory_order_relaxed);
}

std::string BatchProgress::line() const {
  const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  const std::uint64_t graded = done_.load(std::memory_order_relaxed);
  const std::uint64_t done = graded + resumed_.load(std::memory_order_relaxed);
  const std::uint64_t total = total_.load(std::memory_order_relaxed);
  const bool known = total_known_.load(std::memory_order_relaxed);
  const double rate = elapsed > 0 ? static_cast<double>(graded) / elapsed : 0.0;
  // "120/2000 records"; while manifests are counted (or read from stdin), "120/400+ records",
  // or "2 records" while no total beyond them is known.
  std::string counts = std::to_string(done);
  if (known || total > done) counts += "/" + std::to_string(total) + (known ? "" : "+");
  counts += known || total > done || done != 1 ? " records" : " record";
  char text[256];
  std::snprintf(text, sizeof text, "%s, %.1f grades/s, %.1f M steps/s, %llu errors, %llu cached", counts.c_str(),
                rate, elapsed > 0 ? static_cast<double>(steps_.load(std::memory_order_relaxed)) / elapsed / 1e6 : 0.0,
                static_cast<unsigned long long>(failed_.load(std::memory_order_relaxed)),
                static_cast<unsigned long long>(cached_.load(std::memory_order_relaxed)));
  std::string result = text;
  if (known && graded > 0 && total >= done) {
    result += ", ETA " + duration_text(static_cast<double>(total - done) / rate);
  }
  return result;
}

void BatchProgress::draw_locked() {
  std::string text = line();
  text.insert(0, kClearLine);
  write_stderr(text);
  drawn_ = true;
}

void BatchProgress::loop() {
  const auto period = mode_ == Mode::Terminal ? std::chrono::milliseconds(100) : std::chrono::milliseconds(5000);
  std::unique_lock lock(mutex_);
  while (!wake_.wait_for(lock, period, [this] { return stopping_; })) {
    if (mode_ == Mode::Terminal) {
      draw_locked();
    } else {
      lock.unlock();
      spdlog::info("batch: {}", line());
      lock.lock();
    }
  }
}

void BatchProgress::stop() { stop(false); }

void BatchProgress::finish() { stop(true); }

void BatchProgress::stop(bool keep_line) {
  const std::lock_guard stopping(stop_mutex_);
  if (!thread_.joinable()) return;
  {
    const std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  thread_.join();
  {
    const std::lock_guard lock(mutex_);
    if (keep_line && mode_ == Mode::Terminal) {
      write_stderr(std::string(kClearLine) + line() + "\n");
    } else if (drawn_) {
      write_stderr(kClearLine);
    }
    drawn_ = false;
    if (mode_ == Mode::Terminal) spdlog::default_logger()->sinks() = saved_sinks_;
  }
  if (keep_line && mode_ == Mode::Log) spdlog::info("batch: {}", line());
}

}  // namespace weightspace::app
