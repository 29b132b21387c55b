// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The vector kernels of forward.cpp (internal: included by it alone), per SIMD level: the row
// kernels, which give each observation its own registers, and the driver of the lanes, which
// puts the observations in a register's lanes (forward_sparse.cpp).

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>

#include "policy/layers.hpp"

namespace weightspace::detail {

// The vector kernels below process N observations at once. Every accumulator lane is one
// output of one observation and adds its terms in exactly the order of forward_scalar; the
// N observations only interleave independent dependency chains. Hidden layers go through
// memory because layers 2 and 3 broadcast them one input at a time. V1 and V2 are the
// registers a hidden layer takes (its width over the register's lanes).

// forward_batch with layers.sparse at a vector level of Lanes floats: layer 1's sums per
// observation (layer1_sums), then its tanh and layers 2 and 3 of Lanes observations at once
// (layers23: detail::sparse_layers23_*). Returns how many observations it took: the rest,
// fewer than `minimum`, are for the row kernels. Always inlined, into one function per level
// compiled for that level: the level's kernels are then direct calls from code built for it,
// which GCC may inline (it keeps layer1_avx512<8, 1, false> out of line; no cost measured).
template <int Lanes, typename Observation, typename View, typename Layer1Sums, typename Layers23>
[[gnu::always_inline]] inline std::size_t forward_batch_sparse(const Layers& layers, int minimum,
                                                               std::span<const Observation> observations,
                                                               std::span<Logits> logits, View view,
                                                               Layer1Sums layer1_sums, Layers23 layers23) {
  PolicyActivations activations[Lanes];
  std::span<const std::uint16_t> group[Lanes];
  std::size_t b = 0;
  for (; b < observations.size(); b += Lanes) {
    const int count = static_cast<int>(std::min<std::size_t>(Lanes, observations.size() - b));
    if (count < minimum) break;
    for (int n = 0; n < count; ++n) group[n] = view(observations[b + static_cast<std::size_t>(n)]);
    // The lanes past the last observation compute on zeros; nothing reads their results.
    for (int n = count; n < Lanes; ++n) activations[n].hidden1.fill(0.0f);
    layer1_sums(layers, group, count, activations);
    layers23(layers, activations, count, logits.data() + b);
  }
  return std::min(b, observations.size());
}

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

// Layer 1 of N observations, then (forward_group_avx2) layers 2 and 3 from its stored units.
// Without kTanh it stores the sums for the sparse path (forward_batch_sparse).
template <int N, int V1, bool kTanh = true>
void layer1_avx2(const Layers& layers, const std::span<const std::uint16_t>* active, PolicyActivations* out) {
  constexpr int kWidth1 = 8 * V1;
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
      _mm256_store_ps(out[n].hidden1.data() + 8 * v, kTanh ? detail::numpy_tanh_8(sum) : sum);
    }
  }
}

template <int N, int V1, int V2, bool Full>
void forward_group_avx2(const Layers& layers, const std::span<const std::uint16_t>* active, PolicyActivations* out) {
  layer1_avx2<N, V1>(layers, active, out);
  constexpr int kWidth2 = 8 * V2;
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

// Layer 1's sums (before tanh) of observations active[0, count) in pairs, then one (AVX2's
// row kernels run two observations: 16 registers).
template <int Group = 2>
void layer1_in_groups_avx2(const Layers& layers, const std::span<const std::uint16_t>* active, int count,
                           PolicyActivations* out) {
  int n = 0;
  for (; n + Group <= count; n += Group) {
    if (layers.width1 == 16) {
      layer1_avx2<Group, 2, false>(layers, active + n, out + n);
    } else {
      layer1_avx2<Group, 4, false>(layers, active + n, out + n);
    }
  }
  if constexpr (Group > 1) {
    if (n < count) layer1_in_groups_avx2<Group / 2>(layers, active + n, count - n, out + n);
  }
}

template <typename Observation, typename View>
std::size_t forward_batch_lanes_avx2(const Layers& layers, int minimum, std::span<const Observation> observations,
                                     std::span<Logits> logits, View view) {
  return forward_batch_sparse<8>(layers, minimum, observations, logits, view, layer1_in_groups_avx2<2>,
                                 detail::sparse_layers23_avx2);
}

#endif

#if WEIGHTSPACE_SIMD_AVX512
#pragma GCC push_options
#pragma GCC target("avx512f")

// The AVX2 kernel with 16-lane registers: tanh looks its coefficients up with permutes
// instead of loads and transposes. Layer 1 and then layers 2 and 3, separately for the
// sparse path (forward_batch_sparse), which takes layer 1's sums before tanh.
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
  std::size_t longest = common;
  for (int n = 1; n < N; ++n) {
    common = std::min(common, active[n].size());
    longest = std::max(longest, active[n].size());
  }
  for (std::size_t i = 0; i < common; ++i) {
    for (int n = 0; n < N; ++n) add_row(n, i);
  }
  // Past the shortest list the observations still step together, each adding its next row
  // or (its list done) nothing: a masked add. Their own loops, one after another, were
  // latency-bound chains ending in a mispredicted exit each (a third of this kernel's time
  // on synth asterix). A done lane re-reads its last input, so no read leaves its list.
  if (common < longest) {
    static constexpr std::uint16_t kNoInput = 0;
    const std::uint16_t* inputs[N];
    std::size_t last[N];
    for (int n = 0; n < N; ++n) {
      const bool empty = active[n].empty();
      inputs[n] = empty ? &kNoInput : active[n].data();
      last[n] = empty ? 0 : active[n].size() - 1;
    }
    for (std::size_t i = common; i < longest; ++i) {
      for (int n = 0; n < N; ++n) {
        const __mmask16 live = _cvtu32_mask16(0U - static_cast<unsigned>(i < active[n].size()));
        const float* row = layers.w1 + std::size_t{inputs[n][std::min(i, last[n])]} * kWidth1;
        for (int v = 0; v < V1; ++v) {
          acc[n][v] = _mm512_mask_add_ps(acc[n][v], live, acc[n][v], _mm512_loadu_ps(row + 16 * v));
        }
      }
    }
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

template <typename Observation, typename View>
std::size_t forward_batch_lanes_avx512(const Layers& layers, int minimum, std::span<const Observation> observations,
                                       std::span<Logits> logits, View view) {
  return forward_batch_sparse<16>(layers, minimum, observations, logits, view, layer1_in_groups_avx512<8>,
                                  detail::sparse_layers23_avx512);
}

#pragma GCC pop_options
#endif

}  // namespace weightspace::detail
