// SPDX-License-Identifier: GPL-3.0-or-later
// `weightspace bench`'s report: medians and spreads over the repetitions in a table and, for
// tools such as Google Benchmark's compare.py, in Google Benchmark's JSON.
#include <unistd.h>

#include <spdlog/fmt/fmt.h>

#include <algorithm>
#include <cmath>
#include <ctime>
#include <thread>

#include "apps/bench/rollout_bench.hpp"
#include "apps/cli/memo_uses.hpp"
#include "apps/sweep/speed_stats.hpp"
#include "policy/tanh.hpp"

namespace weightspace::app {

namespace {

double median_of(const std::vector<double>& values) { return median(values); }

double average(const std::vector<double>& values) {
  double sum = 0.0;
  for (const double value : values) sum += value;
  return sum / static_cast<double>(values.size());
}

double stddev(const std::vector<double>& values) {
  if (values.size() < 2) return 0.0;
  double mean = 0.0;
  for (const double value : values) mean += value / static_cast<double>(values.size());
  double sum = 0.0;
  for (const double value : values) sum += (value - mean) * (value - mean);
  return std::sqrt(sum / static_cast<double>(values.size() - 1));
}

std::vector<double> steps_per_second(const BenchSeries& series) {
  std::vector<double> rates;
  for (const BenchSample& sample : series.samples) rates.push_back(static_cast<double>(sample.steps) / sample.seconds);
  return rates;
}

std::string table_row(const BenchSeries& series, double base) {
  const std::vector<double> rates = steps_per_second(series);
  const auto [low, high] = std::minmax_element(rates.begin(), rates.end());
  const MedianInterval interval = median_interval(rates);
  std::vector<double> grades;
  for (const BenchSample& sample : series.samples) grades.push_back(sample.grades / sample.seconds);
  const std::string doubt = bench_doubt(series);
  return fmt::format("{:>8} {:>15} {:>21} {:>21} {:>9} {:>8.2f}x {:>9.1f}%{}\n", series.threads,
                     si_rate(interval.median), si_rate(interval.low) + " .. " + si_rate(interval.high),
                     si_rate(*low) + " .. " + si_rate(*high), si_rate(median(grades)), interval.median / base,
                     100.0 * series.memo_hits(), doubt.empty() ? "" : "  (" + doubt + ")");
}

nlohmann::ordered_json context(const BenchWeights& weights, const GradeRequest& request, double min_time) {
  char host[256] = {};
  ::gethostname(host, sizeof host - 1);
  const std::time_t now = std::time(nullptr);
  char date[64];
  std::strftime(date, sizeof date, "%FT%T%z", std::localtime(&now));
  return {{"date", date},
          {"host_name", host},
          {"executable", "weightspace bench"},
          {"num_cpus", std::thread::hardware_concurrency()},
          {"library_build_type", "release"},
          {"simd", simd_level_name(best_simd_level())},
          {"weights", weights.label},
          {"weights_sha256", weights.sha256},
          {"memo", memo_name(request.run.memo)},
          {"episodes", request.episodes},
          {"min_time_seconds", min_time}};
}

// One series' runs: an "iteration" per repetition, then its mean, median and stddev.
void add_runs(nlohmann::ordered_json& runs, const BenchSeries& series, const GradeRequest& request) {
  const std::string name = fmt::format("bench/{}/{}/threads:{}", request.source, request.game, series.threads);
  std::vector<double> wall, cpu, rates = steps_per_second(series);
  for (const BenchSample& sample : series.samples) {
    wall.push_back(sample.seconds * 1e3);
    cpu.push_back(sample.cpu_seconds * 1e3);
  }
  const auto entry = [&](const std::string& run_name, const std::string& run_type, double real_time,
                         double cpu_time, double rate) {
    return nlohmann::ordered_json{{"name", run_name},
                                  {"run_name", name},
                                  {"run_type", run_type},
                                  {"repetitions", series.samples.size()},
                                  {"threads", series.threads},
                                  {"iterations", 1},
                                  {"real_time", real_time},
                                  {"cpu_time", cpu_time},
                                  {"time_unit", "ms"},
                                  {"items_per_second", rate},
                                  {"memo_hits", series.memo_hits()}};
  };
  for (std::size_t index = 0; index < series.samples.size(); ++index) {
    nlohmann::ordered_json run = entry(name, "iteration", wall[index], cpu[index], rates[index]);
    run["repetition_index"] = index;
    runs.push_back(std::move(run));
  }
  const auto aggregate = [&](const std::string& kind, double (*reduce)(const std::vector<double>&)) {
    nlohmann::ordered_json run = entry(name + "_" + kind, "aggregate", reduce(wall), reduce(cpu), reduce(rates));
    run["aggregate_name"] = kind;
    runs.push_back(std::move(run));
  };
  aggregate("mean", average);
  aggregate("median", median_of);
  aggregate("stddev", stddev);
}

}  // namespace

std::string si_rate(double value) {
  static constexpr std::pair<double, const char*> kPrefixes[] = {{1e12, "T"}, {1e9, "G"}, {1e6, "M"}, {1e3, "k"}};
  for (const auto& [scale, prefix] : kPrefixes) {
    if (std::fabs(value) >= scale) return fmt::format("{:.3g} {}", value / scale, prefix);
  }
  return fmt::format("{:.3g}", value);
}

std::string bench_doubt(const BenchSeries& series) {
  double shortest = series.samples.empty() ? 0.0 : series.samples.front().seconds;
  for (const BenchSample& sample : series.samples) shortest = std::min(shortest, sample.seconds);
  if (shortest < kShortestRepetition) return fmt::format("a repetition took {:.3f} s, under {} s", shortest, kShortestRepetition);
  const MedianInterval interval = median_interval(steps_per_second(series));
  const double width = (interval.high - interval.low) / interval.median;
  if (!(width <= kWidestInterval)) {
    return fmt::format("its median's interval spans {:.0f}%, over {:.0f}%", 100.0 * width, 100.0 * kWidestInterval);
  }
  return "";
}

std::string bench_table(const std::vector<BenchSeries>& all, const BenchWeights& weights, const GradeRequest& request,
                        double min_time, const std::optional<std::int64_t>& instructions) {
  std::string threads;
  for (const BenchSeries& series : all) threads += (threads.empty() ? "" : ",") + std::to_string(series.threads);
  std::string table = fmt::format("{} / {}, {} (weights {}), {} episodes a grade (SIMD {})\n", request.source,
                                  request.game, weights.label, weights.sha256.substr(0, 12), request.episodes,
                                  simd_level_name(best_simd_level()));
  table += fmt::format("threads {}; {} repetitions each, interleaved, each at least {} s (whole grades; one "
                       "untimed warm-up grade per thread count)\n",
                       threads, all.front().samples.size(), min_time);
  table += fmt::format("{:>8} {:>15} {:>21} {:>21} {:>9} {:>9} {:>10}\n", "threads", "policy-steps/s",
                       "95% interval", "min .. max", "grades/s", "speed-up", "memo hits");
  const double base = median(steps_per_second(all.front()));
  for (const BenchSeries& series : all) table += table_row(series, base);
  if (instructions) {
    table += fmt::format("instructions: {} (callgrind: the whole `bench` process on 1 thread, warm-up and one grade; "
                         "an automatic memo counted as --memo hits)\n",
                         *instructions);
  }
  return table;
}

// Times in milliseconds, items = policy steps, as Google Benchmark writes them.
nlohmann::ordered_json bench_json(const std::vector<BenchSeries>& all, const BenchWeights& weights,
                                  const GradeRequest& request, double min_time,
                                  const std::optional<std::int64_t>& instructions) {
  nlohmann::ordered_json document;
  document["context"] = context(weights, request, min_time);
  if (instructions) document["context"]["instructions"] = *instructions;
  nlohmann::ordered_json runs = nlohmann::ordered_json::array();
  for (const BenchSeries& series : all) add_runs(runs, series, request);
  document["benchmarks"] = std::move(runs);
  return document;
}

}  // namespace weightspace::app
