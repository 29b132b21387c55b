// SPDX-License-Identifier: GPL-3.0-or-later
// A game weightspace does not have: the reward.json text of verify.grade_answer, byte for
// byte, from tests/golden/unknown_games.json (tests/support/record_unknown_games.py): the
// import's ModuleNotFoundError, or with no episode to play score_cap's KeyError (original)
// or import error (synth); the packages' own `__init__`, which imports, MinAtar's missing `Env`
// (the grader's crash) or synth's "found 0" ValueError.
#include "engine/grade.hpp"

#include <cmath>

#include <gtest/gtest.h>

#include <weightspace/reward.hpp>
#include "support/golden.hpp"

namespace weightspace {
namespace {

constexpr const char* kAnswer = "```edits\nb3[0] = 1\n```";

TEST(UnknownGame, RewardIsTheGradersText) {
  const auto& cases = testing::golden("unknown_games.json").at("cases");
  ASSERT_GE(cases.size(), 30u);
  for (const auto& unknown : cases) {
    GradeRequest request;
    request.game = unknown.at("game").get<std::string>();
    request.source = unknown.at("source").get<std::string>();
    request.episodes = unknown.at("episodes").get<std::int64_t>();
    const Grade result = grade(request, kAnswer);
    const std::string label = request.source + "/" + request.game + " x" + std::to_string(request.episodes);
    EXPECT_EQ(result.reward.error->kind, unknown.at("error_type").get<std::string>()) << label;
    if (unknown.at("expected_reward_json").is_null()) {
      // The grader itself dies (no reward.json): a failed grade with the exception's text.
      EXPECT_EQ(result.reward.error->message, unknown.at("grader_crash").get<std::string>()) << label;
      EXPECT_FALSE(result.reward.parse_success) << label;
      continue;
    }
    EXPECT_EQ(reward_json(result.reward), unknown.at("expected_reward_json").get<std::string>()) << label;
  }
}

// verify.evaluate alone builds no environment when there is no episode to play.
TEST(UnknownGame, PlayingNoEpisodeGivesNaNMeans) {
  GradeRequest request;
  request.game = "pong";
  request.episodes = -4;
  std::vector<EpisodeResult> episodes;
  const Rollout rollout = play(Weights{}, request, episodes);
  ASSERT_TRUE(rollout.played);
  EXPECT_TRUE(std::isnan(rollout.raw_score));
  EXPECT_TRUE(std::isnan(rollout.mean_episode_length));
  request.episodes = 1;
  EXPECT_FALSE(play(Weights{}, request, episodes).played);
}

// The grader builds the first environment before anything about the count can fail.
TEST(UnknownGame, ComesBeforeTheEpisodeLimit) {
  GradeRequest request;
  request.game = "pong";
  request.episodes = kMaxEpisodes + 1;
  const Grade result = grade(request, kAnswer);
  EXPECT_EQ(result.reward.error->kind, "ModuleNotFoundError");
  EXPECT_EQ(result.reward.error->message, "No module named 'minatar.environments.pong'");
}

// A parse error comes first, as in grade_answer.
TEST(UnknownGame, ParseErrorComesFirst) {
  GradeRequest request;
  request.game = "pong";
  request.episodes = 0;
  const Grade result = grade(request, "no block");
  EXPECT_EQ(result.reward.error->kind, "ValueError");
  EXPECT_EQ(result.reward.error->message, "answer has no edits block");
}

}  // namespace
}  // namespace weightspace
