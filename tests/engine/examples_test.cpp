// SPDX-License-Identifier: GPL-3.0-or-later
// The bundled example answers (examples/answers/, graded by scripts/examples.sh) play: each
// parses and scores clearly above the all-zero policy on its game, for both sources.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>

#include "engine/grade.hpp"

namespace weightspace {
namespace {

std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

double raw_score(const std::string& source, const std::string& game, const std::string& answer) {
  GradeRequest request;
  request.game = game;
  request.source = source;
  request.episodes = 50;
  const Grade result = grade(request, answer);
  EXPECT_TRUE(result.reward.parse_success)
      << source << "/" << game << ": " << (result.reward.error ? result.reward.error->message : "");
  return result.reward.raw_score;
}

TEST(ExampleAnswers, EveryExamplePlaysBetterThanTheZeroPolicy) {
  const std::filesystem::path examples = WEIGHTSPACE_EXAMPLES_DIR;
  for (const std::string source : {"original", "synth"}) {
    const auto folder = source == "original" ? examples / "answers" : examples / "answers" / "synth";
    for (const std::string game : {"asterix", "breakout", "freeway", "seaquest", "space_invaders"}) {
      const std::string answer = read_file(folder / (game + ".md"));
      ASSERT_FALSE(answer.empty()) << folder / (game + ".md");
      const double zero = raw_score(source, game, "```edits\nb3[0] = 0\n```");
      const double example = raw_score(source, game, answer);
      EXPECT_GT(example, 0.0) << source << "/" << game;
      EXPECT_GT(example, 2.0 * zero) << source << "/" << game << ": zero policy " << zero;
    }
  }
}

}  // namespace
}  // namespace weightspace
