// SPDX-License-Identifier: GPL-3.0-or-later
#include <benchmark/benchmark.h>

#include <vector>

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

namespace {

// Generators seeded together by reseed_many, each time with the next seeds (1729, 1730, ...).
struct SeedingGroup {
  explicit SeedingGroup(std::size_t count)
      : generators(count, RandomState(RandomState::Unseeded{})), seeds(count) {
    for (RandomState& generator : generators) pointers.push_back(&generator);
  }
  void reseed(int words) {
    for (std::uint32_t& value : seeds) value = next_seed++;
    RandomState::reseed_many(pointers, seeds, words);
  }
  std::vector<RandomState> generators;
  std::vector<RandomState*> pointers;
  std::vector<std::uint32_t> seeds;
  std::uint32_t next_seed = 1729;
};

// reseed_many over `range(0)` generators at once plus each one's first draw, per generator:
// how the engine seeds the episodes that start together.
void BM_ReseedManyAndFirstDraw(benchmark::State& state) {
  SeedingGroup group(static_cast<std::size_t>(state.range(0)));
  for (auto _ : state) {
    group.reseed(RandomState::kStateWords);
    for (RandomState& generator : group.generators) benchmark::DoNotOptimize(generator.next_uint32());
  }
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(group.generators.size()));
}
BENCHMARK(BM_ReseedManyAndFirstDraw)->Arg(1)->Arg(8)->Arg(16);

// Sixteen generators (a seeding group of eight episodes) seeded to a prefix of range(0) words,
// then range(1) words drawn from each, per generator: what SeedPlan weighs. A generator that
// draws more than the prefix serves continues its chain alone (the first 32 words need 429).
void BM_ReseedManyPrefix(benchmark::State& state) {
  const auto words = static_cast<int>(state.range(0));
  const auto draws = state.range(1);
  SeedingGroup group(16);
  for (auto _ : state) {
    group.reseed(words);
    for (RandomState& generator : group.generators) {
      for (std::int64_t k = 0; k < draws; ++k) benchmark::DoNotOptimize(generator.next_uint32());
    }
  }
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(group.generators.size()));
}
BENCHMARK(BM_ReseedManyPrefix)->ArgsProduct({{432, 528, 624}, {1, 40, 300}});

}  // namespace
