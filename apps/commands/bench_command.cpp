// SPDX-License-Identifier: GPL-3.0-or-later
// `weightspace bench`: how fast a policy rolls out on this machine, for users (the developer
// benchmarks live in bench/). Each repetition is one whole grade's rollout through play(), the
// engine call every grade makes; the report gives medians and spreads over repetitions and,
// with --json, Google Benchmark's JSON so that its tools (compare.py) read it.
#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <ctime>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

#include <unistd.h>

#include <spdlog/fmt/fmt.h>
#include <nlohmann/json.hpp>

#include "apps/batch/answer_input.hpp"
#include "apps/commands/commands.hpp"
#include "apps/cli/files.hpp"
#include "apps/cli/grade_options.hpp"
#include "apps/batch/weights_json.hpp"
#include "engine/grade.hpp"
#include "bench/weight_profiles.hpp"
#include "games/registry.hpp"
#include "policy/tanh.hpp"

namespace weightspace::app {
namespace {

constexpr int kMaxRepetitions = 1000;

struct Options {
  std::string game;
  std::string source = "original";
  AnswerSource answer;
  std::string weights_path;
  std::string profile;
  std::vector<int> threads{1};
  std::string episodes = "1000";
  int repetitions = 5;
  std::string json_path;
  std::string memo = "auto";
};

// --memo's names, as the table and the JSON context give them back.
constexpr std::array<std::pair<std::string_view, PolicyMemoUse>, 3> kMemoUses = {
    {{"auto", PolicyMemoUse::automatic}, {"always", PolicyMemoUse::always}, {"never", PolicyMemoUse::never}}};

std::string_view memo_use_name(PolicyMemoUse use) {
  return std::find_if(kMemoUses.begin(), kMemoUses.end(), [use](const auto& entry) { return entry.second == use; })
      ->first;
}

struct Sample {
  double seconds = 0.0;      // wall
  double cpu_seconds = 0.0;  // the whole process's, every thread
  std::int64_t steps = 0;
};

double process_cpu_seconds() {
  timespec now{};
  ::clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) + static_cast<double>(now.tv_nsec) * 1e-9;
}

struct Series {
  int threads = 0;
  std::vector<Sample> samples;
  PolicyMemoStats memo;  // over the timed repetitions

  // The share of steps whose action the policy memo gave.
  double memo_hits() const {
    std::int64_t steps = 0;
    for (const Sample& sample : samples) steps += sample.steps;
    return steps > 0 ? static_cast<double>(memo.hits) / static_cast<double>(steps) : 0.0;
  }
};

double median(const std::vector<double>& unsorted) {
  std::vector<double> values = unsorted;
  std::sort(values.begin(), values.end());
  const std::size_t middle = values.size() / 2;
  return values.size() % 2 ? values[middle] : (values[middle - 1] + values[middle]) / 2;
}

double stddev(const std::vector<double>& values) {
  if (values.size() < 2) return 0.0;
  double mean = 0.0;
  for (const double value : values) mean += value / static_cast<double>(values.size());
  double sum = 0.0;
  for (const double value : values) sum += (value - mean) * (value - mean);
  return std::sqrt(sum / static_cast<double>(values.size() - 1));
}

std::vector<double> steps_per_second(const Series& series) {
  std::vector<double> rates;
  for (const Sample& sample : series.samples) rates.push_back(static_cast<double>(sample.steps) / sample.seconds);
  return rates;
}

// The weights to roll out, and how to name them in the report.
std::pair<Weights, std::string> load_weights(const Options& options) {
  if (!options.profile.empty()) {
    return {options.profile == "zero" ? Weights{} : dense_weights(), "profile:" + options.profile};
  }
  if (!options.weights_path.empty()) {
    return {read_weights_json(read_input(options.weights_path), options.weights_path), options.weights_path};
  }
  const AnswerSource::Loaded loaded = options.answer.load();
  if (loaded.error) throw CommandError(std::string("the answer cannot be graded: ") + loaded.error->what());
  const ParsedAnswer parsed = parse_answer(loaded.answer);
  if (!parsed.success) throw CommandError(std::string("the answer does not parse: ") + parsed.error->what());
  const std::string& path = options.answer.trajectory_path.empty()
                                ? (options.answer.answer_path.empty() ? options.answer.positional_path
                                                                      : options.answer.answer_path)
                                : options.answer.trajectory_path;
  return {parsed.weights, path};
}

Series measure(const Weights& weights, GradeRequest request, int threads, int repetitions) {
  request.run.threads = threads;
  Series series{threads, {}, {}};
  std::vector<EpisodeResult> episodes;
  play(weights, request, episodes);  // warm-up: thread-local batches, page faults, caches
  request.run.memo_stats = &series.memo;
  for (int repetition = 0; repetition < repetitions; ++repetition) {
    const double cpu_start = process_cpu_seconds();
    const auto start = std::chrono::steady_clock::now();
    const Rollout rollout = play(weights, request, episodes);
    const std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - start;
    if (!rollout.played) throw CommandError(request.game + ": " + rollout.error->kind + ": " + rollout.error->message);
    series.samples.push_back({elapsed.count(), process_cpu_seconds() - cpu_start, rollout.steps});
  }
  return series;
}

void print_table(const std::vector<Series>& all, const std::string& label, const GradeRequest& request) {
  std::cout << fmt::format("{} / {}, {}, {} episodes a grade, {} repetitions (SIMD {})\n", request.source,
                           request.game, label, request.episodes, all.front().samples.size(),
                           simd_level_name(best_simd_level()));
  std::cout << fmt::format("{:>8} {:>16} {:>22} {:>10} {:>9} {:>10}\n", "threads", "policy-steps/s", "min .. max",
                           "grades/s", "speed-up", "memo hits");
  const double base = median(steps_per_second(all.front()));
  for (const Series& series : all) {
    const std::vector<double> rates = steps_per_second(series);
    const auto [low, high] = std::minmax_element(rates.begin(), rates.end());
    std::vector<double> grades;
    for (const Sample& sample : series.samples) grades.push_back(1.0 / sample.seconds);
    std::cout << fmt::format("{:>8} {:>16.4g} {:>10.4g} .. {:<9.4g} {:>10.4g} {:>8.2f}x {:>9.1f}%\n", series.threads,
                             median(rates), *low, *high, median(grades), median(rates) / base,
                             100.0 * series.memo_hits());
  }
}

// Google Benchmark's JSON: one "iteration" run per repetition and the mean/median/stddev
// aggregates, times in milliseconds, items = policy steps.
nlohmann::ordered_json benchmark_json(const std::vector<Series>& all, const std::string& label,
                              const GradeRequest& request) {
  char host[256] = {};
  ::gethostname(host, sizeof host - 1);
  const std::time_t now = std::time(nullptr);
  char date[64];
  std::strftime(date, sizeof date, "%FT%T%z", std::localtime(&now));
  nlohmann::ordered_json document;
  document["context"] = {{"date", date},
                         {"host_name", host},
                         {"executable", "weightspace bench"},
                         {"num_cpus", std::thread::hardware_concurrency()},
                         {"library_build_type", "release"},
                         {"simd", simd_level_name(best_simd_level())},
                         {"weights", label},
                         {"memo", memo_use_name(request.run.memo)},
                         {"episodes", request.episodes}};
  nlohmann::ordered_json runs = nlohmann::ordered_json::array();
  for (const Series& series : all) {
    const std::string name = fmt::format("bench/{}/{}/threads:{}", request.source, request.game, series.threads);
    std::vector<double> wall, cpu, rates = steps_per_second(series);
    for (const Sample& sample : series.samples) {
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
    aggregate("mean", [](const std::vector<double>& values) {
      double sum = 0.0;
      for (const double value : values) sum += value;
      return sum / static_cast<double>(values.size());
    });
    aggregate("median", [](const std::vector<double>& values) { return median(values); });
    aggregate("stddev", stddev);
  }
  document["benchmarks"] = std::move(runs);
  return document;
}

}  // namespace

void add_bench_command(CLI::App& app) {
  auto options = std::make_shared<Options>();
  auto* command = app.add_subcommand("bench", "Measure policy rollout speed on this machine (policy-steps/s, grades/s, "
                                              "thread speed-up)");
  command->add_option("--game", options->game, "Game name (see `weightspace games`)")->required();
  command->add_option("--source", options->source, "original or synth")->check(CLI::IsMember({"original", "synth"}));
  options->answer.add_options(*command);
  auto* weights = command->add_option("--weights", options->weights_path, "Weights JSON (as `parse --weights-out` writes)");
  auto* profile = command->add_option("--profile", options->profile,
                                      "zero (no forward pass) or dense (uniform random in [-0.3, 0.3), fixed seed)")
                      ->check(CLI::IsMember({"zero", "dense"}));
  weights->excludes(profile);
  for (CLI::Option* option : command->get_options()) {
    const std::string name = option->get_name();
    if (name == "--answer" || name == "--trajectory" || name == "ANSWER") option->excludes(weights)->excludes(profile);
  }
  command->add_option("--threads", options->threads, "Thread counts to compare, e.g. 1,2 (the first is the base)")
      ->delimiter(',')
      ->check(CLI::Range(1, kMaxThreads));
  command->add_option("--episodes", options->episodes, "Episodes a grade plays (read as Python's int(); default 1000)");
  command->add_option("--repetitions", options->repetitions, "Timed grades per thread count (after one warm-up)")
      ->check(CLI::Range(1, kMaxRepetitions));
  command->add_option("--json", options->json_path, "Also write Google Benchmark JSON here ('-' = stdout, no table)");
  command->add_option("--memo", options->memo,
                      "The exact policy memo: auto (as grades: used while it pays), always or never")
      ->check(CLI::IsMember([] {
        std::vector<std::string> names;
        for (const auto& [name, use] : kMemoUses) names.emplace_back(name);
        return names;
      }()));
  command->callback([options] {
    GradeRequest request;
    request.game = options->game;
    request.source = options->source;
    request.episodes = parse_episodes("--episodes", options->episodes);
    request.run.memo = std::find_if(kMemoUses.begin(), kMemoUses.end(), [&](const auto& entry) {
                         return entry.first == options->memo;
                       })->second;
    if (request.episodes == 0) throw UsageError("--episodes: a benchmark needs at least one episode");
    if (!with_game(request.source, request.game, [](const auto&) {})) {
      throw UsageError("--game: unknown game '" + request.source + "/" + request.game + "' (see `weightspace games`)");
    }
    if (options->profile.empty() && options->weights_path.empty() && !options->answer.given()) {
      throw UsageError("no weights given: use --answer FILE, --trajectory FILE, --weights FILE or --profile zero|dense");
    }
    const auto [chosen, label] = load_weights(*options);
    std::vector<Series> all;
    for (const int threads : options->threads) all.push_back(measure(chosen, request, threads, options->repetitions));
    if (options->json_path != "-") print_table(all, label, request);
    if (!options->json_path.empty()) {
      const std::string text = benchmark_json(all, label, request).dump(2) + "\n";
      if (options->json_path == "-") {
        std::cout << text;
      } else {
        write_file(options->json_path, text);
      }
    }
  });
}

}  // namespace weightspace::app
