// SPDX-License-Identifier: GPL-3.0-or-later
#include "policy/forward.hpp"

#include <algorithm>
#include <stdexcept>

namespace weightspace {

void forward_reference(const Weights& weights, std::span<const std::uint16_t> active, PolicyActivations& out) {
  const float* w1 = weights.w1();
  for (int j = 0; j < kHiddenCount; ++j) {
    float sum = 0.0f;
    for (const std::uint16_t input : active) sum += w1[input * kHiddenCount + j];
    out.hidden1[j] = sum + weights.b1()[j];
  }
  numpy_tanh(out.hidden1, out.hidden1, SimdLevel::scalar);
  for (int j = 0; j < kHiddenCount; ++j) {
    float sum = 0.0f;
    for (int i = 0; i < kHiddenCount; ++i) sum += out.hidden1[i] * weights.w2()[i * kHiddenCount + j];
    out.hidden2[j] = sum + weights.b2()[j];
  }
  numpy_tanh(out.hidden2, out.hidden2, SimdLevel::scalar);
  for (int j = 0; j < kActionCount; ++j) {
    float sum = 0.0f;
    for (int i = 0; i < kHiddenCount; ++i) sum += out.hidden2[i] * weights.w3()[i * kActionCount + j];
    out.logits[j] = sum + weights.b3()[j];
  }
}

namespace {

// The vector kernels below process N observations at once. Every accumulator lane is one
// output of one observation and adds its terms in exactly the order of forward_reference; the
// N observations only interleave independent dependency chains. Hidden layers go through
// memory because layers 2 and 3 broadcast them one input at a time.

#if WEIGHTSPACE_SIMD_AVX2

// Row i of W3 is read as 8 floats; the two extra ones belong to the next row or, for the last
// row, to b3, which follows W3 in the same buffer. Lanes 6 and 7 are never stored.
static_assert(shape_of(Tensor::b3).offset == shape_of(Tensor::W3).offset + kHiddenCount * kActionCount);
static_assert(shape_of(Tensor::b3).rows >= 2);

// Layer 3 is the same for both vector levels: six outputs fit one 8-lane register.
template <int N>
inline void output_layer_avx2(const Weights& weights, PolicyActivations* out) {
  const float* w3 = weights.w3();
  __m256 acc[N];
  for (int n = 0; n < N; ++n) acc[n] = _mm256_setzero_ps();
  for (int i = 0; i < kHiddenCount; ++i) {
    const __m256 row = _mm256_loadu_ps(w3 + i * kActionCount);
    for (int n = 0; n < N; ++n) {
      acc[n] = _mm256_add_ps(acc[n], _mm256_mul_ps(_mm256_broadcast_ss(out[n].hidden2.data() + i), row));
    }
  }
  const __m256 b3 = _mm256_maskload_ps(weights.b3(), _mm256_setr_epi32(-1, -1, -1, -1, -1, -1, 0, 0));
  for (int n = 0; n < N; ++n) {
    alignas(32) float logits[8];
    _mm256_store_ps(logits, _mm256_add_ps(acc[n], b3));
    std::copy_n(logits, kActionCount, out[n].logits.begin());
  }
}

template <int N>
void forward_group_avx2(const Weights& weights, const std::span<const std::uint16_t>* active, PolicyActivations* out) {
  constexpr int kVectors = kHiddenCount / 8;
  const float* w1 = weights.w1();
  __m256 acc[N][kVectors];
  for (int n = 0; n < N; ++n) {
    for (int v = 0; v < kVectors; ++v) acc[n][v] = _mm256_setzero_ps();
  }
  auto add_row = [&](int n, std::size_t i) {
    const float* row = w1 + active[n][i] * kHiddenCount;
    for (int v = 0; v < kVectors; ++v) acc[n][v] = _mm256_add_ps(acc[n][v], _mm256_loadu_ps(row + 8 * v));
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
    for (int v = 0; v < kVectors; ++v) {
      const __m256 sum = _mm256_add_ps(acc[n][v], _mm256_loadu_ps(weights.b1() + 8 * v));
      _mm256_store_ps(out[n].hidden1.data() + 8 * v, detail::numpy_tanh_8(sum));
    }
  }

  const float* w2 = weights.w2();
  for (int n = 0; n < N; ++n) {
    for (int v = 0; v < kVectors; ++v) acc[n][v] = _mm256_setzero_ps();
  }
  for (int i = 0; i < kHiddenCount; ++i) {
    __m256 row[kVectors];
    for (int v = 0; v < kVectors; ++v) row[v] = _mm256_loadu_ps(w2 + i * kHiddenCount + 8 * v);
    for (int n = 0; n < N; ++n) {
      const __m256 h = _mm256_broadcast_ss(out[n].hidden1.data() + i);
      for (int v = 0; v < kVectors; ++v) acc[n][v] = _mm256_add_ps(acc[n][v], _mm256_mul_ps(h, row[v]));
    }
  }
  for (int n = 0; n < N; ++n) {
    for (int v = 0; v < kVectors; ++v) {
      const __m256 sum = _mm256_add_ps(acc[n][v], _mm256_loadu_ps(weights.b2() + 8 * v));
      _mm256_store_ps(out[n].hidden2.data() + 8 * v, detail::numpy_tanh_8(sum));
    }
  }
  output_layer_avx2<N>(weights, out);
}

#endif

#if WEIGHTSPACE_SIMD_AVX512
#pragma GCC push_options
#pragma GCC target("avx512f")

// The AVX2 kernel with 16-lane registers: a hidden layer is two registers, and tanh looks its
// coefficients up with permutes instead of loads and transposes.
template <int N>
void forward_group_avx512(const Weights& weights, const std::span<const std::uint16_t>* active,
                          PolicyActivations* out) {
  constexpr int kVectors = kHiddenCount / 16;
  const float* w1 = weights.w1();
  __m512 acc[N][kVectors];
  for (int n = 0; n < N; ++n) {
    for (int v = 0; v < kVectors; ++v) acc[n][v] = _mm512_setzero_ps();
  }
  auto add_row = [&](int n, std::size_t i) {
    const float* row = w1 + active[n][i] * kHiddenCount;
    for (int v = 0; v < kVectors; ++v) acc[n][v] = _mm512_add_ps(acc[n][v], _mm512_loadu_ps(row + 16 * v));
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
    for (int v = 0; v < kVectors; ++v) {
      const __m512 sum = _mm512_add_ps(acc[n][v], _mm512_loadu_ps(weights.b1() + 16 * v));
      _mm512_store_ps(out[n].hidden1.data() + 16 * v, detail::numpy_tanh_16(sum));
    }
  }

  const float* w2 = weights.w2();
  for (int n = 0; n < N; ++n) {
    for (int v = 0; v < kVectors; ++v) acc[n][v] = _mm512_setzero_ps();
  }
  for (int i = 0; i < kHiddenCount; ++i) {
    __m512 row[kVectors];
    for (int v = 0; v < kVectors; ++v) row[v] = _mm512_loadu_ps(w2 + i * kHiddenCount + 16 * v);
    for (int n = 0; n < N; ++n) {
      const __m512 h = _mm512_set1_ps(out[n].hidden1[i]);
      for (int v = 0; v < kVectors; ++v) acc[n][v] = _mm512_add_ps(acc[n][v], _mm512_mul_ps(h, row[v]));
    }
  }
  for (int n = 0; n < N; ++n) {
    for (int v = 0; v < kVectors; ++v) {
      const __m512 sum = _mm512_add_ps(acc[n][v], _mm512_loadu_ps(weights.b2() + 16 * v));
      _mm512_store_ps(out[n].hidden2.data() + 16 * v, detail::numpy_tanh_16(sum));
    }
  }
  output_layer_avx2<N>(weights, out);
}

#pragma GCC pop_options
#endif

template <int N>
void forward_group(const Weights& weights, const std::span<const std::uint16_t>* active, PolicyActivations* out,
                   SimdLevel level) {
  switch (level) {
#if WEIGHTSPACE_SIMD_AVX512
    case SimdLevel::avx512:
      return forward_group_avx512<N>(weights, active, out);
#endif
#if WEIGHTSPACE_SIMD_AVX2
    case SimdLevel::avx2:
      return forward_group_avx2<N>(weights, active, out);
#endif
    default:
      for (int n = 0; n < N; ++n) forward_reference(weights, active[n], out[n]);
  }
}

// forward_batch runs Group observations per kernel call: enough independent chains to keep
// the floating-point adders busy without running out of registers (16 vector registers with
// AVX2, 32 with AVX-512).
template <int Group, typename Observation, typename View>
void forward_batch_in_groups(const Weights& weights, std::span<const Observation> observations,
                             std::span<Logits> logits, SimdLevel level, View view) {
  PolicyActivations activations[Group];
  std::span<const std::uint16_t> group[Group];
  std::size_t b = 0;
  for (; b + Group <= observations.size(); b += Group) {
    for (int n = 0; n < Group; ++n) group[n] = view(observations[b + n]);
    forward_group<Group>(weights, group, activations, level);
    for (int n = 0; n < Group; ++n) logits[b + n] = activations[n].logits;
  }
  // The rest (fewer than Group) in half-size groups, down to single observations.
  if constexpr (Group > 1) {
    if (b < observations.size()) {
      forward_batch_in_groups<Group / 2>(weights, observations.subspan(b), logits.subspan(b), level, view);
    }
  }
}

template <typename Observation, typename View>
void forward_batch_of(const Weights& weights, std::span<const Observation> observations, std::span<Logits> logits,
                      SimdLevel level, View view) {
  if (observations.size() != logits.size()) throw std::invalid_argument("forward_batch: size mismatch");
  if (level == SimdLevel::avx512) {
    forward_batch_in_groups<8>(weights, observations, logits, level, view);
  } else {
    forward_batch_in_groups<2>(weights, observations, logits, level, view);
  }
}

SimdLevel checked(SimdLevel level) {
  if (!simd_level_available(level)) throw std::invalid_argument("forward: SIMD level not available");
  return level;
}

}  // namespace

void forward(const Weights& weights, std::span<const std::uint16_t> active, PolicyActivations& out) {
  forward_group<1>(weights, &active, &out, best_simd_level());
}

void forward(const Weights& weights, std::span<const std::uint16_t> active, PolicyActivations& out,
             SimdLevel level) {
  forward_group<1>(weights, &active, &out, checked(level));
}

Logits policy_logits(const Weights& weights, std::span<const std::uint16_t> active) {
  PolicyActivations activations;
  forward_group<1>(weights, &active, &activations, best_simd_level());
  return activations.logits;
}

void forward_batch(const Weights& weights, std::span<const std::span<const std::uint16_t>> observations,
                   std::span<Logits> logits, SimdLevel level) {
  forward_batch_of(weights, observations, logits, checked(level),
                   [](std::span<const std::uint16_t> view) { return view; });
}

void forward_batch(const Weights& weights, std::span<const ActiveInputs> observations, std::span<Logits> logits,
                   SimdLevel level) {
  forward_batch_of(weights, observations, logits, checked(level),
                   [](const ActiveInputs& inputs) { return inputs.view(); });
}

void forward_batch(const Weights& weights, std::span<const std::span<const std::uint16_t>> observations,
                   std::span<Logits> logits) {
  forward_batch(weights, observations, logits, best_simd_level());
}

void forward_batch(const Weights& weights, std::span<const ActiveInputs> observations, std::span<Logits> logits) {
  forward_batch(weights, observations, logits, best_simd_level());
}

}  // namespace weightspace
