// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <stdexcept>
#include <string_view>

#include "games/byte_lanes.hpp"
#include "games/cells.hpp"
#include "games/game.hpp"
#include "games/random_state.hpp"
#include "games/row_inputs.hpp"

namespace weightspace {

// MinAtar 1.0.15 freeway (environments/freeway.py), step for step and draw for draw.
// Python's cars list always holds exactly eight cars, car i in row i + 1.
class Freeway {
 public:
  static constexpr std::string_view name = "freeway";
  static constexpr int channels = 7;  // chicken, car, speed1..speed5
  // verify.ORIGINAL_CHANNEL_GROUPS["freeway"] = ((0,), (1,), (), (), (2, 3, 4, 5, 6), ()).
  static constexpr std::array<std::uint8_t, channels> observation_masks = {1, 2, 16, 16, 16, 16, 16};

  static constexpr int kCars = 8;
  static constexpr int kPlayerSpeed = 3;
  static constexpr int kTimeLimit = 2500;
  static constexpr int kChickenColumn = 4;

  // Car i is Python's cars[i] = [x[i], i + 1, timer[i], velocity[i]]; velocity is a speed
  // 1..5 times a direction +-1 (0 is possible, see randomize_cars). Stored column-wise so
  // the per-step update of all eight cars vectorises.
  struct Cars {
    std::array<std::int8_t, kCars> x{};
    std::array<std::int8_t, kCars> timer{};
    std::array<std::int8_t, kCars> velocity{};
  };

  struct State {
    Cars cars{};
    std::int8_t position = 9;  // the chicken's row
    std::int8_t move_timer = kPlayerSpeed;
    std::int16_t terminate_timer = kTimeLimit;
    bool terminal = false;
  };

  // Freeway has no difficulty ramp; MinAtar ignores the argument too.
  explicit Freeway(bool) {}

  void reset(RandomState& random) {
    state_ = State{};
    randomize_cars(random, true);
  }

  StepResult act(int action, RandomState& random) {
    State& s = state_;
    StepResult result{0, s.terminal};
    if (s.terminal) return result;

    // The timer is rearmed even when the clamp leaves the chicken where it was ('d' in row 9).
    const int dy = action_dy(action) & -static_cast<int>(s.move_timer == 0);  // no move while the timer runs
    s.move_timer = static_cast<std::int8_t>(dy != 0 ? kPlayerSpeed : s.move_timer);
    s.position = static_cast<std::int8_t>(std::clamp(s.position + dy, 0, 9));

    if (s.position == 0) {
      result.reward = 1;
      randomize_cars(random, false);
      s.position = 9;
    }

    // Car i only ever touches row i + 1, so only the car of the chicken's row can hit it,
    // before or after its move (Python checks every car; the rest can never match, and once
    // the chicken is sent to row 9 no car can match again).
    const int player_row = s.position;
    const bool hit_before = player_row >= 1 && player_row <= kCars && s.cars.x[player_row - 1] == kChickenColumn;
    move_cars();
    const bool hit_after = player_row >= 1 && player_row <= kCars && s.cars.x[player_row - 1] == kChickenColumn;
    if (hit_before || hit_after) s.position = 9;

    if (s.move_timer > 0) --s.move_timer;
    --s.terminate_timer;
    if (s.terminate_timer < 0) s.terminal = true;
    result.terminal = s.terminal;
    return result;
  }

  // state(): the trail channel is chosen by an if/elif chain on abs(car[3]) in 1..5. With a
  // zero velocity no branch runs and Python reuses `trail` from the previous car of the same
  // call; for car 0 the name is unbound and state() raises UnboundLocalError, which the
  // grader does not catch. That case throws GameError here.
  template <class Cell>
  void paint(Cell&& cell) const {
    cell(state_.position, kChickenColumn, 0);
    int trail = -1;
    for (int index = 0; index < kCars; ++index) {
      const int x = state_.cars.x[index];
      const int velocity = state_.cars.velocity[index];
      const int row = index + 1;
      cell(row, x, 1);
      const int back_x = trail_column(x, velocity);
      const int speed = magnitude(velocity);
      if (speed >= 1 && speed <= 5) trail = 1 + speed;
      if (trail < 0) throw_unbound_trail();
      cell(row, back_x, trail);
    }
  }

  // observe(): the chicken (output 0), each car (output 1) and its trail (output 4, whichever
  // speed channel paints it): a row holds its car, its trail and maybe the chicken, so
  // sorting three numbers per row replaces painting and reading back 600 bits. Throws where
  // paint() throws.
  void write_observation(ActiveInputs& out) const { write_observation_for_cpu(*this, out, nullptr); }
  void write_observation(ActiveInputs& out, const InputFilter& filter) const {
    write_observation_for_cpu(*this, out, &filter);
  }

  void write_observation_portable(ActiveInputs& out, const InputFilter* filter = nullptr) const {
    constexpr int kRowInputs = kGridSize * kObservationChannels;
    constexpr int kChickenInput = kChickenColumn * kObservationChannels;  // channel 0
    if (state_.cars.velocity[0] == 0) throw_unbound_trail();
    RowTriples rows;
    rows.set(state_.position, 0, state_.position * kRowInputs + kChickenInput);
    for (int index = 0; index < kCars; ++index) {
      const int x = state_.cars.x[index];
      const int back_x = trail_column(x, state_.cars.velocity[index]);
      const int base = (index + 1) * kRowInputs;
      rows.set(index + 1, 1, base + x * kObservationChannels + 1);
      rows.set(index + 1, 2, base + back_x * kObservationChannels + 4);
    }
    rows.write(out, filter);
  }

#if WEIGHTSPACE_COMPRESS_EXTRACT
  // The same with the eight cars side by side in 32-bit lanes and the row vectors built in
  // registers (see Asterix::write_observation_avx512).
  [[gnu::target("avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2")]] void write_observation_avx512(
      ActiveInputs& out, const InputFilter* filter = nullptr) const {
    if (state_.cars.velocity[0] == 0) throw_unbound_trail();
    static_assert(kCars == 8);
    const __m256i x = _mm256_cvtepi8_epi32(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(state_.cars.x.data())));
    const __m256i velocity =
        _mm256_cvtepi8_epi32(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(state_.cars.velocity.data())));
    const __m256i ten = _mm256_set1_epi32(kGridSize);
    const __m256i cell = RowTriples::inputs_of_rows_one_to_eight(x, _mm256_set1_epi32(1));
    // trail_column's: x - 1 driving right, else x + 1, wrapped around the row.
    __m256i back_x = _mm256_add_epi32(x, _mm256_set1_epi32(1));
    back_x = _mm256_mask_sub_epi32(back_x, _mm256_cmpgt_epi32_mask(velocity, _mm256_setzero_si256()), back_x,
                                   _mm256_set1_epi32(2));
    back_x = _mm256_mask_add_epi32(back_x, _mm256_cmplt_epi32_mask(back_x, _mm256_setzero_si256()), back_x, ten);
    back_x = _mm256_mask_sub_epi32(back_x, _mm256_cmpge_epi32_mask(back_x, ten), back_x, ten);
    const __m256i trail = RowTriples::inputs_of_rows_one_to_eight(back_x, _mm256_set1_epi32(4));
    const int chicken_row = state_.position;
    const __m256i chicken = RowTriples::only_in_row(
        chicken_row, chicken_row * kGridSize * kObservationChannels + kChickenColumn * kObservationChannels);
    RowTriples::write_compressed(out, chicken, RowTriples::rows_one_to_eight(cell), RowTriples::rows_one_to_eight(trail), filter);
  }
#endif

  const State& state() const { return state_; }
  // Puts the game in a hand-built or saved situation (tests, tools).
  void restore(const State& state) { state_ = state; }

 private:
  static constexpr int magnitude(int velocity) { return velocity < 0 ? -velocity : velocity; }

  // Python's loop over the cars, the eight as one vector (games/byte_lanes.hpp): a car whose
  // timer is 0 moves a cell (`1 if car[3] > 0 else -1`: a zero velocity drives left) and its
  // timer becomes its speed; any other timer counts down. Branch-free, because the timers run
  // out at unpredictable steps, and vector, because GCC left the loop scalar.
  void move_cars() {
    static_assert(kCars == 8);
    Cars& cars = state_.cars;
    const ByteLanes8 velocity = load_lanes(cars.velocity);
    const ByteLanes8 timer = load_lanes(cars.timer);
    const ByteLanes8 moves = timer == 0;
    const ByteLanes8 right = velocity > 0;
    const ByteLanes8 negative = velocity < 0;
    const ByteLanes8 speed = (velocity ^ negative) - negative;  // |velocity| <= 5
    store_lanes(cars.x, wrap_columns(load_lanes(cars.x) + (moves & ((right & 2) - 1))));
    store_lanes(cars.timer, timer - 1 + (moves & (speed + 1)));
  }
  // The cell behind a car, wrapped around the row like the car itself. A table, because GCC
  // turns the arithmetic wrap into a branch that a batch of episodes mispredicts.
  static constexpr int trail_column(int x, int velocity) {
    constexpr std::array<std::int8_t, kGridSize + 2> kWrapped = {9, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 0};
    const int back_x = velocity > 0 ? x - 1 : x + 1;
    return kWrapped[static_cast<std::size_t>(back_x + 1)];
  }

  [[noreturn]] static void throw_unbound_trail() {
    throw GameError("UnboundLocalError", "freeway: car 0 has speed 0, so MinAtar's state() has no trail channel for it");
  }

  // _randomize_cars: all eight speeds (randint(1, 6, 8)) are drawn before all eight
  // directions (rand(8)). The direction is np.sign(u - 0.5), which is 0 when u is exactly
  // 0.5 (possible: a draw of 2^52 / 2^53), giving a car of speed 0.
  void randomize_cars(RandomState& random, bool initialize) {
    std::array<std::int64_t, kCars> speeds{};
    std::array<double, kCars> uniforms{};
    random.randint(1, 6, speeds);
    random.rand(uniforms);
    for (int index = 0; index < kCars; ++index) {
      const double centered = uniforms[index] - 0.5;
      const int direction = centered > 0.0 ? 1 : (centered < 0.0 ? -1 : 0);
      const auto velocity = static_cast<std::int8_t>(speeds[index] * direction);
      if (initialize) state_.cars.x[index] = 0;
      state_.cars.timer[index] = static_cast<std::int8_t>(magnitude(velocity));
      state_.cars.velocity[index] = velocity;
    }
  }

  State state_{};
};

}  // namespace weightspace
