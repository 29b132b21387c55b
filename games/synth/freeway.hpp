// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <cstring>
#include <string_view>

#include "games/byte_lanes.hpp"
#include "games/cells.hpp"
#include "games/game.hpp"
#include "games/input_filter.hpp"
#include "games/random_state.hpp"

namespace weightspace {

// The bundled synth freeway (tools/minatar_synth/games/freeway.py), step for step and draw for
// draw. A variant of MinAtar's freeway that a walk-up-and-wait-for-cars policy still plays:
// two cars per lane five cells apart from random columns, lanes 1-4 driving left and 5-8
// right, a quicker chicken (a step every 2 steps), a hit pushes it back three rows and stuns
// it for 2 steps instead of sending it to the bottom, and a 2000-step game with a time gauge.
// Observation: the canonical layout, channel for channel.
// score_cap 50: a planner that reads the car timers and searches the next 45 steps for the
// quickest safe way up crosses about 50 times in 2000 steps (up to 61).
class SynthFreeway {
 public:
  static constexpr std::string_view name = "freeway";
  static constexpr int channels = 6;  // chicken, car, target and projectile (unused), trail, time
  static constexpr std::array<std::uint8_t, channels> observation_masks{1, 2, 4, 8, 16, 32};
  static constexpr bool observation_never_raises = true;
  static constexpr double score_cap = 50.0;
  static constexpr std::string_view description =
      "chicken crossing two-car lanes; fixed traffic sides, push-back hits, 2000 steps";

  static constexpr int kSize = 10;
  static constexpr int kLanes = 8;  // lane i is row i + 1
  static constexpr int kChickenColumn = 4;
  static constexpr int kPlayerPeriod = 2;
  static constexpr int kFastestPeriod = 2;
  static constexpr int kSlowestPeriod = 6;
  static constexpr int kCarSpacing = 5;
  static constexpr int kPushBack = 3;
  static constexpr int kTimeLimit = 2000;

  // Lane i's cars are at columns[i] and (columns[i] + 5) % 10; it moves every periods[i] steps.
  struct State {
    std::array<std::int8_t, kLanes> columns{};
    std::array<std::int8_t, kLanes> periods{};
    std::array<std::int8_t, kLanes> timers{};
    std::int8_t position = 9;  // the chicken's row
    std::int8_t move_timer = kPlayerPeriod;
    std::int16_t time = 0;
    bool terminal = false;
  };

  explicit SynthFreeway(bool /*ramping: no difficulty ramp*/) {}

  // Draw order: the eight lane columns (randint(10)), then the eight periods.
  void reset(RandomState& random) {
    state_ = State{};
    for (std::int8_t& column : state_.columns) column = static_cast<std::int8_t>(random.randint(kSize));
    draw_periods(random);
  }

  StepResult act(int action, RandomState& random) {
    State& s = state_;
    StepResult result{0, s.terminal};
    if (s.terminal) return result;

    if (s.move_timer > 0) {
      --s.move_timer;
    } else if (action == 2 || action == 4) {
      s.move_timer = kPlayerPeriod - 1;
      if (action == 2) {
        if (s.position > 0) --s.position;
      } else if (s.position < 9) {
        ++s.position;
      }
      if (s.position == 0) {
        result.reward = 1;
        s.position = 9;
        draw_periods(random);
      }
    }

    // A car is checked after the chicken moves and again after the cars move; a hit pushes
    // the chicken back at most once per step.
    const bool hit_before = hit();
    move_cars();
    if (hit_before || hit()) {
      s.position = static_cast<std::int8_t>(s.position + kPushBack > 9 ? 9 : s.position + kPushBack);
      s.move_timer = kPlayerPeriod;
    }

    ++s.time;
    if (s.time >= kTimeLimit) s.terminal = true;
    result.terminal = s.terminal;
    return result;
  }

  // Each lane is a row of two cars and two trail cells, and the time gauge a row of its own.
  template <class Cell, class Row>
  void paint_rows(Cell&& cell, Row&& row) const {
    cell(state_.position, kChickenColumn, 0);
    for (int lane = 0; lane < kLanes; ++lane) {
      const int first = state_.columns[lane];
      const int second = wrap_column(first + kCarSpacing);
      const int back = -direction(lane);
      row(lane + 1, bit(first) | bit(second), 1);
      row(lane + 1, bit(wrap_column(first + back)) | bit(wrap_column(second + back)), 4);
    }
    row(9, (std::uint32_t{1} << gauge_cells()) - 1, 5);
  }
  template <class Cell>
  void paint(Cell&& cell) const {
    paint_cells_of_rows(*this, cell);
  }

  // observe(): a lane's row is a function of its first car's column alone (its two cars five
  // cells apart and their trails, never on one cell), the time gauge's row of the gauge, and
  // the chicken adds one input to its row. Each row's inputs come sorted from a table, so an
  // observation is ten copies of fixed size, where painting and reading back 600 bits cost
  // 40% of a step.
  void write_observation(ActiveInputs& out) const;
  void write_observation(ActiveInputs& out, const InputFilter& filter) const;
#if WEIGHTSPACE_COMPRESS_EXTRACT
  void write_observation_avx512(ActiveInputs& out, const InputFilter& filter) const;
#endif

  const State& state() const { return state_; }
  // Puts the game in a hand-built or saved situation (tests, tools).
  void restore(const State& state) { state_ = state; }

  static constexpr int direction(int lane) { return lane < kLanes / 2 ? -1 : 1; }

 private:
  static constexpr std::uint32_t bit(int x) { return std::uint32_t{1} << x; }
  // ceil(10 * steps left / 2000) cells; steps left is never negative.
  int gauge_cells() const { return (kSize * (kTimeLimit - state_.time) + kTimeLimit - 1) / kTimeLimit; }

  // A row's inputs, ascending, then padding that the copies above write past the count.
  template <int N>
  using RowInputs = std::array<std::uint16_t, N>;
  static constexpr std::uint16_t kChickenInput = kChickenColumn * kObservationChannels;  // row 0, channel 0
  static constexpr int kRowInputCount = kSize * kObservationChannels;

  template <int N>
  static constexpr RowInputs<N> sorted_row(int row, std::array<int, N> inputs, int count, bool chicken) {
    if (chicken) inputs[static_cast<std::size_t>(count++)] = kChickenInput;
    std::sort(inputs.begin(), inputs.begin() + count);
    RowInputs<N> row_inputs{};
    for (int k = 0; k < count; ++k) {
      row_inputs[static_cast<std::size_t>(k)] = static_cast<std::uint16_t>(row * kRowInputCount + inputs[static_cast<std::size_t>(k)]);
    }
    return row_inputs;
  }
  // [lane][first car's column][chicken in the row]: the lane's four inputs, five with the chicken.
  using LaneRows = std::array<std::array<std::array<RowInputs<8>, 2>, kSize>, kLanes>;
  static constexpr LaneRows lane_rows() {
    LaneRows rows{};
    for (int lane = 0; lane < kLanes; ++lane) {
      for (int first = 0; first < kSize; ++first) {
        const int second = wrap_column(first + kCarSpacing);
        const int back = -direction(lane);
        const std::array<int, 8> inputs{first * kObservationChannels + 1, second * kObservationChannels + 1,
                                        wrap_column(first + back) * kObservationChannels + 4,
                                        wrap_column(second + back) * kObservationChannels + 4};
        for (const bool chicken : {false, true}) rows[lane][first][chicken] = sorted_row<8>(lane + 1, inputs, 4, chicken);
      }
    }
    return rows;
  }
  // [gauge cells][chicken in row 9]: the gauge's inputs (channel 5), perhaps the chicken.
  using GaugeRows = std::array<std::array<RowInputs<16>, 2>, kSize + 1>;
  static constexpr GaugeRows gauge_rows() {
    GaugeRows rows{};
    for (int gauge = 0; gauge <= kSize; ++gauge) {
      std::array<int, 16> inputs{};
      for (int x = 0; x < gauge; ++x) inputs[static_cast<std::size_t>(x)] = x * kObservationChannels + 5;
      for (const bool chicken : {false, true}) rows[gauge][chicken] = sorted_row<16>(9, inputs, gauge, chicken);
    }
    return rows;
  }
  // lane_rows() and gauge_rows() computed once (defined below the class).
  static const LaneRows& lane_table();
  static const GaugeRows& gauge_table();
  // Python's `% 10` for a column that stepped at most one cell off the grid either way.
  static constexpr int wrap_column(int x) { return x < 0 ? x + kSize : (x >= kSize ? x - kSize : x); }

  // Each lane's timer counts down; at 0 its cars move a cell and it restarts at the lane's
  // period. The eight lanes as one vector (games/byte_lanes.hpp): branch-free, because the
  // timers run out at unpredictable steps.
  void move_cars() {
    static_assert(kLanes == 8 && direction(0) == -1 && direction(kLanes / 2 - 1) == -1 &&
                  direction(kLanes / 2) == 1 && direction(kLanes - 1) == 1);
    constexpr ByteLanes8 kDirections = {-1, -1, -1, -1, 1, 1, 1, 1};
    State& s = state_;
    const ByteLanes8 timers = load_lanes(s.timers) - 1;
    const ByteLanes8 moves = timers == 0;
    store_lanes(s.timers, timers + (moves & load_lanes(s.periods)));
    store_lanes(s.columns, wrap_columns(load_lanes(s.columns) + (moves & kDirections)));
  }

  // A car of the chicken's lane stands in column 4 (one of its two cars is there).
  bool hit() const {
    const int lane = state_.position - 1;
    if (lane < 0 || lane >= kLanes) return false;
    const int column = state_.columns[lane];
    return column == kChickenColumn || wrap_column(column + kCarSpacing) == kChickenColumn;
  }

  void draw_periods(RandomState& random) {
    for (int lane = 0; lane < kLanes; ++lane) {
      state_.periods[lane] = static_cast<std::int8_t>(random.randint(kFastestPeriod, kSlowestPeriod + 1));
      state_.timers[lane] = state_.periods[lane];
    }
  }

  State state_{};
};

// Out of the class: the tables are built by its static functions, complete only here. One
// copy of each, read by both writers.
inline const SynthFreeway::LaneRows& SynthFreeway::lane_table() {
  static constexpr LaneRows kRows = lane_rows();
  return kRows;
}
inline const SynthFreeway::GaugeRows& SynthFreeway::gauge_table() {
  static constexpr GaugeRows kRows = gauge_rows();
  return kRows;
}

inline void SynthFreeway::write_observation(ActiveInputs& out) const {
  const LaneRows& lanes = lane_table();
  const GaugeRows& gauges = gauge_table();
  const int chicken = state_.position;
  std::uint16_t* at = out.index.data();
  *at = kChickenInput;  // row 0: the chicken only
  at += chicken == 0;
  for (int lane = 0; lane < kLanes; ++lane) {
    const bool here = chicken == lane + 1;
    std::memcpy(at, lanes[lane][state_.columns[lane]][here].data(), sizeof(RowInputs<8>));
    at += 4 + here;
  }
  const int gauge = gauge_cells();
  std::memcpy(at, gauges[gauge][chicken == 9].data(), sizeof(RowInputs<16>));
  at += gauge + (chicken == 9);
  out.count = static_cast<int>(at - out.index.data());
}

inline void SynthFreeway::write_observation(ActiveInputs& out, const InputFilter& filter) const {
#if WEIGHTSPACE_COMPRESS_EXTRACT
  if (detail::cpu_has_compress()) return write_observation_avx512(out, filter);
#endif
  write_observation(out);
  filter.keep_portable(out);
}

#if WEIGHTSPACE_COMPRESS_EXTRACT
// The lanes' rows loaded four to a register (eight inputs' room each) and filtered there, one
// compress per register. Filtering the list once copied waits for the copies' stores (a vector
// load over several smaller stores is not forwarded): the synth freeway example's grades took
// 5% longer than this way; a compress per row, 35% longer than not filtering at all.
[[gnu::target("avx512f,avx512bw,avx512vl,avx512vbmi2")]] inline void SynthFreeway::write_observation_avx512(
    ActiveInputs& out, const InputFilter& filter) const {
  const LaneRows& lanes = lane_table();
  const GaugeRows& gauges = gauge_table();
  const int chicken = state_.position;
  auto row = [&](int lane) {
    return _mm_loadu_si128(reinterpret_cast<const __m128i*>(lanes[lane][state_.columns[lane]][chicken == lane + 1].data()));
  };
  std::uint16_t* at = out.index.data();
  *at = kChickenInput;  // row 0: the chicken only
  at += (chicken == 0 && filter.reads(kChickenInput)) ? 1 : 0;
  for (int first = 0; first < kLanes; first += 4) {
    __m512i rows = _mm512_castsi128_si512(row(first));
    rows = _mm512_inserti32x4(rows, row(first + 1), 1);
    rows = _mm512_inserti32x4(rows, row(first + 2), 2);
    rows = _mm512_inserti32x4(rows, row(first + 3), 3);
    // Four inputs a row, and a fifth in the chicken's row.
    const auto chicken_lane = static_cast<unsigned>(chicken - 1 - first);
    const __mmask32 listed = 0x0f0f0f0fU | (chicken_lane < 4 ? 1U << (8 * chicken_lane + 4) : 0U);
    const __mmask32 kept = listed & filter.reads(rows);
    _mm512_storeu_si512(at, _mm512_maskz_compress_epi16(kept, rows));
    at += std::popcount(kept);
  }
  const int cells = gauge_cells();
  const int listed = cells + (chicken == 9);
  const __m256i gauge = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(gauges[cells][chicken == 9].data()));
  const auto kept = static_cast<__mmask16>(((1U << listed) - 1U) & filter.reads(_mm512_castsi256_si512(gauge)));
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(at), _mm256_maskz_compress_epi16(kept, gauge));
  at += std::popcount(static_cast<unsigned>(kept));
  out.count = static_cast<int>(at - out.index.data());
}
#endif

static_assert(Game<SynthFreeway>);

}  // namespace weightspace
