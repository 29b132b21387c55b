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

// The bundled synth asterix (tools/minatar_synth/games/asterix.py), step for step and draw for
// draw. A variant of MinAtar's asterix that a dodge-enemies-take-gold policy still plays well:
// every object moves at its own speed (one cell every 2 to 5 steps, drawn when it appears),
// objects appear every 6 steps instead of 10, and the player has three lives (a gauge): an
// enemy touched costs a life and disappears. 2000-step limit. Observation: the canonical
// layout, channel for channel.
// score_cap 100: a scripted player that reads the full state and weighs each move's danger
// against the gold nearby collects about 95 gold in 2000 steps (up to 123).
class SynthAsterix {
 public:
  static constexpr std::string_view name = "asterix";
  static constexpr int channels = 6;  // player, enemy, gold, projectile (unused), trail, lives
  static constexpr std::array<std::uint8_t, channels> observation_masks{1, 2, 4, 8, 16, 32};
  static constexpr bool observation_never_raises = true;
  static constexpr double score_cap = 100.0;
  static constexpr std::string_view description =
      "dodge enemies, collect gold; objects at mixed speeds, three lives, 2000 steps";

  static constexpr int kSlots = 8;  // slot i is row i + 1
  static constexpr int kSpawnInterval = 6;
  static constexpr double kGoldProbability = 1.0 / 3.0;
  static constexpr int kFastestPeriod = 2;
  static constexpr int kSlowestPeriod = 5;
  static constexpr int kLives = 3;
  static constexpr int kTimeLimit = 2000;

  // Slot i's Python dict {"x", "dx", "gold", "period", "timer"}, or None when !present.
  // Stored column-wise, one byte per slot, so the per-step update is plain byte arithmetic.
  struct Objects {
    std::array<std::int8_t, kSlots> x{};
    std::array<std::int8_t, kSlots> dx{};  // +1 right, -1 left
    std::array<std::int8_t, kSlots> period{};
    std::array<std::int8_t, kSlots> timer{};
    std::array<bool, kSlots> gold{};
    std::array<std::uint8_t, kSlots> present{};  // 0 or 1
  };

  struct State {
    Objects objects{};
    std::int8_t player_x = 5;
    std::int8_t player_y = 5;
    std::int8_t spawn_timer = kSpawnInterval;
    std::int8_t lives = kLives;
    std::int16_t time = 0;
    bool terminal = false;
  };

  explicit SynthAsterix(bool /*ramping: no difficulty ramp*/) {}

  // reset() draws nothing: objects only appear through the spawn timer.
  void reset(RandomState&) { state_ = State{}; }

  StepResult act(int action, RandomState& random) {
    State& s = state_;
    StepResult result{0, s.terminal};
    if (s.terminal) return result;

    if (--s.spawn_timer == 0) {
      s.spawn_timer = kSpawnInterval;
      spawn(random);
    }

    // Each move as far as the edge.
    s.player_x = static_cast<std::int8_t>(std::clamp(s.player_x + action_dx(action), 0, 9));
    s.player_y = static_cast<std::int8_t>(std::clamp(s.player_y + action_dy(action), 1, 8));

    // Contact is checked after the player moves and again after the objects move.
    result.reward += touch();
    // Branch-free over all eight slots: the timers run out at unpredictable steps, and a
    // mispredicted branch per slot costs more than the arithmetic. An absent slot's fields are
    // never read, so its timer may count down and its column drift (int8 wraps modulo 256).
    Objects& objects = s.objects;
    for (int slot = 0; slot < kSlots; ++slot) {
      const auto timer = static_cast<std::int8_t>(objects.timer[slot] - 1);
      const std::int8_t moves = timer == 0 ? -1 : 0;  // all bits set: a mask
      objects.timer[slot] = static_cast<std::int8_t>(timer + (moves & objects.period[slot]));
      const auto x = static_cast<std::int8_t>(objects.x[slot] + (moves & objects.dx[slot]));
      objects.x[slot] = x;
      // An object stepping off the grid (x = -1 or 10, both above 9 as unsigned) is gone.
      const bool on_grid = static_cast<std::uint8_t>(x) <= 9;
      objects.present[slot] &= static_cast<std::uint8_t>(on_grid);
    }
    result.reward += touch();

    ++s.time;
    if (s.lives == 0 || s.time >= kTimeLimit) s.terminal = true;
    result.terminal = s.terminal;
    return result;
  }

  template <class Cell, class Row>
  void paint_rows(Cell&& cell, Row&& row) const {
    cell(state_.player_y, state_.player_x, 0);
    const Objects& objects = state_.objects;
    for (int slot = 0; slot < kSlots; ++slot) {
      if (!objects.present[slot]) continue;
      cell(slot + 1, objects.x[slot], objects.gold[slot] ? 2 : 1);
      // The trail is dropped, not wrapped, when it falls off the grid.
      const int back_x = objects.x[slot] - objects.dx[slot];
      if (back_x >= 0 && back_x <= 9) cell(slot + 1, back_x, 4);
    }
    row(9, columns_below(state_.lives), 5);  // the lives gauge
  }
  template <class Cell>
  void paint(Cell&& cell) const {
    paint_cells_of_rows(*this, cell);
  }

  // observe(): as the original's, a row holds at most three inputs: rows 1-8 an object, its
  // trail and perhaps the player, row 9 the lives gauge (at most three cells). No input
  // repeats: the three of a row differ in channel, or (the gauge) in column. The player is in
  // rows 1-8, as act() keeps it.
  void write_observation(ActiveInputs& out) const { write_observation_for_cpu(*this, out, nullptr); }
  void write_observation(ActiveInputs& out, const InputFilter& filter) const {
    write_observation_for_cpu(*this, out, &filter);
  }

  void write_observation_portable(ActiveInputs& out, const InputFilter* filter = nullptr) const {
    constexpr int kRowInputs = kGridSize * kObservationChannels;
    RowTriples rows;
    rows.set(state_.player_y, 0, state_.player_y * kRowInputs + state_.player_x * kObservationChannels);
    const Objects& objects = state_.objects;
    for (int slot = 0; slot < kSlots; ++slot) {
      const int base = (slot + 1) * kRowInputs;
      const int x = objects.x[slot];
      const int back_x = x - objects.dx[slot];
      const unsigned present = objects.present[slot];
      const unsigned trail = present & static_cast<unsigned>(static_cast<unsigned>(back_x) <= 9U);
      rows.set(slot + 1, 1, RowTriples::input_if(present, base + x * kObservationChannels + 1 + objects.gold[slot]));
      rows.set(slot + 1, 2, RowTriples::input_if(trail, base + back_x * kObservationChannels + 4));
    }
    for (int k = 0; k < kLives; ++k) {
      rows.set(9, k, RowTriples::input_if(static_cast<unsigned>(k < state_.lives), 9 * kRowInputs + k * kObservationChannels + 5));
    }
    rows.write(out, filter);
  }

#if WEIGHTSPACE_COMPRESS_EXTRACT
  // The same with the eight objects side by side in 32-bit lanes and the row vectors built in
  // registers (see Asterix::write_observation_avx512); the gauge's cells go to lane 9.
  [[gnu::target("avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2")]] void write_observation_avx512(
      ActiveInputs& out, const InputFilter* filter = nullptr) const {
    const Objects& objects = state_.objects;
    const auto widen = [](const auto& bytes) {  // eight int8 or bool fields in one 64-bit load
      return _mm_loadl_epi64(reinterpret_cast<const __m128i*>(bytes.data()));
    };
    static_assert(sizeof(objects.x) == 8 && sizeof(objects.dx) == 8 && sizeof(objects.gold) == 8 &&
                  sizeof(objects.present) == 8);
    const __m256i x = _mm256_cvtepi8_epi32(widen(objects.x));
    const __m256i dx = _mm256_cvtepi8_epi32(widen(objects.dx));
    const __mmask8 present = _mm_test_epi8_mask(widen(objects.present), _mm_set1_epi8(1));
    const __m256i gold = _mm256_cvtepu8_epi32(widen(objects.gold));
    const __m256i none = _mm256_set1_epi32(RowTriples::kNone);
    const __m256i cell = RowTriples::inputs_of_rows_one_to_eight(x, _mm256_add_epi32(gold, _mm256_set1_epi32(1)));
    const __m256i back_x = _mm256_sub_epi32(x, dx);
    const __mmask8 trail = _mm256_mask_cmple_epu32_mask(present, back_x, _mm256_set1_epi32(kGridSize - 1));
    const __m256i trail_input = RowTriples::inputs_of_rows_one_to_eight(back_x, _mm256_set1_epi32(4));
    constexpr int kGauge = 9 * kGridSize * kObservationChannels + 5;  // row 9, channel 5
    constexpr __mmask16 kRow9 = 1U << 9;
    const int lives = state_.lives;
    __m256i first =
        RowTriples::only_in_row(state_.player_y, (state_.player_y * kGridSize + state_.player_x) * kObservationChannels);
    first = _mm256_mask_set1_epi16(first, lives > 0 ? kRow9 : 0, kGauge);
    __m256i second = RowTriples::rows_one_to_eight(_mm256_mask_mov_epi32(none, present, cell));
    second = _mm256_mask_set1_epi16(second, lives > 1 ? kRow9 : 0, kGauge + kObservationChannels);
    __m256i third = RowTriples::rows_one_to_eight(_mm256_mask_mov_epi32(none, trail, trail_input));
    third = _mm256_mask_set1_epi16(third, lives > 2 ? kRow9 : 0, kGauge + 2 * kObservationChannels);
    static_assert(kLives == 3);
    RowTriples::write_compressed(out, first, second, third, filter);
  }
#endif

  const State& state() const { return state_; }
  // Puts the game in a hand-built or saved situation (tests, tools).
  void restore(const State& state) { state_ = state; }

 private:
  // Only the object of the player's row can touch it: gold is worth 1, an enemy costs a life.
  // Either way the object is gone. At most one touch happens per step, so lives stay >= 0.
  int touch() {
    Objects& objects = state_.objects;
    const int slot = state_.player_y - 1;
    // One branch, on the rare touch: branching first on whether the player's row holds an
    // object (unpredictable) cost the example 5% of its step. `missed` is zero exactly when
    // the slot holds an object (present is 0 or 1) at the player's column, written as bits
    // because GCC splits `a & b` of two compares back into two branches.
    const int missed = (objects.x[slot] ^ state_.player_x) | (objects.present[slot] ^ 1);
    if (missed != 0) return 0;
    objects.present[slot] = false;
    if (objects.gold[slot]) return 1;
    --state_.lives;
    return 0;
  }

  // _spawn: no draw at all when every row is taken; otherwise the row (randint over the free
  // slots, no draw when one is free), the side, gold, then the period (randint(2, 6)).
  void spawn(RandomState& random) {
    Objects& objects = state_.objects;
    std::array<std::int8_t, kSlots> free_slots{};
    int free_count = 0;
    for (int slot = 0; slot < kSlots; ++slot) {  // written every time, kept only when free
      free_slots[free_count] = static_cast<std::int8_t>(slot);
      free_count += objects.present[slot] ? 0 : 1;
    }
    if (free_count == 0) return;
    const int slot = free_slots[random.randint(free_count)];
    const bool from_left = random.random_sample() < 0.5;
    objects.gold[slot] = random.random_sample() < kGoldProbability;
    objects.period[slot] = static_cast<std::int8_t>(random.randint(kFastestPeriod, kSlowestPeriod + 1));
    objects.timer[slot] = objects.period[slot];
    objects.x[slot] = static_cast<std::int8_t>(from_left ? 0 : 9);
    objects.dx[slot] = static_cast<std::int8_t>(from_left ? 1 : -1);
    objects.present[slot] = true;
  }

  State state_{};
};

static_assert(Game<SynthAsterix>);

}  // namespace weightspace
