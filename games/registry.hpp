// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

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

// One registered game: its type, where it comes from, and what the grader normalises by.
template <Game G>
struct Registration {
  using type = G;
  std::string_view source;      // "original" (MinAtar ports) or "synth"
  double score_cap;             // verify.ORIGINAL_SCORE_CAPS / a synth class's score_cap
  std::string_view description;
};

// A synth game carries its own score_cap (the Python class attribute verify.py reads) and
// description; its 6 channels are the observation itself.
template <Game G>
constexpr Registration<G> synth_registration() {
  return {"synth", G::score_cap, G::description};
}

// Adding a game: its header above and one line here. Callers dispatch once per job with
// with_game(); the step loops below that point are templated on the concrete type.
inline constexpr auto kRegisteredGames = std::make_tuple(
    Registration<Asterix>{"original", 1000.0, "dodge enemies, collect gold; spawns speed up"},
    Registration<Breakout>{"original", 1000.0, "paddle and ball against a three-row brick wall"},
    Registration<Freeway>{"original", 100.0, "chicken crossing eight lanes of traffic, 2500 steps"},
    Registration<Seaquest>{"original", 1000.0, "submarine: shoot, rescue divers, surface for oxygen"},
    Registration<SpaceInvaders>{"original", 1000.0, "cannon against a marching alien formation"},
    synth_registration<SynthAsterix>(),
    synth_registration<SynthBreakout>(),
    synth_registration<SynthFreeway>(),
    synth_registration<SynthSeaquest>(),
    synth_registration<SynthSpaceInvaders>());

struct GameInfo {
  std::string_view source;
  std::string_view name;
  int channels;
  double score_cap;
  std::string_view description;
};

inline std::vector<GameInfo> registered_games() {
  std::vector<GameInfo> games;
  std::apply([&](const auto&... entry) {
    (games.push_back({entry.source, std::remove_cvref_t<decltype(entry)>::type::name,
                      std::remove_cvref_t<decltype(entry)>::type::channels, entry.score_cap,
                      entry.description}),
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
