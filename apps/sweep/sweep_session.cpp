// SPDX-License-Identifier: GPL-3.0-or-later
// A sweep from config to finished run: the database and report it writes, starting or resuming
// its run, stopping on signals, and the summary of what was done.
#include "apps/sweep/sweep_session.hpp"

#include <spdlog/spdlog.h>

#include <atomic>
#include <csignal>
#include <filesystem>
#include <optional>

#include "apps/cli/errors.hpp"
#include "apps/cluster/shard_meta.hpp"
#include "apps/report/report_document.hpp"
#include "apps/sweep/config.hpp"
#include "apps/sweep/machine.hpp"
#include "apps/sweep/store.hpp"
#include "apps/sweep/sweep_lock.hpp"
#include "apps/sweep/sweep_run.hpp"
#include "apps/sweep/sweep_shard.hpp"
#include "apps/version.hpp"
#include "apps/cli/plural.hpp"

namespace weightspace::app {

namespace {

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

// Where a sweep writes: its database (a shard's own file when sharded) and its report.
struct Destination {
  std::string unsharded;  // the database the shards merge into
  std::optional<ShardSpec> shard;
  std::string db;
  std::string report;  // empty: no report
};

// A shard writes no report: the merged database has one, not any of its parts.
Destination destination(const SweepRequest& request, const SweepConfig& config, const Environment& environment) {
  Destination where;
  where.unsharded = absolute(request.db.empty() ? config.resolve("weightspace.sqlite") : request.db);
  where.shard = resolve_shard(request.shard, environment);
  where.db = where.shard ? shard_file_name(where.unsharded, *where.shard) : where.unsharded;
  const std::optional<ShardSpec>& shard = where.shard;
  if (shard && !request.report.empty()) {
    throw UsageError("--report: a shard writes no report (shard " + shard->from +
                     "); merge the shards (weightspace merge), then run weightspace report");
  }
  if (shard && !request.quiet) {
    spdlog::info("shard {} of {} ({}): writing {}; no speed pass and no report (weightspace merge joins the shards)",
                 shard->index, shard->count, shard->from, where.db);
  }
  if (request.no_report || shard) return where;
  where.report = absolute(request.report.empty()
                              ? (std::filesystem::path(where.db).parent_path() / "report.html").string()
                              : request.report);
  return where;
}

void create_folder_of(const std::string& db) {
  std::error_code folder_error;
  std::filesystem::create_directories(std::filesystem::path(db).parent_path(), folder_error);
  if (folder_error) throw CommandError("cannot create the folder of database " + db + ": " + folder_error.message());
}

void check_baseline(Store& store, const SweepConfig& config, const std::string& db) {
  if (config.baseline.kind == Baseline::Kind::Run && !store.run(config.baseline.run)) {
    throw UsageError(config.baseline.place + ": baseline run " + std::to_string(config.baseline.run) + " is not in " + db);
  }
}

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

std::int64_t begin_new_run(Store& store, const SweepConfig& config, const Machine& machine) {
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

std::int64_t start_or_resume(Store& store, const SweepConfig& config, const Machine& machine, bool resume) {
  const std::optional<std::int64_t> unfinished = store.unfinished(config.name);
  if (resume && unfinished) {
    const RunInfo run = *store.run(*unfinished);
    check_resumable(run, config, machine, store.path());
    store.set_status(run.id, "running", std::nullopt);
    spdlog::info("resuming run {} ({} stored)", run.id, count_of(run.records, "record"));
    return run.id;
  }
  if (resume) spdlog::info("no unfinished run of \"{}\" in {}; starting a new one", config.name, store.path());
  if (!resume && unfinished) {
    spdlog::warn("run {} of \"{}\" did not finish; starting a new run (--resume would have continued it)",
                 *unfinished, config.name);
  }
  return begin_new_run(store, config, machine);
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

// The command that continues run `run`, for messages about a run left unfinished.
std::string resume_hint(const SweepRequest& request, const Destination& where, std::int64_t run) {
  const std::string shard_flags =
      where.shard ? " --shard-index " + std::to_string(where.shard->index) + " --shard-count " +
                        std::to_string(where.shard->count)
                  : "";
  return "; weightspace sweep " + request.config + shard_flags + " --resume continues run " + std::to_string(run);
}

// The speed workload of the run's baseline, which the run times again when it still grades all
// of it (so that compare judges the two on the same work).
std::optional<std::vector<WorkloadItem>> baseline_workload(Store& store, const SweepConfig& config, std::int64_t run) {
  const std::optional<std::int64_t> baseline = baseline_for(store, *store.run(run), config.baseline);
  if (!baseline) return std::nullopt;
  const std::optional<RunInfo> info = store.run(*baseline);
  return info && info->speed_workload ? parse_workload(*info->speed_workload) : std::nullopt;
}

struct Graded {
  PassSummary pass;
  bool finished = false;  // false: stopped by a signal
};

// Grades (and, unsharded, times) the run in the config's folder, stoppable by signals; a
// failure marks the run "failed" while both still hold.
Graded grade(const SweepConfig& config, Store& store, std::int64_t run, const SweepRequest& request,
             const Destination& where, const std::string& hint) {
  Graded graded;
  const InFolder folder(config.folder);
  const StopOnSignals signals;
  try {
    graded.pass = grade_main_pass(config, store, run, request.quiet, stop_requested, where.shard);
    graded.finished = !graded.pass.cancelled &&
                      (where.shard || measure_speed(config, store, run, request.quiet, stop_requested,
                                                    baseline_workload(store, config, run)));
    if (graded.finished && where.shard) {
      write_shard_meta(where.db, sweep_shard_meta(config, *where.shard, where.unsharded, true));
    }
  } catch (const CommandError& error) {
    mark(store, run, "failed", error.what());
    if (dynamic_cast<const UsageError*>(&error) != nullptr) throw;
    throw CommandError(std::string(error.what()) + hint);
  }
  return graded;
}

nlohmann::json summary(const SweepConfig& config, std::int64_t run, const RunInfo& info, const PassSummary& pass,
                       const Destination& where, const std::optional<std::int64_t>& baseline) {
  return {{"run", run},
          {"name", config.name},
          {"status", "finished"},
          {"records", info.records},
          {"failed", info.failed},
          {"cached", info.cached},
          {"resumed", pass.resumed},
          {"database", where.db},
          {"report", where.report.empty() ? nlohmann::json(nullptr) : nlohmann::json(where.report)},
          {"baseline", baseline ? nlohmann::json(*baseline) : nlohmann::json(nullptr)}};
}

nlohmann::json finish(Store& store, const SweepConfig& config, std::int64_t run, const PassSummary& pass,
                      const SweepRequest& request, const Destination& where) {
  store.set_status(run, "finished", std::nullopt);
  const RunInfo info = *store.run(run);
  std::optional<std::int64_t> baseline;
  if (!where.report.empty()) {
    baseline = baseline_for(store, info, config.baseline);
    write_report(store, run, baseline, request.trend, where.report);
  }
  if (!request.quiet) {
    spdlog::info("sweep \"{}\": run {} finished: {} ({} graded now, {} failed, {} cached) in {:.2f} s{}",
                 config.name, run, count_of(info.records, "record"), pass.graded, info.failed, info.cached,
                 pass.seconds, where.report.empty() ? "" : "; report: " + where.report);
  }
  return summary(config, run, info, pass, where, baseline);
}

}  // namespace

nlohmann::json run_sweep(const SweepRequest& request, const Environment& environment) {
  const SweepConfig config = load_config(request.config);
  const Destination where = destination(request, config, environment);
  create_folder_of(where.db);
  const SweepLock lock(where.db);
  Store store(where.db, sqlite::Database::Mode::Create);
  store.mark_killed_runs();
  check_baseline(store, config, where.db);
  const std::int64_t run = start_or_resume(store, config, this_machine(), request.resume);
  // Incomplete until the shard finishes (grade() rewrites it).
  if (where.shard) write_shard_meta(where.db, sweep_shard_meta(config, *where.shard, where.unsharded, false));
  const std::string hint = resume_hint(request, where, run);
  const Graded graded = grade(config, store, run, request, where, hint);
  if (!graded.finished) {
    mark(store, run, "interrupted", "stopped by a signal");
    throw CommandError("interrupted: run " + std::to_string(run) + " keeps the records graded so far" + hint);
  }
  return finish(store, config, run, graded.pass, request, where);
}

}  // namespace weightspace::app
