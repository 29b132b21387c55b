// SPDX-License-Identifier: GPL-3.0-or-later
// Seaquest against MinAtar's traces, plus hand-built positions whose outcome is derived by
// following minatar/environments/seaquest.py line by line (the derivation is in the comments).
#include "games/original/seaquest.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "games/cells.hpp"
#include "games/observe.hpp"
#include "games/environment.hpp"
#include "support/golden.hpp"
#include "trace_test.hpp"

namespace weightspace {
namespace {

using seaquest::Bullet;
using seaquest::Submarine;
using seaquest::Swimmer;

static_assert(Game<Seaquest>);

enum Action : int { kNoop, kLeft, kUp, kRight, kDown, kFire };

// Flat raw-state index (y*10 + x)*10 + c, as in the golden files.
constexpr int cell_index(int y, int x, int channel) {
  return (y * 10 + x) * Seaquest::channels + channel;
}

bool has_cell(const Seaquest& game, int y, int x, int channel) {
  const std::vector<int> cells = raw_state(game);
  return std::find(cells.begin(), cells.end(), cell_index(y, x, channel)) != cells.end();
}

std::vector<int> row_nine(const Seaquest& game, int channel) {
  std::vector<int> columns;
  for (int x = 0; x < 10; ++x) {
    if (has_cell(game, 9, x, channel)) columns.push_back(x);
  }
  return columns;
}

template <class List>
auto contents(const List& list) {
  return std::vector<typename List::value_type>(list.begin(), list.end());
}

// Changes a game's state in place: a copy edited, then restored.
template <class Change>
void edit(Seaquest& game, Change&& change) {
  Seaquest::State state = game.state();
  change(state);
  game.restore(state);
}

// A reset game whose spawn timers are far from 0, so an act draws nothing by itself.
Seaquest quiet_game(bool ramping = false) {
  Seaquest game(ramping);
  RandomState unused;
  game.reset(unused);
  edit(game, [](Seaquest::State& state) {
    state.enemy_spawn_timer = 10;
    state.diver_spawn_timer = 10;
  });
  return game;
}

constexpr int kOxygenGauge = 7;
constexpr int kDiverGauge = 8;

TEST(Seaquest, MatchesGoldenTraces) {
  testing::expect_trace_matches<Seaquest>(testing::golden("games/seaquest.json"));
}

// The golden `events` record internal counters that the observation hides (every negative
// diver count draws the same empty gauge): replay each episode and compare them.
TEST(Seaquest, MatchesGoldenSurfacingEvents) {
  int full_loads = 0, surfacings_below_zero = 0, lowest_overall = 0;
  for (const auto& episode : testing::golden("games/seaquest.json").at("episodes")) {
    const int id = episode.at("id").get<int>();
    Environment<Seaquest> env(episode.at("difficulty_ramping").get<bool>(),
                              episode.at("sticky_action_prob").get<double>());
    env.start_episode(episode.at("env_seed").get<std::uint32_t>());
    std::vector<std::vector<int>> surfacings;
    std::vector<int> full_load_steps;
    int picked_up = 0, lowest = 0, highest = 0, surfacing_bonus = 0, score = 0;
    const auto& steps = episode.at("steps");
    for (std::size_t k = 0; k < steps.size(); ++k) {
      const Seaquest::State before = env.game().state();
      const StepResult result = env.act(steps[k].at(0).get<int>());
      const Seaquest::State& after = env.game().state();
      score += result.reward;
      const int step = static_cast<int>(k) + 1;
      const bool surfaced = !before.surface && after.surface;
      // _surface maps a count c to c - 1, except 6 -> 0 -> -1 (and 0 terminates instead).
      const bool full_load = surfaced && after.diver_count == -1;
      const int count_before_surfacing = full_load  ? 6
                                         : surfaced ? after.diver_count + 1
                                                    : after.diver_count;
      picked_up += count_before_surfacing - before.diver_count;
      highest = std::max(highest, count_before_surfacing);
      lowest = std::min(lowest, after.diver_count);
      if (surfaced) {
        surfacings.push_back(
            {step, before.diver_count, after.diver_count, result.reward, before.oxygen});
      }
      if (full_load) {
        full_load_steps.push_back(step);
        surfacing_bonus += before.oxygen * 10 / seaquest::kMaxOxygen;
      }
    }
    for (const auto& surfacing : surfacings) {
      if (surfacing[1] == 6 && surfacing[2] == -1) ++full_loads;
      if (surfacing[1] < 0) ++surfacings_below_zero;  // a surfacing that did not end the game
    }
    lowest_overall = std::min(lowest_overall, lowest);
    const auto& events = episode.at("events");
    EXPECT_EQ(surfacings, events.at("surface_events").get<std::vector<std::vector<int>>>()) << id;
    EXPECT_EQ(full_load_steps, events.at("surfaced_with_6_steps").get<std::vector<int>>()) << id;
    EXPECT_EQ(picked_up, events.at("divers_picked_up").get<int>()) << id;
    EXPECT_EQ(highest, events.at("max_diver_count").get<int>()) << id;
    EXPECT_EQ(lowest, events.at("min_diver_count").get<int>()) << id;
    EXPECT_EQ(score - surfacing_bonus, events.at("enemies_shot_reward").get<int>()) << id;
    EXPECT_EQ(env.game().state().ramp_index, events.at("final_ramp_index").get<int>()) << id;
    EXPECT_EQ(env.game().state().enemy_spawn_speed, events.at("final_e_spawn_speed").get<int>())
        << id;
    EXPECT_EQ(env.game().state().move_speed, events.at("final_move_speed").get<int>()) << id;
  }
  // tests/golden/README.md: 6 divers surface to -1, later surfacings go on below zero, and
  // the lowest count reached is -5.
  EXPECT_GT(full_loads, 0);
  EXPECT_GT(surfacings_below_zero, 0);
  EXPECT_EQ(lowest_overall, -5);
}

TEST(Seaquest, SurfacingWithSixDiversLeavesMinusOneAndTheNextSurfacingGoesOn) {
  // _surface with diver_count 6: diver_count = 0, r = 80*10//200 = 4, oxygen = 200, then
  // diver_count -= 1 -> -1. The gauge slice state[9, 10:9] is empty.
  Seaquest game = quiet_game();
  RandomState random;
  edit(game, [](Seaquest::State& state) {
    state.sub_y = 1;
    state.surface = false;
    state.diver_count = 6;
    state.oxygen = 80;
  });
  StepResult result = game.act(kUp, random);
  EXPECT_EQ(result.reward, 4);
  EXPECT_FALSE(result.terminal);
  EXPECT_EQ(game.state().diver_count, -1);
  EXPECT_EQ(game.state().oxygen, 200);
  EXPECT_TRUE(row_nine(game, kDiverGauge).empty());
  EXPECT_EQ(row_nine(game, kOxygenGauge).size(), 10U);
  // Down (oxygen 199, surface False), up: diver_count -1 != 0, so _surface again: -1 -> -2.
  game.act(kDown, random);
  result = game.act(kUp, random);
  EXPECT_EQ(result.reward, 0);
  EXPECT_FALSE(result.terminal);
  EXPECT_EQ(game.state().diver_count, -2);
  EXPECT_EQ(random.draws(), 0U);
}

TEST(Seaquest, SurfacingWithoutDiversEndsTheGame) {
  // sub_y 1 -> 0 with diver_count 0: terminal, no _surface (oxygen not restored).
  Seaquest game = quiet_game();
  RandomState random;
  edit(game, [](Seaquest::State& state) {
    state.sub_y = 1;
    state.surface = false;
    state.oxygen = 80;
  });
  const StepResult result = game.act(kUp, random);
  EXPECT_TRUE(result.terminal);
  EXPECT_EQ(game.state().oxygen, 80);
  EXPECT_EQ(game.state().diver_count, 0);
  // Env.act on a terminal game returns (0, True) at once: no draw, no movement.
  edit(game, [](Seaquest::State& state) { state.enemy_spawn_timer = 0; });
  const StepResult again = game.act(kRight, random);
  EXPECT_EQ(again.reward, 0);
  EXPECT_TRUE(again.terminal);
  EXPECT_EQ(game.state().sub_x, 5);
  EXPECT_EQ(random.draws(), 0U);
}

TEST(Seaquest, SurfacingWithSomeDiversDropsOne) {
  Seaquest game = quiet_game();
  RandomState random;
  edit(game, [](Seaquest::State& state) {
    state.sub_y = 1;
    state.surface = false;
    state.diver_count = 3;
    state.oxygen = 80;
  });
  const StepResult result = game.act(kUp, random);
  EXPECT_EQ(result.reward, 0);
  EXPECT_EQ(game.state().diver_count, 2);
  EXPECT_EQ(game.state().oxygen, 200);
  // state[9, 9-2:9] -> columns 7 and 8.
  EXPECT_EQ(row_nine(game, kDiverGauge), (std::vector<int>{7, 8}));
}

TEST(Seaquest, GaugesAreNumpySlices) {
  Seaquest game = quiet_game();
  edit(game, [](Seaquest::State& state) {
    state.oxygen = 199;     // 0:199*10//200 = 0:9
    state.diver_count = 6;  // 9-6:9 = 3:9
  });
  EXPECT_EQ(row_nine(game, kOxygenGauge), (std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7, 8}));
  EXPECT_EQ(row_nine(game, kDiverGauge), (std::vector<int>{3, 4, 5, 6, 7, 8}));
  edit(game, [](Seaquest::State& state) {
    state.oxygen = -1;       // 0:max(0,-1)*10//200 = 0:0
    state.diver_count = -5;  // 14:9
  });
  EXPECT_TRUE(row_nine(game, kOxygenGauge).empty());
  EXPECT_TRUE(row_nine(game, kDiverGauge).empty());
}

TEST(Seaquest, OxygenIsCheckedBeforeItIsSpent) {
  // oxygen 0 -> terminal; then sub_y > 0 still spends one: oxygen -1.
  Seaquest game = quiet_game();
  RandomState random;
  edit(game, [](Seaquest::State& state) {
    state.sub_y = 2;
    state.oxygen = 0;
  });
  EXPECT_TRUE(game.act(kNoop, random).terminal);
  EXPECT_EQ(game.state().oxygen, -1);
}

TEST(Seaquest, RampingSlowsMoveSpeedOnlyOnOddRampIndices) {
  // _surface: move_speed drops when ramp_index % 2 == 1, e_spawn_speed every time.
  Seaquest game = quiet_game(true);
  RandomState random;
  edit(game, [](Seaquest::State& state) { state.diver_count = -1; });
  const int expected_move[] = {5, 4, 4, 3};
  for (int surfacing = 0; surfacing < 4; ++surfacing) {
    game.act(kDown, random);
    game.act(kUp, random);
    EXPECT_EQ(game.state().ramp_index, surfacing + 1);
    EXPECT_EQ(game.state().enemy_spawn_speed, 19 - surfacing);
    EXPECT_EQ(game.state().move_speed, expected_move[surfacing]);
  }
  // At e_spawn_speed 1 and move_speed 2 the ramp stops, ramp_index included.
  edit(game, [](Seaquest::State& state) {
    state.enemy_spawn_speed = 1;
    state.move_speed = 2;
  });
  game.act(kDown, random);
  game.act(kUp, random);
  EXPECT_EQ(game.state().ramp_index, 4);
  EXPECT_EQ(game.state().move_speed, 2);
}

TEST(Seaquest, ShotSubmarineStillFiresFromWhereItWasHit) {
  // f_bullets [[6,3,False]] moves to 5: no fish or sub there yet. The sub [4,3,True,0,0] moves
  // to 5, meets the bullet: e_subs.remove(sub), f_bullets.remove(x), r = 1. Then, removed,
  // sub[4] == 0 still fires: e_bullets += [[5,3,True]], which moves to 6 in the same act.
  Seaquest game = quiet_game();
  RandomState random;
  edit(game, [](Seaquest::State& state) {
    state.sub_x = 0;
    state.submarines.append({4, 3, true, 0, 0});
    state.friendly_bullets.append({6, 3, false});
  });
  const StepResult result = game.act(kNoop, random);
  EXPECT_EQ(result.reward, 1);
  EXPECT_TRUE(game.state().submarines.empty());
  EXPECT_TRUE(game.state().friendly_bullets.empty());
  EXPECT_EQ(contents(game.state().enemy_bullets), (std::vector<Bullet>{{6, 3, true}}));
}

TEST(Seaquest, RemoveTakesTheFirstEqualSubmarine) {
  // A hand-made list with an off-board sub A = [10,3,True,5,0] before B = [9,3,True,0,0].
  // reversed visits B: it moves to [10,3,True,5,0] == A, so e_subs.remove(sub) removes A and
  // B stays (now index 0). B fires (sub[4] 0 -> 10) and is visited again at index 0: timers
  // 5 -> 4 and 10 -> 9. Its bullet [10,3,True] moves to 11 and is removed. Env.state() then
  // indexes column 10: numpy's IndexError.
  Seaquest game = quiet_game();
  RandomState random;
  edit(game, [](Seaquest::State& state) {
    state.sub_x = 0;
    state.submarines.append({10, 3, true, 5, 0});
    state.submarines.append({9, 3, true, 0, 0});
  });
  game.act(kNoop, random);
  EXPECT_EQ(contents(game.state().submarines), (std::vector<Submarine>{{10, 3, true, 4, 9}}));
  EXPECT_TRUE(game.state().enemy_bullets.empty());
  EXPECT_THROW(raw_state(game), GameError);
  ActiveInputs observation;
  EXPECT_THROW(observe(game, observation), GameError);
  EXPECT_THROW(check_observation(game), GameError);  // what the engine runs for a constant policy
}

TEST(Seaquest, EnemiesHitThePlayerBeforeAndAfterMoving) {
  // A fish on the player's cell ends the game even though it then moves away.
  Seaquest game = quiet_game();
  RandomState random;
  edit(game, [](Seaquest::State& state) {
    state.sub_x = 5;
    state.sub_y = 3;
    state.fish.append({5, 3, true, 0});
  });
  EXPECT_TRUE(game.act(kNoop, random).terminal);
  EXPECT_EQ(contents(game.state().fish), (std::vector<Swimmer>{{6, 3, true, 5}}));
}

TEST(Seaquest, FullDiverLoadLeavesDiversInTheWater) {
  // diver_count 6: the diver on the player's cell is not picked up; its timer 2 -> 1.
  Seaquest game = quiet_game();
  RandomState random;
  edit(game, [](Seaquest::State& state) {
    state.sub_y = 4;
    state.diver_count = 6;
    state.divers.append({5, 4, true, 2});
  });
  game.act(kNoop, random);
  EXPECT_EQ(contents(game.state().divers), (std::vector<Swimmer>{{5, 4, true, 1}}));
  // With 5 on board it is picked up.
  edit(game, [](Seaquest::State& state) { state.diver_count = 5; });
  game.act(kNoop, random);
  EXPECT_TRUE(game.state().divers.empty());
  EXPECT_EQ(game.state().diver_count, 6);
}

TEST(Seaquest, ShotCoolDownAndNegativeActions) {
  // action_map[-1] is 'f'. The shot sets shot_timer 5 (4 after the act); 'f' with a non-zero
  // timer does nothing at all. action_map[6] is an IndexError.
  Seaquest game = quiet_game();
  RandomState random;
  game.act(-1, random);
  EXPECT_EQ(contents(game.state().friendly_bullets), (std::vector<Bullet>{{4, 0, false}}));
  EXPECT_EQ(game.state().shot_timer, 4);
  game.act(kFire, random);
  EXPECT_EQ(contents(game.state().friendly_bullets), (std::vector<Bullet>{{3, 0, false}}));
  EXPECT_EQ(game.state().shot_timer, 3);
  EXPECT_THROW(game.act(6, random), std::out_of_range);
}

TEST(Seaquest, RefusedSpawnStillDrawsItsThreeNumbers) {
  // _spawn_enemy draws lr = rand() < 1/2, is_sub = rand() < 1/3, y = randint(1, 9) before
  // checking the row. Preview those draws on a copy of the generator.
  for (std::uint32_t seed = 1; seed <= 20; ++seed) {
    RandomState preview(seed);
    const bool right = preview.random_sample() < 0.5;
    const bool is_sub = preview.random_sample() < 1.0 / 3.0;
    const int y = static_cast<int>(preview.randint(1, 9));
    for (const bool blocked : {true, false}) {
      Seaquest game = quiet_game();
      RandomState random(seed);
      // A fish far from the spawn column, moving against (blocked) or with the new enemy.
      const bool fish_right = blocked ? !right : right;
      edit(game, [&](Seaquest::State& state) {
        state.enemy_spawn_timer = 0;
        state.fish.append({5, static_cast<std::int8_t>(y), fish_right, 3});
      });
      game.act(kNoop, random);
      EXPECT_EQ(random.draws(), preview.draws()) << seed;
      EXPECT_EQ(game.state().enemy_spawn_timer, 19) << seed;
      const int fish = game.state().fish.size();
      const int subs = game.state().submarines.size();
      if (blocked) {
        EXPECT_EQ(fish + subs, 1) << seed;
        continue;
      }
      EXPECT_EQ(subs, is_sub ? 1 : 0) << seed;
      EXPECT_EQ(fish, is_sub ? 1 : 2) << seed;
      // New enemy at x = 0 if lr else 9, timer move_speed 5, then its visit: 4.
      const std::int8_t x = right ? 0 : 9;
      if (is_sub) {
        EXPECT_EQ(game.state().submarines[0],
                  (Submarine{x, static_cast<std::int8_t>(y), right, 4, 9}));
      } else {
        EXPECT_EQ(game.state().fish[1], (Swimmer{x, static_cast<std::int8_t>(y), right, 4}));
      }
    }
  }
}

struct LargestLists {
  int friendly_bullets = 0, enemy_bullets = 0, enemies = 0, divers = 0;
};

// Random play with the terminal flag cleared after every act ("immortal"), diver_count kept
// negative so that every return to the surface ramps: the lists reach their real maxima.
LargestLists immortal_run(bool ramping, int acts) {
  Seaquest game(ramping);
  RandomState random(7);
  RandomState controller(11);
  game.reset(random);
  edit(game, [](Seaquest::State& state) { state.diver_count = -1; });
  LargestLists largest;
  for (int i = 0; i < acts; ++i) {
    game.act(static_cast<int>(controller.randint(6)), random);
    edit(game, [](Seaquest::State& state) {
      state.terminal = false;
      state.oxygen = seaquest::kMaxOxygen;
      if (state.diver_count >= 0) state.diver_count = -1;
    });
    const Seaquest::State& state = game.state();
    largest.friendly_bullets = std::max(largest.friendly_bullets, state.friendly_bullets.size());
    largest.enemy_bullets = std::max(largest.enemy_bullets, state.enemy_bullets.size());
    largest.enemies = std::max(largest.enemies, state.fish.size() + state.submarines.size());
    largest.divers = std::max(largest.divers, state.divers.size());
  }
  return largest;
}

TEST(Seaquest, ListsStayWithinTheirBoundsInLongRuns) {
  // Without ramping (the grader's setting): spawns every 20 acts and a 59-act lifetime leave
  // at most 3 enemies, hence at most 3 enemy bullets.
  const LargestLists steady = immortal_run(false, 200000);
  EXPECT_LE(steady.enemies, 3);
  EXPECT_LE(steady.enemy_bullets, 3);
  EXPECT_LE(steady.friendly_bullets, seaquest::kFriendlyBulletCapacity);
  EXPECT_LE(steady.divers, seaquest::kDiverCapacity);
  // With ramping down to one spawn per act and move_speed 2. An overflow would have thrown.
  const LargestLists ramped = immortal_run(true, 200000);
  EXPECT_LE(ramped.enemies, seaquest::kEnemyCapacity);
  EXPECT_LE(ramped.enemy_bullets, seaquest::kEnemyBulletCapacity);
  EXPECT_EQ(ramped.friendly_bullets, seaquest::kFriendlyBulletCapacity);  // the bound is reached
  EXPECT_EQ(ramped.divers, seaquest::kDiverCapacity);
  RecordProperty("steady_largest_enemies", steady.enemies);
  RecordProperty("steady_largest_enemy_bullets", steady.enemy_bullets);
  RecordProperty("ramped_largest_enemies", ramped.enemies);
  RecordProperty("ramped_largest_enemy_bullets", ramped.enemy_bullets);
}

TEST(Seaquest, OverflowingAListThrows) {
  // Two friendly bullets in flight (the proven maximum) and a third shot: Python would append,
  // the fixed list refuses loudly.
  Seaquest game = quiet_game();
  RandomState random;
  edit(game, [](Seaquest::State& state) {
    state.friendly_bullets.append({2, 5, true});
    state.friendly_bullets.append({7, 6, false});
  });
  EXPECT_THROW(game.act(kFire, random), std::length_error);
}

}  // namespace
}  // namespace weightspace
