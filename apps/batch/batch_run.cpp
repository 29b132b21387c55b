// SPDX-License-Identifier: GPL-3.0-or-later
// The grading is the engine's BatchGrader; this file wires inputs, shards, sinks, resume and
// progress around it.
#include "apps/batch/batch_run.hpp"

#include <spdlog/spdlog.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <csignal>
#include <filesystem>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>

#include "apps/batch/batch_inputs.hpp"
#include "apps/batch/resume.hpp"
#include "apps/batch/sinks.hpp"
#include "apps/cli/errors.hpp"
#include "apps/cli/file_lock.hpp"
#include "apps/cli/files.hpp"
#include "apps/cli/grade_options.hpp"
#include "apps/cli/interrupt.hpp"
#include "apps/cli/memo_uses.hpp"
#include "apps/cli/progress.hpp"
#include "apps/cluster/shard_meta.hpp"
#include "apps/cluster/shard_selection.hpp"
#include "apps/version.hpp"
#include "apps/cli/plural.hpp"

namespace weightspace::app {

namespace {

using Keep = std::function<bool(const BatchRecord&)>;

// What the records of a shard and its lines depend on: shards of one run must agree on all of it.
nlohmann::ordered_json shard_options(const BatchRunOptions& options, const BatchDefaults& defaults) {
  nlohmann::ordered_json json;
  json["command"] = "batch";
  json["inputs"] = options.inputs;
  json["games"] = options.games;
  json["source"] = options.source;
  json["episodes"] = defaults.episodes;
  json["cache"] = options.cache;
  json["timings"] = !options.no_timings;
  // The default is a share of the machine's memory: recorded as null, so that shards on
  // machines of different sizes still merge (they differ only on answers larger than that).
  if (options.max_input_bytes == default_max_input_bytes()) {
    json["max_input_bytes"] = nullptr;
  } else {
    json["max_input_bytes"] = options.max_input_bytes;
  }
  return json;
}

// A shard reads every input and writes its own file, named by shard; the CSV and reward files
// carry the line numbers and cached flags of the whole run, so `merge` writes them.
BatchRunOptions shard_run_options(const BatchRunOptions& given, const ShardSpec& shard) {
  if (std::find(given.inputs.begin(), given.inputs.end(), "-") != given.inputs.end()) {
    throw UsageError("every shard reads every input, and standard input reaches one process only: give the "
                     "manifest as a file (shard " + shard.from + ")");
  }
  if (!given.csv.empty() || !given.rewards_dir.empty()) {
    throw UsageError("--csv and --rewards-dir of a sharded run are written by `weightspace merge` (shard " +
                     shard.from + ")");
  }
  if (given.out.empty() && !given.dry_run) {
    throw UsageError("a shard writes to a file: give --out FILE (shard " + shard.from +
                     " writes FILE with .shard-I-of-N before its extension)");
  }
  BatchRunOptions options = given;
  if (!given.out.empty()) options.out = shard_file_name(given.out, shard);
  return options;
}

void check_outputs(const BatchRunOptions& options) {
  if (options.resume && (options.out.empty() || options.out == "-")) throw UsageError("--resume needs --out FILE");
  for (const std::string* other : {&options.csv, &options.rewards_dir}) {
    if (!options.out.empty() && !other->empty() && same_file(options.out, *other)) {
      throw UsageError("--out and --csv / --rewards-dir name the same file: " + *other);
    }
  }
}

// Opened in one order (the output, the CSV, the reward folder) and written per record in
// another: the reward file, the JSONL line, the CSV row, so that every record the JSONL holds
// has the other two (a resume rebuilds the CSV from the JSONL).
ResultSinks open_sinks(const BatchRunOptions& options, bool append) {
  const bool timings = !options.no_timings;
  auto jsonl = std::make_unique<JsonlSink>(options.out.empty() ? "-" : options.out,
                                           append ? ResultFile::Mode::Append : ResultFile::Mode::Truncate, timings);
  std::unique_ptr<CsvSink> csv;
  if (!options.csv.empty()) csv = std::make_unique<CsvSink>(options.csv, ResultFile::Mode::Truncate, timings);
  ResultSinks sinks;
  if (!options.rewards_dir.empty()) sinks.add(std::make_unique<RewardFilesSink>(options.rewards_dir));
  sinks.add(std::move(jsonl));
  if (csv) sinks.add(std::move(csv));
  return sinks;
}

// The progress line's total, counted on a thread of its own while grading starts: a shard's
// records by the deal run ahead (reading no answer), else the records of the manifests.
class TotalCounter {
 public:
  TotalCounter(BatchProgress& progress, const BatchRunOptions& options, const BatchDefaults& defaults,
               const std::optional<ShardSpec>& shard, const std::vector<std::string>& manifests) {
    const bool all_files = std::find(options.inputs.begin(), options.inputs.end(), "-") == options.inputs.end();
    thread_ = std::thread([this, &progress, &options, &defaults, shard, manifests, all_files] {
      if (shard) {
        RecordStream ahead(options.inputs, defaults);
        ShardSelection mine(shard);
        auto keep_ahead = [&](const BatchRecord& record) { return stop_.load() || mine.keep(record); };
        while (!stop_.load() && ahead.next(false, keep_ahead)) progress.add_total(1);
      } else {
        for (const std::string& manifest : manifests) progress.add_total(RecordStream::count_manifest(manifest, defaults, stop_));
      }
      if (all_files && !stop_.load()) progress.total_complete();
    });
  }
  ~TotalCounter() {
    stop_ = true;
    thread_.join();
  }
  TotalCounter(const TotalCounter&) = delete;
  TotalCounter& operator=(const TotalCounter&) = delete;

 private:
  std::atomic<bool> stop_{false};
  std::thread thread_;
};

// What a shard leaves beside its output, written first incomplete, then complete.
ShardMeta start_shard_meta(const BatchRunOptions& options, const std::string& given_out, const BatchDefaults& defaults,
                           const ShardSpec& shard) {
  ShardMeta meta;
  meta.weightspace_version = kVersion;
  meta.index = shard.index;
  meta.count = shard.count;
  meta.out = given_out;
  meta.options = shard_options(options, defaults);
  write_shard_meta(options.out, meta);  // incomplete until the last record is written
  return meta;
}

void finish_shard_meta(ShardMeta meta, const ShardSelection& selection, const std::string& out) {
  meta.complete = true;
  meta.inputs_sha256 = selection.inputs_sha256();
  meta.records = selection.records();
  meta.total_records = selection.total_records();
  meta.work = selection.work();
  meta.total_work = selection.total_work();
  write_shard_meta(out, meta);
}

// The records to grade in input order, each dealt (when sharded) before it is read.
struct Records {
  RecordStream stream;
  ShardSelection selection;
  Keep keep;
};

BatchDefaults defaults_of(const BatchRunOptions& options) {
  BatchDefaults defaults;
  defaults.games = options.games;
  defaults.source = options.source;
  defaults.episodes = parse_episodes("--episodes", options.episodes);
  defaults.max_input_bytes = options.max_input_bytes;
  return defaults;
}

// What Ctrl-C (or SIGTERM) reports before the process ends by it: the progress line as it
// stood, ended, and what the output holds (apps/cli/interrupt.hpp).
class InterruptReport {
 public:
  explicit InterruptReport(std::string out) : out_(std::move(out)) {}
  void show(BatchProgress* progress) {
    const std::lock_guard lock(mutex_);
    progress_ = progress;
  }
  void written(std::uint64_t records) { written_.fetch_add(records, std::memory_order_relaxed); }
  void operator()(int) {
    const std::lock_guard lock(mutex_);  // held until the process ends: the progress stays alive
    if (progress_ != nullptr) progress_->finish();
    const std::string records = count_of(written_.load(), "record");
    if (out_.empty() || out_ == "-") {
      spdlog::warn("batch interrupted: {} written to standard output (with --out FILE, --resume continues a run)",
                   records);
    } else {
      spdlog::warn("batch interrupted: {} written to {}; rerun the same command with --resume to continue", records,
                   out_);
    }
  }

 private:
  std::string out_;
  std::mutex mutex_;
  BatchProgress* progress_ = nullptr;
  std::atomic<std::uint64_t> written_{0};
};

BatchSummary grade_records(Records& records, BatchGrader& grader, ResultSinks& sinks, BatchProgress& progress,
                           InterruptReport& interrupt) {
  auto next = [&]() -> std::optional<BatchRecord> {
    std::optional<BatchRecord> record = records.stream.next(true, records.keep);
    for (const std::string& key : records.stream.take_unknown_keys()) spdlog::warn("manifest key \"{}\" is not one weightspace reads; ignored", key);
    return record;
  };
  try {
    return grader.run(next, [&](BatchResult&& result) {
      sinks.write(result);
      interrupt.written(1);
      progress.record(result);
    });
  } catch (const CommandError& failure) {
    progress.stop();
    throw CommandError(std::string(failure.what()) + " (the output so far is complete and --resume continues it)");
  }
}

void log_summary(const BatchSummary& summary, double seconds, std::uint64_t resumed) {
  const double grades = seconds > 0 ? static_cast<double>(summary.records) / seconds : 0.0;
  const double steps = seconds > 0 ? static_cast<double>(summary.steps) / seconds / 1e6 : 0.0;
  spdlog::info("batch: {} graded in {:.2f} s ({:.1f} grades/s, {:.1f} M steps/s), {}, {} cached{}",
               count_of(summary.records, "record"), seconds, grades, steps, count_of(summary.failed, "error"),
               summary.cached, resumed > 0 ? ", after " + std::to_string(resumed) + " resumed" : "");
}

// One process writes an output at a time: two batches (two --resume of one output) would
// interleave their lines, and a merge must not read a shard half-written. Held until the
// process ends; nullptr for standard output, a FIFO or a device.
std::unique_ptr<FileLock> lock_output(const std::string& out) {
  if (!FileLock::lockable(out)) return nullptr;
  auto lock = std::make_unique<FileLock>(out, FileLock::Kind::Exclusive);
  if (!lock->held()) {
    throw CommandError(out + " is in use by another weightspace process (a batch writing it or a merge reading it); "
                       "one batch writes a file at a time");
  }
  return lock;
}

// Grades `records` into the options' outputs, after what --resume finds there.
void grade(const BatchRunOptions& options, const std::string& given_out, const BatchDefaults& defaults,
           const std::optional<ShardSpec>& shard, Records& records, InterruptReport& interrupt) {
  BatchOptions batch_options;
  std::string note;
  batch_options.run.threads = usable_threads(options.threads, note);
  if (!note.empty() && !options.quiet) spdlog::warn("{}", note);
  batch_options.run.lockstep = options.lockstep;
  batch_options.run.memo = memo_use(options.memo);
  batch_options.cache_entries = options.cache;
  BatchGrader grader(batch_options);

  std::error_code error;
  const bool resuming = options.resume && std::filesystem::is_regular_file(options.out, error);
  const std::unique_ptr<FileLock> lock = lock_output(options.out);  // after `resuming`: it creates the file
  // A refused resume (a UsageError from check_output) changes no file: the checks come first.
  const std::uint64_t resumed =
      resuming ? check_output(options.out, !options.no_timings,
                              [&] { return records.stream.next(false, records.keep); }, grader)
               : 0;
  std::optional<ShardMeta> meta;
  if (shard) meta = start_shard_meta(options, given_out, defaults, *shard);
  if (resuming) drop_torn_line(options.out);
  ResultSinks sinks = open_sinks(options, resuming);
  if (resuming) {
    replay_output(options.out, sinks);
    interrupt.written(resumed);
    spdlog::info("resuming {} after its {}", options.out, count_of(resumed, "record"));
  }

  BatchProgress::Mode mode = BatchProgress::Mode::Off;
  if (!options.quiet) mode = ::isatty(STDERR_FILENO) ? BatchProgress::Mode::Terminal : BatchProgress::Mode::Log;
  BatchProgress progress(mode);
  interrupt.show(&progress);
  std::optional<TotalCounter> counter;
  if (mode != BatchProgress::Mode::Off) {
    if (!shard) progress.add_total(records.stream.file_records());
    progress.resumed(resumed);
    counter.emplace(progress, options, defaults, shard, records.stream.manifest_files());
  }
  const auto start = std::chrono::steady_clock::now();
  BatchSummary summary;
  try {
    summary = grade_records(records, grader, sinks, progress, interrupt);
  } catch (...) {
    interrupt.show(nullptr);
    throw;
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  interrupt.show(nullptr);
  progress.stop();
  sinks.finish();
  if (meta) finish_shard_meta(std::move(*meta), records.selection, options.out);
  if (!options.quiet) log_summary(summary, seconds, resumed);
}

}  // namespace

void grade_batch(const BatchRunOptions& called) {
  if (called.inputs.empty()) throw UsageError("no inputs: give answer files, trajectories, folders, manifests or -");
  BatchRunOptions given = called;
  given.games = flag_games(called.games, called.source);
  const std::optional<ShardSpec> shard = resolve_shard(given.shard, process_environment);
  const BatchRunOptions options = shard ? shard_run_options(given, *shard) : given;
  if (shard && !options.quiet && !options.dry_run) {
    spdlog::info("shard {} of {} ({}): writing {}", shard->index, shard->count, shard->from, options.out);
  }
  check_outputs(options);
  std::signal(SIGPIPE, SIG_IGN);  // a closed pipe is a write error with a message, not a silent death
  const BatchDefaults defaults = defaults_of(options);
  Records records{RecordStream(options.inputs, defaults), ShardSelection(shard), {}};
  for (const std::string& loop : records.stream.folder_loops()) {
    spdlog::warn("{}: a symbolic link back to a folder that holds it; not walked again", loop);
  }
  if (options.games.empty() && records.stream.file_records() > 0) {
    // Only a manifest's records can name their own games.
    throw UsageError("no game to grade the answer files on: give --game NAME (`weightspace games` lists them; "
                     "--game all grades every game)");
  }
  if (shard || options.dry_run) {
    records.keep = [&selection = records.selection](const BatchRecord& record) { return selection.keep(record); };
  }
  if (options.dry_run) {
    print_dry_run([&] { return records.stream.next(false, records.keep); }, records.selection, options.out);
    return;
  }
  // Blocks Ctrl-C and SIGTERM in the grading threads, started after it; reports them instead.
  InterruptReport interrupt(options.out);
  const SignalReport signals([&interrupt](int signal) { interrupt(signal); });
  grade(options, given.out, defaults, shard, records, interrupt);
}

}  // namespace weightspace::app
