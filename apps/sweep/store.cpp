// SPDX-License-Identifier: GPL-3.0-or-later
// The store's schema, its migrations, and the runs table. Records: store_records.cpp.
#include "apps/sweep/store.hpp"

#include <spdlog/spdlog.h>

#include <chrono>
#include <cstdio>
#include <ctime>

#include "apps/version.hpp"

namespace weightspace::app {

namespace {

// The current schema. Version 1 had no speed table and no pinned column, version 2 no error
// place, version 3 no speed workload and one timing per speed row, version 4 no refused mark
// (migrate() adds them).
constexpr const char* kSchema = R"sql(
CREATE TABLE runs (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  config_path TEXT NOT NULL,
  config_text TEXT NOT NULL,
  started_at TEXT NOT NULL,
  finished_at TEXT,
  status TEXT NOT NULL CHECK (status IN ('running', 'finished', 'failed', 'interrupted')),
  error TEXT,
  version TEXT NOT NULL,
  git_revision TEXT NOT NULL,
  cpu_model TEXT NOT NULL,
  cores INTEGER NOT NULL,
  simd TEXT NOT NULL,
  hostname TEXT NOT NULL,
  threads INTEGER NOT NULL,
  grade_seconds REAL NOT NULL DEFAULT 0,
  grade_steps INTEGER NOT NULL DEFAULT 0,
  pinned INTEGER NOT NULL DEFAULT 0 CHECK (pinned IN (0, 1)),
  speed_workload TEXT,
  speed_instructions INTEGER
);
CREATE INDEX runs_by_name ON runs (name, id);
CREATE TABLE records (
  run_id INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
  seq INTEGER NOT NULL,
  answer_set TEXT NOT NULL,
  id TEXT NOT NULL,
  input TEXT NOT NULL,
  game TEXT NOT NULL,
  source TEXT NOT NULL,
  episodes INTEGER NOT NULL,
  weights_sha256 TEXT,
  input_sha256 TEXT,
  reward TEXT NOT NULL,
  normalized_score REAL,
  error_kind TEXT,
  error_line INTEGER,
  error_column INTEGER,
  cached INTEGER NOT NULL,
  steps INTEGER NOT NULL,
  seconds REAL NOT NULL,
  refused INTEGER NOT NULL DEFAULT 0 CHECK (refused IN (0, 1)),
  PRIMARY KEY (run_id, seq)
) WITHOUT ROWID;
CREATE TABLE speed (
  run_id INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
  threads INTEGER NOT NULL,
  records INTEGER NOT NULL,
  steps INTEGER NOT NULL,
  seconds REAL NOT NULL,
  repetitions TEXT,
  PRIMARY KEY (run_id, threads)
) WITHOUT ROWID;
)sql";

// Version 1 -> 2: baselines are pinned in the store, and each run keeps its speed per thread count.
constexpr const char* kMigration1To2 = R"sql(
ALTER TABLE runs ADD COLUMN pinned INTEGER NOT NULL DEFAULT 0 CHECK (pinned IN (0, 1));
CREATE TABLE speed (
  run_id INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
  threads INTEGER NOT NULL,
  records INTEGER NOT NULL,
  steps INTEGER NOT NULL,
  seconds REAL NOT NULL,
  PRIMARY KEY (run_id, threads)
) WITHOUT ROWID;
)sql";

// Version 2 -> 3: a failed record keeps its error's place (line, column in the edits block) as
// the batch line does; records stored before have NULL there, as an error with no place.
constexpr const char* kMigration2To3 = R"sql(
ALTER TABLE records ADD COLUMN error_line INTEGER;
ALTER TABLE records ADD COLUMN error_column INTEGER;
)sql";

// Version 3 -> 4: a run keeps the speed workload it timed (chosen by content) and the
// instructions grading it takes, and a speed row every repetition's steps and seconds (JSON
// [[steps, seconds], ...]; later also the CPU seconds, [steps, seconds, cpu_seconds], read either
// way); older rows keep their one timing and NULL there, and compare does not judge speed
// against a run with no workload.
constexpr const char* kMigration3To4 = R"sql(
ALTER TABLE runs ADD COLUMN speed_workload TEXT;
ALTER TABLE runs ADD COLUMN speed_instructions INTEGER;
ALTER TABLE speed ADD COLUMN repetitions TEXT;
)sql";

// Version 4 -> 5: a record refused for a limit of the machine that graded it (episodes past
// its memory) is marked, as its batch line is; records stored before are not refused.
constexpr const char* kMigration4To5 = R"sql(
ALTER TABLE records ADD COLUMN refused INTEGER NOT NULL DEFAULT 0 CHECK (refused IN (0, 1));
)sql";

constexpr const char* kRunColumns =
    "r.id, r.name, r.config_path, r.config_text, r.started_at, r.finished_at, r.status, r.error, r.version, "
    "r.git_revision, r.cpu_model, r.cores, r.simd, r.hostname, r.threads, r.grade_seconds, r.grade_steps, r.pinned, "
    "r.speed_workload, r.speed_instructions, (SELECT COUNT(*) FROM records WHERE run_id = r.id), "
    "(SELECT COUNT(*) FROM records WHERE run_id = r.id AND error_kind IS NOT NULL), "
    "(SELECT COUNT(*) FROM records WHERE run_id = r.id AND cached)";

RunInfo read_run(const sqlite::Statement& row) {
  RunInfo run;
  run.id = row.integer(0);
  run.name = row.text(1);
  run.config_path = row.text(2);
  run.config_text = row.text(3);
  run.started_at = row.text(4);
  run.finished_at = row.optional_text(5);
  run.status = row.text(6);
  run.error = row.optional_text(7);
  run.version = row.text(8);
  run.git_revision = row.text(9);
  run.machine.cpu_model = row.text(10);
  run.machine.cores = static_cast<int>(row.integer(11));
  run.machine.simd = row.text(12);
  run.machine.hostname = row.text(13);
  run.threads = static_cast<int>(row.integer(14));
  run.grade_seconds = row.real(15);
  run.grade_steps = row.integer(16);
  run.pinned = row.integer(17) != 0;
  run.speed_workload = row.optional_text(18);
  run.speed_instructions = row.optional_integer(19);
  run.records = row.integer(20);
  run.failed = row.integer(21);
  run.cached = row.integer(22);
  return run;
}

std::optional<std::int64_t> first_id(sqlite::Statement& statement) {
  if (!statement.step()) return std::nullopt;
  return statement.integer(0);
}

}  // namespace

Store::Store(const std::string& path, sqlite::Database::Mode mode) : database_(path, mode) {
  auto check = [&](std::int64_t application, std::int64_t version, std::int64_t tables) {
    if (tables > 0 && application != kApplicationId) {
      throw UsageError(path + " is an SQLite database of another program, not a weightspace results store");
    }
    // No weightspace writes a negative version (the fuzzer's mutated stores: migrating "from"
    // one altered tables that were never of schema 1).
    if (version < 0) {
      throw UsageError("database " + path + " has schema version " + std::to_string(version) +
                       ", which no weightspace writes: it is not a results store");
    }
    if (version > kSchemaVersion) {
      throw UsageError("database " + path + " has schema version " + std::to_string(version) + ", newer than the " +
                       std::to_string(kSchemaVersion) + " this weightspace " + kVersion +
                       " reads: use the weightspace that wrote it, or a newer one");
    }
  };
  const char* kTables = "SELECT COUNT(*) FROM sqlite_schema";
  std::int64_t version = database_.integer("PRAGMA user_version");
  check(database_.integer("PRAGMA application_id"), version, database_.integer(kTables));
  if (version < kSchemaVersion) {
    // WAL persists in the file; it cannot be switched on inside a transaction.
    sqlite::Statement journal = database_.prepare("PRAGMA journal_mode = WAL");
    if (journal.step() && journal.text(0) != "wal") {
      spdlog::warn("{}: the file system does not support WAL mode; using a rollback journal", path);
    }
    journal.reset();
    sqlite::Transaction transaction(database_);
    // Another process may have created or migrated it meanwhile.
    version = database_.integer("PRAGMA user_version");
    check(database_.integer("PRAGMA application_id"), version, database_.integer(kTables));
    if (version == 0) {
      create_schema();
    } else if (version < kSchemaVersion) {
      spdlog::info("{}: migrating the results store from schema version {} to {}", path, version, kSchemaVersion);
      migrate(version);
    }
    database_.exec(("PRAGMA user_version = " + std::to_string(kSchemaVersion)).c_str());
    database_.exec(("PRAGMA application_id = " + std::to_string(kApplicationId)).c_str());
    transaction.commit();
  }
  // A committed transaction survives the process being killed; NORMAL skips only the fsync per
  // commit, which guards against a power cut (the database stays consistent then too).
  database_.exec("PRAGMA synchronous = NORMAL");
  database_.exec("PRAGMA foreign_keys = ON");
}

void Store::create_schema() { database_.exec(kSchema); }

void Store::migrate(std::int64_t from) {
  // Step by step, inside the caller's transaction: a store is either wholly migrated or untouched.
  if (from <= 1) database_.exec(kMigration1To2);
  if (from <= 2) database_.exec(kMigration2To3);
  if (from <= 3) database_.exec(kMigration3To4);
  if (from <= 4) database_.exec(kMigration4To5);
}

std::int64_t Store::begin_run(const RunInfo& run) {
  sqlite::Transaction transaction(database_);
  database_
      .prepare(
          "INSERT INTO runs (name, config_path, config_text, started_at, status, version, git_revision, cpu_model, "
          "cores, simd, hostname, threads) VALUES (?, ?, ?, ?, 'running', ?, ?, ?, ?, ?, ?, ?)")
      .bind_all(run.name, run.config_path, run.config_text, run.started_at, run.version, run.git_revision,
                run.machine.cpu_model, run.machine.cores, run.machine.simd, run.machine.hostname, run.threads)
      .run();
  const std::int64_t id = database_.last_insert_rowid();
  transaction.commit();
  return id;
}

std::optional<RunInfo> Store::run(std::int64_t id) {
  sqlite::Statement query = database_.prepare(std::string("SELECT ") + kRunColumns + " FROM runs r WHERE r.id = ?");
  query.bind(1, id);
  if (!query.step()) return std::nullopt;
  return read_run(query);
}

std::vector<RunInfo> Store::runs(const std::optional<std::string>& name) {
  sqlite::Statement query = database_.prepare(std::string("SELECT ") + kRunColumns +
                                              " FROM runs r WHERE ?1 IS NULL OR r.name = ?1 ORDER BY r.id DESC");
  query.bind(1, name);
  std::vector<RunInfo> runs;
  while (query.step()) runs.push_back(read_run(query));
  return runs;
}

std::optional<std::int64_t> Store::latest_finished(const std::optional<std::string>& name) {
  sqlite::Statement query = database_.prepare(
      "SELECT id FROM runs WHERE status = 'finished' AND (?1 IS NULL OR name = ?1) ORDER BY id DESC LIMIT 1");
  query.bind(1, name);
  return first_id(query);
}

std::optional<std::int64_t> Store::previous_finished(const std::string& name, std::int64_t before) {
  sqlite::Statement query = database_.prepare(
      "SELECT id FROM runs WHERE status = 'finished' AND name = ? AND id < ? ORDER BY id DESC LIMIT 1");
  query.bind_all(name, before);
  return first_id(query);
}

std::optional<std::int64_t> Store::pinned(const std::string& name) {
  sqlite::Statement query = database_.prepare("SELECT id FROM runs WHERE pinned AND name = ? ORDER BY id DESC LIMIT 1");
  query.bind(1, name);
  return first_id(query);
}

std::optional<std::int64_t> Store::unfinished(const std::string& name) {
  sqlite::Statement query =
      database_.prepare("SELECT id FROM runs WHERE status <> 'finished' AND name = ? ORDER BY id DESC LIMIT 1");
  query.bind(1, name);
  return first_id(query);
}

void Store::pin(std::int64_t id, bool pinned) {
  sqlite::Transaction transaction(database_);
  if (pinned) {
    database_.prepare("UPDATE runs SET pinned = 0 WHERE name = (SELECT name FROM runs WHERE id = ?1) AND id <> ?1")
        .bind(1, id)
        .run();
  }
  database_.prepare("UPDATE runs SET pinned = ? WHERE id = ?").bind_all(pinned, id).run();
  transaction.commit();
}

void Store::set_status(std::int64_t id, const std::string& status, const std::optional<std::string>& error) {
  sqlite::Transaction transaction(database_);
  const std::optional<std::string> finished = status == "finished" ? std::optional(utc_now()) : std::nullopt;
  database_.prepare("UPDATE runs SET status = ?, error = ?, finished_at = ? WHERE id = ?")
      .bind_all(status, error, finished, id)
      .run();
  transaction.commit();
}

void Store::mark_killed_runs() {
  sqlite::Transaction transaction(database_);
  database_.exec(
      "UPDATE runs SET status = 'failed', error = 'the sweep was killed (kill -9, a crash, a power cut)' "
      "WHERE status = 'running'");
  transaction.commit();
}

std::string utc_now() {
  const auto now = std::chrono::system_clock::now();
  const std::time_t seconds = std::chrono::system_clock::to_time_t(now);
  const auto milliseconds =
      std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()).count() % 1000;
  std::tm utc{};
  ::gmtime_r(&seconds, &utc);
  char text[80];
  std::snprintf(text, sizeof text, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", utc.tm_year + 1900, utc.tm_mon + 1,
                utc.tm_mday, utc.tm_hour, utc.tm_min, utc.tm_sec, static_cast<int>(milliseconds));
  return text;
}

double seconds_between(const std::string& from, const std::string& to) {
  auto parse = [](const std::string& text) {
    std::tm utc{};
    int milliseconds = 0;
    if (std::sscanf(text.c_str(), "%d-%d-%dT%d:%d:%d.%dZ", &utc.tm_year, &utc.tm_mon, &utc.tm_mday, &utc.tm_hour,
                    &utc.tm_min, &utc.tm_sec, &milliseconds) < 6) {
      return 0.0;
    }
    utc.tm_year -= 1900;
    utc.tm_mon -= 1;
    return static_cast<double>(::timegm(&utc)) + milliseconds / 1000.0;
  };
  return parse(to) - parse(from);
}

}  // namespace weightspace::app
