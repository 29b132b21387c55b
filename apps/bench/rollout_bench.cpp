// SPDX-License-Identifier: GPL-3.0-or-later
// `weightspace bench`'s measurement. Each repetition is one whole grade's rollout through
// play(), the engine call every grade makes, so the numbers are what grading costs.
#include "apps/bench/rollout_bench.hpp"

#include <algorithm>
#include <chrono>
#include <ctime>

#include "apps/batch/weights_json.hpp"
#include "apps/cli/errors.hpp"
#include "apps/cli/files.hpp"
#include "apps/cli/grade_options.hpp"
#include "bench/weight_profiles.hpp"
#include "games/registry.hpp"

namespace weightspace::app {

double BenchSeries::memo_hits() const {
  std::int64_t steps = 0;
  for (const BenchSample& sample : samples) steps += sample.steps;
  return steps > 0 ? static_cast<double>(memo.hits) / static_cast<double>(steps) : 0.0;
}

namespace {

double process_cpu_seconds() {
  timespec now{};
  ::clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) + static_cast<double>(now.tv_nsec) * 1e-9;
}

// The grade every repetition makes, checked before anything is loaded or timed.
GradeRequest grade_request(const BenchRequest& options) {
  GradeRequest request;
  request.game = options.game;
  request.source = options.source;
  request.episodes = parse_episodes("--episodes", options.episodes);
  request.run.memo = std::find_if(kMemoUses.begin(), kMemoUses.end(), [&](const auto& entry) {
                       return entry.first == options.memo;
                     })->second;
  if (request.episodes == 0) throw UsageError("--episodes: a benchmark needs at least one episode");
  if (!with_game(request.source, request.game, [](const auto&) {})) {
    throw UsageError("--game: unknown game '" + request.source + "/" + request.game + "' (see `weightspace games`)");
  }
  if (options.profile.empty() && options.weights_path.empty() && !options.answer.given()) {
    throw UsageError("no weights given: use --answer FILE, --trajectory FILE, --weights FILE or --profile zero|dense");
  }
  return request;
}

// The weights to roll out, and how to name them in the report.
std::pair<Weights, std::string> load_weights(const BenchRequest& options) {
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
  return {parsed.weights, options.answer.path()};
}

BenchSeries measure(const Weights& weights, GradeRequest request, int threads, int repetitions) {
  request.run.threads = threads;
  BenchSeries series{threads, {}, {}};
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

}  // namespace

BenchOutput run_bench(const BenchRequest& options) {
  const GradeRequest request = grade_request(options);
  const auto [chosen, label] = load_weights(options);
  std::vector<BenchSeries> all;
  for (const int threads : options.threads) all.push_back(measure(chosen, request, threads, options.repetitions));
  BenchOutput output;
  if (options.json_path != "-") output.table = bench_table(all, label, request);
  if (!options.json_path.empty()) output.json = bench_json(all, label, request).dump(2) + "\n";
  return output;
}

}  // namespace weightspace::app
