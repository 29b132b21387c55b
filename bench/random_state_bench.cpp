// SPDX-License-Identifier: GPL-3.0-or-later
#include <benchmark/benchmark.h>

#include <array>

#include "games/random_state.hpp"

namespace {

using weightspace::RandomState;

void BM_NextUint32(benchmark::State& state) {
  RandomState random(1729);
  for (auto _ : state) benchmark::DoNotOptimize(random.next_uint32());
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_NextUint32);

void BM_RandomSample(benchmark::State& state) {
  RandomState random(1729);
  for (auto _ : state) benchmark::DoNotOptimize(random.random_sample());
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_RandomSample);

void BM_Randint(benchmark::State& state) {
  RandomState random(1729);
  const auto high = state.range(0);
  for (auto _ : state) benchmark::DoNotOptimize(random.randint(high));
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_Randint)->Arg(1)->Arg(6)->Arg(10)->Arg(1000);

void BM_Choice6(benchmark::State& state) {
  RandomState random(1729);
  const std::array<double, 6> p{0.1, 0.2, 0.3, 0.15, 0.05, 0.2};
  for (auto _ : state) benchmark::DoNotOptimize(random.choice(p));
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_Choice6);

}  // namespace

namespace {

// Seeding plus the first draw (which twists the whole state): the fixed cost of every
// generator each grader episode creates.
void BM_SeedAndFirstDraw(benchmark::State& state) {
  RandomState random(0);
  std::uint32_t seed = 1729;
  for (auto _ : state) {
    random.reseed(seed++);
    benchmark::DoNotOptimize(random.next_uint32());
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_SeedAndFirstDraw);

}  // namespace
