// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The bundled synth seaquest (tools/minatar_synth/games/seaquest.py), step for step.
//
// A simplified variant of MinAtar's seaquest: one kind of enemy (sharks: no enemy submarines,
// no enemy bullets), each swimming one cell every 3, 4 or 5 steps (drawn at spawn; the
// original's enemies every 6), spawning every 10 steps (the original: 20) and 1 step sooner
// after every delivery, down to 4. Divers come every 25 steps, the sub carries at most 4 (the
// original: 6), oxygen lasts 120 steps (the original: 200), and surfacing with divers delivers
// all of them for +1 each and refills the air (the original keeps all but one and pays only
// for a full load); surfacing with none ends the game as in the original. A fair transfer
// test: the objects keep their roles and the channels the meaning verify.py's channel groups
// give the original (sub; sharks; sharks and divers; torpedoes; trails and the sub's back;
// the oxygen and diver gauges on row 9), so a policy that hunts in its row, avoids the surface
// without divers and surfaces with them transfers, while it must cope with faster, uneven
// enemies, less air and a different rescue reward. score_cap 60: a scripted player reading
// the full state averages about 28 (82 at best), a very good policy about twice that; the
// original's example answer scores about 3 here, examples/answers/synth/seaquest.md about 7.

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <stdexcept>
#include <string_view>

#include "games/game.hpp"
#include "games/random_state.hpp"
#include "games/synth/seaquest_sharks.hpp"

namespace weightspace {

namespace synth_seaquest {

inline constexpr int kMaxOxygen = 120;
inline constexpr int kMaxDivers = 4;
inline constexpr int kShotCoolDown = 4;
inline constexpr int kFirstSpawnInterval = 10;
inline constexpr int kFastestSpawnInterval = 4;
inline constexpr int kDiverSpawnInterval = 25;
inline constexpr int kDiverMoveInterval = 3;

// A Python list of swimmers in list order, with the same appends and deletions, so "the first
// entity in this cell" is the same one in both. Capacities (overflow throws std::length_error;
// the sharks are SharkLanes, games/synth/seaquest_sharks.hpp):
//  - divers: spawned 25 steps apart, gone 39 steps after spawning: 2;
//  - torpedoes: fired at least 4 steps apart, gone 9 steps after firing: 3.
template <int Capacity>
class Swimmers {
 public:
  void append(const Swimmer& swimmer) {
    if (size_ == Capacity) throw std::length_error("synth seaquest: too many entities");
    items_[static_cast<std::size_t>(size_++)] = swimmer;
  }
  // Index of the first swimmer at (x, y), or -1 (Python's _index_at returning None).
  int index_at(int x, int y) const {
    for (int i = 0; i < size_; ++i) {
      if (items_[static_cast<std::size_t>(i)].x == x && items_[static_cast<std::size_t>(i)].y == y) return i;
    }
    return -1;
  }
  void erase(int index) {
    for (int i = index; i + 1 < size_; ++i) items_[static_cast<std::size_t>(i)] = items_[static_cast<std::size_t>(i + 1)];
    --size_;
  }
  // Keeps the swimmers for which keep(swimmer&) returns true, in order (the Python loops that
  // build a new list of survivors). keep may modify the swimmer and touch other lists.
  template <class Keep>
  void filter(Keep&& keep) {
    int kept = 0;
    for (int i = 0; i < size_; ++i) {
      Swimmer swimmer = items_[static_cast<std::size_t>(i)];
      const bool keeps = keep(swimmer);
      items_[static_cast<std::size_t>(kept)] = swimmer;  // kept <= i: a swimmer already read
      kept += keeps;
    }
    size_ = kept;
  }
  const Swimmer* begin() const { return items_.data(); }
  const Swimmer* end() const { return items_.data() + size_; }
  int size() const { return size_; }

 private:
  std::array<Swimmer, Capacity> items_{};
  int size_ = 0;
};

}  // namespace synth_seaquest

class SynthSeaquest {
 public:
  static constexpr std::string_view name = "seaquest";
  static constexpr std::string_view description =
      "submarine against sharks of mixed speeds; deliver divers for air and points";
  static constexpr double score_cap = 60.0;
  static constexpr int channels = 6;  // sub, shark, shark_or_diver, torpedo, trail, gauge
  static constexpr std::array<std::uint8_t, channels> observation_masks{1, 2, 4, 8, 16, 32};
  static constexpr bool observation_never_raises = true;

  // Python's attributes one for one. Public so tests can build hand-derived situations.
  struct State {
    int sub_x = 5;
    int sub_y = 0;
    bool sub_right = false;
    int oxygen = synth_seaquest::kMaxOxygen;
    int divers_carried = 0;
    bool at_surface = true;
    synth_seaquest::Swimmers<4> torpedoes;
    synth_seaquest::SharkLanes sharks;
    synth_seaquest::Swimmers<4> divers;
    int spawn_interval = synth_seaquest::kFirstSpawnInterval;
    int spawn_timer = synth_seaquest::kFirstSpawnInterval;
    int diver_timer = synth_seaquest::kDiverSpawnInterval;
    int shot_timer = 0;
    bool terminal = false;
  };

  explicit SynthSeaquest(bool /*ramping: the synth games have their own built-in ramp*/) {}

  void reset(RandomState& /*random: reset draws nothing*/) { state_ = State{}; }

  StepResult act(int action, RandomState& random) {
    using namespace synth_seaquest;
    State& s = state_;
    if (s.terminal) return {0, true};
    if (s.spawn_timer == 0) {
      spawn_shark(random);
      s.spawn_timer = s.spawn_interval;
    }
    if (s.diver_timer == 0) {
      spawn_diver(random);
      s.diver_timer = kDiverSpawnInterval;
    }
    if (action == 5 && s.shot_timer == 0) {
      s.torpedoes.append({static_cast<std::int8_t>(s.sub_x), static_cast<std::int8_t>(s.sub_y), s.sub_right, 0, 0});
      s.shot_timer = kShotCoolDown;
    } else {
      // Each move as far as the edge; left and right also turn the sub.
      const int dx = action_dx(action);
      s.sub_x = std::clamp(s.sub_x + dx, 0, 9);
      s.sub_y = std::clamp(s.sub_y + action_dy(action), 0, 8);
      s.sub_right = dx == 0 ? s.sub_right : dx > 0;
    }

    int reward = move_torpedoes();
    move_divers();
    reward += move_sharks();

    --s.spawn_timer;
    --s.diver_timer;
    if (s.shot_timer > 0) --s.shot_timer;
    if (s.sub_y > 0) {
      s.at_surface = false;
      if (--s.oxygen == 0) s.terminal = true;
    } else if (!s.at_surface) {
      s.at_surface = true;
      if (s.divers_carried == 0) {
        s.terminal = true;
      } else {
        reward += s.divers_carried;
        s.divers_carried = 0;
        s.oxygen = kMaxOxygen;
        if (s.spawn_interval > kFastestSpawnInterval) --s.spawn_interval;
      }
    }
    return {reward, s.terminal};
  }

  // By value, as copies: kept in registers across the stores of the cells they paint.
  template <class Cell, class Row>
  void paint_rows(Cell cell, Row row) const {
    const State& s = state_;
    const int back_x = s.sub_right ? s.sub_x - 1 : s.sub_x + 1;
    cell(s.sub_y, s.sub_x, 0);
    if (on_board(back_x)) {
      cell(s.sub_y, back_x, 0);
      cell(s.sub_y, back_x, 4);
    }
    const auto trail = [&cell](const synth_seaquest::Swimmer& swimmer) {
      const int trail_x = swimmer.right ? swimmer.x - 1 : swimmer.x + 1;
      if (on_board(trail_x)) cell(swimmer.y, trail_x, 4);
    };
    for (int i = 0; i < s.sharks.size(); ++i) {
      const synth_seaquest::Swimmer shark = s.sharks[i];
      cell(shark.y, shark.x, 1);
      cell(shark.y, shark.x, 2);
      trail(shark);
    }
    for (const auto& diver : s.divers) {
      cell(diver.y, diver.x, 2);
      trail(diver);
    }
    for (const auto& torpedo : s.torpedoes) cell(torpedo.y, torpedo.x, 3);
    // The gauges: oxygen from the left, divers carried to the left of column 9.
    const int oxygen_cells = s.oxygen * 10 / synth_seaquest::kMaxOxygen;  // oxygen >= 0 always
    row(9, columns_below(oxygen_cells) | (columns_below(9) & ~columns_below(9 - s.divers_carried)), 5);
  }
  template <class Cell>
  void paint(Cell&& cell) const {
    paint_cells_of_rows(*this, cell);
  }

  const State& state() const { return state_; }
  void restore(const State& state) { state_ = state; }

 private:
  static bool on_board(int x) { return x >= 0 && x <= 9; }
  static std::int8_t step(const synth_seaquest::Swimmer& swimmer) { return swimmer.right ? 1 : -1; }
  // `&`, not `&&`: no branch for the per-diver check of move_divers.
  bool at_sub(int x, int y) const { return (x == state_.sub_x) & (y == state_.sub_y); }

  // One step of a diver's timer: at 0 it moves a cell and restarts at interval. Branch-free,
  // as the sharks' (SharkLanes::move): the timers run out at unpredictable steps.
  static void advance(synth_seaquest::Swimmer& swimmer, std::int8_t interval) {
    const int moves = -static_cast<int>(swimmer.move_timer == 0);  // all bits set: a mask
    swimmer.move_timer = static_cast<std::int8_t>(swimmer.move_timer - 1 + (moves & (interval + 1)));
    swimmer.x = static_cast<std::int8_t>(swimmer.x + (moves & step(swimmer)));
  }

  int move_torpedoes() {
    int reward = 0;
    state_.torpedoes.filter([&](synth_seaquest::Swimmer& torpedo) {
      torpedo.x = static_cast<std::int8_t>(torpedo.x + step(torpedo));
      const int hit = state_.sharks.index_at(torpedo.x, torpedo.y);
      if (hit >= 0) {
        state_.sharks.erase(hit);
        ++reward;
        return false;
      }
      return on_board(torpedo.x);
    });
    return reward;
  }

  void move_divers() {
    state_.divers.filter([&](synth_seaquest::Swimmer& diver) {
      advance(diver, synth_seaquest::kDiverMoveInterval);
      if (at_sub(diver.x, diver.y) && state_.divers_carried < synth_seaquest::kMaxDivers) {
        ++state_.divers_carried;
        return false;
      }
      return on_board(diver.x);
    });
  }

  // Python's loop over the sharks: each is checked against the sub before and after it moves
  // (so the two never pass through each other), and the first torpedo in the cell it swims
  // into sinks it and is spent. All sharks move at once (SharkLanes::move); only those that
  // meet some torpedo are then taken one by one in list order, each searching the torpedoes
  // left by the sharks before it, as Python does. Nothing in the loop reads terminal.
  int move_sharks() {
    synth_seaquest::SharkLanes& sharks = state_.sharks;
    const synth_seaquest::SharkLanes::Moved moved = sharks.move(state_.sub_x, state_.sub_y);
    if (moved.at_sub != 0) state_.terminal = true;
    std::uint32_t meeting = 0;
    for (const auto& torpedo : state_.torpedoes) meeting |= sharks.at(torpedo.x, torpedo.y);
    int reward = 0;
    std::uint32_t sunk = 0;
    for (; meeting != 0; meeting &= meeting - 1) {
      const int i = std::countr_zero(meeting);
      const synth_seaquest::Swimmer shark = sharks[i];
      const int hit = state_.torpedoes.index_at(shark.x, shark.y);
      if (hit < 0) continue;  // an earlier shark spent that torpedo
      state_.torpedoes.erase(hit);
      ++reward;
      sunk |= std::uint32_t{1} << i;
    }
    if ((sunk | moved.off_board) != 0) sharks.remove(sunk | moved.off_board);
    return reward;
  }

  // Python draws the side (rand() < 0.5 is right), the row (randint(1, 9)), then the speed
  // (randint(2, 5)).
  void spawn_shark(RandomState& random) {
    const bool right = random.random_sample() < 0.5;
    const auto y = static_cast<std::int8_t>(random.randint(1, 9));
    const auto interval = static_cast<std::int8_t>(random.randint(2, 5));
    state_.sharks.append({static_cast<std::int8_t>(right ? 0 : 9), y, right, interval, interval});
  }

  void spawn_diver(RandomState& random) {
    const bool right = random.random_sample() < 0.5;
    const auto y = static_cast<std::int8_t>(random.randint(1, 9));
    state_.divers.append({static_cast<std::int8_t>(right ? 0 : 9), y, right, 0,
                          synth_seaquest::kDiverMoveInterval});
  }

  State state_;
};

static_assert(Game<SynthSeaquest>);

}  // namespace weightspace
