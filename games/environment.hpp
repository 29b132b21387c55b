// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>

#include "games/game.hpp"
#include "games/random_state.hpp"

namespace weightspace {

// MinAtar's Environment wrapper: one generator shared by the wrapper and the game, the
// sticky-action draw before the game's own draws, last_action starting at 0 and surviving
// reset() (the grader builds a fresh Environment per episode, so it is 0 at every start).
template <Game G>
class Environment {
 public:
  explicit Environment(bool ramping = false, double sticky_action_prob = 0.1)
      : game_(ramping), sticky_action_prob_(sticky_action_prob) {}
  // For callers that seed the generator themselves before the first episode.
  Environment(bool ramping, double sticky_action_prob, RandomState::Unseeded unseeded)
      : game_(ramping), random_(unseeded), sticky_action_prob_(sticky_action_prob) {}

  void seed(std::uint32_t seed) { random_.reseed(seed); }
  void reset() { game_.reset(random_); }

  // A fresh Environment, seeded and reset: the start of one grader episode.
  void start_episode(std::uint32_t env_seed) {
    last_action_ = 0;
    seed(env_seed);
    reset();
  }

  // For callers that seed many environments at once (RandomState::reseed_many): the
  // generator to seed, then begin_seeded_episode() in place of start_episode().
  RandomState& generator() { return random_; }
  void begin_seeded_episode() {
    last_action_ = 0;
    reset();
  }

  StepResult act(int action) {
    if (random_.random_sample() < sticky_action_prob_) action = last_action_;
    last_action_ = action;
    return game_.act(action, random_);
  }

  // Asks for the lines act() reads first: the game's state, the generator, last_action.
  void prefetch() const {
    __builtin_prefetch(&game_);
    random_.prefetch();
    __builtin_prefetch(&last_action_);
  }

  const G& game() const { return game_; }
  const RandomState& random() const { return random_; }
  int last_action() const { return last_action_; }

 private:
  G game_;
  RandomState random_;
  double sticky_action_prob_;
  int last_action_ = 0;
};

}  // namespace weightspace
