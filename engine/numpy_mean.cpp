// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/numpy_mean.hpp"

#include <cstddef>
#include <limits>

namespace weightspace {

namespace {

// numpy/core/src/umath/loops_utils.h.src, pairwise_sum for doubles (numpy is BSD-3-Clause).
double pairwise_sum(const double* a, std::size_t n) {
  constexpr std::size_t kBlock = 128;
  if (n < 8) {
    double sum = 0.0;
    for (std::size_t i = 0; i < n; ++i) sum += a[i];
    return sum;
  }
  if (n <= kBlock) {
    double r[8];
    for (int j = 0; j < 8; ++j) r[j] = a[j];
    std::size_t i = 8;
    for (; i < n - (n % 8); i += 8) {
      for (std::size_t j = 0; j < 8; ++j) r[j] += a[i + j];
    }
    double sum = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
    for (; i < n; ++i) sum += a[i];
    return sum;
  }
  std::size_t half = n / 2;
  half -= half % 8;
  return pairwise_sum(a, half) + pairwise_sum(a + half, n - half);
}

}  // namespace

double numpy_mean(std::span<const double> values) {
  if (values.empty()) return std::numeric_limits<double>::quiet_NaN();
  const double sum = 0.0 + pairwise_sum(values.data(), values.size());
  return sum / static_cast<double>(values.size());
}

}  // namespace weightspace
