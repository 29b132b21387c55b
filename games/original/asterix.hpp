// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <string_view>

#include "games/cells.hpp"
#include "games/game.hpp"
#include "games/random_state.hpp"
#include "games/row_inputs.hpp"

namespace weightspace {

// MinAtar 1.0.15 asterix (environments/asterix.py), step for step and draw for draw.
// Python keeps `entities = [None] * 8` and never changes its length: slot i is either None
// or an entity in row i + 1. So the state is eight fixed slots, no container needed.
class Asterix {
 public:
  static constexpr std::string_view name = "asterix";
  static constexpr int channels = 4;  // player, enemy, trail, gold
  // verify.ORIGINAL_CHANNEL_GROUPS["asterix"] = ((0,), (1,), (3,), (), (2,), ()).
  static constexpr std::array<std::uint8_t, channels> observation_masks = {1, 2, 16, 4};
  static constexpr bool observation_never_raises = true;

  static constexpr int kSlots = 8;
  static constexpr int kRampInterval = 100;
  static constexpr int kInitialSpawnSpeed = 10;
  static constexpr int kInitialMoveSpeed = 5;

  struct Entity {
    std::int8_t x = 0;
    bool present = false;       // false: the slot holds None
    bool moving_right = false;  // Python's x[2] ("lr")
    bool gold = false;          // Python's x[3]
  };

  struct State {
    std::array<Entity, kSlots> entities{};
    std::int8_t player_x = 5;
    std::int8_t player_y = 5;
    std::int8_t spawn_speed = kInitialSpawnSpeed;
    std::int8_t spawn_timer = kInitialSpawnSpeed;
    std::int8_t move_speed = kInitialMoveSpeed;
    std::int8_t move_timer = kInitialMoveSpeed;
    std::int8_t ramp_timer = kRampInterval;
    std::int8_t ramp_index = 0;
    bool terminal = false;
  };

  explicit Asterix(bool ramping) : ramping_(ramping) {}

  // reset() draws nothing: entities only appear through the spawn timer.
  void reset(RandomState&) { state_ = State{}; }

  StepResult act(int action, RandomState& random) {
    State& s = state_;
    StepResult result{0, s.terminal};
    if (s.terminal) return result;

    if (s.spawn_timer == 0) {
      spawn(random);
      s.spawn_timer = s.spawn_speed;
    }

    // action_map = ['n','l','u','r','d','f']; 'n' and 'f' do nothing.
    // Each move as far as the edge.
    s.player_x = static_cast<std::int8_t>(std::clamp(s.player_x + action_dx(action), 0, 9));
    s.player_y = static_cast<std::int8_t>(std::clamp(s.player_y + action_dy(action), 1, 8));

    // Slot i lives in row i + 1, so only the slot of the player's row can touch the player
    // (the Python loops over all eight; the others can never match).
    Entity& in_player_row = s.entities[s.player_y - 1];
    touch(in_player_row, result);

    if (s.move_timer == 0) {
      s.move_timer = s.move_speed;
      for (Entity& entity : s.entities) {
        if (!entity.present) continue;
        entity.x = static_cast<std::int8_t>(entity.x + (entity.moving_right ? 1 : -1));
        if (entity.x < 0 || entity.x > 9) {
          // Python sets the slot to None but still compares the old list x against the
          // player; x[0] is then -1 or 10 and the player is always in 0..9: never a match.
          entity.present = false;
          continue;
        }
        if (&entity == &in_player_row) touch(entity, result);
      }
    }

    --s.spawn_timer;
    --s.move_timer;

    if (ramping_ && (s.spawn_speed > 1 || s.move_speed > 1)) {
      if (s.ramp_timer >= 0) {
        --s.ramp_timer;
      } else {
        if (s.move_speed > 1 && s.ramp_index % 2 != 0) --s.move_speed;
        if (s.spawn_speed > 1) --s.spawn_speed;
        ++s.ramp_index;
        s.ramp_timer = kRampInterval;
      }
    }
    result.terminal = s.terminal;
    return result;
  }

  template <class Cell>
  void paint(Cell&& cell) const {
    cell(state_.player_y, state_.player_x, 0);
    for (int slot = 0; slot < kSlots; ++slot) {
      const Entity& entity = state_.entities[slot];
      if (!entity.present) continue;
      cell(slot + 1, entity.x, entity.gold ? 3 : 1);
      if (const int back_x = trail_column(entity); back_x >= 0) cell(slot + 1, back_x, 2);
    }
  }

  // observe(): the player (output 0), each entity (enemy output 1, gold output 2) and its
  // trail (output 4); an entity has a row of its own, so a row holds at most three inputs.
  void write_observation(ActiveInputs& out) const { write_observation_for_cpu(*this, out, nullptr); }
  void write_observation(ActiveInputs& out, const InputFilter& filter) const {
    write_observation_for_cpu(*this, out, &filter);
  }

  void write_observation_portable(ActiveInputs& out, const InputFilter* filter = nullptr) const {
    constexpr int kRowInputs = kGridSize * kObservationChannels;
    RowTriples rows;
    const int player_row = wrap_axis(state_.player_y);
    rows.set(player_row, 0, player_row * kRowInputs + wrap_axis(state_.player_x) * kObservationChannels);
    // Arithmetic selects, not branches: whether a slot holds an entity, its direction and its
    // trail differ from episode to episode of a batch, and branches on them mispredict.
    for (int slot = 0; slot < kSlots; ++slot) {
      const Entity& entity = state_.entities[static_cast<std::size_t>(slot)];
      const int row = slot + 1;
      const int base = row * kRowInputs;
      const int back_x = trail_column(entity);
      const unsigned present = entity.present;
      const unsigned trail = present & static_cast<unsigned>(back_x >= 0);
      const int cell = base + wrap_axis(entity.x) * kObservationChannels + 1 + static_cast<int>(entity.gold);
      rows.set(row, 1, RowTriples::input_if(present, cell));
      rows.set(row, 2, RowTriples::input_if(trail, base + back_x * kObservationChannels + 4));
    }
    rows.write(out, filter);
  }

#if WEIGHTSPACE_COMPRESS_EXTRACT
  // The same, the eight entities (4 bytes each) side by side in eight 32-bit lanes, their
  // inputs narrowed into lanes 1..8 of the row vectors: nothing goes through memory, where
  // RowTriples' scalar stores read back as vectors wait for the stores (a fifth of the
  // asterix example's step).
  [[gnu::target("avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2")]] void write_observation_avx512(
      ActiveInputs& out, const InputFilter* filter = nullptr) const {
    static_assert(sizeof(Entity) == 4 && sizeof(state_.entities) == 32);
    const __m256i entities = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(state_.entities.data()));
    const __m256i x = _mm256_srai_epi32(_mm256_slli_epi32(entities, 24), 24);  // int8 x, sign-extended
    const __mmask8 present = _mm256_test_epi32_mask(entities, _mm256_set1_epi32(0x100));
    const __mmask8 right = _mm256_test_epi32_mask(entities, _mm256_set1_epi32(0x10000));
    const __mmask8 gold = _mm256_test_epi32_mask(entities, _mm256_set1_epi32(0x1000000));
    const __m256i none = _mm256_set1_epi32(RowTriples::kNone);
    const __m256i wrapped = _mm256_mask_add_epi32(x, _mm256_cmplt_epi32_mask(x, _mm256_setzero_si256()), x,
                                                  _mm256_set1_epi32(kGridSize));
    const __m256i cell = RowTriples::inputs_of_rows_one_to_eight(
        wrapped, _mm256_mask_mov_epi32(_mm256_set1_epi32(1), gold, _mm256_set1_epi32(2)));  // enemy 1, gold 2
    // trail_column's: x + 1, or x - 1 moving right; dropped off the grid.
    __m256i back_x = _mm256_add_epi32(x, _mm256_set1_epi32(1));
    back_x = _mm256_mask_sub_epi32(back_x, right, back_x, _mm256_set1_epi32(2));
    const __mmask8 trail = _mm256_mask_cmple_epu32_mask(present, back_x, _mm256_set1_epi32(kGridSize - 1));
    const __m256i trail_input = RowTriples::inputs_of_rows_one_to_eight(back_x, _mm256_set1_epi32(4));
    const int player_row = wrap_axis(state_.player_y);
    const __m256i player = RowTriples::only_in_row(
        player_row, player_row * kGridSize * kObservationChannels + wrap_axis(state_.player_x) * kObservationChannels);
    RowTriples::write_compressed(out, player, RowTriples::rows_one_to_eight(_mm256_mask_mov_epi32(none, present, cell)),
                                 RowTriples::rows_one_to_eight(_mm256_mask_mov_epi32(none, trail, trail_input)), filter);
  }
#endif

  bool ramping() const { return ramping_; }
  const State& state() const { return state_; }
  // Puts the game in a hand-built or saved situation (tests, tools).
  void restore(const State& state) { state_ = state; }

 private:
  // The cell behind an entity, or -1 when it is off the grid: unlike freeway's, the trail is
  // dropped (not wrapped). Arithmetic, not branches (see write_observation).
  static constexpr int trail_column(const Entity& entity) {
    const int back_x = entity.x + 1 - 2 * static_cast<int>(entity.moving_right);
    return back_x | -static_cast<int>(static_cast<unsigned>(back_x) > 9U);
  }

  // The player and entity are known to share the row; only the column decides.
  // One branch, on the rare touch (games/synth/asterix.hpp's touch measured why).
  void touch(Entity& entity, StepResult& result) {
    const int missed = (entity.x ^ state_.player_x) | (static_cast<int>(entity.present) ^ 1);
    if (missed != 0) return;
    if (entity.gold) {
      entity.present = false;
      ++result.reward;
    } else {
      state_.terminal = true;
    }
  }

  // _spawn_entity: both rand() draws happen before the free-slot check, and the slot is
  // slot_options[randint(len(slot_options))], which draws nothing when one slot is free.
  void spawn(RandomState& random) {
    const bool moving_right = random.random_sample() < 1.0 / 2.0;
    const bool gold = random.random_sample() < 1.0 / 3.0;
    std::array<std::int8_t, kSlots> free_slots{};
    int free_count = 0;
    for (int slot = 0; slot < kSlots; ++slot) {
      if (!state_.entities[slot].present) free_slots[free_count++] = static_cast<std::int8_t>(slot);
    }
    if (free_count == 0) return;
    const int slot = free_slots[random.randint(free_count)];
    state_.entities[slot] = Entity{static_cast<std::int8_t>(moving_right ? 0 : 9), true, moving_right, gold};
  }

  State state_{};
  bool ramping_;
};

}  // namespace weightspace
