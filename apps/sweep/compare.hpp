// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "apps/sweep/run_data.hpp"
#include "apps/sweep/speed_stats.hpp"

namespace weightspace::app {

// The default gate on the instruction count: 1% more is a regression.
inline constexpr double kInstructionTolerance = 0.01;

// A record of one side that differs from the other. Records are matched by the batch key
// (id, input, game, source, episodes; the n-th of equal keys with the n-th).
struct RecordChange {
  // reward_changed: the same answer (same input SHA-256; when either side has none, not two
  //   different weights) got a different reward text: an exactness regression.
  // answer_changed: the answer itself changed (other weights or other input text): informational.
  // removed: in BASE, not in NEW (a regression: the suite lost a record). added: only in NEW.
  // refused: graded in BASE, refused in NEW for a limit of its machine (a regression: the
  //   suite lost a grade, though not an exactness change). refused_in_base: refused in BASE,
  //   graded (or refused otherwise) in NEW: informational.
  std::string kind;
  const StoredRecord* base = nullptr;
  const StoredRecord* now = nullptr;
  std::string detail;  // e.g. "normalized_score 0.12 -> 0.1"
};

struct GroupChange {
  std::string game;
  std::string source;
  std::int64_t episodes = 0;
  std::int64_t base_records = 0;
  std::int64_t new_records = 0;
  std::int64_t base_failed = 0;
  std::int64_t new_failed = 0;
  double base_mean = 0.0;  // NaN when BASE has no such record
  double new_mean = 0.0;
};

// What decides a speed regression: the instruction count when both runs have one (identical
// code, identical count, whatever the load); else CPU time when both runs kept it for every
// thread count (a busy machine takes wall time away, hardly CPU time); else wall time. The
// others are judged and shown, not gated.
enum class SpeedGate { Instructions, CpuTime, WallTime };
const char* speed_gate_name(SpeedGate gate);  // "instructions", "cpu_time", "wall_time"

// One thread count timed by both runs on the same pinned workload and machine: the medians of
// their repetitions' steps/s, judged by judge_speed (speed_stats.hpp), by wall time and, when
// both runs kept it, by CPU time.
struct SpeedChange {
  int threads = 0;
  double base_steps_per_second = 0.0;  // medians
  double new_steps_per_second = 0.0;
  double change = 0.0;  // new / base - 1
  bool regression = false;  // judged a regression by the figure that gates (SpeedGate above)
  std::size_t base_repetitions = 0;
  std::size_t new_repetitions = 0;
  SpeedJudgement judgement;            // steps per wall-clock second
  std::optional<SpeedJudgement> cpu;   // steps per CPU second of the process
  // The judgement a regression line quotes: CPU time's when CPU time gates, else wall time's.
  const SpeedJudgement& judged_by(SpeedGate gate) const {
    return gate == SpeedGate::CpuTime && cpu ? *cpu : judgement;
  }
};

// The instructions both runs' workloads took ([speed] instructions): the deterministic figure
// the speed gate uses when both runs have it; wall time is then judged and shown, not gated.
struct InstructionChange {
  bool compared = false;
  std::int64_t base = 0;
  std::int64_t now = 0;
  double change = 0.0;  // new / base - 1: more instructions is slower
  bool regression = false;
};

struct Comparison {
  std::vector<RecordChange> regressions;  // reward_changed, refused and removed, in BASE order
  std::vector<RecordChange> answer_changes;
  std::vector<RecordChange> added;
  std::int64_t unchanged = 0;
  std::vector<GroupChange> groups;
  bool speed_compared = false;
  // Why speed was not compared (another machine, another workload, ...), or the machine and
  // workload it was compared on.
  std::string speed_note;
  std::vector<SpeedChange> speed;
  double speed_tolerance = 0.10;
  InstructionChange instructions;
  double instruction_tolerance = 0.01;
  SpeedGate gate = SpeedGate::WallTime;

  std::size_t speed_regressions() const;
  bool regression() const { return !regressions.empty() || speed_regressions() > 0; }
};

Comparison compare_runs(const RunRecords& base, const RunRecords& now, double speed_tolerance,
                        double instruction_tolerance = kInstructionTolerance);

// The readable table `weightspace compare` prints, and its --json document.
std::string comparison_table(const RunRecords& base, const RunRecords& now, const Comparison& comparison);
nlohmann::json comparison_json(const RunRecords& base, const RunRecords& now, const Comparison& comparison);
// A run's header as the JSON outputs write it (id, name, times, version, machine, ...).
nlohmann::json run_json(const RunInfo& run);
// A record's id as text (the JSON string's contents, or the integer).
std::string record_id(const StoredRecord& record);
// A number for JSON: NaN and infinities become null (strict JSON has no NaN).
nlohmann::json number_or_null(double value);
// A test's p value as compare prints it ("0.0412").
std::string p_value_text(double p);
// The instruction counts compared: "1234567 -> 1250000 (+1.26%, tolerance 1.0%)".
std::string instructions_detail(const Comparison& comparison);

}  // namespace weightspace::app
