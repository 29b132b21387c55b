// SPDX-License-Identifier: GPL-3.0-or-later
#include "policy/forward.hpp"

#include "policy/forward_kernels.hpp"
#include "policy/layers.hpp"

#include <algorithm>
#include <stdexcept>

namespace weightspace {
namespace detail {

Layers full_layers(const Weights& weights) {
  return Layers{weights.w1(), weights.b1(), kHiddenCount, weights.w2(), weights.b2(), kHiddenCount, kHiddenCount,
                weights.w3(), weights.b3(), kHiddenCount, nullptr, {}};
}

void forward_scalar(const Layers& layers, std::span<const std::uint16_t> active, PolicyActivations& out) {
  for (int j = 0; j < layers.width1; ++j) {
    float sum = 0.0f;
    for (const std::uint16_t input : active) sum += layers.w1[input * layers.width1 + j];
    out.hidden1[j] = sum + layers.b1[j];
  }
  numpy_tanh(std::span(out.hidden1).first(layers.width1), std::span(out.hidden1).first(layers.width1),
             SimdLevel::scalar);
  for (int j = 0; j < layers.width2; ++j) {
    float sum = 0.0f;
    for (int i = 0; i < layers.rows2; ++i) sum += out.hidden1[i] * layers.w2[i * layers.width2 + j];
    out.hidden2[j] = sum + layers.b2[j];
  }
  numpy_tanh(std::span(out.hidden2).first(layers.width2), std::span(out.hidden2).first(layers.width2),
             SimdLevel::scalar);
  for (int j = 0; j < kActionCount; ++j) {
    float sum = 0.0f;
    for (int i = 0; i < layers.rows3; ++i) sum += out.hidden2[i] * layers.w3[i * kActionCount + j];
    out.logits[j] = sum + layers.b3[j];
  }
}
}  // namespace detail

using detail::forward_scalar;
using detail::full_layers;
using detail::Layers;

namespace {

// Calls kernel.template operator()<V1, V2, Full>() with the register counts of the layers'
// widths (16 or 32 floats) for registers of `Lanes` floats; Full when every hidden unit is
// kept, so that the loops over them have a constant count.
template <int Lanes, typename Kernel>
void with_widths(const Layers& layers, Kernel kernel) {
  const bool narrow1 = layers.width1 == 16;
  const bool narrow2 = layers.width2 == 16;
  constexpr int kNarrow = 16 / Lanes;
  constexpr int kWide = 32 / Lanes;
  if (narrow1 && narrow2) return kernel.template operator()<kNarrow, kNarrow, false>();
  if (narrow1) return kernel.template operator()<kNarrow, kWide, false>();
  if (narrow2) return kernel.template operator()<kWide, kNarrow, false>();
  if (layers.rows2 == kHiddenCount && layers.rows3 == kHiddenCount) {
    return kernel.template operator()<kWide, kWide, true>();
  }
  kernel.template operator()<kWide, kWide, false>();
}

template <int N>
void forward_group(const Layers& layers, const std::span<const std::uint16_t>* active, PolicyActivations* out,
                   SimdLevel level) {
  switch (level) {
#if WEIGHTSPACE_SIMD_AVX512
    case SimdLevel::avx512:
      return with_widths<16>(layers, [&]<int V1, int V2, bool Full>() { detail::forward_group_avx512<N, V1, V2, Full>(layers, active, out); });
#endif
#if WEIGHTSPACE_SIMD_AVX2
    case SimdLevel::avx2:
      return with_widths<8>(layers, [&]<int V1, int V2, bool Full>() { detail::forward_group_avx2<N, V1, V2, Full>(layers, active, out); });
#endif
    default:
      for (int n = 0; n < N; ++n) forward_scalar(layers, active[n], out[n]);
  }
}

// forward_batch runs Group observations per kernel call: enough independent chains to keep
// the floating-point adders busy without running out of registers (16 vector registers with
// AVX2, 32 with AVX-512).
template <int Group, typename Observation, typename View>
void forward_batch_in_groups(const Layers& layers, std::span<const Observation> observations,
                             std::span<Logits> logits, SimdLevel level, View view) {
  PolicyActivations activations[Group];
  std::span<const std::uint16_t> group[Group];
  std::size_t b = 0;
  for (; b + Group <= observations.size(); b += Group) {
    for (int n = 0; n < Group; ++n) group[n] = view(observations[b + n]);
    forward_group<Group>(layers, group, activations, level);
    for (int n = 0; n < Group; ++n) logits[b + n] = activations[n].logits;
  }
  // The rest (fewer than Group) in half-size groups, down to single observations.
  if constexpr (Group > 1) {
    if (b < observations.size()) {
      forward_batch_in_groups<Group / 2>(layers, observations.subspan(b), logits.subspan(b), level, view);
    }
  }
}

// The observations the lanes took at `level` (none where its minimum is 0: no columns, or a
// level without lanes; a build without vector levels has none).
template <typename Observation, typename View>
std::size_t forward_batch_in_lanes(const Layers& layers, [[maybe_unused]] std::span<const Observation> observations,
                                   [[maybe_unused]] std::span<Logits> logits, SimdLevel level,
                                   [[maybe_unused]] View view) {
  const int minimum = layers.sparse_minimum[static_cast<std::size_t>(level)];
  if (minimum == 0) return 0;
#if WEIGHTSPACE_SIMD_AVX512
  if (level == SimdLevel::avx512) {
    return detail::forward_batch_lanes_avx512(layers, minimum, observations, logits, view);
  }
#endif
#if WEIGHTSPACE_SIMD_AVX2
  if (level == SimdLevel::avx2) {
    return detail::forward_batch_lanes_avx2(layers, minimum, observations, logits, view);
  }
#endif
  return 0;
}

template <typename Observation, typename View>
void forward_batch_of(const Layers& layers, std::span<const Observation> observations, std::span<Logits> logits,
                      SimdLevel level, View view) {
  if (observations.size() != logits.size()) throw std::invalid_argument("forward_batch: size mismatch");
  const std::size_t done = forward_batch_in_lanes(layers, observations, logits, level, view);
  observations = observations.subspan(done);
  logits = logits.subspan(done);
  if (level == SimdLevel::avx512) {
    forward_batch_in_groups<8>(layers, observations, logits, level, view);
  } else {
    forward_batch_in_groups<2>(layers, observations, logits, level, view);
  }
}

constexpr auto kViewOfInputs = [](const ActiveInputs& inputs) { return inputs.view(); };
constexpr auto kViewOfSpan = [](std::span<const std::uint16_t> view) { return view; };

}  // namespace

namespace detail {

SimdLevel checked_simd_level(SimdLevel level) {
  if (!simd_level_available(level)) throw std::invalid_argument("forward: SIMD level not available");
  return level;
}

void forward_layers_batch(const Layers& layers, std::span<const ActiveInputs> observations, std::span<Logits> logits,
                          SimdLevel level) {
  forward_batch_of(layers, observations, logits, level, kViewOfInputs);
}

}  // namespace detail

using detail::checked_simd_level;

void forward_reference(const Weights& weights, std::span<const std::uint16_t> active, PolicyActivations& out) {
  forward_scalar(full_layers(weights), active, out);
}


void forward(const Weights& weights, std::span<const std::uint16_t> active, PolicyActivations& out) {
  forward_group<1>(full_layers(weights), &active, &out, best_simd_level());
}

void forward(const Weights& weights, std::span<const std::uint16_t> active, PolicyActivations& out,
             SimdLevel level) {
  forward_group<1>(full_layers(weights), &active, &out, checked_simd_level(level));
}

Logits policy_logits(const Weights& weights, std::span<const std::uint16_t> active) {
  PolicyActivations activations;
  forward_group<1>(full_layers(weights), &active, &activations, best_simd_level());
  return activations.logits;
}

void forward_batch(const Weights& weights, std::span<const std::span<const std::uint16_t>> observations,
                   std::span<Logits> logits, SimdLevel level) {
  forward_batch_of(full_layers(weights), observations, logits, checked_simd_level(level), kViewOfSpan);
}

void forward_batch(const Weights& weights, std::span<const ActiveInputs> observations, std::span<Logits> logits,
                   SimdLevel level) {
  forward_batch_of(full_layers(weights), observations, logits, checked_simd_level(level), kViewOfInputs);
}

void forward_batch(const Weights& weights, std::span<const std::span<const std::uint16_t>> observations,
                   std::span<Logits> logits) {
  forward_batch(weights, observations, logits, best_simd_level());
}

void forward_batch(const Weights& weights, std::span<const ActiveInputs> observations, std::span<Logits> logits) {
  forward_batch(weights, observations, logits, best_simd_level());
}

}  // namespace weightspace
