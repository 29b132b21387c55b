// SPDX-License-Identifier: GPL-3.0-or-later
// The statistics that judge a speed change, against values computed once with scipy 1.10.1
// (Debian's python3-scipy): scipy.stats.mannwhitneyu(x, y, alternative="two-sided",
// method="exact" | "asymptotic") on the samples below; the median intervals' coverages are
// binomial tails worked by hand (n = 9: 1 - 2 * 10/512; n = 5: 1 - 2/32).
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "apps/sweep/speed_stats.hpp"

namespace weightspace::app {
namespace {

const std::vector<double> kFaster = {10.1, 10.4, 9.8, 10.0, 10.3, 10.2, 9.9, 10.5, 10.6};
const std::vector<double> kSlower = {9.0, 9.2, 9.1, 9.5, 10.05, 8.9, 9.3, 9.4, 9.6};

TEST(MannWhitney, ExactMatchesScipy) {
  const MannWhitney test = mann_whitney_u_exact(kFaster, kSlower);
  EXPECT_EQ(test.u, 78.0);
  EXPECT_NEAR(test.p, 0.00028794734677087616, 1e-15);
  EXPECT_TRUE(test.exact);
  // Without ties and with small samples the default is the exact test.
  EXPECT_TRUE(mann_whitney_u(kFaster, kSlower).exact);
  EXPECT_EQ(mann_whitney_u(kFaster, kSlower).p, test.p);
}

TEST(MannWhitney, ExactSmallSamplesMatchScipy) {
  const MannWhitney three = mann_whitney_u_exact({1.5, 2.5, 3.5}, {4.5, 5.5, 6.5});
  EXPECT_EQ(three.u, 0.0);
  EXPECT_NEAR(three.p, 0.1, 1e-15);  // the smallest two-sided p of 3 against 3
  const MannWhitney uneven = mann_whitney_u_exact({0.3, 1.2, 2.2, 0.1, 5.0}, {0.5, 2.0, 3.1, 4.4, 6.6, 7.7});
  EXPECT_EQ(uneven.u, 7.0);
  EXPECT_NEAR(uneven.p, 0.17748917748917747, 1e-15);
}

TEST(MannWhitney, AsymptoticMatchesScipy) {
  const MannWhitney test = mann_whitney_u_asymptotic(kFaster, kSlower);
  EXPECT_EQ(test.u, 78.0);
  EXPECT_NEAR(test.p, 0.0010862466258220339, 1e-15);
  EXPECT_FALSE(test.exact);
}

TEST(MannWhitney, TiesUseTheCorrectedNormalApproximation) {
  const std::vector<double> first = {1, 2, 2, 3, 3, 3, 4, 5};
  const std::vector<double> second = {2, 3, 4, 4, 5, 6, 6, 7, 7};
  const MannWhitney test = mann_whitney_u(first, second);
  EXPECT_EQ(test.u, 13.0);
  EXPECT_NEAR(test.p, 0.0282733678139673, 1e-14);
  EXPECT_FALSE(test.exact);
  // Identical samples: no evidence of any difference.
  EXPECT_EQ(mann_whitney_u({2, 2, 2}, {2, 2, 2}).p, 1.0);
}

TEST(MedianInterval, OrderStatisticsWithTheirCoverage) {
  const MedianInterval nine = median_interval({9, 1, 8, 2, 7, 3, 6, 4, 5});
  EXPECT_EQ(nine.median, 5.0);
  EXPECT_EQ(nine.low, 2.0);  // x(2) .. x(8)
  EXPECT_EQ(nine.high, 8.0);
  EXPECT_DOUBLE_EQ(nine.confidence, 1.0 - 2.0 * 10.0 / 512.0);
  const MedianInterval five = median_interval({5, 3, 1, 4, 2});
  EXPECT_EQ(five.low, 1.0);  // no interval inside min..max reaches 95% with 5
  EXPECT_EQ(five.high, 5.0);
  EXPECT_DOUBLE_EQ(five.confidence, 1.0 - 2.0 / 32.0);
  EXPECT_EQ(median({4, 1, 3, 2}), 2.5);
  EXPECT_TRUE(std::isnan(median_interval({}).median));
}

std::vector<double> scaled(const std::vector<double>& values, double factor) {
  std::vector<double> out;
  for (const double value : values) out.push_back(value * factor);
  return out;
}

TEST(JudgeSpeed, ASignificantSlowdownBeyondTheToleranceIsARegression) {
  const SpeedJudgement judged = judge_speed(kFaster, 0.5, kSlower, 0.5, 0.05);
  EXPECT_EQ(judged.verdict, SpeedJudgement::Verdict::Regression) << judged.reason;
  EXPECT_NEAR(judged.change, 9.3 / 10.2 - 1.0, 1e-12);
  EXPECT_LT(judged.change_low, judged.change);
  EXPECT_GT(judged.change_high, judged.change);
}

TEST(JudgeSpeed, WithinTheToleranceOrNotSignificantIsNotARegression) {
  // -8.8%, significant, but inside a 10% tolerance.
  EXPECT_EQ(judge_speed(kFaster, 0.5, kSlower, 0.5, 0.10).verdict, SpeedJudgement::Verdict::NotRegression);
  // -11% on samples that overlap: beyond a 10% tolerance, but U finds no difference (p 0.16).
  const std::vector<double> base = {9.1, 9.2, 9.4, 9.7, 10.0, 10.3, 10.6, 10.9, 11.0};
  const std::vector<double> overlapping = {7.0, 8.7, 8.8, 8.85, 8.9, 9.7, 10.2, 10.4, 12.0};
  const SpeedJudgement judged = judge_speed(base, 0.5, overlapping, 0.5, 0.10);
  EXPECT_LT(judged.change, -0.10);
  EXPECT_GT(judged.test.p, kSignificance);
  EXPECT_EQ(judged.verdict, SpeedJudgement::Verdict::NotRegression) << judged.reason;
  EXPECT_NE(judged.reason.find("not significant"), std::string::npos) << judged.reason;
}

TEST(JudgeSpeed, TooFewTooShortOrTooNoisySamplesAreNotJudged) {
  const std::vector<double> four(kFaster.begin(), kFaster.begin() + 4);
  const SpeedJudgement few = judge_speed(four, 0.5, scaled(four, 0.5), 0.5, 0.05);
  EXPECT_EQ(few.verdict, SpeedJudgement::Verdict::NotJudged);
  EXPECT_EQ(few.reason, "not judged: too few repetitions (4, need 5)");
  const SpeedJudgement brief = judge_speed(kFaster, 0.5, scaled(kFaster, 0.5), 0.05, 0.05);
  EXPECT_EQ(brief.verdict, SpeedJudgement::Verdict::NotJudged);
  EXPECT_EQ(brief.reason, "not judged: too short (0.050 s per repetition, need 0.2 s)");
  const std::vector<double> noisy = {4, 12, 6, 14, 8, 16, 10, 18, 20};
  const SpeedJudgement wide = judge_speed(kFaster, 0.5, noisy, 0.5, 0.05);
  EXPECT_EQ(wide.verdict, SpeedJudgement::Verdict::NotJudged);
  EXPECT_NE(wide.reason.find("not judged: too noisy"), std::string::npos) << wide.reason;
}

TEST(JudgeSpeed, ASlowdownBeyondTheNoiseIsARegressionOnNoisySamples) {
  // A loaded machine: the new median's interval spans 80% (3..7), yet even its top is 29%
  // below the baseline's interval, and U separates them: a regression at a 5% tolerance.
  const std::vector<double> noisy_and_slow = {2, 3, 4, 4.5, 5, 5.5, 6, 7, 8};
  const SpeedJudgement judged = judge_speed(kFaster, 0.5, noisy_and_slow, 0.5, 0.05);
  EXPECT_EQ(judged.verdict, SpeedJudgement::Verdict::Regression) << judged.reason;
  EXPECT_LT(judged.change_high, -0.05);
  EXPECT_NE(judged.reason.find("over its whole interval"), std::string::npos) << judged.reason;
  // The same spread straddling the tolerance stays not judged.
  const SpeedJudgement straddling = judge_speed(kFaster, 0.5, scaled(noisy_and_slow, 1.6), 0.5, 0.05);
  EXPECT_GT(straddling.change_high, -0.05);
  EXPECT_EQ(straddling.verdict, SpeedJudgement::Verdict::NotJudged) << straddling.reason;
}

}  // namespace
}  // namespace weightspace::app
