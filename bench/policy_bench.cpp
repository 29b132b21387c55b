// SPDX-License-Identifier: GPL-3.0-or-later
// The policy numerics per environment step: numpy tanh, the forward pass, the sampler.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <random>
#include <vector>

#include "games/random_state.hpp"
#include "policy/forward.hpp"
#include "policy/policy.hpp"
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

// Realistic MinAtar observations: 10 to 30 active inputs out of 600, varying lengths. The pool
// (300 KB) stays in the L2 cache, as an engine's freshly written observations would.
std::vector<ActiveInputs> observation_pool() {
  std::mt19937 generator(7919);
  std::vector<ActiveInputs> pool(256);
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

std::array<float, 32> hidden_layer_values() {
  std::mt19937 generator(42);
  std::uniform_real_distribution<float> uniform(-6.0f, 6.0f);
  std::array<float, 32> values{};
  for (float& v : values) v = uniform(generator);
  return values;
}

// One hidden layer through numpy_tanh (best SIMD level; `level` argument 0 scalar, 1 AVX2,
// 2 AVX-512).
void BM_Tanh32(benchmark::State& state) {
  const auto level = static_cast<SimdLevel>(state.range(0));
  if (!simd_level_available(level)) return state.SkipWithError("SIMD level not available");
  alignas(64) const std::array<float, 32> values = hidden_layer_values();
  alignas(64) std::array<float, 32> output{};
  for (auto _ : state) {
    numpy_tanh(values, output, level);
    benchmark::DoNotOptimize(output.data());
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations() * 32);
}
BENCHMARK(BM_Tanh32)->Arg(0)->Arg(1)->Arg(2);

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
  state.counters["w1_offset_mod_64"] = static_cast<double>(reinterpret_cast<std::uintptr_t>(weights.w1()) % 64);
}
BENCHMARK(BM_ForwardBatch)->Arg(1)->Arg(2)->Arg(8)->Arg(64);

// The batched forward with a given kernel (0 scalar, 1 AVX2, 2 AVX-512), 64 observations.
void BM_ForwardBatchAtLevel(benchmark::State& state) {
  const auto level = static_cast<SimdLevel>(state.range(0));
  if (!simd_level_available(level)) return state.SkipWithError("SIMD level not available");
  const Weights weights = dense_random_weights();
  const auto pool = observation_pool();
  constexpr std::size_t kBatch = 64;
  std::vector<Logits> logits(kBatch);
  std::size_t next = 0;
  for (auto _ : state) {
    forward_batch(weights, std::span<const ActiveInputs>(pool).subspan(next, kBatch), logits, level);
    benchmark::DoNotOptimize(logits.data());
    benchmark::ClobberMemory();
    next = (next + kBatch) % (pool.size() - kBatch);
  }
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(kBatch));
}
BENCHMARK(BM_ForwardBatchAtLevel)->Arg(0)->Arg(1)->Arg(2);

// What engine/lockstep.hpp does per step of B lockstep episodes: one batched forward, one draw
// per episode from its own generator, then one batched decision. Items are observations.
void BM_ForwardBatchAndSample(benchmark::State& state) {
  const Weights weights = dense_random_weights();
  const auto pool = observation_pool();
  const auto batch = static_cast<std::size_t>(state.range(0));
  std::vector<Logits> logits(batch);
  std::vector<RandomState> generators;
  for (std::size_t b = 0; b < batch; ++b) generators.emplace_back(static_cast<std::uint32_t>(7919 + b));
  std::vector<double> uniforms(batch);
  std::vector<int> actions(batch);
  std::size_t next = 0;
  for (auto _ : state) {
    forward_batch(weights, std::span<const ActiveInputs>(pool).subspan(next, batch), logits);
    for (std::size_t b = 0; b < batch; ++b) uniforms[b] = generators[b].random_sample();
    actions_for_draws(logits, uniforms, actions);
    benchmark::DoNotOptimize(actions.data());
    benchmark::ClobberMemory();
    next = (next + batch) % (pool.size() - batch);
  }
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(batch));
}
BENCHMARK(BM_ForwardBatchAndSample)->Arg(8)->Arg(64);

// The engine's forward (Policy) on 64 observations when only the first `units` hidden units of
// each layer reach an output (the rest have zero W2 and W3 rows), as in hand-written answers
// (the bundled examples keep 2-26 and 1-13). 32 is the dense network. Items are observations.
void BM_PolicyForwardBatch(benchmark::State& state) {
  const auto units = static_cast<int>(state.range(0));
  Weights weights = dense_random_weights();
  for (int unit = units; unit < kHiddenCount; ++unit) {
    std::fill_n(weights.tensor(Tensor::W2).begin() + unit * kHiddenCount, kHiddenCount, 0.0f);
    std::fill_n(weights.tensor(Tensor::W3).begin() + unit * kActionCount, kActionCount, 0.0f);
  }
  const Policy policy(weights);
  const auto pool = observation_pool();
  constexpr std::size_t kBatch = 64;
  std::vector<Logits> logits(kBatch);
  std::size_t next = 0;
  for (auto _ : state) {
    policy.forward_batch(std::span<const ActiveInputs>(pool).subspan(next, kBatch), logits);
    benchmark::DoNotOptimize(logits.data());
    benchmark::ClobberMemory();
    next = (next + kBatch) % (pool.size() - kBatch);
  }
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(kBatch));
  state.counters["kept1"] = policy.hidden1_units();
  state.counters["kept2"] = policy.hidden2_units();
}
BENCHMARK(BM_PolicyForwardBatch)->Arg(0)->Arg(4)->Arg(16)->Arg(17)->Arg(32);

// Building a Policy, once per grade: all-zero (0), 16 units kept (1) or dense (2) weights.
void BM_PolicyBuild(benchmark::State& state) {
  Weights weights;
  if (state.range(0) > 0) weights = dense_random_weights();
  if (state.range(0) == 1) {
    for (int unit = 16; unit < kHiddenCount; ++unit) {
      std::fill_n(weights.tensor(Tensor::W3).begin() + unit * kActionCount, kActionCount, 0.0f);
    }
  }
  for (auto _ : state) {
    const Policy policy(weights);
    benchmark::DoNotOptimize(&policy);
  }
}
BENCHMARK(BM_PolicyBuild)->Arg(0)->Arg(1)->Arg(2)->Unit(benchmark::kMicrosecond);

}  // namespace
