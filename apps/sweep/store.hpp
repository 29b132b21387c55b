// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "apps/sweep/machine.hpp"
#include "apps/sweep/sqlite.hpp"

namespace weightspace::app {

// The sweep results store: one SQLite file holding every run (when, which weightspace, which
// machine, the config) and every graded record of it. WAL mode; records are written in
// transactions as they are graded, so a killed sweep leaves whole batches only. The schema
// version is PRAGMA user_version (kSchemaVersion); older stores are migrated on open, newer
// ones refused. docs/user-guide.md "Results store" lists the tables.
inline constexpr int kSchemaVersion = 5;
// PRAGMA application_id of a weightspace store ("WSRS"): another program's SQLite file is
// refused rather than written into.
inline constexpr std::int64_t kApplicationId = 0x57535253;

struct RunInfo {
  std::int64_t id = 0;
  std::string name;         // the config's name
  std::string config_path;  // absolute
  std::string config_text;  // the config file as read
  std::string started_at;   // ISO 8601 UTC, e.g. 2026-12-01T02:00:00.123Z
  std::optional<std::string> finished_at;
  std::string status;       // running, finished, failed, interrupted
  std::optional<std::string> error;  // why a failed run stopped
  std::string version;
  std::string git_revision;
  Machine machine;
  int threads = 0;             // the main pass's thread count (0: all cores)
  double grade_seconds = 0.0;  // wall time of the main pass (summed over resumed sessions)
  std::int64_t grade_steps = 0;  // steps the main pass played (cache hits play none)
  bool pinned = false;         // the baseline of its name (weightspace runs --pin)
  // The speed part's pinned workload (speed_workload.hpp's JSON text); null before it ran, and
  // for runs of a weightspace before schema 4.
  std::optional<std::string> speed_workload;
  // The instructions grading that workload takes ([speed] instructions; instruction_count.hpp).
  std::optional<std::int64_t> speed_instructions;
  // Filled by Store::runs() and Store::run(): the records stored so far.
  std::int64_t records = 0;
  std::int64_t failed = 0;
  std::int64_t cached = 0;
};

// One graded record as stored: the batch JSONL line's fields, with the reward.json text
// verbatim, plus the answer set it came from and the SHA-256 of the answer text read.
struct StoredRecord {
  std::int64_t seq = 0;  // 0-based position in the run
  std::string answer_set;
  std::string id_json;  // the id as the JSONL line writes it: a JSON string or integer
  std::string input;
  std::string game;
  std::string source;
  std::int64_t episodes = 0;
  std::optional<std::string> weights_sha256;
  std::optional<std::string> input_sha256;
  std::string reward;   // reward.json text
  double normalized_score = 0.0;  // NaN for a grade of 0 episodes
  std::optional<std::string> error_kind;
  // The error's place in the edits block (1-based), null when it has none (or on success).
  std::optional<std::int64_t> error_line;
  std::optional<std::int64_t> error_column;
  bool cached = false;
  std::int64_t steps = 0;
  double seconds = 0.0;
  // Not graded for a limit of this machine (the batch line's "refused": true), not the answer's
  // fault; false in records stored before schema 5.
  bool refused = false;
};

// Throughput at one thread count: the run's speed workload graded again, cache off, in
// repetitions each lasting at least [speed] min_time. Each repetition keeps its wall time and the
// process's CPU time (all threads): a loaded machine takes wall time away from a run, hardly
// its CPU time, so CPU time per step is the figure a busy machine can still judge.
struct SpeedRepetition {
  std::int64_t steps = 0;
  double seconds = 0.0;
  double cpu_seconds = 0.0;  // 0: not recorded (older stores kept wall time only)
  double steps_per_second() const { return seconds > 0 ? static_cast<double>(steps) / seconds : 0.0; }
  double steps_per_cpu_second() const { return cpu_seconds > 0 ? static_cast<double>(steps) / cpu_seconds : 0.0; }
};
struct SpeedRow {
  int threads = 0;
  std::int64_t records = 0;  // the workload's records
  std::int64_t steps = 0;    // summed over the repetitions
  double seconds = 0.0;
  // Each repetition's timing; empty for rows of a weightspace before schema 4 (one timing).
  std::vector<SpeedRepetition> repetitions;
  // The median repetition's rate (the one timing's for older rows).
  double steps_per_second() const;
  std::vector<double> rates() const;
  // Steps per CPU second of each repetition; empty unless every repetition recorded its CPU time.
  std::vector<double> cpu_rates() const;
  double shortest_seconds() const;
};

class Store {
 public:
  // Opens (Create: creates) the store, migrating an older schema. A newer schema, another
  // program's database or a file that is no database is a UsageError naming the file.
  Store(const std::string& path, sqlite::Database::Mode mode);

  sqlite::Database& database() { return database_; }
  const std::string& path() const { return database_.path(); }

  // Runs. A new run starts with status "running".
  std::int64_t begin_run(const RunInfo& run);
  std::optional<RunInfo> run(std::int64_t id);
  // Newest first; only those of `name` when given.
  std::vector<RunInfo> runs(const std::optional<std::string>& name = std::nullopt);
  std::optional<std::int64_t> latest_finished(const std::optional<std::string>& name);
  // The newest finished run of `name` started before run `before`.
  std::optional<std::int64_t> previous_finished(const std::string& name, std::int64_t before);
  std::optional<std::int64_t> pinned(const std::string& name);
  // The newest run of `name` that did not finish.
  std::optional<std::int64_t> unfinished(const std::string& name);
  // Pins run `id` as the baseline of its name (unpinning the others of that name), or unpins it.
  void pin(std::int64_t id, bool pinned);
  void set_status(std::int64_t id, const std::string& status, const std::optional<std::string>& error);
  // Marks "failed" every run still "running": called by a sweep holding the sweep lock, when no
  // other sweep can be writing them (their sweep was killed).
  void mark_killed_runs();

  // Records, in one transaction with the main pass's time and steps they took.
  void add_records(std::int64_t run, std::span<const StoredRecord> records, double seconds, std::int64_t steps);
  std::int64_t record_count(std::int64_t run);
  // Calls visit for each record of the run in order; stops when it returns false.
  void each_record(std::int64_t run, const std::function<bool(StoredRecord&&)>& visit);
  std::vector<StoredRecord> records(std::int64_t run);
  // Mean normalized_score per game/source (failed records count as 0; NaN scores are left out).
  std::vector<std::pair<std::string, double>> mean_scores(std::int64_t run);

  void set_speed_workload(std::int64_t run, const std::string& workload);
  void set_speed_instructions(std::int64_t run, std::int64_t instructions);
  void add_speed(std::int64_t run, const SpeedRow& row);
  std::vector<SpeedRow> speed(std::int64_t run);

 private:
  void create_schema();
  void migrate(std::int64_t from);

  sqlite::Database database_;
};

// The current time as RunInfo stores it, and seconds between two such times.
std::string utc_now();
double seconds_between(const std::string& from, const std::string& to);

}  // namespace weightspace::app
