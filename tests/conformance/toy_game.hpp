// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// C++ port of the toy catch game, tests/conformance/toy/toy_game.py (read its docstring for
// the rules), registered only in the test build. ToyFlaw selects deliberately wrong variants,
// each a classic porting mistake, so the tests can check that the conformance kit catches it
// at the step where the Python and the port first part.

#include <array>
#include <cstdint>
#include <stdexcept>
#include <string_view>

#include "games/game.hpp"
#include "games/random_state.hpp"

namespace weightspace::testing {

enum class ToyFlaw {
  none,
  // Picks the lane with a raw draw even when one lane is free, where randint(1) draws nothing.
  single_lane_draws,
  // Draws the lane before the kind (Python draws the kind first, even when it goes unused).
  lane_before_kind,
};

template <ToyFlaw Flaw = ToyFlaw::none>
class BasicToyGame {
 public:
  static constexpr std::string_view name = "toy";
  static constexpr std::string_view description = "test-only catch game of the conformance kit";
  static constexpr double score_cap = 50.0;
  static constexpr int channels = 6;
  static constexpr std::array<std::uint8_t, channels> observation_masks{1, 2, 4, 8, 16, 32};

  static constexpr std::array<int, 3> kLanes{1, 4, 7};
  static constexpr double kSpawnChance = 0.45;
  static constexpr int kLaneClearRow = 3;
  static constexpr int kLives = 3;
  static constexpr int kTimeLimit = 300;
  // Objects fall one row per step and live at most ten steps; one spawns per step at most.
  static constexpr int kCapacity = 16;
  enum Kind : std::uint8_t { kHazard = 0, kTarget = 1 };

  struct Object {
    std::int8_t x = 0;
    std::int8_t y = 0;
    Kind kind = kHazard;
    std::int8_t last_y = -1;  // the row it fell from; -1 before its first fall
  };

  // Python's attributes. Public so tests can see what a step did.
  struct State {
    std::array<Object, kCapacity> objects{};  // in Python list order
    int object_count = 0;
    int player = 0;
    int shot_x = 0;
    int shot_y = -1;  // -1: no shot (Python's None)
    int lives = kLives;
    int time = 0;
    bool terminal = false;
    int spawn_free_lanes = -1;  // free lanes at this step's spawn; -1 when the chance failed
  };

  explicit BasicToyGame(bool /*ramping: the toy has no difficulty ramp*/) {}

  void reset(RandomState& random) {
    state_ = State{};
    state_.player = static_cast<int>(random.randint(1, 9));
    state_.objects[0] = Object{static_cast<std::int8_t>(kLanes[static_cast<std::size_t>(random.randint(3))]), 0,
                               kTarget, -1};
    state_.object_count = 1;
  }

  StepResult act(int action, RandomState& random) {
    if (state_.terminal) return {0, true};
    State& s = state_;
    int reward = 0;
    if (action == 1) s.player = s.player > 0 ? s.player - 1 : 0;
    if (action == 3) s.player = s.player < 9 ? s.player + 1 : 9;
    if (s.shot_y >= 0) --s.shot_y;  // leaving row 0 makes it -1, i.e. gone
    if (action == 5 && s.shot_y < 0) {
      s.shot_x = s.player;
      s.shot_y = 8;
    }
    int kept = 0;
    for (int i = 0; i < s.object_count; ++i) {
      Object object = s.objects[static_cast<std::size_t>(i)];
      object.last_y = object.y;
      ++object.y;
      if (object.y > 9) continue;
      if (s.shot_y >= 0 && s.shot_x == object.x && s.shot_y == object.y) {
        if (object.kind == kHazard) reward += 1;  // Python's float 1.0
        s.shot_y = -1;
        continue;
      }
      if (object.y == 9 && object.x == s.player) {
        if (object.kind == kTarget) {
          reward += 1;
        } else {
          --s.lives;
        }
        continue;
      }
      s.objects[static_cast<std::size_t>(kept++)] = object;
    }
    s.object_count = kept;
    spawn(random);
    ++s.time;
    if (s.lives <= 0 || s.time >= kTimeLimit) s.terminal = true;
    return {reward, s.terminal};
  }

  template <class Cell>
  void paint(Cell&& cell) const {
    cell(9, state_.player, 0);
    for (int i = 0; i < state_.object_count; ++i) {
      const Object& object = state_.objects[static_cast<std::size_t>(i)];
      cell(object.y, object.x, object.kind == kHazard ? 1 : 2);
      if (object.last_y >= 0) cell(object.last_y, object.x, 4);
    }
    if (state_.shot_y >= 0) cell(state_.shot_y, state_.shot_x, 3);
    for (int k = 0; k < state_.lives; ++k) cell(0, 9 - k, 5);
  }

  const State& state() const { return state_; }

 private:
  void spawn(RandomState& random) {
    State& s = state_;
    s.spawn_free_lanes = -1;
    if (!(random.random_sample() < kSpawnChance)) return;
    std::array<int, 3> free{};
    int free_count = 0;
    for (int lane : kLanes) {
      bool blocked = false;
      for (int i = 0; i < s.object_count; ++i) {
        const Object& object = s.objects[static_cast<std::size_t>(i)];
        blocked = blocked || (object.x == lane && object.y <= kLaneClearRow);
      }
      if (!blocked) free[static_cast<std::size_t>(free_count++)] = lane;
    }
    s.spawn_free_lanes = free_count;
    Kind kind = kHazard;
    int lane = -1;
    if constexpr (Flaw == ToyFlaw::lane_before_kind) {
      if (free_count > 0) lane = free[static_cast<std::size_t>(random.randint(free_count))];
      kind = static_cast<Kind>(random.randint(2));
    } else {
      kind = static_cast<Kind>(random.randint(2));  // drawn even when no lane is free
      if (free_count == 1 && Flaw == ToyFlaw::single_lane_draws) {
        lane = free[random.next_uint32() % 1];
      } else if (free_count > 0) {
        lane = free[static_cast<std::size_t>(random.randint(free_count))];
      }
    }
    if (lane < 0) return;
    if (s.object_count == kCapacity) throw std::length_error("toy game: more objects than kCapacity");
    s.objects[static_cast<std::size_t>(s.object_count++)] =
        Object{static_cast<std::int8_t>(lane), 0, kind, -1};
  }

  State state_;
};

using ToyGame = BasicToyGame<ToyFlaw::none>;

}  // namespace weightspace::testing
