// SPDX-License-Identifier: GPL-3.0-or-later
// The engine end to end: a full grade's episodes (observe, batched forward, sample, act) per
// game, at 1 and 2 threads, with a policy-steps/s counter; plus one episode alone.
#include <benchmark/benchmark.h>

#include <oneapi/tbb/info.h>
#include <oneapi/tbb/parallel_for.h>

#include <atomic>

#include "example_answers.hpp"
#include "engine/grade.hpp"
#include "engine/scheduler.hpp"
#include "bench/weight_profiles.hpp"
#include "games/registry.hpp"

namespace {

using namespace weightspace;

// Arguments: episodes, threads, weights (0 = all zero, 1 = dense random, 2 = the game's
// example answer), memo (PolicyMemoUse: 0 = automatic, as a grade; 1 = always; 2 = never).
// All-zero weights need no forward pass (policy/policy.hpp); dense weights use all 32 + 32
// hidden units; the example answers use 2-26 and 1-13.
template <Game G>
void BM_Episodes(benchmark::State& state) {
  const Weights weights = state.range(2) == 0   ? Weights{}
                          : state.range(2) == 1 ? dense_weights()
                                                : bench::example_weights<G>();
  std::vector<EpisodeResult> results(static_cast<std::size_t>(state.range(0)));
  RunOptions options;  // the grade's default batch size
  options.threads = static_cast<int>(state.range(1));
  options.memo = static_cast<PolicyMemoUse>(state.range(3));
  PolicyMemoStats memo;
  options.memo_stats = &memo;
  std::int64_t steps = 0;
  for (auto _ : state) {
    run_episodes<G>(weights, results, options);
    for (const EpisodeResult& result : results) steps += result.length;
  }
  state.counters["steps/s"] = benchmark::Counter(static_cast<double>(steps), benchmark::Counter::kIsRate);
  state.counters["steps"] = benchmark::Counter(static_cast<double>(steps) / static_cast<double>(state.iterations()));
  // Of all steps, the share whose action came from a stored cdf; and the entries stored.
  state.counters["memo_hits"] = static_cast<double>(memo.hits) / static_cast<double>(std::max<std::int64_t>(steps, 1));
  state.counters["memo_entries"] = static_cast<double>(memo.entries);
}

template <Game G>
void BM_OneEpisode(benchmark::State& state) {
  const Weights weights = dense_weights();
  std::int64_t steps = 0, index = 0;
  for (auto _ : state) steps += run_episode<G>(weights, index++).length;
  state.counters["steps/s"] = benchmark::Counter(static_cast<double>(steps), benchmark::Counter::kIsRate);
}

// grade() of the example answer on one thread, parse included: what one call of the Python
// module's grade_answer does below its binding (bench/python_bench.py measures that side).
template <Game G>
void BM_GradeAnswer(benchmark::State& state) {
  const std::string answer = bench::example_answer<G>();
  GradeRequest request;
  request.game = std::string(G::name);
  request.episodes = state.range(0);
  request.run.threads = 1;
  for (auto _ : state) benchmark::DoNotOptimize(grade(request, answer).reward.raw_score);
}

// How long a two-thread grade waits for its second thread when grades run back to back: an
// arena round trip whose two tasks each wait for the other to start.
void BM_SecondThreadArrives(benchmark::State& state) {
  if (tbb::info::default_concurrency() < 2) return state.SkipWithError("needs two cores");
  tbb::task_arena& arena = shared_arena(2);
  for (auto _ : state) {
    std::atomic<int> arrived{0};
    arena.execute([&] {
      tbb::parallel_for(
          0, 2,
          [&](int) {
            arrived.fetch_add(1);
            while (arrived.load() < 2) {
            }
          },
          tbb::simple_partitioner{});
    });
  }
}
BENCHMARK(BM_SecondThreadArrives)->Unit(benchmark::kMicrosecond)->UseRealTime();

#define WEIGHTSPACE_ENGINE_BENCH(G)                                                                \
  BENCHMARK(BM_Episodes<G>)->ArgNames({"episodes", "threads", "weights", "memo"})                  \
      ->ArgsProduct({{1000}, {1, 2}, {0, 1, 2}, {0, 1, 2}})                                         \
      ->Unit(benchmark::kMillisecond)->UseRealTime();                                              \
  BENCHMARK(BM_OneEpisode<G>)->Unit(benchmark::kMicrosecond);                                     \
  BENCHMARK(BM_GradeAnswer<G>)->ArgName("episodes")->Arg(1)->Arg(1000)->Unit(benchmark::kMicrosecond)

WEIGHTSPACE_ENGINE_BENCH(Asterix);
WEIGHTSPACE_ENGINE_BENCH(Breakout);
WEIGHTSPACE_ENGINE_BENCH(Freeway);
WEIGHTSPACE_ENGINE_BENCH(Seaquest);
WEIGHTSPACE_ENGINE_BENCH(SpaceInvaders);

}  // namespace
