// SPDX-License-Identifier: GPL-3.0-or-later
// The store's records and speed tables.
#include "apps/sweep/store.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>

#include "apps/sweep/speed_stats.hpp"

namespace weightspace::app {

namespace {

constexpr const char* kRecordColumns =
    "seq, answer_set, id, input, game, source, episodes, weights_sha256, input_sha256, reward, normalized_score, "
    "error_kind, error_line, error_column, cached, steps, seconds, refused";

StoredRecord read_record(const sqlite::Statement& row) {
  StoredRecord record;
  record.seq = row.integer(0);
  record.answer_set = row.text(1);
  record.id_json = row.text(2);
  record.input = row.text(3);
  record.game = row.text(4);
  record.source = row.text(5);
  record.episodes = row.integer(6);
  record.weights_sha256 = row.optional_text(7);
  record.input_sha256 = row.optional_text(8);
  record.reward = row.text(9);
  record.normalized_score = row.real(10);
  record.error_kind = row.optional_text(11);
  record.error_line = row.optional_integer(12);
  record.error_column = row.optional_integer(13);
  record.cached = row.integer(14) != 0;
  record.steps = row.integer(15);
  record.seconds = row.real(16);
  record.refused = row.integer(17) != 0;
  return record;
}

}  // namespace

void Store::add_records(std::int64_t run, std::span<const StoredRecord> records, double seconds, std::int64_t steps) {
  sqlite::Transaction transaction(database_);
  sqlite::Statement insert = database_.prepare(std::string("INSERT INTO records (run_id, ") + kRecordColumns +
                                               ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
  for (const StoredRecord& record : records) {
    insert
        .bind_all(run, record.seq, record.answer_set, record.id_json, record.input, record.game, record.source,
                  record.episodes, record.weights_sha256, record.input_sha256, record.reward, record.normalized_score,
                  record.error_kind, record.error_line, record.error_column, record.cached, record.steps, record.seconds,
                  record.refused)
        .run();
  }
  database_.prepare("UPDATE runs SET grade_seconds = grade_seconds + ?, grade_steps = grade_steps + ? WHERE id = ?")
      .bind_all(seconds, steps, run)
      .run();
  transaction.commit();
}

std::int64_t Store::record_count(std::int64_t run) {
  sqlite::Statement query = database_.prepare("SELECT COUNT(*) FROM records WHERE run_id = ?");
  query.bind(1, run);
  query.step();
  return query.integer(0);
}

void Store::each_record(std::int64_t run, const std::function<bool(StoredRecord&&)>& visit) {
  sqlite::Statement query =
      database_.prepare(std::string("SELECT ") + kRecordColumns + " FROM records WHERE run_id = ? ORDER BY seq");
  query.bind(1, run);
  while (query.step()) {
    if (!visit(read_record(query))) return;
  }
}

std::vector<StoredRecord> Store::records(std::int64_t run) {
  std::vector<StoredRecord> records;
  each_record(run, [&](StoredRecord&& record) {
    records.push_back(std::move(record));
    return true;
  });
  return records;
}

std::vector<std::pair<std::string, double>> Store::mean_scores(std::int64_t run) {
  sqlite::Statement query = database_.prepare(
      "SELECT game || '/' || source, AVG(normalized_score) FROM records WHERE run_id = ? GROUP BY game, source "
      "ORDER BY game, source");
  query.bind(1, run);
  std::vector<std::pair<std::string, double>> means;
  while (query.step()) means.emplace_back(query.text(0), query.real(1));
  return means;
}

void Store::set_speed_workload(std::int64_t run, const std::string& workload) {
  sqlite::Transaction transaction(database_);
  database_.prepare("UPDATE runs SET speed_workload = ? WHERE id = ?").bind_all(workload, run).run();
  transaction.commit();
}

void Store::set_speed_instructions(std::int64_t run, std::int64_t instructions) {
  sqlite::Transaction transaction(database_);
  database_.prepare("UPDATE runs SET speed_instructions = ? WHERE id = ?").bind_all(instructions, run).run();
  transaction.commit();
}

void Store::add_speed(std::int64_t run, const SpeedRow& row) {
  nlohmann::json repetitions = nlohmann::json::array();
  for (const SpeedRepetition& repetition : row.repetitions) {
    repetitions.push_back({repetition.steps, repetition.seconds, repetition.cpu_seconds});
  }
  sqlite::Transaction transaction(database_);
  database_
      .prepare("INSERT OR REPLACE INTO speed (run_id, threads, records, steps, seconds, repetitions) "
               "VALUES (?, ?, ?, ?, ?, ?)")
      .bind_all(run, row.threads, row.records, row.steps, row.seconds, repetitions.dump())
      .run();
  transaction.commit();
}

std::vector<SpeedRow> Store::speed(std::int64_t run) {
  sqlite::Statement query = database_.prepare(
      "SELECT threads, records, steps, seconds, repetitions FROM speed WHERE run_id = ? ORDER BY threads");
  query.bind(1, run);
  std::vector<SpeedRow> rows;
  while (query.step()) {
    SpeedRow row{static_cast<int>(query.integer(0)), query.integer(1), query.integer(2), query.real(3), {}};
    if (const std::optional<std::string> text = query.optional_text(4)) {
      const nlohmann::json repetitions = nlohmann::json::parse(*text, nullptr, false);
      if (!repetitions.is_array()) throw CommandError(path() + ": run " + std::to_string(run) + "'s speed repetitions are not JSON");
      // [steps, seconds] or, since CPU time is kept, [steps, seconds, cpu_seconds].
      for (const nlohmann::json& item : repetitions) {
        if (!item.is_array() || item.size() < 2 || item.size() > 3 || !item[0].is_number_integer() ||
            !item[1].is_number() || (item.size() == 3 && !item[2].is_number())) {
          throw CommandError(path() + ": run " + std::to_string(run) +
                             " has a speed repetition that is not [steps, seconds, cpu_seconds]");
        }
        row.repetitions.push_back(
            {item[0].get<std::int64_t>(), item[1].get<double>(), item.size() == 3 ? item[2].get<double>() : 0.0});
      }
    }
    rows.push_back(std::move(row));
  }
  return rows;
}

double SpeedRow::steps_per_second() const {
  if (repetitions.empty()) return seconds > 0 ? static_cast<double>(steps) / seconds : 0.0;
  return median(rates());
}

std::vector<double> SpeedRow::rates() const {
  std::vector<double> rates;
  for (const SpeedRepetition& repetition : repetitions) rates.push_back(repetition.steps_per_second());
  if (repetitions.empty() && seconds > 0) rates.push_back(static_cast<double>(steps) / seconds);
  return rates;
}

std::vector<double> SpeedRow::cpu_rates() const {
  std::vector<double> rates;
  for (const SpeedRepetition& repetition : repetitions) {
    if (repetition.cpu_seconds <= 0) return {};
    rates.push_back(repetition.steps_per_cpu_second());
  }
  return rates;
}

double SpeedRow::shortest_seconds() const {
  double shortest = repetitions.empty() ? seconds : repetitions.front().seconds;
  for (const SpeedRepetition& repetition : repetitions) shortest = std::min(shortest, repetition.seconds);
  return shortest;
}

}  // namespace weightspace::app
