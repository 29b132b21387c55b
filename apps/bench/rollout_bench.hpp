// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "apps/batch/answer_input.hpp"
#include "engine/grade.hpp"

namespace weightspace::app {

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
  double min_time = 0.5;  // seconds: a repetition grades again until this long
  bool extend = true;     // more repetitions while a row is too noisy (up to kMaxExtensions rounds)
  bool instructions = false;  // also count one grade's instructions under valgrind
  std::string json_path;  // "-": the JSON replaces the table on standard output
  std::string memo = "auto";
};

// A row is doubtful when its median's 95% interval spans more than this share of the median;
// bench then runs another round of repetitions, at most kMaxExtensions times.
inline constexpr double kWidestInterval = 0.10;
inline constexpr int kMaxExtensions = 2;
inline constexpr double kMaxMinTime = 60.0;

struct BenchSample {
  double seconds = 0.0;      // wall
  double cpu_seconds = 0.0;  // the whole process's, every thread
  std::int64_t steps = 0;
  int grades = 0;            // whole grades played in the repetition (at least one)
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
  std::vector<std::string> warnings;  // rows too short or too noisy, rounds added
  std::optional<std::int64_t> instructions;  // with --instructions
};

// Checks the request, loads the policy and times it at each thread count: one warm-up grade
// each, then `repetitions` rounds interleaved across the thread counts, each repetition grading
// until `min_time` has passed; while a row is doubtful (too short, or its median's interval too
// wide) and `extend`, up to kMaxExtensions more rounds. Throws UsageError or CommandError.
BenchOutput run_bench(const BenchRequest& request);

// What was timed: the weights by their label (a file, a profile) and by content (the SHA-256
// that batch lines and the sweep's pinned workload use), so that two benches are known to have
// timed the same weights whatever their files are called.
struct BenchWeights {
  std::string label;
  std::string sha256;
};

// The table and Google Benchmark's JSON of timed series, the first series being the speed-up's
// base.
std::string bench_table(const std::vector<BenchSeries>& all, const BenchWeights& weights, const GradeRequest& request,
                        double min_time, const std::optional<std::int64_t>& instructions);
nlohmann::ordered_json bench_json(const std::vector<BenchSeries>& all, const BenchWeights& weights,
                                  const GradeRequest& request, double min_time,
                                  const std::optional<std::int64_t>& instructions);
// Why a row's figures are not to be trusted ("a repetition took 0.01 s", "spread 23%"), or "".
std::string bench_doubt(const BenchSeries& series);
// A rate with an SI prefix: 7.29 M, 812 k.
std::string si_rate(double value);

}  // namespace weightspace::app
