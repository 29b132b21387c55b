// SPDX-License-Identifier: GPL-3.0-or-later
// run_episode against whole episodes of verify.evaluate (tests/golden/grader_runs.json): the
// sampled action of every step, the score, the length and the final state.
#include "engine/episode.hpp"

#include <gtest/gtest.h>

#include "games/registry.hpp"
#include "golden_weights.hpp"

namespace weightspace {
namespace {

struct Replayed {
  EpisodeResult result;
  std::string actions;
  std::vector<int> final_state;
};

// The loop of run_episode, with every sampled action recorded.
template <Game G>
Replayed replay_episode(const Weights& weights, std::int64_t index) {
  Replayed out;
  EpisodeState<G> episode;
  episode.start(index);
  ActiveInputs observation;
  bool done = false;
  while (!done) {
    observe(episode.environment.game(), observation);
    const Logits logits = policy_logits(weights, observation);
    RandomState peek = episode.action_random;
    out.actions.push_back(static_cast<char>('0' + sample_action(logits, peek)));
    done = episode.advance(logits, false);
  }
  out.result = episode.result;
  out.final_state = raw_state(episode.environment.game());
  return out;
}

TEST(RunEpisode, ReproducesEveryGraderRunStepByStep) {
  int episodes_checked = 0;
  for (const auto& run : testing::golden("grader_runs.json").at("runs")) {
    const std::string game = run.at("game").get<std::string>();
    const int set = run.at("weight_set_index").get<int>();
    const Weights weights = testing::golden_weight_set(set);
    std::vector<double> scores, lengths;
    for (const auto& episode : run.at("episodes")) {
      const auto index = episode.at("episode").get<std::int64_t>();
      const std::string where = game + " weight set " + std::to_string(set) + " episode " + std::to_string(index);
      ASSERT_TRUE(with_game("original", game, [&](const auto& entry) {
        using G = typename std::remove_cvref_t<decltype(entry)>::type;
        const Replayed replayed = replay_episode<G>(weights, index);
        EXPECT_EQ(replayed.actions, episode.at("actions").get<std::string>()) << where;
        EXPECT_EQ(replayed.result.score, episode.at("score").get<double>()) << where;
        EXPECT_EQ(replayed.result.length, episode.at("length").get<int>()) << where;
        EXPECT_EQ(replayed.final_state, episode.at("final_state").get<std::vector<int>>()) << where;
        const EpisodeResult direct = run_episode<G>(weights, index);
        EXPECT_EQ(direct.score, replayed.result.score) << where;
        EXPECT_EQ(direct.length, replayed.result.length) << where;
      })) << game;
      ++episodes_checked;
    }
  }
  EXPECT_EQ(episodes_checked, 5 * 9 * 3);
}

}  // namespace
}  // namespace weightspace
