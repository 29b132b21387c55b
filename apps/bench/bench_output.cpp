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
#include "policy/tanh.hpp"

namespace weightspace::app {

namespace {

std::string_view memo_use_name(PolicyMemoUse use) {
  return std::find_if(kMemoUses.begin(), kMemoUses.end(), [use](const auto& entry) { return entry.second == use; })
      ->first;
}

double median(const std::vector<double>& unsorted) {
  std::vector<double> values = unsorted;
  std::sort(values.begin(), values.end());
  const std::size_t middle = values.size() / 2;
  return values.size() % 2 ? values[middle] : (values[middle - 1] + values[middle]) / 2;
}

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
  std::vector<double> grades;
  for (const BenchSample& sample : series.samples) grades.push_back(1.0 / sample.seconds);
  return fmt::format("{:>8} {:>16.4g} {:>10.4g} .. {:<9.4g} {:>10.4g} {:>8.2f}x {:>9.1f}%\n", series.threads,
                     median(rates), *low, *high, median(grades), median(rates) / base, 100.0 * series.memo_hits());
}

nlohmann::ordered_json context(const std::string& label, const GradeRequest& request) {
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
          {"weights", label},
          {"memo", memo_use_name(request.run.memo)},
          {"episodes", request.episodes}};
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
  aggregate("median", median);
  aggregate("stddev", stddev);
}

}  // namespace

std::string bench_table(const std::vector<BenchSeries>& all, const std::string& label, const GradeRequest& request) {
  std::string table = fmt::format("{} / {}, {}, {} episodes a grade, {} repetitions (SIMD {})\n", request.source,
                                  request.game, label, request.episodes, all.front().samples.size(),
                                  simd_level_name(best_simd_level()));
  table += fmt::format("{:>8} {:>16} {:>22} {:>10} {:>9} {:>10}\n", "threads", "policy-steps/s", "min .. max",
                       "grades/s", "speed-up", "memo hits");
  const double base = median(steps_per_second(all.front()));
  for (const BenchSeries& series : all) table += table_row(series, base);
  return table;
}

// Times in milliseconds, items = policy steps, as Google Benchmark writes them.
nlohmann::ordered_json bench_json(const std::vector<BenchSeries>& all, const std::string& label,
                                  const GradeRequest& request) {
  nlohmann::ordered_json document;
  document["context"] = context(label, request);
  nlohmann::ordered_json runs = nlohmann::ordered_json::array();
  for (const BenchSeries& series : all) add_runs(runs, series, request);
  document["benchmarks"] = std::move(runs);
  return document;
}

}  // namespace weightspace::app
