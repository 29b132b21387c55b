// SPDX-License-Identifier: GPL-3.0-or-later
#include "policy/forward.hpp"

#include "policy/layers.hpp"

#include <algorithm>
#include <stdexcept>

namespace weightspace {
namespace detail {

Layers full_layers(const Weights& weights) {
  return Layers{weights.w1(), weights.b1(), kHiddenCount, weights.w2(), weights.b2(), kHiddenCount, kHiddenCount,
                weights.w3(), weights.b3(), kHiddenCount, nullptr, 0};
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

// The vector kernels below process N observations at once. Every accumulator lane is one
// output of one observation and adds its terms in exactly the order of forward_scalar; the
// N observations only interleave independent dependency chains. Hidden layers go through
// memory because layers 2 and 3 broadcast them one input at a time. V1 and V2 are the
// registers a hidden layer takes (its width over the register's lanes).

#if WEIGHTSPACE_SIMD_AVX2

// Layer 3 is the same for both vector levels: six outputs fit one 8-lane register. Each row
// is read as 8 floats (see Layers::w3); lanes 6 and 7 are never stored.
template <int N, bool Full>
inline void output_layer_avx2(const Layers& layers, PolicyActivations* out) {
  const int rows3 = Full ? kHiddenCount : layers.rows3;
  __m256 acc[N];
  for (int n = 0; n < N; ++n) acc[n] = _mm256_setzero_ps();
  for (int i = 0; i < rows3; ++i) {
    const __m256 row = _mm256_loadu_ps(layers.w3 + i * kActionCount);
    for (int n = 0; n < N; ++n) {
      acc[n] = _mm256_add_ps(acc[n], _mm256_mul_ps(_mm256_broadcast_ss(out[n].hidden2.data() + i), row));
    }
  }
  const __m256 b3 = _mm256_maskload_ps(layers.b3, _mm256_setr_epi32(-1, -1, -1, -1, -1, -1, 0, 0));
  for (int n = 0; n < N; ++n) {
    alignas(32) float logits[8];
    _mm256_store_ps(logits, _mm256_add_ps(acc[n], b3));
    std::copy_n(logits, kActionCount, out[n].logits.begin());
  }
}

template <int N, int V1, int V2, bool Full>
void forward_group_avx2(const Layers& layers, const std::span<const std::uint16_t>* active, PolicyActivations* out) {
  constexpr int kWidth1 = 8 * V1;
  constexpr int kWidth2 = 8 * V2;
  __m256 acc[N][V1];
  for (int n = 0; n < N; ++n) {
    for (int v = 0; v < V1; ++v) acc[n][v] = _mm256_setzero_ps();
  }
  auto add_row = [&](int n, std::size_t i) {
    const float* row = layers.w1 + std::size_t{active[n][i]} * kWidth1;  // unsigned: no sign extension
    for (int v = 0; v < V1; ++v) acc[n][v] = _mm256_add_ps(acc[n][v], _mm256_loadu_ps(row + 8 * v));
  };
  std::size_t common = active[0].size();
  for (int n = 1; n < N; ++n) common = std::min(common, active[n].size());
  for (std::size_t i = 0; i < common; ++i) {
    for (int n = 0; n < N; ++n) add_row(n, i);
  }
  for (int n = 0; n < N; ++n) {
    for (std::size_t i = common; i < active[n].size(); ++i) add_row(n, i);
  }
  for (int n = 0; n < N; ++n) {
    for (int v = 0; v < V1; ++v) {
      const __m256 sum = _mm256_add_ps(acc[n][v], _mm256_loadu_ps(layers.b1 + 8 * v));
      _mm256_store_ps(out[n].hidden1.data() + 8 * v, detail::numpy_tanh_8(sum));
    }
  }

  __m256 acc2[N][V2];
  for (int n = 0; n < N; ++n) {
    for (int v = 0; v < V2; ++v) acc2[n][v] = _mm256_setzero_ps();
  }
  const int rows2 = Full ? kHiddenCount : layers.rows2;
  for (int i = 0; i < rows2; ++i) {
    __m256 row[V2];
    for (int v = 0; v < V2; ++v) row[v] = _mm256_loadu_ps(layers.w2 + i * kWidth2 + 8 * v);
    for (int n = 0; n < N; ++n) {
      const __m256 h = _mm256_broadcast_ss(out[n].hidden1.data() + i);
      for (int v = 0; v < V2; ++v) acc2[n][v] = _mm256_add_ps(acc2[n][v], _mm256_mul_ps(h, row[v]));
    }
  }
  for (int n = 0; n < N; ++n) {
    for (int v = 0; v < V2; ++v) {
      const __m256 sum = _mm256_add_ps(acc2[n][v], _mm256_loadu_ps(layers.b2 + 8 * v));
      _mm256_store_ps(out[n].hidden2.data() + 8 * v, detail::numpy_tanh_8(sum));
    }
  }
  output_layer_avx2<N, Full>(layers, out);
}

#endif

#if WEIGHTSPACE_SIMD_AVX512
#pragma GCC push_options
#pragma GCC target("avx512f")

// The AVX2 kernel with 16-lane registers: tanh looks its coefficients up with permutes
// instead of loads and transposes. Layer 1 and then layers 2 and 3, separately for the
// sparse path (forward_batch_sparse_avx512), which takes layer 1's sums before tanh.
template <int N, int V1, bool kTanh = true>
void layer1_avx512(const Layers& layers, const std::span<const std::uint16_t>* active, PolicyActivations* out) {
  constexpr int kWidth1 = 16 * V1;
  __m512 acc[N][V1];
  for (int n = 0; n < N; ++n) {
    for (int v = 0; v < V1; ++v) acc[n][v] = _mm512_setzero_ps();
  }
  auto add_row = [&](int n, std::size_t i) {
    const float* row = layers.w1 + std::size_t{active[n][i]} * kWidth1;  // unsigned: no sign extension
    for (int v = 0; v < V1; ++v) acc[n][v] = _mm512_add_ps(acc[n][v], _mm512_loadu_ps(row + 16 * v));
  };
  std::size_t common = active[0].size();
  for (int n = 1; n < N; ++n) common = std::min(common, active[n].size());
  for (std::size_t i = 0; i < common; ++i) {
    for (int n = 0; n < N; ++n) add_row(n, i);
  }
  for (int n = 0; n < N; ++n) {
    for (std::size_t i = common; i < active[n].size(); ++i) add_row(n, i);
  }
  for (int n = 0; n < N; ++n) {
    for (int v = 0; v < V1; ++v) {
      const __m512 sum = _mm512_add_ps(acc[n][v], _mm512_loadu_ps(layers.b1 + 16 * v));
      _mm512_store_ps(out[n].hidden1.data() + 16 * v, kTanh ? detail::numpy_tanh_16(sum) : sum);
    }
  }
}

template <int N, int V2, bool Full>
void layers23_avx512(const Layers& layers, PolicyActivations* out) {
  constexpr int kWidth2 = 16 * V2;
  __m512 acc2[N][V2];
  for (int n = 0; n < N; ++n) {
    for (int v = 0; v < V2; ++v) acc2[n][v] = _mm512_setzero_ps();
  }
  const int rows2 = Full ? kHiddenCount : layers.rows2;
  for (int i = 0; i < rows2; ++i) {
    __m512 row[V2];
    for (int v = 0; v < V2; ++v) row[v] = _mm512_loadu_ps(layers.w2 + i * kWidth2 + 16 * v);
    for (int n = 0; n < N; ++n) {
      const __m512 h = _mm512_set1_ps(out[n].hidden1[i]);
      for (int v = 0; v < V2; ++v) acc2[n][v] = _mm512_add_ps(acc2[n][v], _mm512_mul_ps(h, row[v]));
    }
  }
  for (int n = 0; n < N; ++n) {
    for (int v = 0; v < V2; ++v) {
      const __m512 sum = _mm512_add_ps(acc2[n][v], _mm512_loadu_ps(layers.b2 + 16 * v));
      _mm512_store_ps(out[n].hidden2.data() + 16 * v, detail::numpy_tanh_16(sum));
    }
  }
  output_layer_avx2<N, Full>(layers, out);
}

template <int N, int V1, int V2, bool Full>
void forward_group_avx512(const Layers& layers, const std::span<const std::uint16_t>* active,
                          PolicyActivations* out) {
  layer1_avx512<N, V1>(layers, active, out);
  layers23_avx512<N, V2, Full>(layers, out);
}

// Layer 1's sums (before tanh) of observations active[0, count) in groups of 8, then of 4, 2
// and 1.
template <int Group = 8>
void layer1_in_groups_avx512(const Layers& layers, const std::span<const std::uint16_t>* active, int count,
                             PolicyActivations* out) {
  int n = 0;
  for (; n + Group <= count; n += Group) {
    if (layers.width1 == 16) {
      layer1_avx512<Group, 1, false>(layers, active + n, out + n);
    } else {
      layer1_avx512<Group, 2, false>(layers, active + n, out + n);
    }
  }
  if constexpr (Group > 1) {
    if (n < count) layer1_in_groups_avx512<Group / 2>(layers, active + n, count - n, out + n);
  }
}

// forward_batch with layers.sparse: layer 1's sums per observation as above, then its tanh and
// layers 2 and 3 of 16 observations at once (detail::sparse_layers23_avx512). Returns how
// many observations it took: the rest, fewer than layers.sparse_minimum, are for the row
// kernels.
template <typename Observation, typename View>
std::size_t forward_batch_sparse_avx512(const Layers& layers, std::span<const Observation> observations,
                                        std::span<Logits> logits, View view) {
  constexpr int kLanes = 16;
  PolicyActivations activations[kLanes];
  std::span<const std::uint16_t> group[kLanes];
  std::size_t b = 0;
  for (; b < observations.size(); b += kLanes) {
    const int count = static_cast<int>(std::min<std::size_t>(kLanes, observations.size() - b));
    if (count < layers.sparse_minimum) break;
    for (int n = 0; n < count; ++n) group[n] = view(observations[b + static_cast<std::size_t>(n)]);
    // The lanes past the last observation compute on zeros; nothing reads their results.
    for (int n = count; n < kLanes; ++n) activations[n].hidden1.fill(0.0f);
    layer1_in_groups_avx512(layers, group, count, activations);
    detail::sparse_layers23_avx512(layers, activations, count, logits.data() + b);
  }
  return std::min(b, observations.size());
}

#pragma GCC pop_options
#endif

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
      return with_widths<16>(layers, [&]<int V1, int V2, bool Full>() { forward_group_avx512<N, V1, V2, Full>(layers, active, out); });
#endif
#if WEIGHTSPACE_SIMD_AVX2
    case SimdLevel::avx2:
      return with_widths<8>(layers, [&]<int V1, int V2, bool Full>() { forward_group_avx2<N, V1, V2, Full>(layers, active, out); });
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

template <typename Observation, typename View>
void forward_batch_of(const Layers& layers, std::span<const Observation> observations, std::span<Logits> logits,
                      SimdLevel level, View view) {
  if (observations.size() != logits.size()) throw std::invalid_argument("forward_batch: size mismatch");
  if (level == SimdLevel::avx512) {
#if WEIGHTSPACE_SIMD_AVX512
    if (layers.sparse != nullptr) {
      const std::size_t done = forward_batch_sparse_avx512(layers, observations, logits, view);
      observations = observations.subspan(done);
      logits = logits.subspan(done);
    }
#endif
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
