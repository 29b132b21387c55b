// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <nlohmann/json.hpp>

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "apps/batch/answer_input.hpp"
#include "engine/grade.hpp"

namespace weightspace::app {

// --memo's names, as the table and the JSON context give them back.
inline constexpr std::array<std::pair<std::string_view, PolicyMemoUse>, 3> kMemoUses = {
    {{"auto", PolicyMemoUse::automatic}, {"always", PolicyMemoUse::always}, {"never", PolicyMemoUse::never}}};

// What `weightspace bench` was asked: one policy (an answer, a weights file or a profile), its
// game, the thread counts to compare and the timed grades for each.
struct BenchRequest {
  std::string game;
  std::string source = "original";
  AnswerSource answer;
  std::string weights_path;
  std::string profile;
  std::vector<int> threads{1};
  std::string episodes = "1000";
  int repetitions = 5;
  std::string json_path;  // "-": the JSON replaces the table on standard output
  std::string memo = "auto";
};

struct BenchSample {
  double seconds = 0.0;      // wall
  double cpu_seconds = 0.0;  // the whole process's, every thread
  std::int64_t steps = 0;
};

// The timed repetitions at one thread count.
struct BenchSeries {
  int threads = 0;
  std::vector<BenchSample> samples;
  PolicyMemoStats memo;  // over the timed repetitions

  // The share of steps whose action the policy memo gave.
  double memo_hits() const;
};

// The text `weightspace bench` writes: the table for people, Google Benchmark's JSON for tools.
struct BenchOutput {
  std::string table;  // empty when the JSON goes to standard output
  std::string json;   // empty without --json
};

// Checks the request, loads the policy and times it at each thread count (one warm-up grade,
// then `repetitions` timed grades each). Throws UsageError or CommandError.
BenchOutput run_bench(const BenchRequest& request);

// The table (`label` names the weights) and Google Benchmark's JSON of timed series, the
// first series being the speed-up's base.
std::string bench_table(const std::vector<BenchSeries>& all, const std::string& label, const GradeRequest& request);
nlohmann::ordered_json bench_json(const std::vector<BenchSeries>& all, const std::string& label,
                                  const GradeRequest& request);

}  // namespace weightspace::app
