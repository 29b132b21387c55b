// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace weightspace::app {

// The statistics that judge a wall-time speed change between two runs (docs/user-guide.md
// "How a speed regression is decided"). Pure functions of their samples: no clock, no I/O.

double median(std::vector<double> values);

// A distribution-free confidence interval for the median: the order statistics x(k), x(n-k+1)
// with the largest k whose binomial tail P(Bin(n, 1/2) < k) is at most (1 - confidence) / 2.
// Below 6 samples no k reaches 95%: the interval is then min..max and `confidence` says what
// it covers. Empty samples: all NaN.
struct MedianInterval {
  double median = 0.0;
  double low = 0.0;
  double high = 0.0;
  double confidence = 0.0;  // the interval's exact coverage, e.g. 0.9609 for 9 samples at 95%
};
MedianInterval median_interval(const std::vector<double>& values, double confidence = 0.95);

// The Mann–Whitney U test of two independent samples, two-sided, as scipy.stats.mannwhitneyu
// computes it: u is U of the first sample (its rank sum minus n1(n1+1)/2); the p-value is exact
// (the permutation distribution of U) when there are no ties and both samples have at most
// kExactMannWhitney values, otherwise the normal approximation with tie and continuity
// corrections.
inline constexpr std::size_t kExactMannWhitney = 50;
struct MannWhitney {
  double u = 0.0;
  double p = 1.0;
  bool exact = false;
};
MannWhitney mann_whitney_u(const std::vector<double>& first, const std::vector<double>& second);
// The same, with the method forced (tests compare both against scipy).
MannWhitney mann_whitney_u_exact(const std::vector<double>& first, const std::vector<double>& second);
MannWhitney mann_whitney_u_asymptotic(const std::vector<double>& first, const std::vector<double>& second);

// The verdict on one thread count's wall-time rates (steps/s per repetition) of two runs.
inline constexpr std::size_t kMinRepetitions = 5;      // below, U cannot reach p < 0.05 reliably
inline constexpr double kShortestRepetition = 0.2;     // seconds; shorter timings are mostly noise
inline constexpr double kSignificance = 0.05;          // the test's alpha, two-sided
struct SpeedJudgement {
  enum class Verdict { Regression, NotRegression, NotJudged };
  Verdict verdict = Verdict::NotJudged;
  std::string reason;         // e.g. "not judged: too short (0.05 s per repetition, need 0.2 s)"
  MedianInterval base;
  MedianInterval now;
  double change = 0.0;        // median(new) / median(base) - 1
  double change_low = 0.0;    // the change's interval from the two medians' intervals
  double change_high = 0.0;
  MannWhitney test;
};
// `*_shortest` is each side's shortest repetition in seconds. A regression is a slowdown both
// beyond `tolerance` and significant; samples too few, too short or too noisy (a median's
// interval wider than twice the tolerance) are not judged, unless the slowdown is significant
// and beyond the tolerance over the change's whole interval (beyond the noise: a regression).
SpeedJudgement judge_speed(const std::vector<double>& base_rates, double base_shortest,
                           const std::vector<double>& new_rates, double new_shortest, double tolerance);
const char* verdict_name(SpeedJudgement::Verdict verdict);

}  // namespace weightspace::app
