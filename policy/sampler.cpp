// SPDX-License-Identifier: GPL-3.0-or-later
#include "policy/sampler.hpp"

#include "policy/transpose8.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <stdexcept>

#if defined(__AVX2__)
#include <immintrin.h>
#endif

namespace weightspace {

ActionDistribution action_distribution(const Logits& logits) {
  ActionDistribution result;
  // np.max over float32, then the subtraction in float64 (the float32 max is exact in float64).
  const float maximum = *std::max_element(logits.begin(), logits.end());
  for (int k = 0; k < kActionCount; ++k) {
    result.probabilities[k] = std::exp(static_cast<double>(logits[k]) - static_cast<double>(maximum));
  }
  // numpy's add.reduce starts from the identity 0.0 and, below eight elements, adds in order.
  double sum = 0.0;
  for (const double p : result.probabilities) sum += p;
  for (double& p : result.probabilities) p /= sum;
  RandomState::choice_cdf(result.probabilities, result.cdf);
  return result;
}

double ActionSample::margin() const {
  double nearest = std::numeric_limits<double>::infinity();
  for (int k = 0; k + 1 < kActionCount; ++k) nearest = std::min(nearest, std::fabs(uniform - distribution.cdf[k]));
  return nearest;
}

ActionSample sample_action_detailed(const Logits& logits, RandomState& random) {
  ActionSample sample;
  sample.distribution = action_distribution(logits);
  // What RandomState::choice does after building the cdf, kept apart to expose the uniform.
  sample.uniform = random.random_sample();
  sample.action = RandomState::search_right(sample.distribution.cdf, sample.uniform);
  return sample;
}

namespace {

// Eight floats in GCC's portable vector type (one AVX2 register here).
using Float8 = float __attribute__((vector_size(32)));
using Int8 = std::int32_t __attribute__((vector_size(32)));

// exp(x) in float32 for x <= 0: relative error below 2e-7 (measured against glibc) down to
// x = -87, and 0 below (where exp(x) < 2e-38); NaN stays NaN. Only used to decide actions far
// from every cdf edge, never as a result. x = k ln2 + r with |r| <= ln2/2 (ln2 split so that
// k * high is exact), then the degree-7 Taylor polynomial of exp(r) (truncation below 6e-9).
[[gnu::always_inline]] inline Float8 approximate_exp(Float8 x) {
  constexpr float kLog2e = 0x1.715476p0f;
  constexpr float kLn2High = 0x1.62e400p-1f;
  constexpr float kLn2Low = 0x1.7f7d1cp-20f;
  constexpr float kRoundShift = 0x1.8p23f;  // adding it rounds to an integer in the low bits
  constexpr float kSmallest = -87.0f;
  const Float8 clamped = x < kSmallest ? kSmallest : x;
  const Float8 shifted = clamped * kLog2e + kRoundShift;
  const Float8 k = shifted - kRoundShift;
  const Float8 r = (clamped - k * kLn2High) - k * kLn2Low;
  const Float8 r2 = r * r;
  const Float8 low = (1.0f + r) + (0.5f + r * (1.0f / 6)) * r2;
  const Float8 high = ((1.0f / 24) + r * (1.0f / 120)) + ((1.0f / 720) + r * (1.0f / 5040)) * r2;
  const Float8 polynomial = low + high * (r2 * r2);
  const Int8 exponent = std::bit_cast<Int8>(shifted) - std::bit_cast<std::int32_t>(kRoundShift);
  const Float8 scale = std::bit_cast<Float8>((exponent + 127) << 23);
  return x < kSmallest ? 0.0f : polynomial * scale;
}

// How close (relative to the total) a cdf edge may come to the draw before the approximate
// decision is not trusted. The float32 cdf below stays within 1e-6 of numpy's (2.5e-7 measured
// over 3 million random logit vectors), so 2^-13 (1.2e-4) leaves a factor of 100; about one
// draw in 800 comes that close and takes the exact path.
constexpr float kDecisionMargin = 0x1p-13f;

// Out of line so that the common path needs no stack frame.
[[gnu::noinline]] int exact_action(const Logits& logits, double uniform) {
  return RandomState::search_right(action_distribution(logits).cdf, uniform);
}

}  // namespace

namespace detail {

int action_for_uniform(const Logits& logits, double uniform) {
  const float maximum = *std::max_element(logits.begin(), logits.end());
  // Lanes 6 and 7 are padding far below the underflow limit, so they come out as 0.
  const Float8 x = Float8{logits[0], logits[1], logits[2], logits[3], logits[4], logits[5], -1e30f, -1e30f} - maximum;
  const Float8 p = approximate_exp(x);
  // Compare cumulative sums with uniform * total instead of dividing.
  float cumulative[kActionCount];
  float running = 0.0f;
  for (int k = 0; k < kActionCount; ++k) cumulative[k] = running += p[k];
  const float total = cumulative[kActionCount - 1];
  const float threshold = static_cast<float>(uniform) * total;
  const float margin = kDecisionMargin * total;
  int action = 0;
  bool clear = true;  // stays false for NaN, so non-finite logits take the exact path
  for (int k = 0; k + 1 < kActionCount; ++k) {
    action += cumulative[k] <= threshold;
    clear &= std::fabs(cumulative[k] - threshold) > margin;
  }
  // The last cdf entry is exactly 1.0 and every draw is below 1, so it never counts.
  if (clear) return action;
  return exact_action(logits, uniform);
}

}  // namespace detail

namespace {

// The logits of eight episodes as six columns (column[k] lane n = rows[n][k]), and their draws
// as floats. With AVX2: eight loads of six lanes (none reads past a row) and a transpose in
// registers; writing the columns to memory lane by lane and loading them whole would stall
// every load until its eight stores had reached the cache.
[[gnu::always_inline]] inline void load_group(const Logits* rows, const double* uniforms, Float8 column[kActionCount],
                                              Float8& draws) {
#if defined(__AVX2__)
  const __m256i six = _mm256_setr_epi32(-1, -1, -1, -1, -1, -1, 0, 0);
  __m256 r[8];
  for (int n = 0; n < 8; ++n) r[n] = _mm256_maskload_ps(rows[n].data(), six);
  __m256 columns[8];
  detail::transpose8(r, columns);
  for (int k = 0; k < kActionCount; ++k) column[k] = Float8(columns[k]);
  draws = Float8(_mm256_set_m128(_mm256_cvtpd_ps(_mm256_loadu_pd(uniforms + 4)), _mm256_cvtpd_ps(_mm256_loadu_pd(uniforms))));
#else
  for (int k = 0; k < kActionCount; ++k) {
    for (int n = 0; n < 8; ++n) column[k][n] = rows[n][static_cast<std::size_t>(k)];
  }
  for (int n = 0; n < 8; ++n) draws[n] = static_cast<float>(uniforms[n]);
#endif
}

}  // namespace

void actions_for_draws(std::span<const Logits> logits, std::span<const double> uniforms, std::span<int> actions) {
  if (uniforms.size() != logits.size() || actions.size() != logits.size()) {
    throw std::invalid_argument("actions_for_draws: size mismatch");
  }
  constexpr std::size_t kLanes = 8;
  std::size_t b = 0;
  // action_for_uniform's arithmetic, lane n doing episode b + n: the same float operations in
  // the same order, so the same decisions.
  for (; b + kLanes <= logits.size(); b += kLanes) {
    Float8 column[kActionCount];
    Float8 threshold;
    load_group(logits.data() + b, uniforms.data() + b, column, threshold);
    Float8 maximum = column[0];
    for (int k = 1; k < kActionCount; ++k) maximum = column[k] > maximum ? column[k] : maximum;
    Float8 cumulative[kActionCount];
    Float8 running = Float8{} + 0.0f;
    for (int k = 0; k < kActionCount; ++k) cumulative[k] = running += approximate_exp(column[k] - maximum);
    const Float8 total = cumulative[kActionCount - 1];
    threshold *= total;
    const Float8 margin = kDecisionMargin * total;
    Int8 action = Int8{} + 0;
    Int8 clear = Int8{} - 1;  // NaN compares false, so non-finite logits take the exact path
    for (int k = 0; k + 1 < kActionCount; ++k) {
      action -= cumulative[k] <= threshold;
      const Float8 distance = cumulative[k] - threshold;
      clear &= (distance > margin) | (-distance > margin);
    }
    std::memcpy(actions.data() + b, &action, sizeof action);
    for (std::size_t n = 0; n < kLanes; ++n) {
      if (clear[n] == 0) [[unlikely]] actions[b + n] = exact_action(logits[b + n], uniforms[b + n]);
    }
  }
  for (; b < logits.size(); ++b) actions[b] = detail::action_for_uniform(logits[b], uniforms[b]);
}

int sample_action(const Logits& logits, RandomState& random) {
  return detail::action_for_uniform(logits, random.random_sample());
}

}  // namespace weightspace
