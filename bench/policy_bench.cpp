// SPDX-License-Identifier: GPL-3.0-or-later
// The policy numerics per environment step: numpy tanh, the forward pass, the sampler.
#include <benchmark/benchmark.h>

#include <array>
#include <random>
#include <vector>

#include "games/random_state.hpp"
#include "policy/forward.hpp"
#include "policy/sampler.hpp"
#include "policy/tanh.hpp"

namespace {

using namespace weightspace;

Weights dense_random_weights() {
  std::mt19937 generator(1729);
  std::normal_distribution<float> normal(0.0f, 0.5f);
  Weights weights;
  for (float& value : weights.values()) value = normal(generator);
  return weights;
}

// Realistic MinAtar observations: 10 to 30 active inputs out of 600. A pool larger than the
// branch predictor's memory keeps the loop lengths varying as in a real episode.
std::vector<ActiveInputs> observation_pool() {
  std::mt19937 generator(7919);
  std::vector<ActiveInputs> pool(1024);
  for (auto& inputs : pool) {
    const int count = std::uniform_int_distribution<int>(10, 30)(generator);
    std::array<bool, kInputs> on{};
    for (int k = 0; k < count;) {
      const int input = std::uniform_int_distribution<int>(0, kInputs - 1)(generator);
      if (!on[input]) on[input] = true, ++k;
    }
    for (int i = 0; i < kInputs; ++i) {
      if (on[i]) inputs.index[inputs.count++] = static_cast<std::uint16_t>(i);
    }
  }
  return pool;
}

void BM_Tanh32(benchmark::State& state) {
  std::mt19937 generator(42);
  std::uniform_real_distribution<float> uniform(-6.0f, 6.0f);
  alignas(32) std::array<float, 32> values{};
  for (float& v : values) v = uniform(generator);
  for (auto _ : state) {
    std::array<float, 32> work = values;
    numpy_tanh_32(work);
    benchmark::DoNotOptimize(work);
  }
  state.SetItemsProcessed(state.iterations() * 32);
}
BENCHMARK(BM_Tanh32);

void BM_Tanh32Scalar(benchmark::State& state) {
  std::mt19937 generator(42);
  std::uniform_real_distribution<float> uniform(-6.0f, 6.0f);
  std::array<float, 32> values{};
  for (float& v : values) v = uniform(generator);
  for (auto _ : state) {
    std::array<float, 32> work = values;
    for (float& v : work) v = numpy_tanh(v);
    benchmark::DoNotOptimize(work);
  }
  state.SetItemsProcessed(state.iterations() * 32);
}
BENCHMARK(BM_Tanh32Scalar);

void BM_Forward(benchmark::State& state) {
  const Weights weights = dense_random_weights();
  const auto pool = observation_pool();
  std::size_t next = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(policy_logits(weights, pool[next]));
    next = (next + 1) % pool.size();
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_Forward);

void BM_Sample(benchmark::State& state) {
  const Weights weights = dense_random_weights();
  const auto pool = observation_pool();
  std::vector<Logits> logits(pool.size());
  forward_batch(weights, pool, logits);
  RandomState random(7919);
  std::size_t next = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(sample_action(logits[next], random));
    next = (next + 1) % logits.size();
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_Sample);

// One environment step's policy work: what the engine does per step of one episode.
void BM_ForwardAndSample(benchmark::State& state) {
  const Weights weights = dense_random_weights();
  const auto pool = observation_pool();
  RandomState random(7919);
  std::size_t next = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(sample_action(policy_logits(weights, pool[next]), random));
    next = (next + 1) % pool.size();
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_ForwardAndSample);

// Items are observations, so items_per_second gives the per-observation cost.
void BM_ForwardBatch(benchmark::State& state) {
  const Weights weights = dense_random_weights();
  const auto pool = observation_pool();
  const auto batch = static_cast<std::size_t>(state.range(0));
  std::vector<Logits> logits(batch);
  std::size_t next = 0;
  for (auto _ : state) {
    forward_batch(weights, std::span<const ActiveInputs>(pool).subspan(next, batch), logits);
    benchmark::DoNotOptimize(logits.data());
    benchmark::ClobberMemory();
    next = (next + batch) % (pool.size() - batch);
  }
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(batch));
}
BENCHMARK(BM_ForwardBatch)->Arg(1)->Arg(2)->Arg(8)->Arg(64);

}  // namespace
