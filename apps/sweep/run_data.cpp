// SPDX-License-Identifier: GPL-3.0-or-later
#include "apps/sweep/run_data.hpp"

#include <fstream>

#include "apps/batch/batch_output.hpp"
#include "apps/cli/suggest.hpp"
#include "engine/python_json.hpp"

namespace weightspace::app {

namespace {

std::string json_or_null(const std::optional<std::int64_t>& number) { return number ? std::to_string(*number) : "null"; }

bool all_digits(const std::string& text) {
  return !text.empty() && text.size() < 19 && text.find_first_not_of("0123456789") == std::string::npos;
}

}  // namespace

BatchResult to_batch_result(const StoredRecord& record) {
  // The batch line this record would be: parse_batch_line then checks that the reward text is
  // exactly what this weightspace writes, so a stored text is never silently reinterpreted.
  const std::string line = "{\"id\": " + record.id_json + ", \"input\": " + python_json_string(record.input) +
                           ", \"game\": " + python_json_string(record.game) + ", \"source\": " +
                           python_json_string(record.source) + ", \"episodes\": " + std::to_string(record.episodes) +
                           ", \"reward\": " + record.reward + ", \"weights_sha256\": " +
                           python_json_string_or_null(record.weights_sha256) + ", \"error_kind\": " + python_json_string_or_null(record.error_kind) +
                           ", \"error_line\": " + json_or_null(record.error_line) + ", \"error_column\": " +
                           json_or_null(record.error_column) + (record.refused ? ", \"refused\": true" : "") +
                           ", \"cached\": " + (record.cached ? "true" : "false") + "}";
  bool timings = false;
  try {
    BatchResult result = parse_batch_line(line, timings, nullptr);
    result.sequence = static_cast<std::uint64_t>(record.seq);
    result.steps = record.steps;
    result.seconds = record.seconds;
    return result;
  } catch (const EditError& error) {
    throw CommandError("stored record " + std::to_string(record.seq) + " (" + record.input + " on " + record.game +
                       ") is not a weightspace record: " + error.what());
  }
}

std::optional<Reward> parse_reward(const StoredRecord& record) {
  try {
    return to_batch_result(record).reward;
  } catch (const CommandError&) {
    return std::nullopt;
  }
}

std::string error_message(const StoredRecord& record) {
  const std::optional<Reward> reward = parse_reward(record);
  return reward && reward->error ? reward->error->message : record.reward;
}

StoredRecord to_stored(const BatchResult& result, std::int64_t seq, const std::string& answer_set,
                       std::optional<std::string> input_sha256) {
  StoredRecord stored;
  stored.seq = seq;
  stored.answer_set = answer_set;
  stored.id_json = result.record.id;
  stored.input = result.record.input;
  stored.game = result.record.request.game;
  stored.source = result.record.request.source;
  stored.episodes = result.record.request.episodes;
  stored.weights_sha256 = result.weights_sha256;
  stored.input_sha256 = std::move(input_sha256);
  stored.reward = reward_json(result.reward);
  stored.normalized_score = result.reward.normalized_score;
  if (!result.reward.parse_success && result.reward.error) {
    const PythonError& error = *result.reward.error;
    stored.error_kind = error.kind;
    // As the batch line writes it: no place is null, never 0.
    if (error.has_place()) {
      stored.error_line = error.line;
      stored.error_column = error.column;
    }
  }
  stored.cached = result.cached;
  stored.refused = result.refused;
  stored.steps = result.steps;
  stored.seconds = result.seconds;
  return stored;
}

RunRecords read_batch_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw UsageError("cannot read batch file " + path);
  RunRecords side;
  side.label = path;
  std::string line;
  std::int64_t number = 0;
  while (std::getline(in, line)) {
    ++number;
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    bool timings = false;
    std::string version;
    BatchResult result;
    try {
      result = parse_batch_line(line, timings, &version);
    } catch (const EditError& error) {
      throw UsageError(path + ":" + std::to_string(number) + ": not a weightspace batch record: " + error.what());
    }
    side.records.push_back(to_stored(result, static_cast<std::int64_t>(side.records.size()), "", std::nullopt));
  }
  if (in.bad()) throw UsageError("cannot read batch file " + path);
  return side;
}

bool is_batch_file(const std::string& operand) {
  return operand.ends_with(".jsonl") || operand.find('/') != std::string::npos;
}

std::int64_t resolve_run(Store& store, const std::string& operand, const std::string& name,
                         std::optional<std::int64_t> reference) {
  const std::string of = name.empty() ? std::string() : " of \"" + name + "\"";
  if (all_digits(operand)) {
    const std::int64_t id = std::stoll(operand);
    if (!store.run(id)) throw UsageError("no run " + operand + " in " + store.path());
    return id;
  }
  if (operand == "latest") {
    const auto latest = store.latest_finished(name.empty() ? std::nullopt : std::optional(name));
    if (!latest) throw UsageError("no finished run" + of + " in " + store.path());
    return *latest;
  }
  if (operand == "previous") {
    if (!reference) reference = resolve_run(store, "latest", name, std::nullopt);
    const auto previous = store.previous_finished(name, *reference);
    if (!previous) throw UsageError("no finished run" + of + " before run " + std::to_string(*reference) + " in " + store.path());
    return *previous;
  }
  if (operand == "baseline") {
    const auto pinned = store.pinned(name);
    if (!pinned) {
      throw UsageError("no run" + of + " is pinned as the baseline in " + store.path() +
                       " (pin one: weightspace runs --pin ID)");
    }
    return *pinned;
  }
  throw UsageError("'" + operand + "' is not a run" + did_you_mean(operand, {"latest", "previous", "baseline"}) +
                   ": give a run id, latest, previous, baseline or a batch *.jsonl file");
}

RunRecords load_run(Store& store, std::int64_t id) {
  RunRecords side;
  side.run = store.run(id);
  if (!side.run) throw UsageError("no run " + std::to_string(id) + " in " + store.path());
  side.label = "run " + std::to_string(id);
  side.records = store.records(id);
  side.speed = store.speed(id);
  return side;
}

}  // namespace weightspace::app
