// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The conformance check: replays every episode of a recorded trace (the golden trace format of
// tests/golden/README.md, "games/<game>.json", as tools/record_trace.py writes it) through
// Environment<G> and reports, per episode, either a match or the first step at which the port
// and the Python game part ways. It is what proves a C++ port exact, so it compares every
// recorded field, including the generator word count that pins down where an RNG divergence
// starts.

#include <cstdint>
#include <exception>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "games/cells.hpp"
#include "games/observe.hpp"
#include "games/environment.hpp"
#include "games/game.hpp"

namespace weightspace {

// One recorded field that differs at the divergent step.
struct FieldDifference {
  std::string field;     // "effective action", "reward", "terminal", "rng words", "state", ...
  std::string expected;  // recorded value, as text
  std::string actual;    // the port's value, as text
  std::string picture;   // for "state" and "observation": the per-channel grids; else empty
};

struct Divergence {
  int step = 0;  // 1-based step; 0 means right after seed() and reset()
  std::vector<FieldDifference> fields;
};

struct EpisodeConformance {
  int id = 0;
  std::uint32_t env_seed = 0;
  int recorded_steps = 0;
  int matched_steps = 0;  // steps replayed identically before the divergence (all when ok)
  std::optional<Divergence> divergence;
  std::vector<std::string> problems;  // trace inconsistencies (length, score, bad actions)

  bool ok() const { return !divergence && problems.empty(); }
};

struct ConformReport {
  std::string game;                   // G::name
  std::vector<std::string> problems;  // header-level: channel count, observation groups, ...
  std::vector<EpisodeConformance> episodes;

  bool ok() const;
  int episodes_ok() const;
};

// One-line summary of an episode ("episode 3 (seed 1732): OK, 412 steps" or where it diverged).
std::string summary_line(const EpisodeConformance& episode);
// The divergence in full: every differing field and, for states and observations, the grids.
std::string describe_divergence(const EpisodeConformance& episode);

namespace conform_detail {

// Grids of expected vs actual cells per channel: '#' in both, '+' only expected, '-' only
// actual, '.' in neither. Cells are flat indices (y*10 + x)*channels + c.
std::string draw_channel_grids(const std::vector<int>& expected, const std::vector<int>& actual,
                               int channels, const std::vector<std::string>& names);
std::string cells_text(const std::vector<int>& cells);
std::vector<std::string> channel_names(const nlohmann::json& trace, int channels);
std::vector<std::string> observation_channel_names();
// Header checks that do not depend on G beyond its channel count and masks.
std::vector<std::string> check_header(const nlohmann::json& trace, std::string_view name,
                                      int channels, const std::vector<unsigned>& masks,
                                      std::optional<double> score_cap);
// Compares one recorded step (its fields 1..4 of [action, effective_action, reward, terminal,
// rng_u32_count, state]) with the port's values; appends the differing fields.
void compare_scalars(const nlohmann::json& step, int effective_action, int reward, bool terminal,
                     std::uint64_t rng_words, std::vector<FieldDifference>& out);
void compare_cells(const char* field, const std::vector<int>& expected, const std::vector<int>& actual,
                   int channels, const std::vector<std::string>& names,
                   std::vector<FieldDifference>& out);
// Length and score consistency of the recorded episode with its own steps.
void check_episode_totals(const nlohmann::json& episode, std::vector<std::string>& problems);

template <Game G>
std::vector<int> observation_cells(const G& game) {
  ActiveInputs active;
  observe(game, active);
  return {active.view().begin(), active.view().end()};
}

template <Game G>
EpisodeConformance replay_episode(const nlohmann::json& episode, const std::vector<std::string>& names) {
  EpisodeConformance result;
  result.id = episode.at("id").get<int>();
  result.env_seed = episode.at("env_seed").get<std::uint32_t>();
  const auto& steps = episode.at("steps");
  const auto& observations = episode.at("observations");
  result.recorded_steps = static_cast<int>(steps.size());
  check_episode_totals(episode, result.problems);
  const std::vector<std::string> observation_names = observation_channel_names();

  Environment<G> env(episode.at("difficulty_ramping").get<bool>(),
                     episode.at("sticky_action_prob").get<double>());
  std::vector<FieldDifference> differences;
  int step = 0;
  auto compare_observation = [&](std::size_t index) {
    if (index < observations.size()) {
      compare_cells("observation", observations[index].get<std::vector<int>>(),
                    observation_cells(env.game()), kObservationChannels, observation_names, differences);
    }
  };
  try {
    env.start_episode(result.env_seed);
    const auto after_reset = episode.at("rng_u32_count_after_reset").get<std::uint64_t>();
    if (env.random().draws() != after_reset) {
      differences.push_back({"rng words", std::to_string(after_reset),
                             std::to_string(env.random().draws()), ""});
    }
    compare_cells("state", episode.at("initial_state").get<std::vector<int>>(), raw_state(env.game()),
                  G::channels, names, differences);
    compare_observation(0);
    while (differences.empty() && step < result.recorded_steps) {
      const auto& recorded = steps[static_cast<std::size_t>(step)];
      const int action = recorded.at(0).get<int>();
      if (action < 0 || action > 5) {
        result.problems.push_back("step " + std::to_string(step + 1) + ": action " +
                                  std::to_string(action) + " is not 0..5");
        return result;
      }
      ++step;
      const StepResult outcome = env.act(action);
      compare_scalars(recorded, env.last_action(), outcome.reward, outcome.terminal,
                      env.random().draws(), differences);
      compare_cells("state", recorded.at(5).get<std::vector<int>>(), raw_state(env.game()),
                    G::channels, names, differences);
      compare_observation(static_cast<std::size_t>(step));
    }
  } catch (const nlohmann::json::exception&) {
    throw;  // a malformed trace is the caller's error, not a divergence
  } catch (const GameError& error) {
    differences.push_back({"exception", "none", error.kind() + ": " + error.what(), ""});
  } catch (const std::exception& error) {
    // A port that overflows a fixed capacity or indexes out of range has left the Python game.
    differences.push_back({"exception", "none", error.what(), ""});
  }
  if (differences.empty()) {
    result.matched_steps = step;
  } else {
    result.matched_steps = step > 0 ? step - 1 : 0;
    result.divergence = Divergence{step, std::move(differences)};
  }
  return result;
}

}  // namespace conform_detail

// Replays every episode of trace with Environment<G>. Throws nlohmann::json::exception when
// the trace lacks a field or has one of the wrong type. score_cap, when given, must equal
// the trace's top-level "score_cap" if it has one (the grader normalises by it).
template <Game G>
ConformReport conform(const nlohmann::json& trace, std::optional<double> score_cap = std::nullopt) {
  ConformReport report;
  report.game = std::string(G::name);
  const std::vector<unsigned> masks(G::observation_masks.begin(), G::observation_masks.end());
  report.problems = conform_detail::check_header(trace, G::name, G::channels, masks, score_cap);
  const std::vector<std::string> names = conform_detail::channel_names(trace, G::channels);
  for (const auto& episode : trace.at("episodes")) {
    report.episodes.push_back(conform_detail::replay_episode<G>(episode, names));
  }
  return report;
}

}  // namespace weightspace
