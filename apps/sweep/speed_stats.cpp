// SPDX-License-Identifier: GPL-3.0-or-later
#include "apps/sweep/speed_stats.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

namespace weightspace::app {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// P(Bin(n, 1/2) <= k).
double binomial_cdf_half(std::size_t n, std::size_t k) {
  double term = std::pow(0.5, static_cast<double>(n));  // C(n, 0) / 2^n
  double sum = 0.0;
  for (std::size_t i = 0; i <= k && i <= n; ++i) {
    sum += term;
    term = term * static_cast<double>(n - i) / static_cast<double>(i + 1);
  }
  return sum;
}

struct Ranked {
  double first_rank_sum = 0.0;
  double tie_term = 0.0;  // sum of t^3 - t over groups of t equal values
};

// Ranks of the pooled samples, ties given their average rank.
Ranked rank(const std::vector<double>& first, const std::vector<double>& second) {
  std::vector<std::pair<double, bool>> pooled;
  for (const double value : first) pooled.emplace_back(value, true);
  for (const double value : second) pooled.emplace_back(value, false);
  std::sort(pooled.begin(), pooled.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  Ranked ranked;
  for (std::size_t start = 0; start < pooled.size();) {
    std::size_t end = start;
    while (end < pooled.size() && pooled[end].first == pooled[start].first) ++end;
    const double average = (static_cast<double>(start + 1) + static_cast<double>(end)) / 2.0;
    for (std::size_t i = start; i < end; ++i) ranked.first_rank_sum += pooled[i].second ? average : 0.0;
    const double t = static_cast<double>(end - start);
    ranked.tie_term += t * t * t - t;
    start = end;
  }
  return ranked;
}

double u_of_first(const std::vector<double>& first, const Ranked& ranked) {
  const double n1 = static_cast<double>(first.size());
  return ranked.first_rank_sum - n1 * (n1 + 1) / 2.0;
}

// The number of arrangements giving each U, 0..n1*n2: the coefficients of the Gaussian
// binomial [n1+n2 choose n1]_q = prod_{i=1..n1} (1 - q^(n2+i)) / (1 - q^i).
std::vector<double> u_frequencies(std::size_t n1, std::size_t n2) {
  std::vector<double> c(n1 * n2 + 1, 0.0);
  c[0] = 1.0;
  for (std::size_t i = 1; i <= n1; ++i) {
    for (std::size_t k = c.size(); k-- > n2 + i;) c[k] -= c[k - n2 - i];  // times (1 - q^(n2+i))
    for (std::size_t k = i; k < c.size(); ++k) c[k] += c[k - i];          // divided by (1 - q^i)
  }
  return c;
}

}  // namespace

double median(std::vector<double> values) {
  if (values.empty()) return kNaN;
  std::sort(values.begin(), values.end());
  const std::size_t half = values.size() / 2;
  return values.size() % 2 == 1 ? values[half] : (values[half - 1] + values[half]) / 2.0;
}

MedianInterval median_interval(const std::vector<double>& values, double confidence) {
  if (values.empty()) return {kNaN, kNaN, kNaN, kNaN};
  std::vector<double> sorted = values;
  std::sort(sorted.begin(), sorted.end());
  const std::size_t n = sorted.size();
  const double tail = (1.0 - confidence) / 2.0;
  std::size_t k = 1;  // 1-based order statistic; 1 (min..max) when none reaches the confidence
  while (k + 1 <= (n + 1) / 2 && binomial_cdf_half(n, k) <= tail) ++k;
  return {median(sorted), sorted[k - 1], sorted[n - k], 1.0 - 2.0 * binomial_cdf_half(n, k - 1)};
}

MannWhitney mann_whitney_u_exact(const std::vector<double>& first, const std::vector<double>& second) {
  const Ranked ranked = rank(first, second);
  const double u1 = u_of_first(first, ranked);
  const double u = std::max(u1, static_cast<double>(first.size() * second.size()) - u1);
  const std::vector<double> frequencies = u_frequencies(first.size(), second.size());
  double total = 0.0;
  double upper = 0.0;
  for (std::size_t k = 0; k < frequencies.size(); ++k) {
    total += frequencies[k];
    if (static_cast<double>(k) >= u) upper += frequencies[k];
  }
  return {u1, std::min(1.0, 2.0 * upper / total), true};
}

MannWhitney mann_whitney_u_asymptotic(const std::vector<double>& first, const std::vector<double>& second) {
  const Ranked ranked = rank(first, second);
  const double u1 = u_of_first(first, ranked);
  const double n1 = static_cast<double>(first.size());
  const double n2 = static_cast<double>(second.size());
  const double n = n1 + n2;
  const double u = std::max(u1, n1 * n2 - u1);
  const double spread = std::sqrt(n1 * n2 / 12.0 * ((n + 1.0) - ranked.tie_term / (n * (n - 1.0))));
  if (!(spread > 0.0)) return {u1, 1.0, false};  // all values equal: no evidence of a difference
  const double z = (u - n1 * n2 / 2.0 - 0.5) / spread;
  return {u1, std::clamp(std::erfc(z / std::sqrt(2.0)), 0.0, 1.0), false};
}

MannWhitney mann_whitney_u(const std::vector<double>& first, const std::vector<double>& second) {
  if (first.empty() || second.empty()) return {kNaN, 1.0, false};
  const bool small = first.size() <= kExactMannWhitney && second.size() <= kExactMannWhitney;
  const bool ties = rank(first, second).tie_term > 0.0;
  return small && !ties ? mann_whitney_u_exact(first, second) : mann_whitney_u_asymptotic(first, second);
}

const char* verdict_name(SpeedJudgement::Verdict verdict) {
  switch (verdict) {
    case SpeedJudgement::Verdict::Regression:
      return "regression";
    case SpeedJudgement::Verdict::NotRegression:
      return "not a regression";
    case SpeedJudgement::Verdict::NotJudged:
      break;
  }
  return "not judged";
}

SpeedJudgement judge_speed(const std::vector<double>& base_rates, double base_shortest,
                           const std::vector<double>& new_rates, double new_shortest, double tolerance) {
  SpeedJudgement judgement;
  judgement.base = median_interval(base_rates);
  judgement.now = median_interval(new_rates);
  judgement.change = judgement.now.median / judgement.base.median - 1.0;
  judgement.change_low = judgement.now.low / judgement.base.high - 1.0;
  judgement.change_high = judgement.now.high / judgement.base.low - 1.0;
  judgement.test = mann_whitney_u(base_rates, new_rates);
  char text[200];
  const std::size_t fewest = std::min(base_rates.size(), new_rates.size());
  const double shortest = std::min(base_shortest, new_shortest);
  auto width = [](const MedianInterval& side) { return (side.high - side.low) / side.median; };
  const double widest = std::max(width(judgement.base), width(judgement.now));
  if (fewest < kMinRepetitions) {
    std::snprintf(text, sizeof text, "not judged: too few repetitions (%zu, need %zu)", fewest, kMinRepetitions);
  } else if (shortest < kShortestRepetition) {
    std::snprintf(text, sizeof text, "not judged: too short (%.3f s per repetition, need %.1f s)", shortest,
                  kShortestRepetition);
  } else if (!(widest <= 2.0 * tolerance) && judgement.change_high < -tolerance &&
             judgement.test.p < kSignificance) {
    // Noisy, but slower beyond the noise: even the change interval's edge nearest zero is beyond
    // the tolerance (a loaded machine still shows a build twice as slow).
    judgement.verdict = SpeedJudgement::Verdict::Regression;
    std::snprintf(text, sizeof text,
                  "regression: %+.1f%%, beyond %.1f%% over its whole interval (to %+.1f%%) and significant (p = %.3g)",
                  100.0 * judgement.change, 100.0 * tolerance, 100.0 * judgement.change_high, judgement.test.p);
  } else if (!(widest <= 2.0 * tolerance)) {
    std::snprintf(text, sizeof text, "not judged: too noisy (a median's interval spans %.1f%%, more than %.1f%%)",
                  100.0 * widest, 200.0 * tolerance);
  } else if (judgement.change < -tolerance && judgement.test.p < kSignificance) {
    judgement.verdict = SpeedJudgement::Verdict::Regression;
    std::snprintf(text, sizeof text, "regression: %+.1f%%, beyond %.1f%% and significant (p = %.3g)",
                  100.0 * judgement.change, 100.0 * tolerance, judgement.test.p);
  } else {
    judgement.verdict = SpeedJudgement::Verdict::NotRegression;
    std::snprintf(text, sizeof text, "not a regression: %+.1f%% (%s, p = %.3g)", 100.0 * judgement.change,
                  judgement.change < -tolerance ? "not significant" : "within the tolerance", judgement.test.p);
  }
  judgement.reason = text;
  return judgement;
}

}  // namespace weightspace::app
