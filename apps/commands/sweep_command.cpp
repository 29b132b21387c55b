// SPDX-License-Identifier: GPL-3.0-or-later
// `weightspace sweep CONFIG`: grades a sweep config's answer sets with the batch engine into a
// run of the results store, times the speed part, and writes the HTML report.
#include <nlohmann/json.hpp>
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <iostream>

#include "apps/commands/commands.hpp"
#include "apps/sweep/config.hpp"
#include "apps/report/report_document.hpp"
#include "apps/sweep/store.hpp"
#include "apps/sweep/sweep_lock.hpp"
#include "apps/sweep/sweep_run.hpp"
#include "apps/sweep/sweep_shard.hpp"
#include "apps/version.hpp"

namespace weightspace::app {

namespace {

struct Options {
  std::string config;
  std::string db;
  std::string report;
  bool no_report = false;
  bool resume = false;
  bool quiet = false;
  int trend = 30;
  ShardFlags shard;
};

// SIGINT and SIGTERM stop the sweep between records: what was graded is committed and the run
// is left "interrupted", for --resume. A second signal kills as usual.
std::atomic<bool> stop_requested{false};
static_assert(std::atomic<bool>::is_always_lock_free, "set from a signal handler");

extern "C" void request_stop(int signal) {
  stop_requested.store(true);
  std::signal(signal, SIG_DFL);
}

class StopOnSignals {
 public:
  StopOnSignals() {
    stop_requested.store(false);
    previous_int_ = std::signal(SIGINT, request_stop);
    previous_term_ = std::signal(SIGTERM, request_stop);
  }
  ~StopOnSignals() {
    std::signal(SIGINT, previous_int_);
    std::signal(SIGTERM, previous_term_);
  }
  StopOnSignals(const StopOnSignals&) = delete;
  StopOnSignals& operator=(const StopOnSignals&) = delete;

 private:
  void (*previous_int_)(int);
  void (*previous_term_)(int);
};

// The sweep reads its answer sets from the config's folder; back to where it was afterwards.
class InFolder {
 public:
  explicit InFolder(const std::string& folder) : previous_(std::filesystem::current_path()) {
    if (!folder.empty()) std::filesystem::current_path(folder);
  }
  ~InFolder() {
    std::error_code ignored;
    std::filesystem::current_path(previous_, ignored);
  }
  InFolder(const InFolder&) = delete;
  InFolder& operator=(const InFolder&) = delete;

 private:
  std::filesystem::path previous_;
};

std::string absolute(const std::string& path) { return std::filesystem::absolute(path).lexically_normal().string(); }

// Refuses to resume a run another config, build or machine started: its records would not be
// one sweep's.
void check_resumable(const RunInfo& run, const SweepConfig& config, const Machine& machine, const std::string& db) {
  const std::string cannot = "cannot resume run " + std::to_string(run.id) + " of " + db + ": ";
  if (run.config_text != config.text) throw UsageError(cannot + config.path + " changed since the run started");
  if (run.version != kVersion || run.git_revision != kGitRevision) {
    throw UsageError(cannot + "it was started by weightspace " + run.version + " (" + run.git_revision + "), this is " +
                     kVersion + " (" + kGitRevision + "); start a new run without --resume");
  }
  if (!run.machine.same_as(machine)) {
    throw UsageError(cannot + "it was started on another machine (" + run.machine.describe() + "; this is " +
                     machine.describe() + ")");
  }
}

std::int64_t start_or_resume(Store& store, const SweepConfig& config, const Machine& machine, const Options& options) {
  const std::optional<std::int64_t> unfinished = store.unfinished(config.name);
  if (options.resume && unfinished) {
    const RunInfo run = *store.run(*unfinished);
    check_resumable(run, config, machine, store.path());
    store.set_status(run.id, "running", std::nullopt);
    spdlog::info("resuming run {} ({} records stored)", run.id, run.records);
    return run.id;
  }
  if (options.resume) spdlog::info("no unfinished run of \"{}\" in {}; starting a new one", config.name, store.path());
  if (!options.resume && unfinished) {
    spdlog::warn("run {} of \"{}\" did not finish; starting a new run (--resume would have continued it)",
                 *unfinished, config.name);
  }
  RunInfo run;
  run.name = config.name;
  run.config_path = config.absolute_path;
  run.config_text = config.text;
  run.started_at = utc_now();
  run.version = kVersion;
  run.git_revision = kGitRevision;
  run.machine = machine;
  run.threads = config.threads;
  return store.begin_run(run);
}

// Records why a run stopped; a store that cannot take even that (a full disk) leaves the run
// "running", which --resume treats the same way.
void mark(Store& store, std::int64_t run, const std::string& status, const std::string& why) {
  try {
    store.set_status(run, status, why);
  } catch (const CommandError& error) {
    spdlog::warn("could not mark run {} {}: {}", run, status, error.what());
  }
}

void run_sweep(const Options& options) {
  std::signal(SIGPIPE, SIG_IGN);
  const SweepConfig config = load_config(options.config);
  const std::string unsharded = absolute(options.db.empty() ? config.resolve("weightspace.sqlite") : options.db);
  const std::optional<ShardSpec> shard = resolve_shard(options.shard, process_environment);
  const std::string db = shard ? shard_file_name(unsharded, *shard) : unsharded;
  if (shard && !options.report.empty()) {
    throw UsageError("--report: a shard writes no report (shard " + shard->from +
                     "); merge the shards (weightspace merge), then run weightspace report");
  }
  if (shard && !options.quiet) {
    spdlog::info("shard {} of {} ({}): writing {}; no speed pass and no report (weightspace merge joins the shards)",
                 shard->index, shard->count, shard->from, db);
  }
  const std::string report =
      (options.no_report || shard) ? ""
                        : absolute(options.report.empty()
                                       ? (std::filesystem::path(db).parent_path() / "report.html").string()
                                       : options.report);
  std::error_code folder_error;
  std::filesystem::create_directories(std::filesystem::path(db).parent_path(), folder_error);
  if (folder_error) throw CommandError("cannot create the folder of database " + db + ": " + folder_error.message());
  const SweepLock lock(db);
  Store store(db, sqlite::Database::Mode::Create);
  store.mark_killed_runs();
  if (config.baseline.kind == Baseline::Kind::Run && !store.run(config.baseline.run)) {
    throw UsageError(config.baseline.place + ": baseline run " + std::to_string(config.baseline.run) + " is not in " + db);
  }
  const Machine machine = this_machine();
  const std::int64_t run = start_or_resume(store, config, machine, options);
  if (shard) write_shard_meta(db, sweep_shard_meta(config, *shard, unsharded, false));  // until it finishes
  const std::string shard_flags =
      shard ? " --shard-index " + std::to_string(shard->index) + " --shard-count " + std::to_string(shard->count) : "";
  const std::string resume_hint = "; weightspace sweep " + options.config + shard_flags + " --resume continues run " +
                                  std::to_string(run);
  PassSummary pass;
  bool finished = false;
  {
    const InFolder folder(config.folder);
    const StopOnSignals signals;
    try {
      pass = grade_main_pass(config, store, run, options.quiet, stop_requested, shard);
      finished = !pass.cancelled && (shard || measure_speed(config, store, run, options.quiet, stop_requested));
      if (finished && shard) write_shard_meta(db, sweep_shard_meta(config, *shard, unsharded, true));
    } catch (const CommandError& error) {
      mark(store, run, "failed", error.what());
      if (dynamic_cast<const UsageError*>(&error) != nullptr) throw;
      throw CommandError(std::string(error.what()) + resume_hint);
    }
  }
  if (!finished) {
    mark(store, run, "interrupted", "stopped by a signal");
    throw CommandError("interrupted: run " + std::to_string(run) + " keeps the records graded so far" + resume_hint);
  }
  store.set_status(run, "finished", std::nullopt);
  const RunInfo info = *store.run(run);
  std::optional<std::int64_t> baseline;
  if (!report.empty()) {
    baseline = baseline_for(store, info, config.baseline);
    write_report(store, run, baseline, options.trend, report);
  }
  if (!options.quiet) {
    spdlog::info("sweep \"{}\": run {} finished: {} records ({} graded now, {} failed, {} cached) in {:.2f} s{}",
                 config.name, run, info.records, pass.graded, info.failed, info.cached, pass.seconds,
                 report.empty() ? "" : "; report: " + report);
  }
  const nlohmann::json summary = {{"run", run},
                                  {"name", config.name},
                                  {"status", "finished"},
                                  {"records", info.records},
                                  {"failed", info.failed},
                                  {"cached", info.cached},
                                  {"resumed", pass.resumed},
                                  {"database", db},
                                  {"report", report.empty() ? nlohmann::json(nullptr) : nlohmann::json(report)},
                                  {"baseline", baseline ? nlohmann::json(*baseline) : nlohmann::json(nullptr)}};
  std::cout << summary.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
}

}  // namespace

void add_sweep_command(CLI::App& app) {
  auto options = std::make_shared<Options>();
  auto* command = app.add_subcommand(
      "sweep", "Run a sweep config (TOML): grade its answer sets on its games, sources and episode counts into the "
               "results database, time its thread counts, write the HTML report");
  command->add_option("config", options->config, "The sweep config (docs/user-guide.md, \"sweep\")")->required();
  command->add_option("--db", options->db, "The results database (default: weightspace.sqlite beside the config)");
  command->add_option("--report", options->report, "Write the HTML report here (default: report.html beside the database)");
  command->add_flag("--no-report", options->no_report, "Write no HTML report");
  command->add_flag("--resume", options->resume,
                    "Continue the newest unfinished run of this config (killed, interrupted or failed); start a new "
                    "one if there is none");
  command->add_option("--trend", options->trend, "Runs in the report's trend charts")->check(CLI::Range(1, 10000));
  command->add_flag("--quiet", options->quiet, "No progress and no summary on stderr");
  options->shard.add_options(*command);
  command->callback([options] { run_sweep(*options); });
}

}  // namespace weightspace::app
