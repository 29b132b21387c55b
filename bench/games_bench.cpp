// SPDX-License-Identifier: GPL-3.0-or-later
// One game step (Environment::act, sticky draw included) under uniformly random actions, and
// the step plus the grader's observation. An episode that ends is started again.
#include <benchmark/benchmark.h>

#include <vector>

#include "games/cells.hpp"
#include "games/observe.hpp"
#include "games/environment.hpp"
#include "games/registry.hpp"

namespace {

using namespace weightspace;

template <Game G>
void BM_Step(benchmark::State& state) {
  Environment<G> env;
  env.start_episode(1729);
  RandomState actions(7919);
  std::uint32_t episode = 0;
  for (auto _ : state) {
    const StepResult result = env.act(static_cast<int>(actions.next_uint32() % 6));
    if (result.terminal) env.start_episode(1730 + episode++);
    benchmark::DoNotOptimize(result);
  }
  state.SetItemsProcessed(state.iterations());
}

template <Game G>
void BM_StepAndObserve(benchmark::State& state) {
  Environment<G> env;
  env.start_episode(1729);
  RandomState actions(7919);
  ActiveInputs observation;
  std::uint32_t episode = 0;
  for (auto _ : state) {
    const StepResult result = env.act(static_cast<int>(actions.next_uint32() % 6));
    if (result.terminal) env.start_episode(1730 + episode++);
    observe(env.game(), observation);
    benchmark::DoNotOptimize(observation.count);
  }
  state.SetItemsProcessed(state.iterations());
}

// observe() alone, over game states collected from random play (so that the branch pattern
// is that of a real rollout, not of one repeated state).
template <Game G>
void BM_Observe(benchmark::State& state) {
  Environment<G> env;
  env.start_episode(1729);
  RandomState actions(7919);
  std::vector<G> states;
  for (std::uint32_t episode = 0; states.size() < 1024;) {
    if (env.act(static_cast<int>(actions.next_uint32() % 6)).terminal) env.start_episode(1730 + episode++);
    states.push_back(env.game());
  }
  ActiveInputs observation;
  std::size_t next = 0;
  for (auto _ : state) {
    observe(states[next], observation);
    next = (next + 1) % states.size();
    benchmark::DoNotOptimize(observation.count);
  }
  state.SetItemsProcessed(state.iterations());
}

BENCHMARK(BM_Step<Asterix>);
BENCHMARK(BM_Step<Breakout>);
BENCHMARK(BM_Step<Freeway>);
BENCHMARK(BM_Step<Seaquest>);
BENCHMARK(BM_Step<SpaceInvaders>);
BENCHMARK(BM_StepAndObserve<Asterix>);
BENCHMARK(BM_StepAndObserve<Breakout>);
BENCHMARK(BM_StepAndObserve<Freeway>);
BENCHMARK(BM_StepAndObserve<Seaquest>);
BENCHMARK(BM_StepAndObserve<SpaceInvaders>);
BENCHMARK(BM_Observe<Asterix>);
BENCHMARK(BM_Observe<Breakout>);
BENCHMARK(BM_Observe<Freeway>);
BENCHMARK(BM_Observe<Seaquest>);
BENCHMARK(BM_Observe<SpaceInvaders>);

}  // namespace
