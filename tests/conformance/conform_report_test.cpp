// SPDX-License-Identifier: GPL-3.0-or-later
// conform<>'s report on golden MinAtar traces and on copies with one field changed: each
// change must be reported at its step, with the field that differs.
#include "conform/conform.hpp"

#include <gtest/gtest.h>

#include <string>

#include "games/original/breakout.hpp"
#include "support/golden.hpp"

namespace weightspace {
namespace {

using testing::golden;

constexpr double kBreakoutCap = 1000.0;  // verify.ORIGINAL_SCORE_CAPS["breakout"]

nlohmann::json breakout_trace() { return golden("games/breakout.json"); }

nlohmann::json& step_of(nlohmann::json& trace, int episode, int step) {
  return trace["episodes"][static_cast<std::size_t>(episode)]["steps"][static_cast<std::size_t>(step - 1)];
}

std::vector<std::string> fields_of(const EpisodeConformance& episode) {
  std::vector<std::string> fields;
  if (episode.divergence) {
    for (const auto& difference : episode.divergence->fields) fields.push_back(difference.field);
  }
  return fields;
}

TEST(ConformReport, GoldenBreakoutConforms) {
  const ConformReport report = conform<Breakout>(breakout_trace(), kBreakoutCap);
  EXPECT_TRUE(report.ok());
  EXPECT_TRUE(report.problems.empty());
  ASSERT_EQ(report.episodes.size(), 12U);
  EXPECT_EQ(report.episodes_ok(), 12);
  EXPECT_EQ(summary_line(report.episodes[1]), "episode 1 (seed 1730): OK, 1860 steps");
}

TEST(ConformReport, StateChangeIsReportedAtItsStepWithAPicture) {
  nlohmann::json trace = breakout_trace();
  auto& state = step_of(trace, 1, 100)[5];
  const int removed = state[0].get<int>();
  state.erase(0);
  state.insert(state.begin(), 0);  // cell y 0, x 0 of the paddle channel: never set in breakout
  const ConformReport report = conform<Breakout>(trace, kBreakoutCap);
  EXPECT_FALSE(report.ok());
  const EpisodeConformance& episode = report.episodes[1];
  ASSERT_TRUE(episode.divergence);
  EXPECT_EQ(episode.divergence->step, 100);
  EXPECT_EQ(episode.matched_steps, 99);
  EXPECT_EQ(fields_of(episode), std::vector<std::string>{"state"});
  const FieldDifference& difference = episode.divergence->fields[0];
  EXPECT_EQ(difference.expected, "only expected [0]");
  EXPECT_EQ(difference.actual, "only actual [" + std::to_string(removed) + "]");
  // Row 0 of channel 0 starts with '+': expected only.
  EXPECT_NE(difference.picture.find("\n  0  +........."), std::string::npos) << difference.picture;
  const std::string text = describe_divergence(episode);
  EXPECT_NE(text.find("episode 1 (seed 1730), step 100:"), std::string::npos) << text;
  EXPECT_NE(text.find('-'), std::string::npos);
  EXPECT_TRUE(report.episodes[0].ok());
  EXPECT_TRUE(report.episodes[2].ok());
}

TEST(ConformReport, RewardsCompareAsNumbers) {
  nlohmann::json trace = breakout_trace();
  for (auto& step : trace["episodes"][1]["steps"]) {
    if (step[2].get<int>() == 1) step[2] = 1.0;  // what a Python float reward records
  }
  EXPECT_TRUE(conform<Breakout>(trace, kBreakoutCap).ok());
  step_of(trace, 1, 7)[2] = 0.5;
  double score = 0.0;  // keep the recorded total consistent with the rewards
  for (const auto& step : trace["episodes"][1]["steps"]) score += step[2].get<double>();
  trace["episodes"][1]["score"] = score;
  const ConformReport report = conform<Breakout>(trace, kBreakoutCap);
  ASSERT_TRUE(report.episodes[1].divergence);
  EXPECT_EQ(report.episodes[1].divergence->step, 7);
  EXPECT_EQ(fields_of(report.episodes[1]), std::vector<std::string>{"reward"});
  EXPECT_TRUE(report.episodes[1].problems.empty());
}

TEST(ConformReport, ScalarFieldsAreNamed) {
  nlohmann::json trace = breakout_trace();
  step_of(trace, 3, 20)[4] = step_of(trace, 3, 20)[4].get<int>() + 1;
  step_of(trace, 5, 30)[1] = (step_of(trace, 5, 30)[1].get<int>() + 1) % 6;
  step_of(trace, 7, 40)[3] = 1;
  trace["episodes"][9]["rng_u32_count_after_reset"] = 2;
  const ConformReport report = conform<Breakout>(trace, kBreakoutCap);
  EXPECT_EQ(report.episodes_ok(), 8);
  EXPECT_EQ(report.episodes[3].divergence->step, 20);
  EXPECT_EQ(fields_of(report.episodes[3]), std::vector<std::string>{"rng words"});
  EXPECT_EQ(report.episodes[5].divergence->step, 30);
  EXPECT_EQ(fields_of(report.episodes[5]), std::vector<std::string>{"effective action"});
  EXPECT_EQ(report.episodes[7].divergence->step, 40);
  EXPECT_EQ(fields_of(report.episodes[7]), std::vector<std::string>{"terminal"});
  EXPECT_EQ(report.episodes[9].divergence->step, 0);
  EXPECT_EQ(fields_of(report.episodes[9]), std::vector<std::string>{"rng words"});
  EXPECT_NE(describe_divergence(report.episodes[9]).find("after seed() and reset()"), std::string::npos);
}

TEST(ConformReport, ObservationDifferenceAlone) {
  nlohmann::json trace = breakout_trace();
  auto& observation = trace["episodes"][1]["observations"][5];
  observation.erase(observation.size() - 1);
  const ConformReport report = conform<Breakout>(trace, kBreakoutCap);
  ASSERT_TRUE(report.episodes[1].divergence);
  EXPECT_EQ(report.episodes[1].divergence->step, 5);
  EXPECT_EQ(fields_of(report.episodes[1]), std::vector<std::string>{"observation"});
  EXPECT_NE(describe_divergence(report.episodes[1]).find("player"), std::string::npos);
}

TEST(ConformReport, HeaderAndTotalsProblems) {
  nlohmann::json trace = breakout_trace();
  trace["observation_channel_groups"][1] = {1};
  trace["score_cap"] = 100.0;
  trace["episodes"][2]["length"] = 7;
  const ConformReport report = conform<Breakout>(trace, kBreakoutCap);
  EXPECT_FALSE(report.ok());
  EXPECT_EQ(report.problems.size(), 2U);
  EXPECT_FALSE(report.episodes[2].ok());
  EXPECT_FALSE(report.episodes[2].divergence);
  EXPECT_EQ(report.episodes[2].problems.size(), 1U);
  // The recorded observations are still MinAtar's, so the episodes themselves replay fine:
  // the header problem alone must fail the report.
  EXPECT_TRUE(report.episodes[0].ok());
}

TEST(ConformReport, MalformedTraceThrows) {
  nlohmann::json trace = breakout_trace();
  trace["episodes"][0].erase("steps");
  EXPECT_THROW(conform<Breakout>(trace), nlohmann::json::exception);
  EXPECT_THROW(conform<Breakout>(nlohmann::json::object()), nlohmann::json::exception);
}

TEST(ConformReport, EmptyTraceIsNotAPass) {
  nlohmann::json trace = breakout_trace();
  trace["episodes"] = nlohmann::json::array();
  EXPECT_FALSE(conform<Breakout>(trace).ok());
}

// Hand-drawn: one channel, expected cells (0,0) and (1,1), actual (1,1) and (2,2).
TEST(ConformReport, GridSymbols) {
  const std::string picture = conform_detail::draw_channel_grids({0, 11}, {11, 22}, 1, {"only"});
  EXPECT_NE(picture.find("*0 only"), std::string::npos) << picture;
  EXPECT_NE(picture.find("\n  0  +.........\n  1  .#........\n  2  ..-.......\n  3  ..........\n"),
            std::string::npos)
      << picture;
}

}  // namespace
}  // namespace weightspace
