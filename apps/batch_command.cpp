// SPDX-License-Identifier: GPL-3.0-or-later
// `weightspace batch`: many answers in one process, on all cores, as JSONL in input order.
// The grading is the engine's BatchGrader; this file wires inputs, outputs, resume and progress.
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <optional>
#include <thread>

#include "apps/batch_inputs.hpp"
#include "apps/batch_output.hpp"
#include "apps/batch_shard.hpp"
#include "apps/commands.hpp"
#include "apps/files.hpp"
#include "apps/grade_options.hpp"
#include "apps/progress.hpp"
#include "apps/shard_meta.hpp"
#include "apps/version.hpp"

namespace weightspace::app {

namespace {

struct Options {
  std::vector<std::string> inputs;
  std::vector<std::string> games;
  std::string source = "original";
  std::string episodes = "1000";
  int threads = 0;
  int batch = 32;
  std::size_t cache = 4096;
  std::string out;
  bool resume = false;
  bool no_timings = false;
  bool quiet = false;
  std::string csv;
  std::string rewards_dir;
  std::size_t max_input_bytes = default_max_input_bytes();
  ShardFlags shard;
  bool dry_run = false;
};

// Where results go, each write checked. Order per record: the reward file, the JSONL line,
// the CSV row, so that every record the JSONL holds has the other two (a resume rebuilds the
// CSV from the JSONL).
class Sinks {
 public:
  Sinks(const Options& options, bool append)
      : options_(options),
        out_(options.out.empty() ? "-" : options.out, append ? OutputFile::Mode::Append : OutputFile::Mode::Truncate) {
    if (!options.csv.empty()) {
      csv_.emplace(options.csv, OutputFile::Mode::Truncate);
      csv_->write(csv_header(!options.no_timings));
    }
    if (!options.rewards_dir.empty()) {
      std::error_code error;
      std::filesystem::create_directories(options.rewards_dir, error);
      if (error) throw CommandError("cannot create " + options.rewards_dir + ": " + error.message());
    }
  }

  // A record the output already holds (resume): only the CSV row and reward file are redone.
  void replay(const BatchResult& result) {
    ++lines_;
    write_reward_file(result, true);
    if (csv_) csv_->write(csv_row(result, !options_.no_timings));
  }

  void write(const BatchResult& result) {
    ++lines_;
    write_reward_file(result);
    out_.write(batch_line(result, !options_.no_timings) + "\n");
    if (csv_) csv_->write(csv_row(result, !options_.no_timings));
  }

 private:
  // Replayed records keep the file an earlier run wrote (written atomically, so whole).
  void write_reward_file(const BatchResult& result, bool replayed = false) {
    if (options_.rewards_dir.empty()) return;
    const std::filesystem::path path = std::filesystem::path(options_.rewards_dir) / reward_file_name(lines_, result);
    std::error_code error;
    if (replayed && std::filesystem::is_regular_file(path, error)) return;
    write_file(path, reward_json(result.reward));
  }

  const Options& options_;
  OutputFile out_;
  std::optional<OutputFile> csv_;
  std::uint64_t lines_ = 0;
};

// Drops a torn last line (a run killed mid-write) so the file ends after its last record.
void drop_torn_line(const std::string& path) {
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  if (!in) throw CommandError("cannot read " + path + " to resume it");
  const std::streamoff size = in.tellg();
  std::streamoff keep = size;
  char c = '\n';
  while (keep > 0) {
    in.seekg(keep - 1);
    in.get(c);
    if (c == '\n') break;
    --keep;
  }
  if (keep == size) return;
  spdlog::warn("{}: dropping an incomplete last line ({} bytes) before resuming", path, size - keep);
  std::filesystem::resize_file(path, static_cast<std::uintmax_t>(keep));
}

// Checks the lines already in --out against the first records of the inputs, replays them
// into the sinks and the cache; returns how many there were.
std::uint64_t resume(const Options& options, RecordStream& records, const std::function<bool(const BatchRecord&)>& keep,
                     BatchGrader& grader, Sinks& sinks) {
  std::ifstream in(options.out, std::ios::binary);
  std::string line;
  std::uint64_t count = 0;
  while (std::getline(in, line)) {
    ++count;
    const std::string place = options.out + " line " + std::to_string(count);
    bool timings = false;
    BatchResult written;
    try {
      written = parse_batch_line(line, timings);
    } catch (const EditError& error) {
      throw UsageError(place + " is not a weightspace batch record (" + error.what() + "); cannot resume");
    }
    if (timings == options.no_timings) {
      throw UsageError(place + (timings ? " has" : " has no") + " timings; resume with the same --no-timings setting");
    }
    const std::optional<BatchRecord> record = records.next(false, keep);
    if (!record) throw UsageError(options.out + " holds more records than the inputs make; cannot resume");
    if (!same_record(written, *record)) {
      throw UsageError(place + " is record " + written.record.id + " on " + written.record.request.game +
                       ", but the inputs' record " + std::to_string(count) + " is " + record->id + " on " +
                       record->request.game + ": not the same inputs and options; cannot resume");
    }
    grader.remember(written);
    sinks.replay(written);
  }
  return count;
}

// What the records of a shard and its lines depend on: shards of one run must agree on all of it.
nlohmann::ordered_json shard_options(const Options& options, const BatchDefaults& defaults) {
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
Options shard_run_options(const Options& given, const ShardSpec& shard) {
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
  Options options = given;
  if (!given.out.empty()) options.out = shard_file_name(given.out, shard);
  return options;
}

void run_batch(const Options& given) {
  if (given.inputs.empty()) throw UsageError("no inputs: give answer files, trajectories, folders, manifests or -");
  const std::optional<ShardSpec> shard = resolve_shard(given.shard, process_environment);
  const Options options = shard ? shard_run_options(given, *shard) : given;
  if (shard && !options.quiet && !options.dry_run) {
    spdlog::info("shard {} of {} ({}): writing {}", shard->index, shard->count, shard->from, options.out);
  }
  if (options.resume && (options.out.empty() || options.out == "-")) throw UsageError("--resume needs --out FILE");
  for (const std::string* other : {&options.csv, &options.rewards_dir}) {
    if (!options.out.empty() && !other->empty() && same_file(options.out, *other)) {
      throw UsageError("--out and --csv / --rewards-dir name the same file: " + *other);
    }
  }
  std::signal(SIGPIPE, SIG_IGN);  // a closed pipe is a write error with a message, not a silent death
  BatchDefaults defaults;
  defaults.games = options.games;
  defaults.source = options.source;
  defaults.episodes = parse_episodes("--episodes", options.episodes);
  defaults.max_input_bytes = options.max_input_bytes;
  RecordStream records(options.inputs, defaults);
  ShardSelection selection(shard);
  std::function<bool(const BatchRecord&)> keep;
  if (shard || options.dry_run) keep = [&selection](const BatchRecord& record) { return selection.keep(record); };
  if (options.dry_run) {
    print_dry_run([&] { return records.next(false, keep); }, selection, options.out);
    return;
  }

  BatchOptions batch_options;
  batch_options.run.threads = options.threads;
  batch_options.run.lockstep = options.batch;
  batch_options.cache_entries = options.cache;
  BatchGrader grader(batch_options);

  std::error_code error;
  const bool resuming = options.resume && std::filesystem::is_regular_file(options.out, error);
  ShardMeta meta;
  if (shard) {
    meta.weightspace_version = kVersion;
    meta.index = shard->index;
    meta.count = shard->count;
    meta.out = given.out;
    meta.options = shard_options(options, defaults);
    write_shard_meta(options.out, meta);  // incomplete until the last record is written
  }
  if (resuming) drop_torn_line(options.out);
  Sinks sinks(options, resuming);
  const std::uint64_t resumed = resuming ? resume(options, records, keep, grader, sinks) : 0;
  if (resuming) spdlog::info("resuming {} after its {} records", options.out, resumed);

  BatchProgress::Mode mode = BatchProgress::Mode::Off;
  if (!options.quiet) mode = ::isatty(STDERR_FILENO) ? BatchProgress::Mode::Terminal : BatchProgress::Mode::Log;
  BatchProgress progress(mode);
  std::atomic<bool> stop_counting{false};
  std::thread counter;
  if (mode != BatchProgress::Mode::Off) {
    const bool all_files = std::find(options.inputs.begin(), options.inputs.end(), "-") == options.inputs.end();
    if (!shard) progress.add_total(records.file_records());
    progress.resumed(resumed);
    counter = std::thread([&, all_files, manifests = records.manifest_files()] {
      if (shard) {  // this shard's records: the deal run ahead, reading no answer
        RecordStream ahead(options.inputs, defaults);
        ShardSelection mine(shard);
        auto keep_ahead = [&](const BatchRecord& record) { return stop_counting.load() || mine.keep(record); };
        while (!stop_counting.load() && ahead.next(false, keep_ahead)) progress.add_total(1);
      } else {
        for (const std::string& manifest : manifests) progress.add_total(RecordStream::count_manifest(manifest, defaults, stop_counting));
      }
      if (all_files && !stop_counting.load()) progress.total_complete();
    });
  }
  struct Join {
    std::atomic<bool>& stop;
    std::thread& thread;
    ~Join() {
      stop = true;
      if (thread.joinable()) thread.join();
    }
  } join{stop_counting, counter};
  auto next = [&]() -> std::optional<BatchRecord> {
    std::optional<BatchRecord> record = records.next(true, keep);
    for (const std::string& key : records.take_unknown_keys()) spdlog::warn("manifest key \"{}\" is not one weightspace reads; ignored", key);
    return record;
  };
  const auto start = std::chrono::steady_clock::now();
  BatchSummary summary;
  try {
    summary = grader.run(next, [&](BatchResult&& result) {
      sinks.write(result);
      progress.record(result);
    });
  } catch (const CommandError& failure) {
    progress.stop();
    throw CommandError(std::string(failure.what()) + " (the output so far is complete and --resume continues it)");
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  progress.stop();
  if (shard) {
    meta.complete = true;
    meta.inputs_sha256 = selection.inputs_sha256();
    meta.records = selection.records();
    meta.total_records = selection.total_records();
    meta.work = selection.work();
    meta.total_work = selection.total_work();
    write_shard_meta(options.out, meta);
  }
  if (!options.quiet) {
    spdlog::info("batch: {} records graded in {:.2f} s ({:.1f} grades/s, {:.1f} M steps/s), {} errors, {} cached{}",
                 summary.records, seconds, seconds > 0 ? static_cast<double>(summary.records) / seconds : 0.0,
                 seconds > 0 ? static_cast<double>(summary.steps) / seconds / 1e6 : 0.0, summary.failed, summary.cached,
                 resumed > 0 ? ", after " + std::to_string(resumed) + " resumed" : "");
  }
}

}  // namespace

void add_batch_command(CLI::App& app) {
  auto options = std::make_shared<Options>();
  auto* command = app.add_subcommand(
      "batch", "Grade many answers in one process: files, folders, JSONL manifests (- = stdin); JSONL out, in input order");
  command->add_option("inputs", options->inputs,
                      "Answer files, trajectory *.json, folders (recursive), JSONL manifests (*.jsonl, - for stdin)");
  command->add_option("--game", options->games, "Game(s) to grade every input on (repeat or comma-separate)")
      ->delimiter(',');
  command->add_option("--source", options->source, "original or synth")->check(CLI::IsMember({"original", "synth"}));
  command->add_option("--episodes", options->episodes, "Episodes per grade, read as Python's int() (the grader's default is 1000)");
  command->add_option("--threads", options->threads, "Worker threads (0 = all cores); never changes a result")
      ->check(CLI::Range(0, kMaxThreads));
  command->add_option("--batch", options->batch, "Episodes stepped in lockstep per thread; never changes a result")
      ->check(CLI::Range(1, 4096));
  command->add_option("--cache", options->cache, "Distinct rollouts remembered for identical weights (0 = off)")
      ->check(CLI::Range(std::size_t{0}, std::size_t{1} << 20));
  command->add_option("--out", options->out, "Append JSONL here instead of stdout (flushed per record)");
  command->add_flag("--resume", options->resume, "Continue an interrupted --out: check it, drop a torn last line, go on");
  command->add_flag("--no-timings", options->no_timings, "Leave out seconds and steps, so outputs compare whole");
  command->add_flag("--quiet", options->quiet, "No progress and no summary on stderr");
  command->add_option("--csv", options->csv, "Also write a flat CSV table here");
  command->add_option("--rewards-dir", options->rewards_dir, "Also write each record's reward.json into this folder");
  add_max_input_bytes_option(*command, options->max_input_bytes);
  options->shard.add_options(*command);
  command->add_flag("--dry-run", options->dry_run,
                    "Grade nothing: print the shard and, as JSONL, the records it would grade (docs/cluster.md)");
  command->callback([options] { run_batch(*options); });
}

}  // namespace weightspace::app
