// SPDX-License-Identifier: GPL-3.0-or-later
// grade() on every case of tests/golden/grades.json: the reward.json text byte for byte
// (failures too: the error is the grader's str(), its place kept beside it) and every
// episode's score and length.
#include "engine/grade.hpp"

#include <gtest/gtest.h>

#include <string>

#include <weightspace/reward.hpp>
#include "support/golden.hpp"

namespace weightspace {
namespace {

// The grader's "<ast.Name object at 0x7f…>" names a memory address that differs from run to
// run; weightspace writes the stable placeholder "0x?" there (docs/compatibility.md).
// (A scan, not std::regex: GCC 12 warns maybe-uninitialized inside <regex> under the sanitizers.)
std::string stable_addresses(std::string text) {
  const std::string prefix = " object at 0x";
  const auto lower_hex = [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); };
  for (std::size_t at = text.find(prefix); at != std::string::npos; at = text.find(prefix, at + 1)) {
    const std::size_t digits = at + prefix.size();
    std::size_t end = digits;
    while (end < text.size() && lower_hex(text[end])) ++end;
    if (end > digits && end < text.size() && text[end] == '>') text.replace(digits, end - digits, "?");
  }
  return text;
}

// Each case as a grade runs it (the memo used while it pays), and its 100-episode cases also
// with the memo always and never used: its contents never change an action.
TEST(Grade, ReproducesEveryGoldenGrade) {
  for (const auto& [memo, name] : {std::pair{PolicyMemoUse::automatic, "automatic"},
                                   std::pair{PolicyMemoUse::always, "always"}, std::pair{PolicyMemoUse::never, "never"}}) {
  for (const auto& grade_case : testing::golden("grades.json").at("cases")) {
    const std::string id = grade_case.at("id").get<std::string>() + " (memo " + name + ")";
    GradeRequest request;
    request.game = grade_case.at("game").get<std::string>();
    request.source = grade_case.at("source").get<std::string>();
    request.episodes = grade_case.at("episodes").get<std::int64_t>();
    if (memo != PolicyMemoUse::automatic && request.episodes > 100) continue;
    request.run.threads = 2;
    request.run.memo = memo;
    const Grade result = grade(request, grade_case.at("answer").get<std::string>());
    const std::string actual = reward_json(result.reward);

    if (grade_case.at("expected").is_null()) {  // the Python grader crashed on this answer
      EXPECT_FALSE(result.reward.parse_success) << id;
      EXPECT_EQ(result.reward.error->kind, grade_case.at("crash").at("error_type").get<std::string>()) << id;
      continue;
    }
    const std::string expected = grade_case.at("expected_reward_json").get<std::string>();
    if (grade_case.at("expected").at("parse_success").get<double>() == 0.0) {
      EXPECT_EQ(actual, stable_addresses(expected)) << id;
      continue;
    }
    EXPECT_EQ(actual, expected) << id;
    const auto& per_episode = grade_case.at("per_episode");
    ASSERT_EQ(result.episodes.size(), per_episode.size()) << id;
    for (std::size_t i = 0; i < per_episode.size(); ++i) {
      ASSERT_EQ(result.episodes[i].score, per_episode[i].at(0).get<double>()) << id << " episode " << i;
      ASSERT_EQ(result.episodes[i].length, per_episode[i].at(1).get<int>()) << id << " episode " << i;
    }
  }
  }
}

TEST(Grade, NoEpisodesGivesNumpysNaNMean) {
  GradeRequest request;
  request.game = "breakout";
  request.episodes = 0;
  const Grade result = grade(request, "```edits\nb3[0] = 1\n```");
  // float(np.mean([])) is nan and min(max(nan, 0.0), cap) / cap stays nan in Python.
  EXPECT_EQ(reward_json(result.reward),
            "{\"normalized_score\": NaN, \"game\": \"breakout\", \"source\": \"original\", \"episodes\": 0, "
            "\"parse_success\": 1.0, \"raw_score\": NaN, \"score_cap\": 1000.0, \"mean_episode_length\": NaN, "
            "\"edit_count\": 1, \"nonzero_weights\": 1}");
}

TEST(Grade, UnknownGamesAndSourcesAreFailedRewards) {
  for (const auto& [source, game] : {std::pair{"original", "pong"}, std::pair{"synth", "pong"},
                                     std::pair{"atari", "breakout"}}) {
    GradeRequest request;
    request.game = game;
    request.source = source;
    request.episodes = 3;
    const Grade result = grade(request, "```edits\nb3[0] = 1\n```");
    EXPECT_FALSE(result.reward.parse_success) << source << "/" << game;
    EXPECT_EQ(result.reward.error->kind, "ModuleNotFoundError") << source << "/" << game;
  }
}

}  // namespace
}  // namespace weightspace
