// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Seaquest's entities, their Python list capacities and the game's constants (seaquest.hpp).

#include <cstdint>

#include "games/python_list.hpp"

namespace weightspace {

namespace seaquest {

inline constexpr int kMaxOxygen = 200;
inline constexpr int kInitialSpawnSpeed = 20;
inline constexpr int kDiverSpawnSpeed = 30;
inline constexpr int kInitialMoveInterval = 5;
inline constexpr int kShotCoolDown = 5;
inline constexpr int kEnemyShotInterval = 10;
inline constexpr int kDiverMoveInterval = 5;
inline constexpr int kMaxDivers = 6;
inline constexpr int kBoardSize = 10;

// Python [x, y, dir]: friendly and enemy bullets. `right` is dir (True = moving right).
struct Bullet {
  std::int8_t x = 0, y = 0;
  bool right = false;
  bool operator==(const Bullet&) const = default;
};

// Python [x, y, lr, move_timer]: enemy fish and divers.
struct Swimmer {
  std::int8_t x = 0, y = 0;
  bool right = false;
  std::int8_t move_timer = 0;
  bool operator==(const Swimmer&) const = default;
};

// Python [x, y, lr, move_timer, shot_timer]: enemy submarines.
struct Submarine {
  std::int8_t x = 0, y = 0;
  bool right = false;
  std::int8_t move_timer = 0, shot_timer = 0;
  bool operator==(const Submarine&) const = default;
};

// Capacities. Every entity present when an update loop starts is visited at least once per act
// (one removal per loop body never pushes reversed()'s index past the end), so each moves on
// schedule. The bounds below assume remove() finds the visited entity itself, not an equal
// twin (no trace shows a twin; see the RemoveTakesTheFirstEqualSubmarine test). Overflowing a
// capacity throws std::length_error; it never drops an entity.
//  - Friendly bullets: one shot per 5 acts (shot_cool_down), and a bullet moves one column per
//    act including the act it is fired in, so it is gone by its 10th act: at most 2.
inline constexpr int kFriendlyBulletCapacity = 2;
//  - Divers: one spawn per 30 acts (diver_spawn_speed); a diver moves once per 6 acts and
//    leaves after 10 moves, i.e. within 59 acts: at most 2.
inline constexpr int kDiverCapacity = 2;
//  - Fish and submarines share one spawn timer: at most one spawn per act (e_spawn_speed >= 1).
//    Move timers are at most init_move_interval = 5, so an enemy moves at least every 6 acts and
//    leaves by its 10th move, at most 59 acts after spawning: 59 alive plus the new spawn.
inline constexpr int kEnemyCapacity = 60;
//  - Enemy bullets: a submarine fires once per 11 acts (enemy_shot_interval + 1) and its bullet
//    leaves the board within 10 acts, so each submarine owns at most one bullet in flight.
//    Bullets in the list during act a were fired in acts a-9..a by submarines alive at the end
//    of act a-10 (at most 59) or spawned since (at most 10): 69.
inline constexpr int kEnemyBulletCapacity = 69;

// f_bullets, e_bullets, e_fish, e_subs, divers. Seaquest never runs two loops over one list at
// once, so each list tracks a single loop variable.
template <class Entity, int Capacity>
using List = PythonList<Entity, Capacity, 1>;

}  // namespace seaquest

}  // namespace weightspace
