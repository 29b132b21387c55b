// SPDX-License-Identifier: GPL-3.0-or-later
#include "apps/sweep/sweep_run.hpp"

#include <spdlog/spdlog.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>

#include "apps/batch/batch_output.hpp"
#include "apps/cli/progress.hpp"
#include "apps/sweep/run_data.hpp"
#include "apps/sweep/store_sink.hpp"
#include "apps/cli/plural.hpp"
#include "parser/numpy/apply_edits.hpp"

namespace weightspace::app {

namespace {

using Clock = std::chrono::steady_clock;

// A speed measured over less time than this is mostly noise (timer, thread start, other load).
constexpr double kShortestMeasurement = 0.5;

double seconds_since(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

std::string describe(const BatchRecord& record) {
  return id_text(record.id) + " on " + record.request.game + "/" + record.request.source + "/" +
         std::to_string(record.request.episodes);
}

// What the sink needs of a record that the batch engine does not carry through.
// Checks that the run's stored records are the config's first ones and puts their rollouts
// back into the grader's cache; returns how many there are.
std::uint64_t replay_stored(const SweepConfig& config, Store& store, std::int64_t run, SweepRecords& records,
                            BatchGrader& grader) {
  std::uint64_t count = 0;
  store.each_record(run, [&](StoredRecord&& stored) {
    const std::string place = store.path() + " run " + std::to_string(run) + " record " + std::to_string(stored.seq);
    const std::optional<SweepRecords::Item> item = records.next(false);
    if (!item) {
      throw UsageError(place + ": the run holds more records than " + config.path + " makes now; cannot resume");
    }
    const BatchResult written = to_batch_result(stored);
    if (!same_record(written, item->record) || stored.answer_set != item->answer_set) {
      throw UsageError(place + " is " + describe(written.record) + " of answer set \"" + stored.answer_set +
                       "\", but the config's record " + std::to_string(count) + " is " + describe(item->record) +
                       " of \"" + item->answer_set + "\": the answer sets changed since the run started; cannot resume");
    }
    grader.remember(written);
    ++count;
    return true;
  });
  return count;
}

std::uint64_t count_records(const SweepConfig& config, const std::optional<ShardSpec>& shard) {
  SweepRecords records(config, shard);
  std::uint64_t count = 0;
  while (records.next(false)) ++count;
  return count;
}

// Grades the first expected.size() records with `options`, checking each reward against the
// main pass's; nullopt when cancelled.
std::optional<SpeedRow> time_records(const SweepConfig& config, int threads, const BatchOptions& options,
                                     const std::vector<StoredRecord>& expected, const std::atomic<bool>& cancel) {
  BatchGrader grader(options);
  SweepRecords records(config);
  std::size_t taken = 0;
  std::optional<std::string> mismatch;
  const Clock::time_point start = Clock::now();
  const BatchSummary summary = grader.run(
      [&]() -> std::optional<BatchRecord> {
        if (taken == expected.size()) return std::nullopt;
        ++taken;
        std::optional<SweepRecords::Item> item = records.next();
        return item ? std::optional(std::move(item->record)) : std::nullopt;
      },
      [&](BatchResult&& result) {
        const StoredRecord& main = expected[result.sequence];
        if (!mismatch && reward_json(result.reward) != main.reward) {
          mismatch = describe(result.record) + ": " + reward_json(result.reward) + " instead of " + main.reward;
        }
      },
      &cancel);
  const double seconds = seconds_since(start);
  if (summary.cancelled) return std::nullopt;
  if (mismatch) {
    throw CommandError("the speed pass with " + std::to_string(threads) +
                       " threads graded a record differently from the main pass (a thread count must never change "
                       "a result; please report this): " + *mismatch);
  }
  return SpeedRow{threads, static_cast<std::int64_t>(summary.records), summary.steps, seconds};
}

}  // namespace

std::optional<SweepRecords::Item> SweepRecords::next(bool load) {
  while (set_ < config_.answers.size()) {
    if (!stream_) {
      const std::string& source = config_.sources[source_];
      BatchDefaults defaults;
      defaults.games = config_.games_for(source);
      defaults.source = source;
      defaults.episodes = config_.episodes[episodes_];
      stream_ = std::make_unique<RecordStream>(config_.answers[set_].paths, defaults);
    }
    std::function<bool(const BatchRecord&)> keep;
    if (selection_) keep = [this](const BatchRecord& record) { return selection_->keep(record); };
    if (std::optional<BatchRecord> record = stream_->next(load, keep)) {
      return Item{std::move(*record), config_.answers[set_].name};
    }
    stream_.reset();
    // The next part: episode counts, then sources, then answer sets.
    if (++episodes_ == config_.episodes.size()) {
      episodes_ = 0;
      if (++source_ == config_.sources.size()) {
        source_ = 0;
        ++set_;
      }
    }
  }
  return std::nullopt;
}

std::vector<std::string> SweepRecords::take_unknown_keys() {
  return stream_ ? stream_->take_unknown_keys() : std::vector<std::string>{};
}

PassSummary grade_main_pass(const SweepConfig& config, Store& store, std::int64_t run, bool quiet,
                            const std::atomic<bool>& cancel, const std::optional<ShardSpec>& shard) {
  BatchOptions options;
  options.run.threads = config.threads;
  options.run.lockstep = config.batch;
  options.cache_entries = config.cache;
  BatchGrader grader(options);
  SweepRecords records(config, shard);
  PassSummary summary;
  summary.resumed = replay_stored(config, store, run, records, grader);
  if (summary.resumed > 0) spdlog::info("resuming run {} after its {}", run, count_of(summary.resumed, "record"));

  BatchProgress::Mode mode = BatchProgress::Mode::Off;
  if (!quiet) mode = ::isatty(STDERR_FILENO) ? BatchProgress::Mode::Terminal : BatchProgress::Mode::Log;
  BatchProgress progress(mode);
  if (mode != BatchProgress::Mode::Off) {
    progress.add_total(count_records(config, shard));
    progress.total_complete();
    progress.resumed(summary.resumed);
  }

  StoreSink sink(store, run, summary.resumed);
  auto next = [&]() -> std::optional<BatchRecord> {
    std::optional<SweepRecords::Item> item = records.next();
    for (const std::string& key : records.take_unknown_keys()) {
      spdlog::warn("manifest key \"{}\" is not one weightspace reads; ignored", key);
    }
    if (!item) return std::nullopt;
    std::optional<std::string> input_sha256;
    if (!item->record.error) input_sha256 = sha256_hex(item->record.text);
    sink.tag(item->answer_set, std::move(input_sha256));
    return std::move(item->record);
  };
  const Clock::time_point start = Clock::now();
  BatchSummary graded;
  try {
    graded = grader.run(next, [&](BatchResult&& result) {
      progress.record(result);
      sink.write(summary.resumed + result.sequence + 1, result);
    }, &cancel);
    sink.finish();
  } catch (...) {
    progress.stop();
    throw;
  }
  progress.stop();
  summary.graded = graded.records;
  summary.failed = graded.failed;
  summary.cached = graded.cached;
  summary.steps = graded.steps;
  summary.seconds = seconds_since(start);
  summary.cancelled = graded.cancelled;
  return summary;
}

bool measure_speed(const SweepConfig& config, Store& store, std::int64_t run, bool quiet,
                   const std::atomic<bool>& cancel) {
  const std::vector<SpeedRow> measured = store.speed(run);
  std::vector<StoredRecord> expected;
  store.each_record(run, [&](StoredRecord&& record) {
    expected.push_back(std::move(record));
    return static_cast<std::int64_t>(expected.size()) < config.speed_records;
  });
  for (const int threads : config.speed_threads) {
    if (std::any_of(measured.begin(), measured.end(), [&](const SpeedRow& row) { return row.threads == threads; })) {
      continue;
    }
    BatchOptions options;
    options.run.threads = threads;
    options.run.lockstep = config.batch;
    options.cache_entries = 0;  // every record plays: the figure is the engine's, not the cache's
    // The fastest of the repetitions: the one least slowed by whatever else the machine ran.
    SpeedRow best{threads, 0, 0, 0.0};
    for (int repetition = 0; repetition < config.speed_repeat; ++repetition) {
      const std::optional<SpeedRow> row = time_records(config, threads, options, expected, cancel);
      if (!row) return false;
      if (best.seconds == 0.0 || row->seconds < best.seconds) best = *row;
    }
    store.add_speed(run, best);
    if (!quiet) {
      spdlog::info("speed: {}, {}, {:.2f} M steps/s (the fastest of {})", count_of(threads, "thread"),
                   count_of(best.records, "record"),
                   best.steps_per_second() / 1e6, config.speed_repeat);
    }
    if (best.seconds < kShortestMeasurement) {
      spdlog::warn("speed at {} was measured over {:.3f} s only, too short to compare runs reliably: raise "
                   "[speed] records", count_of(threads, "thread"), best.seconds);
    }
  }
  return true;
}

}  // namespace weightspace::app
