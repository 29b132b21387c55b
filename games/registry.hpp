// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "games/game.hpp"
#include "games/original/asterix.hpp"
#include "games/original/breakout.hpp"
#include "games/original/freeway.hpp"
#include "games/original/seaquest.hpp"
#include "games/original/space_invaders.hpp"
#include "games/synth/asterix.hpp"
#include "games/synth/breakout.hpp"
#include "games/synth/freeway.hpp"
#include "games/synth/seaquest.hpp"
#include "games/synth/space_invaders.hpp"

namespace weightspace {

// One registered game: its type and what each layer above the game needs to know of it. A
// constructor, not an aggregate, so that a registration leaving a field out does not compile
// (an aggregate would take zero for it, silently).
template <Game G>
struct Registration {
  using type = G;
  std::string_view source;      // "original" (MinAtar ports) or "synth"
  double score_cap;             // verify.ORIGINAL_SCORE_CAPS / a synth class's score_cap
  // Mean steps per episode of hand-written-like answers (bench/random_answers.py), measured by
  // bench/shard_balance.py over 5,000 of them (docs/cluster.md): what `weightspace batch
  // --shard` deals records by. One answer's episodes can be ten times longer or shorter
  // (seaquest's mean is a long tail over a median of 45); a shard's mix of many is what counts.
  std::uint64_t typical_episode_steps;
  std::string_view description;

  constexpr Registration(std::string_view source_, double score_cap_, std::uint64_t typical_episode_steps_,
                         std::string_view description_)
      : source(source_), score_cap(score_cap_), typical_episode_steps(typical_episode_steps_),
        description(description_) {
    // kRegisteredGames is constexpr, so this stops the build rather than a run.
    if (typical_episode_steps == 0) throw std::invalid_argument("a registered game needs its typical episode steps");
  }
};

// A synth game carries its own score_cap (the Python class attribute verify.py reads) and
// description; its 6 channels are the observation itself.
template <Game G>
constexpr Registration<G> synth_registration(std::uint64_t typical_episode_steps) {
  return {"synth", G::score_cap, typical_episode_steps, G::description};
}

// Adding a game: its header above and one line here (steps: measure with bench/shard_balance.py). Callers dispatch once per job with
// with_game(); the step loops below that point are templated on the concrete type.
inline constexpr auto kRegisteredGames = std::make_tuple(
    //                      source      cap     steps
    Registration<Asterix>{"original", 1000.0, 91, "dodge enemies, collect gold; spawns speed up"},
    Registration<Breakout>{"original", 1000.0, 11, "paddle and ball against a three-row brick wall"},
    Registration<Freeway>{"original", 100.0, 2501, "chicken crossing eight lanes of traffic, 2500 steps"},
    Registration<Seaquest>{"original", 1000.0, 410, "submarine: shoot, rescue divers, surface for oxygen"},
    Registration<SpaceInvaders>{"original", 1000.0, 51, "cannon against a marching alien formation"},
    synth_registration<SynthAsterix>(140),
    synth_registration<SynthBreakout>(29),
    synth_registration<SynthFreeway>(2000),
    synth_registration<SynthSeaquest>(386),
    synth_registration<SynthSpaceInvaders>(79));

struct GameInfo {
  std::string_view source;
  std::string_view name;
  int channels;
  double score_cap;
  std::uint64_t typical_episode_steps;
  std::string_view description;
};

inline std::vector<GameInfo> registered_games() {
  std::vector<GameInfo> games;
  std::apply([&](const auto&... entry) {
    (games.push_back({entry.source, std::remove_cvref_t<decltype(entry)>::type::name,
                      std::remove_cvref_t<decltype(entry)>::type::channels, entry.score_cap,
                      entry.typical_episode_steps, entry.description}),
     ...);
  }, kRegisteredGames);
  return games;
}

// Calls visit(entry) with the Registration of source/name; returns false when none matches.
template <class Visitor>
bool with_game(std::string_view source, std::string_view name, Visitor&& visit) {
  bool found = false;
  std::apply([&](const auto&... entry) {
    ((!found && entry.source == source && std::remove_cvref_t<decltype(entry)>::type::name == name
          ? (visit(entry), found = true)
          : false),
     ...);
  }, kRegisteredGames);
  return found;
}

}  // namespace weightspace
