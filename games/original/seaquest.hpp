// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// MinAtar 1.0.15 seaquest (minatar/environments/seaquest.py), step for step. Entities live in
// PythonLists so that the update loops keep CPython's behaviour: reversed() iteration while
// removing, remove() by value (first EQUAL entity), and a removed submarine that still fires.

#include <algorithm>
#include <array>
#include <cstdint>
#include <stdexcept>
#include <string_view>

#include "games/game.hpp"
#include "games/original/seaquest_entities.hpp"
#include "games/random_state.hpp"

namespace weightspace {

class Seaquest {
 public:
  static constexpr std::string_view name = "seaquest";
  static constexpr int channels = 10;
  // Raw channels: sub_front, sub_back, friendly_bullet, trail, enemy_bullet, enemy_fish,
  // enemy_sub, oxygen_guage, diver_guage, diver; ORIGINAL_CHANNEL_GROUPS["seaquest"] is
  // ((0, 1), (5, 6, 4), (5, 6, 9), (2,), (3, 1), (7, 8)).
  static constexpr std::array<std::uint8_t, channels> observation_masks = {
      0b000001, 0b010001, 0b001000, 0b010000, 0b000010,
      0b000110, 0b000110, 0b100000, 0b100000, 0b000100};

  // Env's attributes, under their Python names where the name is clear.
  struct State {
    int oxygen = seaquest::kMaxOxygen;
    int diver_count = 0;  // goes negative: surfacing with 6 divers leaves -1
    int sub_x = 5;
    int sub_y = 0;
    bool sub_right = false;  // sub_or
    seaquest::List<seaquest::Bullet, seaquest::kFriendlyBulletCapacity> friendly_bullets;
    seaquest::List<seaquest::Bullet, seaquest::kEnemyBulletCapacity> enemy_bullets;
    seaquest::List<seaquest::Swimmer, seaquest::kEnemyCapacity> fish;          // e_fish
    seaquest::List<seaquest::Submarine, seaquest::kEnemyCapacity> submarines;  // e_subs
    seaquest::List<seaquest::Swimmer, seaquest::kDiverCapacity> divers;
    int enemy_spawn_speed = seaquest::kInitialSpawnSpeed;  // e_spawn_speed
    int enemy_spawn_timer = seaquest::kInitialSpawnSpeed;  // e_spawn_timer
    int diver_spawn_timer = seaquest::kDiverSpawnSpeed;    // d_spawn_timer
    int move_speed = seaquest::kInitialMoveInterval;
    int ramp_index = 0;
    int shot_timer = 0;
    bool surface = true;
    bool terminal = false;
  };

  explicit Seaquest(bool ramping) : ramping_(ramping) {}

  // Env.reset(): draws nothing.
  void reset(RandomState&) { state_ = State{}; }

  StepResult act(int action, RandomState& random);

  template <class Cell, class Row>
  void paint_rows(Cell&& cell, Row&& row) const;
  template <class Cell>
  void paint(Cell&& cell) const {
    paint_cells_of_rows(*this, cell);
  }

  // The whole game state, for tests and tools that inspect or build positions.
  const State& state() const { return state_; }
  void restore(const State& state) { state_ = state; }
  bool ramping() const { return ramping_; }

 private:
  static int step(bool right) { return right ? 1 : -1; }
  static bool off_board(int x) { return x < 0 || x > 9; }
  bool at_sub(int x, int y) const { return x == state_.sub_x && y == state_.sub_y; }

  void move_player(int action);
  int update_friendly_bullets();
  template <class Entities>
  static bool remove_first_at(Entities& entities, int x, int y);
  void update_divers();
  int update_submarines();
  void update_enemy_bullets();
  int update_fish();
  int surface();
  void spawn_enemy(RandomState& random);
  void spawn_diver(RandomState& random);

  State state_;
  bool ramping_;
};

inline StepResult Seaquest::act(int action, RandomState& random) {
  if (state_.terminal) return {0, true};
  int reward = 0;
  if (state_.enemy_spawn_timer == 0) {
    spawn_enemy(random);
    state_.enemy_spawn_timer = state_.enemy_spawn_speed;
  }
  if (state_.diver_spawn_timer == 0) {
    spawn_diver(random);
    state_.diver_spawn_timer = seaquest::kDiverSpawnSpeed;
  }
  move_player(action);
  // A loop over [] does nothing: tested here, so that an empty list costs no call (GCC keeps
  // the longer updates out of line).
  if (!state_.friendly_bullets.empty()) reward += update_friendly_bullets();
  if (!state_.divers.empty()) update_divers();
  if (!state_.submarines.empty()) reward += update_submarines();
  if (!state_.enemy_bullets.empty()) update_enemy_bullets();
  if (!state_.fish.empty()) reward += update_fish();

  // Python subtracts the bools (timer > 0).
  state_.enemy_spawn_timer -= state_.enemy_spawn_timer > 0;
  state_.diver_spawn_timer -= state_.diver_spawn_timer > 0;
  state_.shot_timer -= state_.shot_timer > 0;
  if (state_.oxygen <= 0) state_.terminal = true;
  if (state_.sub_y > 0) {
    state_.oxygen -= 1;
    state_.surface = false;
  } else if (!state_.surface) {
    // Only a count of exactly 0 ends the game; negative counts surface again.
    if (state_.diver_count == 0) {
      state_.terminal = true;
    } else {
      reward += surface();
    }
  }
  return {reward, state_.terminal};
}

inline void Seaquest::move_player(int action) {
  // action_map[a] with Python's negative-index wrap; a >= 6 is Python's IndexError.
  if (action < -6 || action > 5) throw std::out_of_range("seaquest: action index out of range");
  if (action < 0) action += 6;
  enum : int { kNoop, kLeft, kUp, kRight, kDown, kFire };
  if (action == kFire && state_.shot_timer == 0) {
    state_.friendly_bullets.append({static_cast<std::int8_t>(state_.sub_x),
                                    static_cast<std::int8_t>(state_.sub_y), state_.sub_right});
    state_.shot_timer = seaquest::kShotCoolDown;
  } else if (action == kLeft) {
    state_.sub_x = std::max(0, state_.sub_x - 1);
    state_.sub_right = false;
  } else if (action == kRight) {
    state_.sub_x = std::min(9, state_.sub_x + 1);
    state_.sub_right = true;
  } else if (action == kUp) {
    state_.sub_y = std::max(0, state_.sub_y - 1);
  } else if (action == kDown) {
    state_.sub_y = std::min(8, state_.sub_y + 1);
  }
}

// The updates return their reward.
inline int Seaquest::update_friendly_bullets() {
  int reward = 0;
  auto& bullets = state_.friendly_bullets;
  for (auto bullet = bullets.reversed_cursor(); bullet.next();) {
    bullet->x = static_cast<std::int8_t>(bullet->x + step(bullet->right));
    if (off_board(bullet->x)) {
      bullet.remove();
      continue;
    }
    // The fish and submarine loops end at their first hit, so they are searches.
    if (remove_first_at(state_.fish, bullet->x, bullet->y) ||
        remove_first_at(state_.submarines, bullet->x, bullet->y)) {
      bullet.remove();
      reward += 1;
    }
  }
  return reward;
}

// for e in entities: if e.x == x and e.y == y: entities.remove(e); break. True on a hit.
template <class Entities>
bool Seaquest::remove_first_at(Entities& entities, int x, int y) {
  for (const auto& entity : entities) {
    if (entity.x == x && entity.y == y) {
      entities.remove(entity);  // by value: copied before the list shifts
      return true;
    }
  }
  return false;
}

inline void Seaquest::update_divers() {
  auto& divers = state_.divers;
  for (auto diver = divers.reversed_cursor(); diver.next();) {
    if (at_sub(diver->x, diver->y) && state_.diver_count < seaquest::kMaxDivers) {
      diver.remove();
      state_.diver_count += 1;
    } else if (diver->move_timer == 0) {
      diver->move_timer = seaquest::kDiverMoveInterval;
      diver->x = static_cast<std::int8_t>(diver->x + step(diver->right));
      if (off_board(diver->x)) {
        diver.remove();
      } else if (at_sub(diver->x, diver->y) && state_.diver_count < seaquest::kMaxDivers) {
        diver.remove();
        state_.diver_count += 1;
      }
    } else {
      diver->move_timer -= 1;
    }
  }
}

inline int Seaquest::update_submarines() {
  int reward = 0;
  auto& subs = state_.submarines;
  for (auto sub = subs.reversed_cursor(); sub.next();) {
    if (at_sub(sub->x, sub->y)) state_.terminal = true;
    if (sub->move_timer == 0) {
      sub->move_timer = static_cast<std::int8_t>(state_.move_speed);
      sub->x = static_cast<std::int8_t>(sub->x + step(sub->right));
      if (off_board(sub->x)) {
        sub.remove();
      } else if (at_sub(sub->x, sub->y)) {
        state_.terminal = true;
      } else if (remove_first_at(state_.friendly_bullets, sub->x, sub->y)) {
        sub.remove();
        reward += 1;
      }
    } else {
      sub->move_timer -= 1;
    }
    // Python keeps using `sub` here even when it was just removed: a submarine that left the
    // board or was shot this act still fires (from its last position) if its timer is due.
    if (sub->shot_timer == 0) {
      sub->shot_timer = seaquest::kEnemyShotInterval;
      state_.enemy_bullets.append({sub->x, sub->y, sub->right});
    } else {
      sub->shot_timer -= 1;
    }
  }
  return reward;
}

inline void Seaquest::update_enemy_bullets() {
  auto& bullets = state_.enemy_bullets;
  for (auto bullet = bullets.reversed_cursor(); bullet.next();) {
    if (at_sub(bullet->x, bullet->y)) state_.terminal = true;
    bullet->x = static_cast<std::int8_t>(bullet->x + step(bullet->right));
    if (off_board(bullet->x)) {
      bullet.remove();
    } else if (at_sub(bullet->x, bullet->y)) {
      state_.terminal = true;
    }
  }
}

inline int Seaquest::update_fish() {
  int reward = 0;
  auto& fishes = state_.fish;
  for (auto fish = fishes.reversed_cursor(); fish.next();) {
    if (at_sub(fish->x, fish->y)) state_.terminal = true;
    if (fish->move_timer == 0) {
      fish->move_timer = static_cast<std::int8_t>(state_.move_speed);
      fish->x = static_cast<std::int8_t>(fish->x + step(fish->right));
      if (off_board(fish->x)) {
        fish.remove();
      } else if (at_sub(fish->x, fish->y)) {
        state_.terminal = true;
      } else if (remove_first_at(state_.friendly_bullets, fish->x, fish->y)) {
        fish.remove();
        reward += 1;
      }
    } else {
      fish->move_timer -= 1;
    }
  }
  return reward;
}

// Env._surface(): called on reaching the top row with a non-zero diver count.
inline int Seaquest::surface() {
  state_.surface = true;
  int reward = 0;
  if (state_.diver_count == seaquest::kMaxDivers) {
    state_.diver_count = 0;
    // oxygen*10//max_oxygen; oxygen >= 0 here (it only goes negative in a terminal act).
    reward = state_.oxygen * 10 / seaquest::kMaxOxygen;
  }
  state_.oxygen = seaquest::kMaxOxygen;
  // Also after the reset to 0 above: a full load of 6 divers leaves -1.
  state_.diver_count -= 1;
  if (ramping_ && (state_.enemy_spawn_speed > 1 || state_.move_speed > 2)) {
    if (state_.move_speed > 2 && state_.ramp_index % 2 != 0) state_.move_speed -= 1;
    if (state_.enemy_spawn_speed > 1) state_.enemy_spawn_speed -= 1;
    state_.ramp_index += 1;
  }
  return reward;
}

// Env._spawn_enemy(): all three draws happen even when the spawn is then refused.
inline void Seaquest::spawn_enemy(RandomState& random) {
  const bool right = random.random_sample() < 1.0 / 2.0;
  const bool is_sub = random.random_sample() < 1.0 / 3.0;
  const auto x = static_cast<std::int8_t>(right ? 0 : 9);
  const auto y = static_cast<std::int8_t>(random.randint(1, 9));
  // No spawn in a row holding an enemy that moves the other way.
  for (const auto& sub : state_.submarines) {
    if (sub.y == y && sub.right != right) return;
  }
  for (const auto& fish : state_.fish) {
    if (fish.y == y && fish.right != right) return;
  }
  const auto timer = static_cast<std::int8_t>(state_.move_speed);
  if (is_sub) {
    state_.submarines.append({x, y, right, timer, seaquest::kEnemyShotInterval});
  } else {
    state_.fish.append({x, y, right, timer});
  }
}

// Env._spawn_diver()
inline void Seaquest::spawn_diver(RandomState& random) {
  const bool right = random.random_sample() < 1.0 / 2.0;
  const auto x = static_cast<std::int8_t>(right ? 0 : 9);
  const auto y = static_cast<std::int8_t>(random.randint(1, 9));
  state_.divers.append({x, y, right, seaquest::kDiverMoveInterval});
}

namespace seaquest {
// Out of line, so that the check it ends inlines into every painted entity.
[[noreturn, gnu::cold, gnu::noinline]] inline void throw_column_error() {
  throw GameError("IndexError", "seaquest: an entity is painted at column 10, outside the 10x10 state");
}
}  // namespace seaquest

// Env.state(): every cell it sets (the two gauges of row 9 as rows). Entity columns are numpy
// indices: -1 wraps to 9 (cells.hpp) and 10 would be numpy's IndexError, thrown here as
// GameError.
template <class Cell, class Row>
void Seaquest::paint_rows(Cell&& painter_cell, Row&& painter_row) const {
  // Copies (painters are lambdas holding a pointer and the channels read): through the
  // references, each cell's store could overwrite them, so every cell reloaded both.
  auto cell = painter_cell;
  auto row = painter_row;
  const auto column = [](int x) {
    if (x < -seaquest::kBoardSize || x >= seaquest::kBoardSize) [[unlikely]] seaquest::throw_column_error();
    return x;
  };
  const auto trail = [&cell](int y, int x, bool right) {
    const int back_x = right ? x - 1 : x + 1;
    if (back_x >= 0 && back_x <= 9) cell(y, back_x, 3);
  };
  // Python slice bounds on an axis of 10: negative counts from the end, then clamped.
  const auto slice_bound = [](int bound) {
    if (bound < 0) return std::max(0, bound + seaquest::kBoardSize);
    return std::min(bound, seaquest::kBoardSize);
  };
  const State& s = state_;
  cell(s.sub_y, column(s.sub_x), 0);
  cell(s.sub_y, column(s.sub_right ? s.sub_x - 1 : s.sub_x + 1), 1);
  // state[9, 0:max(0,oxygen)*10//max_oxygen, 7]
  const int oxygen_end = slice_bound(std::max(0, s.oxygen) * 10 / seaquest::kMaxOxygen);
  if (oxygen_end > 0) row(9, columns_below(oxygen_end), 7);
  // state[9, 9-diver_count:9, 8]: an empty slice once diver_count <= 0.
  const int divers_begin = slice_bound(9 - s.diver_count);
  if (divers_begin < 9) row(9, columns_below(9) & ~columns_below(divers_begin), 8);
  for (const auto& bullet : s.friendly_bullets) cell(bullet.y, column(bullet.x), 2);
  for (const auto& bullet : s.enemy_bullets) cell(bullet.y, column(bullet.x), 4);
  for (const auto& fish : s.fish) {
    cell(fish.y, column(fish.x), 5);
    trail(fish.y, fish.x, fish.right);
  }
  for (const auto& sub : s.submarines) {
    cell(sub.y, column(sub.x), 6);
    trail(sub.y, sub.x, sub.right);
  }
  for (const auto& diver : s.divers) {
    cell(diver.y, column(diver.x), 9);
    trail(diver.y, diver.x, diver.right);
  }
}

}  // namespace weightspace
