// SPDX-License-Identifier: GPL-3.0-or-later
// `weightspace bench`'s measurement. Each repetition is one whole grade's rollout through
// play(), the engine call every grade makes, so the numbers are what grading costs.
#include "apps/bench/rollout_bench.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <ctime>

#include "apps/batch/weights_json.hpp"
#include "apps/cli/errors.hpp"
#include "apps/cli/files.hpp"
#include "apps/cli/grade_options.hpp"
#include "apps/cli/memo_uses.hpp"
#include "apps/sweep/instruction_count.hpp"
#include "bench/weight_profiles.hpp"
#include "games/registry.hpp"
#include "parser/numpy/apply_edits.hpp"

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
  request.run.memo = memo_use(options.memo);
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

// One repetition: the grade played again until `min_time` has passed (at least once).
BenchSample time_repetition(const Weights& weights, const GradeRequest& request, double min_time,
                            std::vector<EpisodeResult>& episodes) {
  BenchSample sample;
  const double cpu_start = process_cpu_seconds();
  const auto start = std::chrono::steady_clock::now();
  std::chrono::duration<double> elapsed{};
  do {
    const Rollout rollout = play(weights, request, episodes);
    if (!rollout.played) throw CommandError(request.game + ": " + rollout.error->kind + ": " + rollout.error->message);
    sample.steps += rollout.steps;
    ++sample.grades;
    elapsed = std::chrono::steady_clock::now() - start;
  } while (elapsed.count() < min_time);
  sample.seconds = elapsed.count();
  sample.cpu_seconds = process_cpu_seconds() - cpu_start;
  return sample;
}

// `rounds` rounds of one repetition per thread count, each round starting one further on, so
// that a busy spell of the machine is spread over every thread count.
void add_rounds(const Weights& weights, const GradeRequest& request, double min_time, int first, int rounds,
                std::vector<BenchSeries>& all) {
  std::vector<EpisodeResult> episodes;
  for (int round = first; round < first + rounds; ++round) {
    for (std::size_t i = 0; i < all.size(); ++i) {
      BenchSeries& series = all[(i + static_cast<std::size_t>(round)) % all.size()];
      GradeRequest timed = request;
      timed.run.threads = series.threads;
      timed.run.memo_stats = &series.memo;
      series.samples.push_back(time_repetition(weights, timed, min_time, episodes));
    }
  }
}

std::vector<BenchSeries> measure(const Weights& weights, const GradeRequest& request, const BenchRequest& options,
                                 std::vector<std::string>& warnings) {
  std::vector<BenchSeries> all;
  std::vector<EpisodeResult> episodes;
  for (const int threads : options.threads) {
    GradeRequest warm = request;
    warm.run.threads = threads;
    play(weights, warm, episodes);  // warm-up: thread-local batches, page faults, caches
    all.push_back({threads, {}, {}});
  }
  add_rounds(weights, request, options.min_time, 0, options.repetitions, all);
  auto doubtful = [&] {
    return std::any_of(all.begin(), all.end(), [](const BenchSeries& series) { return !bench_doubt(series).empty(); });
  };
  for (int extension = 0; options.extend && extension < kMaxExtensions && doubtful(); ++extension) {
    warnings.push_back("a row is too short or too noisy: " + std::to_string(options.repetitions) +
                       " more repetitions per thread count (--no-extend: never)");
    const int done = static_cast<int>(all.front().samples.size());
    add_rounds(weights, request, options.min_time, done, options.repetitions, all);
  }
  for (const BenchSeries& series : all) {
    if (const std::string doubt = bench_doubt(series); !doubt.empty()) {
      warnings.push_back("threads " + std::to_string(series.threads) + ": " + doubt +
                         ": its figures are not to be trusted (raise --min-time or --repetitions, or quiet the machine)");
    }
  }
  return all;
}

// The instructions of `weightspace bench` with these weights on one thread, one timed grade
// after the warm-up (the whole process, start included), under callgrind. An automatic memo is
// counted as `hits` chooses it: auto's choice follows the clock, which under valgrind measures
// valgrind, and would make the count differ from run to run.
std::int64_t count_grade_instructions(const Weights& weights, const BenchRequest& options) {
  const std::atomic<bool> never{false};
  const auto command = [&](const std::filesystem::path& folder) {
    const std::string path = (folder / "weights.json").string();
    write_file(path, write_weights_json(weights));
    return std::vector<std::string>{this_executable(), "bench", "--game", options.game, "--source", options.source,
                                    "--weights", path, "--episodes", options.episodes, "--memo", counted_memo(options.memo),
                                    "--threads", "1", "--repetitions", "1", "--min-time", "0", "--no-extend"};
  };
  return *count_command_instructions(command, never);
}

}  // namespace

BenchOutput run_bench(const BenchRequest& options) {
  const GradeRequest request = grade_request(options);
  const auto [chosen, label] = load_weights(options);
  const BenchWeights named{label, weights_sha256(chosen)};
  if (!(options.min_time >= 0.0 && options.min_time <= kMaxMinTime)) {
    throw UsageError("--min-time must be from 0 to " + std::to_string(static_cast<int>(kMaxMinTime)) + " seconds");
  }
  BenchOutput output;
  const std::vector<BenchSeries> all = measure(chosen, request, options, output.warnings);
  if (options.instructions) output.instructions = count_grade_instructions(chosen, options);
  if (options.json_path != "-") {
    output.table = bench_table(all, named, request, options.min_time, output.instructions);
  }
  if (!options.json_path.empty()) {
    output.json = bench_json(all, named, request, options.min_time, output.instructions).dump(2) + "\n";
  }
  return output;
}

}  // namespace weightspace::app
