// SPDX-License-Identifier: GPL-3.0-or-later
// Matching two runs' records and judging the differences. The outputs: compare_output.cpp.
#include "apps/sweep/compare.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

#include "apps/batch/batch_output.hpp"
#include "apps/sweep/speed_workload.hpp"
#include "engine/python_json.hpp"

namespace weightspace::app {

namespace {

using Key = std::tuple<std::string, std::string, std::string, std::string, std::int64_t>;

Key key_of(const StoredRecord& record) {
  return {record.id_json, record.input, record.game, record.source, record.episodes};
}

// The reward members that differ, as "name old -> new", at most three.
std::string reward_detail(const StoredRecord& before, const StoredRecord& after) {
  const std::optional<Reward> old_reward = parse_reward(before);
  const std::optional<Reward> new_reward = parse_reward(after);
  if (!old_reward || !new_reward) return "the reward text differs";
  const Reward& a = *old_reward;
  const Reward& b = *new_reward;
  std::vector<std::string> parts;
  auto compare = [&](const char* name, const std::string& x, const std::string& y) {
    if (x != y) parts.push_back(std::string(name) + " " + x + " -> " + y);
  };
  auto shorten = [](const std::string& text) { return text.size() > 80 ? text.substr(0, 77) + "..." : text; };
  compare("normalized_score", python_float_repr(a.normalized_score), python_float_repr(b.normalized_score));
  compare("parse_success", a.parse_success ? "1.0" : "0.0", b.parse_success ? "1.0" : "0.0");
  if (a.parse_success && b.parse_success) {
    compare("raw_score", python_float_repr(a.raw_score), python_float_repr(b.raw_score));
    compare("mean_episode_length", python_float_repr(a.mean_episode_length), python_float_repr(b.mean_episode_length));
    compare("score_cap", python_float_repr(a.score_cap), python_float_repr(b.score_cap));
    compare("edit_count", std::to_string(a.edit_count), std::to_string(b.edit_count));
    compare("nonzero_weights", std::to_string(a.nonzero_weights), std::to_string(b.nonzero_weights));
  } else {
    const auto message = [](const Reward& reward) { return reward.error ? reward.error->message : std::string(); };
    compare("error", python_json_string(shorten(message(a))), python_json_string(shorten(message(b))));
  }
  if (parts.empty()) return "the reward text differs";
  if (parts.size() > 3) parts.resize(3);
  std::string detail;
  for (const std::string& part : parts) detail += (detail.empty() ? "" : "; ") + part;
  return detail;
}

// Whether two records hold the same answer: by the SHA-256 of the answer text when both sides
// have it; otherwise assumed, unless both parsed to different weights (an edited answer).
bool same_answer(const StoredRecord& a, const StoredRecord& b) {
  if (a.input_sha256 && b.input_sha256) return *a.input_sha256 == *b.input_sha256;
  return !(a.weights_sha256 && b.weights_sha256 && *a.weights_sha256 != *b.weights_sha256);
}

struct Tally {
  std::int64_t records = 0;
  std::int64_t failed = 0;
  double sum = 0.0;
  std::int64_t scored = 0;  // records with a number (a grade of 0 episodes has NaN)
  double mean() const { return scored > 0 ? sum / static_cast<double>(scored) : std::nan(""); }
};

void tally(std::map<std::tuple<std::string, std::string, std::int64_t>, std::pair<Tally, Tally>>& groups,
           const std::vector<StoredRecord>& records, bool base) {
  for (const StoredRecord& record : records) {
    auto& pair = groups[{record.game, record.source, record.episodes}];
    Tally& side = base ? pair.first : pair.second;
    ++side.records;
    side.failed += record.error_kind ? 1 : 0;
    if (!std::isnan(record.normalized_score)) {
      side.sum += record.normalized_score;
      ++side.scored;
    }
  }
}

void compare_speed(const RunRecords& base, const RunRecords& now, Comparison& comparison) {
  const RunRecords* missing_run = !base.run ? &base : !now.run ? &now : nullptr;
  if (missing_run != nullptr) {
    comparison.speed_note = "speed not compared: " + missing_run->label + " is a batch file, with no machine or speed record";
    return;
  }
  const Machine& a = base.run->machine;
  const Machine& b = now.run->machine;
  if (!a.same_as(b)) {
    comparison.speed_note = "speed not compared: runs are from different machines (" + base.label + ": " + a.describe() +
                            "; " + now.label + ": " + b.describe() + ")";
    return;
  }
  const std::optional<std::string>& a_workload = base.run->speed_workload;
  const std::optional<std::string>& b_workload = now.run->speed_workload;
  if (!base.speed.empty() && !now.speed.empty() && a_workload != b_workload) {
    auto label = [](const RunRecords& side) {
      return side.label + ": " + (side.run->speed_workload ? workload_label(*side.run->speed_workload)
                                                           : std::string("none recorded (timed before schema 4)"));
    };
    comparison.speed_note = "speed not judged: the runs timed different workloads (" + label(base) + "; " + label(now) + ")";
    return;
  }
  for (const SpeedRow& before : base.speed) {
    for (const SpeedRow& after : now.speed) {
      if (after.threads != before.threads || before.steps_per_second() <= 0) continue;
      SpeedChange change;
      change.threads = before.threads;
      change.base_steps_per_second = before.steps_per_second();
      change.new_steps_per_second = after.steps_per_second();
      change.change = change.new_steps_per_second / change.base_steps_per_second - 1.0;
      change.base_repetitions = before.rates().size();
      change.new_repetitions = after.rates().size();
      change.judgement = judge_speed(before.rates(), before.shortest_seconds(), after.rates(), after.shortest_seconds(),
                                     comparison.speed_tolerance);
      if (!before.cpu_rates().empty() && !after.cpu_rates().empty()) {
        // The duration rule stays the wall time's: a repetition is long enough or not as it ran.
        change.cpu = judge_speed(before.cpu_rates(), before.shortest_seconds(), after.cpu_rates(),
                                 after.shortest_seconds(), comparison.speed_tolerance);
      }
      comparison.speed.push_back(change);
    }
  }
  InstructionChange& instructions = comparison.instructions;
  if (base.run->speed_instructions && now.run->speed_instructions && *base.run->speed_instructions > 0) {
    instructions.compared = true;
    instructions.base = *base.run->speed_instructions;
    instructions.now = *now.run->speed_instructions;
    instructions.change = static_cast<double>(instructions.now) / static_cast<double>(instructions.base) - 1.0;
    instructions.regression = instructions.change > comparison.instruction_tolerance;
  }
  const bool cpu_everywhere = !comparison.speed.empty() &&
                              std::all_of(comparison.speed.begin(), comparison.speed.end(),
                                          [](const SpeedChange& change) { return change.cpu.has_value(); });
  comparison.gate = instructions.compared ? SpeedGate::Instructions
                    : cpu_everywhere      ? SpeedGate::CpuTime
                                          : SpeedGate::WallTime;
  for (SpeedChange& change : comparison.speed) {
    change.regression = comparison.gate != SpeedGate::Instructions &&
                        change.judged_by(comparison.gate).verdict == SpeedJudgement::Verdict::Regression;
  }
  if (comparison.speed.empty()) {
    comparison.speed_note = "speed not compared: the runs have no thread count measured in both ([speed] in the config)";
    return;
  }
  comparison.speed_compared = true;
  comparison.speed_note = "speed compared on one machine: " + a.describe() + "; workload " +
                          (a_workload ? workload_label(*a_workload) : std::string("not recorded (timed before schema 4)"));
}

}  // namespace

const char* speed_gate_name(SpeedGate gate) {
  switch (gate) {
    case SpeedGate::Instructions:
      return "instructions";
    case SpeedGate::CpuTime:
      return "cpu_time";
    case SpeedGate::WallTime:
      return "wall_time";
  }
  return "wall_time";
}

std::size_t Comparison::speed_regressions() const {
  std::size_t count = 0;
  for (const SpeedChange& change : speed) count += change.regression ? 1 : 0;
  return count + (instructions.regression ? 1 : 0);
}

Comparison compare_runs(const RunRecords& base, const RunRecords& now, double speed_tolerance,
                        double instruction_tolerance) {
  Comparison comparison;
  comparison.speed_tolerance = speed_tolerance;
  comparison.instruction_tolerance = instruction_tolerance;
  std::map<Key, std::vector<const StoredRecord*>> by_key;
  for (const StoredRecord& record : now.records) by_key[key_of(record)].push_back(&record);
  std::map<Key, std::size_t> taken;
  for (const StoredRecord& record : base.records) {
    const Key key = key_of(record);
    const std::size_t index = taken[key]++;
    const auto found = by_key.find(key);
    if (found == by_key.end() || index >= found->second.size()) {
      comparison.regressions.push_back({"removed", &record, nullptr, "in " + base.label + ", not in " + now.label});
      continue;
    }
    const StoredRecord& after = *found->second[index];
    if (record.reward == after.reward) {
      ++comparison.unchanged;
    } else if (after.refused && !record.refused) {
      // Past NEW's machine's limits: the suite lost a grade, but no reward was computed
      // differently, so it is not called an exactness change.
      comparison.regressions.push_back({"refused", &record, &after, "not graded in " + now.label + ": " + error_message(after)});
    } else if (record.refused) {
      comparison.answer_changes.push_back({"refused_in_base", &record, &after,
                                           "not graded in " + base.label + ": " + error_message(record)});
    } else if (same_answer(record, after)) {
      comparison.regressions.push_back({"reward_changed", &record, &after, reward_detail(record, after)});
    } else {
      comparison.answer_changes.push_back({"answer_changed", &record, &after, reward_detail(record, after)});
    }
  }
  std::map<Key, std::size_t> seen;
  for (const StoredRecord& record : now.records) {
    const Key key = key_of(record);
    if (seen[key]++ >= taken[key]) comparison.added.push_back({"added", nullptr, &record, "only in " + now.label});
  }
  std::map<std::tuple<std::string, std::string, std::int64_t>, std::pair<Tally, Tally>> groups;
  tally(groups, base.records, true);
  tally(groups, now.records, false);
  for (const auto& [key, pair] : groups) {
    const auto& [game, source, episodes] = key;
    comparison.groups.push_back({game, source, episodes, pair.first.records, pair.second.records, pair.first.failed,
                                 pair.second.failed, pair.first.mean(), pair.second.mean()});
  }
  compare_speed(base, now, comparison);
  return comparison;
}

std::string record_id(const StoredRecord& record) { return id_text(record.id_json); }

nlohmann::json number_or_null(double value) {
  return std::isfinite(value) ? nlohmann::json(value) : nlohmann::json(nullptr);
}

}  // namespace weightspace::app
