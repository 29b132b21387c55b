// SPDX-License-Identifier: GPL-3.0-or-later
#include "apps/sweep/sweep_run.hpp"

#include <spdlog/spdlog.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <ctime>
#include <map>

#include "apps/batch/batch_output.hpp"
#include "apps/cli/progress.hpp"
#include "apps/sweep/instruction_count.hpp"
#include "apps/sweep/run_data.hpp"
#include "apps/sweep/speed_stats.hpp"
#include "apps/sweep/store_sink.hpp"
#include "apps/cli/plural.hpp"
#include "parser/numpy/apply_edits.hpp"

namespace weightspace::app {

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

// The CPU time of the whole process (every thread: the grading threads are this process's).
double process_cpu_seconds() {
  timespec now{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) + 1e-9 * static_cast<double>(now.tv_nsec);
}

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

// The workload's records read again from the config's files, in the workload's order (the
// records at `seqs` of the sweep's order; only their files are read).
std::vector<BatchRecord> load_workload(const SweepConfig& config, const std::vector<std::int64_t>& seqs) {
  std::map<std::int64_t, std::size_t> wanted;
  for (std::size_t i = 0; i < seqs.size(); ++i) wanted.emplace(seqs[i], i);
  std::vector<BatchRecord> loaded(seqs.size());
  SweepRecords records(config);
  std::size_t found = 0;
  for (std::int64_t seq = 0; found < seqs.size(); ++seq) {
    const auto place = wanted.find(seq);
    std::optional<SweepRecords::Item> item = records.next(place != wanted.end());
    if (!item) throw CommandError("the speed workload's record " + std::to_string(seq) + " is no longer in " + config.path);
    if (place == wanted.end()) continue;
    loaded[place->second] = std::move(item->record);
    ++found;
  }
  return loaded;
}

// One repetition: the workload graded with `options` again and again until it has taken
// `min_time` seconds (at least once), each reward checked against the main pass's; nullopt when
// cancelled.
std::optional<SpeedRepetition> time_repetition(const std::vector<BatchRecord>& workload,
                                               const std::vector<const StoredRecord*>& expected, int threads,
                                               const BatchOptions& options, double min_time,
                                               const std::atomic<bool>& cancel) {
  SpeedRepetition repetition;
  std::optional<std::string> mismatch;
  const Clock::time_point start = Clock::now();
  const double cpu_start = process_cpu_seconds();
  do {
    BatchGrader grader(options);
    std::size_t taken = 0;
    const BatchSummary summary = grader.run(
        [&]() -> std::optional<BatchRecord> {
          return taken < workload.size() ? std::optional(workload[taken++]) : std::nullopt;
        },
        [&](BatchResult&& result) {
          const StoredRecord& main = *expected[result.sequence];
          if (!mismatch && reward_json(result.reward) != main.reward) {
            mismatch = describe(result.record) + ": " + reward_json(result.reward) + " instead of " + main.reward;
          }
        },
        &cancel);
    if (summary.cancelled) return std::nullopt;
    if (mismatch) {
      throw CommandError("the speed pass with " + std::to_string(threads) +
                         " threads graded a record differently from the main pass (a thread count must never change "
                         "a result; please report this): " + *mismatch);
    }
    repetition.steps += summary.steps;
  } while (seconds_since(start) < min_time);
  repetition.seconds = seconds_since(start);
  repetition.cpu_seconds = process_cpu_seconds() - cpu_start;
  return repetition;
}

// The run's workload: its own when it has one (a resumed run), else the baseline's when the run
// still grades all of it, else chosen afresh; stored with the run.
std::vector<WorkloadItem> pin_workload(const SweepConfig& config, Store& store, std::int64_t run,
                                       const std::vector<StoredRecord>& stored,
                                       const std::optional<std::vector<WorkloadItem>>& inherited) {
  const RunInfo info = *store.run(run);
  std::optional<std::vector<WorkloadItem>> own;
  if (info.speed_workload) own = parse_workload(*info.speed_workload);
  const std::vector<WorkloadItem> workload = choose_workload(stored, config.speed_records, own ? own : inherited);
  if (!workload.empty()) store.set_speed_workload(run, workload_text(workload));
  return workload;
}

void log_speed(const SpeedRow& row, int repeat) {
  const MedianInterval interval = median_interval(row.rates());
  spdlog::info("speed: {}, {}, {:.2f} M steps/s (median of {}; {:.0f}% interval {:.2f}..{:.2f})",
               count_of(row.threads, "thread"), count_of(row.records, "record"), interval.median / 1e6, repeat, 100 * interval.confidence, interval.low / 1e6,
               interval.high / 1e6);
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
                   const std::atomic<bool>& cancel, const std::optional<std::vector<WorkloadItem>>& inherited) {
  const std::vector<SpeedRow> measured = store.speed(run);
  std::vector<SpeedRow> rows;
  for (const int threads : config.speed_threads) {
    if (std::none_of(measured.begin(), measured.end(), [&](const SpeedRow& row) { return row.threads == threads; })) {
      rows.push_back({threads, 0, 0, 0.0, {}});
    }
  }
  if (rows.empty()) return true;
  const std::vector<StoredRecord> stored = store.records(run);
  const std::vector<WorkloadItem> workload = pin_workload(config, store, run, stored, inherited);
  if (workload.empty()) {
    spdlog::warn("no speed measured: no record of the run parsed, so there is no workload to time");
    return true;
  }
  const std::vector<std::int64_t> seqs = workload_records(stored, workload);
  const std::vector<BatchRecord> records = load_workload(config, seqs);
  std::vector<const StoredRecord*> expected;
  for (const std::int64_t seq : seqs) expected.push_back(&stored.at(static_cast<std::size_t>(seq)));
  // Repetitions interleaved across thread counts, each round starting one further on, so that
  // a slow spell of the machine or a warming cache is spread over all of them.
  for (int repetition = 0; repetition < config.speed_repeat; ++repetition) {
    for (std::size_t i = 0; i < rows.size(); ++i) {
      SpeedRow& row = rows[(i + static_cast<std::size_t>(repetition)) % rows.size()];
      BatchOptions options;
      options.run.threads = row.threads;
      options.run.lockstep = config.batch;
      options.cache_entries = 0;  // every record plays: the figure is the engine's, not the cache's
      const std::optional<SpeedRepetition> timed =
          time_repetition(records, expected, row.threads, options, config.speed_min_time, cancel);
      if (!timed) return false;
      row.repetitions.push_back(*timed);
      row.steps += timed->steps;
      row.seconds += timed->seconds;
    }
  }
  if (config.speed_instructions && !store.run(run)->speed_instructions) {
    const std::optional<std::int64_t> instructions =
        count_instructions(this_executable(), records, config.batch, cancel);
    if (!instructions) return false;
    store.set_speed_instructions(run, *instructions);
    if (!quiet) spdlog::info("speed: the workload takes {} instructions (callgrind, 1 thread)", *instructions);
  }
  for (SpeedRow& row : rows) {
    row.records = static_cast<std::int64_t>(records.size());
    store.add_speed(run, row);
    if (!quiet) log_speed(row, config.speed_repeat);
    if (row.shortest_seconds() < kShortestRepetition) {
      spdlog::warn("speed at {}: a repetition took {:.3f} s only, too short to compare runs reliably: raise "
                   "[speed] min_time", count_of(row.threads, "thread"), row.shortest_seconds());
    }
  }
  return true;
}

}  // namespace weightspace::app
