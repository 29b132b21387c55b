// SPDX-License-Identifier: GPL-3.0-or-later
#include "apps/report/report_document.hpp"

#include <spdlog/spdlog.h>

#include <cmath>
#include <cstdio>
#include <map>
#include <set>
#include <stdexcept>

#include "apps/cli/files.hpp"
#include "apps/report/report_html.hpp"
#include "apps/sweep/compare.hpp"
#include "apps/sweep/speed_stats.hpp"
#include "apps/sweep/run_data.hpp"

namespace weightspace::app {

namespace {

using nlohmann::json;

json optional_text(const std::optional<std::string>& text) { return text ? json(*text) : json(nullptr); }
json optional_integer(const std::optional<std::int64_t>& number) { return number ? json(*number) : json(nullptr); }

json run_header(const RunInfo& run) {
  return {{"id", run.id},
          {"started_at", run.started_at},
          {"finished_at", optional_text(run.finished_at)},
          {"duration_seconds",
           run.finished_at ? number_or_null(seconds_between(run.started_at, *run.finished_at)) : json(nullptr)},
          {"status", run.status},
          {"version", run.version},
          {"git_revision", run.git_revision},
          {"machine", run.machine},
          {"config_path", run.config_path}};
}

json per_second(double amount, double seconds) {
  return seconds > 0 ? number_or_null(amount / seconds) : json(nullptr);
}

struct Group {
  std::int64_t records = 0;
  std::int64_t failed = 0;
  double score_sum = 0.0;
  std::int64_t scored = 0;  // records with a number (a grade of 0 episodes has NaN)
  std::int64_t steps = 0;   // played by the records (cache hits play none)
  double seconds = 0.0;     // those records' own time
};

std::string million(double steps_per_second) {
  char text[32];
  std::snprintf(text, sizeof text, "%.2f M", steps_per_second / 1e6);
  return text;
}

// "12.10 M -> 8.20 M steps/s at 1 threads, beyond the 10% tolerance, p = 4.1e-05", per CPU
// second when CPU time gates.
std::string speed_regression_text(const SpeedChange& speed, const Comparison& comparison, double speed_tolerance) {
  const bool cpu = comparison.gate == SpeedGate::CpuTime && speed.cpu;
  const SpeedJudgement& judged = speed.judged_by(comparison.gate);
  return million(judged.base.median) + " -> " + million(judged.now.median) + (cpu ? " steps per CPU second at " : " steps/s at ") +
         std::to_string(speed.threads) + " threads, beyond the " +
         std::to_string(static_cast<int>(std::lround(100 * speed_tolerance))) + "% tolerance, p = " +
         p_value_text(judged.test.p);
}

// "instructions 1234567 -> 1250000 (+1.26%, tolerance 1.0%): not a regression".
std::string instructions_verdict(const Comparison& comparison) {
  return "instructions " + instructions_detail(comparison) + ": " +
         (comparison.instructions.regression ? "regression" : "not a regression");
}

// A verdict as the report shows it: its reason, and which figure gates when it is not this one.
std::string verdict_text(const SpeedJudgement& judged, SpeedGate figure, SpeedGate gate) {
  if (figure == gate) return judged.reason;
  const char* gating = gate == SpeedGate::Instructions ? "the instruction count" : gate == SpeedGate::CpuTime ? "CPU time" : "wall time";
  return judged.reason + " (judged; " + gating + " gates)";
}

// Each thread count's median steps/s (per wall-clock and per CPU second) with its interval and
// repetitions, and the verdicts against the baseline (null without one, or when speed was not
// compared, or when a run kept no CPU time).
json speed_points(const RunRecords& current, const std::optional<Comparison>& comparison) {
  json points = json::array();
  for (const SpeedRow& row : current.speed) {
    const MedianInterval interval = median_interval(row.rates());
    const std::vector<double> cpu_rates = row.cpu_rates();
    const MedianInterval cpu = median_interval(cpu_rates);
    json point = {{"threads", row.threads},
                  {"steps_per_second", row.steps_per_second()},
                  {"interval", {number_or_null(interval.low), number_or_null(interval.high)}},
                  {"repetitions", row.rates().size()},
                  {"verdict", nullptr},
                  {"steps_per_cpu_second", cpu_rates.empty() ? json(nullptr) : number_or_null(cpu.median)},
                  {"cpu_interval", cpu_rates.empty() ? json(nullptr) : json{number_or_null(cpu.low), number_or_null(cpu.high)}},
                  {"cpu_verdict", nullptr}};
    for (const SpeedChange& change : comparison ? comparison->speed : std::vector<SpeedChange>{}) {
      if (change.threads != row.threads) continue;
      point["verdict"] = verdict_text(change.judgement, SpeedGate::WallTime, comparison->gate);
      if (change.cpu) point["cpu_verdict"] = verdict_text(*change.cpu, SpeedGate::CpuTime, comparison->gate);
    }
    points.push_back(std::move(point));
  }
  return points;
}

// How the run's speed was judged: compare's note (the machine and workload, or why not), the
// instruction count and its verdict.
json speed_judgement(const RunInfo& run, const std::optional<Comparison>& comparison) {
  json judgement = {{"note", comparison ? comparison->speed_note : std::string("no baseline to compare speed with")},
                    {"instructions", run.speed_instructions ? json(*run.speed_instructions) : json(nullptr)},
                    {"instructions_verdict", nullptr}};
  if (comparison && comparison->instructions.compared) judgement["instructions_verdict"] = instructions_verdict(*comparison);
  return judgement;
}

// `base` is the baseline's record when this one changed against it (its reward or its answer).
json record_json(const StoredRecord& record, const StoredRecord* base) {
  std::optional<std::string> error;
  if (record.error_kind) error = error_message(record);
  return {{"id", record_id(record)},
          {"input", record.input},
          {"answer_set", record.answer_set},
          {"game", record.game},
          {"source", record.source},
          {"episodes", record.episodes},
          {"normalized_score", number_or_null(record.normalized_score)},
          {"error_kind", optional_text(record.error_kind)},
          {"error_line", optional_integer(record.error_line)},
          {"error_column", optional_integer(record.error_column)},
          {"error", optional_text(error)},
          {"steps", record.steps},
          {"seconds", record.seconds},
          {"cached", record.cached},
          {"refused", record.refused},
          {"changed", base != nullptr},
          {"baseline_score", base != nullptr ? number_or_null(base->normalized_score) : json(nullptr)}};
}

}  // namespace

std::optional<std::int64_t> baseline_for(Store& store, const RunInfo& run, const Baseline& rule) {
  switch (rule.kind) {
    case Baseline::Kind::Run:
      if (store.run(rule.run)) return rule.run;
      spdlog::warn("{}: baseline run {} is not in {}; the report has no baseline", rule.place, rule.run, store.path());
      return std::nullopt;
    case Baseline::Kind::Pinned:
      if (const auto pinned = store.pinned(run.name); pinned && *pinned != run.id) return pinned;
      break;
    case Baseline::Kind::Previous:
      break;
  }
  return store.previous_finished(run.name, run.id);
}

json report_data(Store& store, std::int64_t id, std::optional<std::int64_t> baseline, int trend, double speed_tolerance) {
  const RunRecords current = load_run(store, id);
  const RunInfo& run = *current.run;
  json data = {{"title", run.name}, {"run", run_header(run)}, {"baseline", nullptr}};

  std::map<const StoredRecord*, const StoredRecord*> changed;  // a changed record -> its baseline record
  json edited = json::array();
  json regressions = json::array();
  std::optional<Comparison> comparison;
  std::optional<RunRecords> base;
  if (baseline) {
    base = load_run(store, *baseline);
    data["baseline"] = {{"id", base->run->id}, {"started_at", base->run->started_at}, {"version", base->run->version}};
    comparison = compare_runs(*base, current, speed_tolerance);
    for (const RecordChange& change : comparison->regressions) {
      const StoredRecord& record = change.now != nullptr ? *change.now : *change.base;
      regressions.push_back({{"kind", change.kind},
                             {"id", record_id(record)},
                             {"game", record.game},
                             {"source", record.source},
                             {"episodes", record.episodes},
                             {"detail", change.detail}});
      if (change.now != nullptr) changed.emplace(change.now, change.base);
    }
    // Listed apart, as compare lists them: not regressions, the answer itself differs.
    for (const RecordChange& change : comparison->answer_changes) {
      changed.emplace(change.now, change.base);
      edited.push_back({{"id", record_id(*change.now)},
                        {"game", change.now->game},
                        {"source", change.now->source},
                        {"episodes", change.now->episodes},
                        {"baseline_score", number_or_null(change.base->normalized_score)},
                        {"score", number_or_null(change.now->normalized_score)},
                        {"detail", change.detail}});
    }
    for (const SpeedChange& speed : comparison->speed) {
      if (!speed.regression) continue;
      regressions.push_back({{"kind", "speed"},
                             {"id", "threads " + std::to_string(speed.threads)},
                             {"game", nullptr},
                             {"source", nullptr},
                             {"episodes", nullptr},
                             {"detail", speed_regression_text(speed, *comparison, speed_tolerance)}});
    }
    if (comparison->instructions.regression) {
      regressions.push_back({{"kind", "speed"},
                             {"id", "instructions"},
                             {"game", nullptr},
                             {"source", nullptr},
                             {"episodes", nullptr},
                             {"detail", instructions_verdict(*comparison)}});
    }
  }
  data["regressions"] = regressions;
  data["answers_edited"] = edited;
  data["totals"] = {{"records", run.records},
                    {"failed", run.failed},
                    {"cached", run.cached},
                    {"steps", run.grade_steps},
                    {"seconds", run.grade_seconds},
                    {"records_per_second", per_second(static_cast<double>(run.records), run.grade_seconds)}};

  std::map<std::tuple<std::string, std::string, std::int64_t>, Group> groups;
  std::map<std::pair<std::string, std::string>, json> distributions;
  json records = json::array();
  for (const StoredRecord& record : current.records) {
    Group& group = groups[{record.game, record.source, record.episodes}];
    ++group.records;
    group.failed += record.error_kind ? 1 : 0;
    if (std::isfinite(record.normalized_score)) {
      group.score_sum += record.normalized_score;
      ++group.scored;
    }
    if (!record.cached) {
      group.steps += record.steps;
      group.seconds += record.seconds;
    }
    json& scores = distributions[{record.game, record.source}];
    if (scores.is_null()) scores = json::array();
    if (std::isfinite(record.normalized_score)) scores.push_back(record.normalized_score);
    const auto base_record = changed.find(&record);
    records.push_back(record_json(record, base_record == changed.end() ? nullptr : base_record->second));
  }
  json group_rows = json::array();
  for (const auto& [key, group] : groups) {
    const auto& [game, source, episodes] = key;
    json row = {{"game", game},
                {"source", source},
                {"episodes", episodes},
                {"records", group.records},
                {"failed", group.failed},
                {"mean_score", group.scored > 0 ? number_or_null(group.score_sum / static_cast<double>(group.scored))
                                                : json(nullptr)},
                {"baseline_mean_score", nullptr},
                {"steps_per_second", per_second(static_cast<double>(group.steps), group.seconds)}};
    for (const GroupChange& change : comparison ? comparison->groups : std::vector<GroupChange>{}) {
      if (change.game == game && change.source == source && change.episodes == episodes) {
        row["baseline_mean_score"] = number_or_null(change.base_mean);
      }
    }
    group_rows.push_back(row);
  }
  data["groups"] = group_rows;
  json distribution_rows = json::array();
  for (auto& [key, scores] : distributions) {
    distribution_rows.push_back({{"game", key.first}, {"source", key.second}, {"scores", scores}});
  }
  data["distributions"] = distribution_rows;

  // The last `trend` finished runs of this name up to this one (this one even if unfinished).
  std::vector<RunInfo> history;
  for (RunInfo& other : store.runs(run.name)) {
    if (static_cast<int>(history.size()) == trend) break;
    if (other.id == run.id || (other.id < run.id && other.status == "finished")) history.push_back(std::move(other));
  }
  json trend_rows = json::array();
  for (auto it = history.rbegin(); it != history.rend(); ++it) {
    json means = json::object();
    for (const auto& [key, mean] : store.mean_scores(it->id)) means[key] = number_or_null(mean);
    trend_rows.push_back({{"run_id", it->id},
                          {"started_at", it->started_at},
                          {"mean_scores", means},
                          {"steps_per_second", per_second(static_cast<double>(it->grade_steps), it->grade_seconds)},
                          // The grading's thread count (all cores: the machine's), which the
                          // throughput depends on.
                          {"threads", it->threads > 0 ? json(it->threads)
                                      : it->machine.cores > 0 ? json(it->machine.cores) : json(nullptr)}});
  }
  data["trend"] = trend_rows;
  data["speed"] = speed_points(current, comparison);
  data["speed_judgement"] = speed_judgement(run, comparison);
  data["records"] = records;
  return data;
}

void write_report(Store& store, std::int64_t run, std::optional<std::int64_t> baseline, int trend,
                  const std::string& path, const std::string& data_path) {
  const json data = report_data(store, run, baseline, trend);
  std::string html;
  try {
    html = render_report_html(data);
  } catch (const std::invalid_argument& error) {
    throw std::logic_error(std::string("the report data does not fit the renderer: ") + error.what());
  }
  if (!data_path.empty()) write_file(data_path, data.dump(1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n");
  write_file(path, html);
}

}  // namespace weightspace::app
