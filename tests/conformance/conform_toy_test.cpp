// SPDX-License-Identifier: GPL-3.0-or-later
// The kit end to end: tools/record_trace.py records the Python toy game (ctest fixture
// conform_toy_trace writes WEIGHTSPACE_TOY_TRACE), and conform<> replays it with the C++ port
// and with deliberately wrong ports.
#include <gtest/gtest.h>

#include <fstream>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "conform/conform.hpp"
#include "games/cells.hpp"
#include "games/environment.hpp"
#include "toy_game.hpp"

namespace weightspace {
namespace {

using testing::BasicToyGame;
using testing::ToyFlaw;
using testing::ToyGame;

const nlohmann::json& toy_trace() {
  static const nlohmann::json trace = [] {
    std::ifstream in(WEIGHTSPACE_TOY_TRACE);
    if (!in) throw std::runtime_error("no toy trace at " WEIGHTSPACE_TOY_TRACE " (run the ctest fixture)");
    return nlohmann::json::parse(in);
  }();
  return trace;
}

std::string full_report(const ConformReport& report) {
  std::string text;
  for (const auto& problem : report.problems) text += problem + "\n";
  for (const auto& episode : report.episodes) text += summary_line(episode) + "\n" + describe_divergence(episode);
  return text;
}

bool has_field(const Divergence& divergence, const std::string& field) {
  for (const auto& difference : divergence.fields) {
    if (difference.field == field) return true;
  }
  return false;
}

// Replays the recorded actions with the correct port and returns the first step (1-based) at
// which `wanted` holds after the step, or nothing.
template <class Predicate>
std::optional<int> first_step_where(const nlohmann::json& episode, Predicate wanted) {
  Environment<ToyGame> env(false, episode.at("sticky_action_prob").get<double>());
  env.start_episode(episode.at("env_seed").get<std::uint32_t>());
  const auto& steps = episode.at("steps");
  for (std::size_t k = 0; k < steps.size(); ++k) {
    env.act(steps[k].at(0).get<int>());
    if (wanted(env.game().state())) return static_cast<int>(k + 1);
  }
  return std::nullopt;
}

TEST(ConformToy, PythonTraceMatchesTheCppPort) {
  const ConformReport report = conform<ToyGame>(toy_trace(), ToyGame::score_cap);
  EXPECT_TRUE(report.ok()) << full_report(report);
  ASSERT_EQ(report.episodes.size(), 8U);
  for (const auto& episode : report.episodes) {
    EXPECT_EQ(episode.matched_steps, episode.recorded_steps) << summary_line(episode);
    EXPECT_GT(episode.recorded_steps, 0);
  }
}

// The trace must reach the paths the toy exists to exercise, or the tests below prove little.
TEST(ConformToy, TraceCoversIntAndFloatRewardsAndTheSpawnCases) {
  int float_rewards = 0;
  int int_rewards = 0;
  int single_lane_spawns = 0;
  int blocked_spawns = 0;
  for (const auto& episode : toy_trace().at("episodes")) {
    for (const auto& step : episode.at("steps")) {
      const auto& reward = step.at(2);
      if (reward.is_number_float()) ++float_rewards;
      if (reward.is_number_integer() && reward.get<int>() != 0) ++int_rewards;
    }
    if (first_step_where(episode, [](const auto& s) { return s.spawn_free_lanes == 1; })) ++single_lane_spawns;
    if (first_step_where(episode, [](const auto& s) { return s.spawn_free_lanes == 0; })) ++blocked_spawns;
  }
  EXPECT_GT(float_rewards, 0);
  EXPECT_GT(int_rewards, 0);
  EXPECT_GT(single_lane_spawns, 0);
  EXPECT_GT(blocked_spawns, 0);
}

// randint(1) draws nothing; a port that draws a word there is off by one word from the first
// spawn with a single free lane on, and the kit must say so at exactly that step.
TEST(ConformToy, ExtraDrawForASingleLaneDivergesAtTheFirstSingleLaneSpawn) {
  const ConformReport report =
      conform<BasicToyGame<ToyFlaw::single_lane_draws>>(toy_trace(), ToyGame::score_cap);
  EXPECT_FALSE(report.ok());
  int diverging = 0;
  const auto& episodes = toy_trace().at("episodes");
  for (std::size_t e = 0; e < episodes.size(); ++e) {
    const auto& result = report.episodes[e];
    const std::optional<int> expected =
        first_step_where(episodes[e], [](const auto& s) { return s.spawn_free_lanes == 1; });
    if (!expected) {
      EXPECT_TRUE(result.ok()) << summary_line(result);
      continue;
    }
    ++diverging;
    ASSERT_TRUE(result.divergence) << summary_line(result);
    EXPECT_EQ(result.divergence->step, *expected) << summary_line(result);
    EXPECT_EQ(result.matched_steps, *expected - 1);
    EXPECT_TRUE(has_field(*result.divergence, "rng words")) << describe_divergence(result);
  }
  EXPECT_GT(diverging, 0);
}

// Swapping two draws changes the outcome at the first spawn where the swapped words decide
// differently. That step is found here independently, by running the correct and the wrong
// port side by side on the recorded actions.
TEST(ConformToy, DrawOrderSwapDivergesWhereTheTwoPortsPart) {
  using Wrong = BasicToyGame<ToyFlaw::lane_before_kind>;
  const ConformReport report = conform<Wrong>(toy_trace(), ToyGame::score_cap);
  EXPECT_FALSE(report.ok());
  int diverging = 0;
  const auto& episodes = toy_trace().at("episodes");
  for (std::size_t e = 0; e < episodes.size(); ++e) {
    const auto& episode = episodes[e];
    Environment<ToyGame> right(false, 0.1);
    Environment<Wrong> wrong(false, 0.1);
    right.start_episode(episode.at("env_seed").get<std::uint32_t>());
    wrong.start_episode(episode.at("env_seed").get<std::uint32_t>());
    std::optional<int> parted;
    const auto& steps = episode.at("steps");
    for (std::size_t k = 0; k < steps.size() && !parted; ++k) {
      const StepResult a = right.act(steps[k].at(0).get<int>());
      const StepResult b = wrong.act(steps[k].at(0).get<int>());
      if (a.reward != b.reward || a.terminal != b.terminal || right.random().draws() != wrong.random().draws() ||
          right.last_action() != wrong.last_action() || raw_state(right.game()) != raw_state(wrong.game())) {
        parted = static_cast<int>(k + 1);
        EXPECT_GE(right.game().state().spawn_free_lanes, 1) << "a swap can only matter when a lane is drawn";
      }
    }
    const auto& result = report.episodes[e];
    if (!parted) {
      EXPECT_TRUE(result.ok()) << summary_line(result);
      continue;
    }
    ++diverging;
    ASSERT_TRUE(result.divergence) << summary_line(result);
    EXPECT_EQ(result.divergence->step, *parted) << summary_line(result);
  }
  EXPECT_GT(diverging, 0);
}

}  // namespace
}  // namespace weightspace
