// SPDX-License-Identifier: GPL-3.0-or-later
// What `weightspace compare` prints: a table for people, JSON for machines.
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "apps/sweep/compare.hpp"

namespace weightspace::app {

namespace {

// Informational lists in the table stop here (--json has them all).
constexpr std::size_t kListed = 20;

// Columns padded to their widest cell, two spaces apart.
class Table {
 public:
  explicit Table(std::vector<std::string> header) { rows_.push_back(std::move(header)); }
  void add(std::vector<std::string> row) { rows_.push_back(std::move(row)); }
  std::string text() const {
    std::vector<std::size_t> widths;
    for (const auto& row : rows_) {
      widths.resize(std::max(widths.size(), row.size()));
      for (std::size_t i = 0; i < row.size(); ++i) widths[i] = std::max(widths[i], row[i].size());
    }
    std::string out;
    for (const auto& row : rows_) {
      std::string line = " ";
      for (std::size_t i = 0; i < row.size(); ++i) {
        line += " " + row[i];
        if (i + 1 < row.size()) line += std::string(widths[i] - row[i].size() + 1, ' ');
      }
      out += line + "\n";
    }
    return out;
  }

 private:
  std::vector<std::vector<std::string>> rows_;
};

std::string fixed(double value, int digits) {
  if (std::isnan(value)) return "-";
  char text[64];
  std::snprintf(text, sizeof text, "%.*f", digits, value);
  return text;
}

std::string signed_fixed(double value, int digits, const char* unit = "") {
  if (std::isnan(value)) return "-";
  char text[64];
  std::snprintf(text, sizeof text, "%+.*f%s", digits, value, unit);
  return text;
}

// A median with its interval, e.g. "12.31 [12.02, 12.60]".
std::string millions_with_interval(const MedianInterval& side) {
  return fixed(side.median / 1e6, 2) + " [" + fixed(side.low / 1e6, 2) + ", " + fixed(side.high / 1e6, 2) + "]";
}


std::string side_line(const char* which, const RunRecords& side) {
  std::string line = std::string(which) + side.label;
  if (side.run) {
    const RunInfo& run = *side.run;
    line += " \"" + run.name + "\", " + run.started_at + ", weightspace " + run.version + " (" + run.git_revision + ")";
    if (run.status != "finished") line += ", " + run.status;
  }
  return line + ", " + std::to_string(side.records.size()) + " records\n";
}

const StoredRecord& record_of(const RecordChange& change) { return change.now != nullptr ? *change.now : *change.base; }

void add_record_rows(Table& table, const std::vector<RecordChange>& changes, std::size_t limit) {
  for (std::size_t i = 0; i < changes.size() && i < limit; ++i) {
    const StoredRecord& record = record_of(changes[i]);
    table.add({changes[i].kind, record_id(record), record.game, record.source, std::to_string(record.episodes),
               changes[i].detail});
  }
}

std::string listed(const std::string& title, const std::vector<RecordChange>& changes) {
  if (changes.empty()) return "";
  Table table({"kind", "id", "game", "source", "episodes", "detail"});
  add_record_rows(table, changes, kListed);
  std::string text = "\n" + title + "\n" + table.text();
  if (changes.size() > kListed) text += "  ... and " + std::to_string(changes.size() - kListed) + " more (--json lists all)\n";
  return text;
}

nlohmann::json record_change_json(const RecordChange& change) {
  const StoredRecord& record = record_of(change);
  nlohmann::json json = {{"kind", change.kind},         {"id", record_id(record)},  {"input", record.input},
                         {"game", record.game},         {"source", record.source}, {"episodes", record.episodes},
                         {"detail", change.detail}};
  json["base_reward"] = change.base != nullptr ? nlohmann::json(change.base->reward) : nlohmann::json(nullptr);
  json["new_reward"] = change.now != nullptr ? nlohmann::json(change.now->reward) : nlohmann::json(nullptr);
  return json;
}

nlohmann::json interval_json(double low, double high) { return {number_or_null(low), number_or_null(high)}; }

// One judgement's figures: the medians' intervals and coverage, the change and its interval,
// the test and the verdict (the medians themselves are the caller's keys).
nlohmann::json judgement_json(const SpeedJudgement& judged) {
  return {{"base_interval", interval_json(judged.base.low, judged.base.high)},
          {"new_interval", interval_json(judged.now.low, judged.now.high)},
          {"base_confidence", number_or_null(judged.base.confidence)},
          {"new_confidence", number_or_null(judged.now.confidence)},
          {"change", number_or_null(judged.change)},
          {"change_interval", interval_json(judged.change_low, judged.change_high)},
          {"mann_whitney_u", number_or_null(judged.test.u)},
          {"p_value", number_or_null(judged.test.p)},
          {"exact", judged.test.exact},
          {"verdict", verdict_name(judged.verdict)},
          {"reason", judged.reason}};
}

// A thread count's statistics: medians with their intervals, the change, the test, the verdict;
// "cpu" the same for steps per CPU second (null when a run did not keep CPU time).
nlohmann::json speed_change_json(const SpeedChange& change) {
  const SpeedJudgement& judged = change.judgement;
  nlohmann::json cpu = nullptr;
  if (change.cpu) {
    cpu = judgement_json(*change.cpu);
    cpu["base_steps_per_cpu_second"] = number_or_null(change.cpu->base.median);
    cpu["new_steps_per_cpu_second"] = number_or_null(change.cpu->now.median);
  }
  nlohmann::json json = judgement_json(judged);
  json.update({{"threads", change.threads},
               {"base_steps_per_second", number_or_null(change.base_steps_per_second)},
               {"new_steps_per_second", number_or_null(change.new_steps_per_second)},
               {"base_repetitions", change.base_repetitions},
               {"new_repetitions", change.new_repetitions},
               {"change", number_or_null(change.change)},
               {"cpu", cpu},
               {"regression", change.regression}});
  return json;
}

// "12.31 -> 8.20 M steps/s (-33.4%, tolerance 10.0%, p = 4.1e-05)", per CPU second when CPU
// time gates.
std::string speed_regression_detail(const SpeedChange& change, const Comparison& comparison) {
  const SpeedJudgement& judged = change.judged_by(comparison.gate);
  const char* unit = comparison.gate == SpeedGate::CpuTime ? " M steps per CPU second (" : " M steps/s (";
  return fixed(judged.base.median / 1e6, 2) + " -> " + fixed(judged.now.median / 1e6, 2) + unit +
         signed_fixed(100 * judged.change, 1, "%") + ", tolerance " + fixed(100 * comparison.speed_tolerance, 1) +
         "%, p = " + p_value_text(judged.test.p) + ")";
}

// One row per thread count of a judgement (wall or CPU time).
std::string speed_table(const Comparison& comparison, bool cpu) {
  Table table({"threads", cpu ? "base M steps/CPU s" : "base M steps/s", cpu ? "new M steps/CPU s" : "new M steps/s",
               "change", "repetitions", "p", "verdict"});
  const SpeedGate gate = cpu ? SpeedGate::CpuTime : SpeedGate::WallTime;
  for (const SpeedChange& change : comparison.speed) {
    if (cpu && !change.cpu) continue;
    const SpeedJudgement& judged = cpu ? *change.cpu : change.judgement;
    const bool flagged = change.regression && comparison.gate == gate;
    table.add({std::to_string(change.threads), millions_with_interval(judged.base), millions_with_interval(judged.now),
               signed_fixed(100 * judged.change, 1, "%") + " [" + signed_fixed(100 * judged.change_low, 1, "%") + ", " +
                   signed_fixed(100 * judged.change_high, 1, "%") + "]",
               std::to_string(change.base_repetitions) + " / " + std::to_string(change.new_repetitions),
               p_value_text(judged.test.p), judged.reason + (flagged ? "  REGRESSION" : "")});
  }
  return table.text();
}

// Which figure gates, said under the tables.
std::string gate_line(const Comparison& comparison) {
  switch (comparison.gate) {
    case SpeedGate::Instructions:
      return "instructions (callgrind, the speed gate; the times above are judged, not gated): " +
             instructions_detail(comparison) + (comparison.instructions.regression ? "  REGRESSION" : "") + "\n";
    case SpeedGate::CpuTime:
      return "the speed gate: CPU time (no instruction count in both runs; wall time is judged, not gated)\n";
    case SpeedGate::WallTime:
      break;
  }
  return "the speed gate: wall time (neither an instruction count nor CPU time in both runs)\n";
}

nlohmann::json side_json(const RunRecords& side) {
  return {{"label", side.label},
          {"run", side.run ? run_json(*side.run) : nlohmann::json(nullptr)},
          {"records", side.records.size()}};
}

}  // namespace

nlohmann::json run_json(const RunInfo& run) {
  return {{"id", run.id},
          {"name", run.name},
          {"status", run.status},
          {"error", run.error ? nlohmann::json(*run.error) : nlohmann::json(nullptr)},
          {"started_at", run.started_at},
          {"finished_at", run.finished_at ? nlohmann::json(*run.finished_at) : nlohmann::json(nullptr)},
          {"version", run.version},
          {"git_revision", run.git_revision},
          {"machine", run.machine},
          {"config_path", run.config_path},
          {"threads", run.threads},
          {"records", run.records},
          {"failed", run.failed},
          {"cached", run.cached},
          {"grade_seconds", run.grade_seconds},
          {"grade_steps", run.grade_steps},
          {"pinned", run.pinned}};
}

std::string comparison_table(const RunRecords& base, const RunRecords& now, const Comparison& comparison) {
  std::string out = side_line("BASE ", base) + side_line("NEW  ", now);
  const std::size_t regressions = comparison.regressions.size() + comparison.speed_regressions();
  if (regressions > 0) {
    Table table({"kind", "id", "game", "source", "episodes", "detail"});
    add_record_rows(table, comparison.regressions, comparison.regressions.size());
    for (const SpeedChange& change : comparison.speed) {
      if (!change.regression) continue;
      table.add({"speed", "threads " + std::to_string(change.threads), "", "", "",
                 speed_regression_detail(change, comparison)});
    }
    if (comparison.instructions.regression) {
      table.add({"speed", "instructions", "", "", "", instructions_detail(comparison)});
    }
    out += "\nREGRESSIONS (" + std::to_string(regressions) + ")\n" + table.text();
  }
  out += listed("answers changed (" + std::to_string(comparison.answer_changes.size()) +
                    "; not regressions: the answer text or its weights differ)",
                comparison.answer_changes);
  out += listed("records added (" + std::to_string(comparison.added.size()) + "; not regressions)", comparison.added);

  Table groups({"game", "source", "episodes", "records", "failed", "base mean", "new mean", "change"});
  for (const GroupChange& group : comparison.groups) {
    groups.add({group.game, group.source, std::to_string(group.episodes),
                std::to_string(group.base_records) + " -> " + std::to_string(group.new_records),
                std::to_string(group.base_failed) + " -> " + std::to_string(group.new_failed), fixed(group.base_mean, 6),
                fixed(group.new_mean, 6), signed_fixed(group.new_mean - group.base_mean, 6)});
  }
  out += "\nmean normalised score per game, source and episodes\n" + groups.text();

  out += "\n" + comparison.speed_note + "\n";
  if (comparison.speed_compared) {
    out += "wall time\n" + speed_table(comparison, false);
    const bool any_cpu = std::any_of(comparison.speed.begin(), comparison.speed.end(),
                                     [](const SpeedChange& change) { return change.cpu.has_value(); });
    if (any_cpu) out += "CPU time (the process's, all threads)\n" + speed_table(comparison, true);
    out += gate_line(comparison);
  }
  out += "\nresult: ";
  out += regressions > 0 ? std::to_string(regressions) + (regressions == 1 ? " regression" : " regressions")
                         : "no regression";
  out += " (" + std::to_string(comparison.unchanged) + " records unchanged)\n";
  return out;
}

nlohmann::json comparison_json(const RunRecords& base, const RunRecords& now, const Comparison& comparison) {
  nlohmann::json regressions = nlohmann::json::array();
  for (const RecordChange& change : comparison.regressions) regressions.push_back(record_change_json(change));
  nlohmann::json speed = nlohmann::json::array();
  for (const SpeedChange& change : comparison.speed) {
    speed.push_back(speed_change_json(change));
    if (change.regression) {
      const SpeedJudgement& judged = change.judged_by(comparison.gate);
      const char* unit = comparison.gate == SpeedGate::CpuTime ? "steps per CPU second " : "steps/s ";
      regressions.push_back({{"kind", "speed"}, {"threads", change.threads}, {"change", judged.change},
                             {"detail", unit + signed_fixed(100 * judged.change, 1, "%") + " at " +
                                            std::to_string(change.threads) + " threads"}});
    }
  }
  const InstructionChange& instructions = comparison.instructions;
  if (instructions.regression) {
    regressions.push_back({{"kind", "speed"}, {"threads", nullptr}, {"change", instructions.change},
                           {"detail", "instructions " + instructions_detail(comparison)}});
  }
  auto list = [](const std::vector<RecordChange>& changes) {
    nlohmann::json json = nlohmann::json::array();
    for (const RecordChange& change : changes) json.push_back(record_change_json(change));
    return json;
  };
  nlohmann::json groups = nlohmann::json::array();
  for (const GroupChange& group : comparison.groups) {
    groups.push_back({{"game", group.game},
                      {"source", group.source},
                      {"episodes", group.episodes},
                      {"base_records", group.base_records},
                      {"new_records", group.new_records},
                      {"base_failed", group.base_failed},
                      {"new_failed", group.new_failed},
                      {"base_mean_score", number_or_null(group.base_mean)},
                      {"new_mean_score", number_or_null(group.new_mean)}});
  }
  return {{"base", side_json(base)},
          {"new", side_json(now)},
          {"regression", comparison.regression()},
          {"regressions", regressions},
          {"answer_changes", list(comparison.answer_changes)},
          {"added", list(comparison.added)},
          {"unchanged", comparison.unchanged},
          {"groups", groups},
          {"speed",
           {{"compared", comparison.speed_compared},
            {"note", comparison.speed_note},
            {"tolerance", comparison.speed_tolerance},
            {"gate", speed_gate_name(comparison.gate)},
            {"instructions",
             instructions.compared
                 ? nlohmann::json{{"base", instructions.base},
                                  {"new", instructions.now},
                                  {"change", instructions.change},
                                  {"tolerance", comparison.instruction_tolerance},
                                  {"regression", instructions.regression}}
                 : nlohmann::json(nullptr)},
            {"threads", speed}}}};
}

std::string p_value_text(double p) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3g", p);
  return text;
}

std::string instructions_detail(const Comparison& comparison) {
  const InstructionChange& change = comparison.instructions;
  char text[160];
  std::snprintf(text, sizeof text, "%lld -> %lld (%+.2f%%, tolerance %.1f%%)", static_cast<long long>(change.base),
                static_cast<long long>(change.now), 100.0 * change.change, 100.0 * comparison.instruction_tolerance);
  return text;
}

}  // namespace weightspace::app
