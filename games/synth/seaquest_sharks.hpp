// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <cstring>
#include <stdexcept>

namespace weightspace::synth_seaquest {

// Python [x, y, right] (torpedoes), [x, y, right, move_timer] (divers) and
// [x, y, right, move_interval, move_timer] (sharks) share one layout.
struct Swimmer {
  std::int8_t x = 0, y = 0;
  bool right = false;
  std::int8_t move_interval = 0, move_timer = 0;
};

// The sharks, Python's list in list order, column-wise: one byte per shark in each field, so
// that a step moves and checks all of them as the 16 lanes of one vector (GCC's vector
// extension), where a loop over them branched on each shark's timer and searched the
// torpedoes shark by shark (a quarter of the synth seaquest example's step). Capacity 16
// (overflow throws std::length_error): spawns are at least 4 steps apart and a shark leaves
// the board at most 49 steps after spawning (first move after at most 4 steps, then 9 more
// moves at most 5 apart), so at most 13 swim at once.
class SharkLanes {
 public:
  static constexpr int kCapacity = 16;

  void append(const Swimmer& shark) {
    if (size_ == kCapacity) throw std::length_error("synth seaquest: too many entities");
    const auto i = static_cast<std::size_t>(size_++);
    x_[i] = shark.x;
    y_[i] = shark.y;
    right_[i] = shark.right ? 1 : 0;
    interval_[i] = shark.move_interval;
    timer_[i] = shark.move_timer;
  }
  Swimmer operator[](int index) const {
    const auto i = static_cast<std::size_t>(index);
    return {x_[i], y_[i], right_[i] != 0, interval_[i], timer_[i]};
  }
  int size() const { return size_; }

  // Bit i set where shark i is at (x, y).
  std::uint32_t at(int x, int y) const {
    return bits((load(x_) == static_cast<std::int8_t>(x)) & (load(y_) == static_cast<std::int8_t>(y)));
  }
  // Index of the first shark at (x, y), or -1 (Python's _index_at returning None).
  int index_at(int x, int y) const {
    const std::uint32_t found = at(x, y);
    return found == 0 ? -1 : std::countr_zero(found);
  }
  void erase(int index) { remove(std::uint32_t{1} << index); }

  // Removes the sharks of `removed` (bit i: shark i) and keeps the rest in order.
  void remove(std::uint32_t removed) {
    int kept = 0;
    for (int i = 0; i < size_; ++i) {
      const auto from = static_cast<std::size_t>(i);
      const auto to = static_cast<std::size_t>(kept);
      x_[to] = x_[from];
      y_[to] = y_[from];
      right_[to] = right_[from];
      interval_[to] = interval_[from];
      timer_[to] = timer_[from];
      kept += static_cast<int>(((removed >> i) & 1U) ^ 1U);
    }
    size_ = kept;
  }

  struct Moved {
    std::uint32_t at_sub;     // at (sub_x, sub_y) before or after moving
    std::uint32_t off_board;  // x outside 0..9 after moving
  };
  // Python's per-shark timer and step, for every shark at once: at timer 0 the shark swims a
  // cell (right or left) and the timer restarts at its interval; any other timer counts down.
  Moved move(int sub_x, int sub_y) {
    const Lanes x = load(x_);
    const Lanes timer = load(timer_);
    const Lanes moves = timer == 0;
    const Lanes right = load(right_);
    const Lanes next_x = x + (moves & (right + right - 1));  // x + 1 or x + 255: x - 1
    store(x_, next_x);
    store(timer_, timer - 1 + (moves & (load(interval_) + 1)));
    const auto column = static_cast<std::uint8_t>(sub_x);
    const Lanes at_sub = ((x == column) | (next_x == column)) & (load(y_) == static_cast<std::uint8_t>(sub_y));
    return {bits(at_sub), bits(next_x > 9)};  // -1 is 255 here
  }

 private:
  // Unsigned lanes: the stale lanes past the last shark count down and drift at every step,
  // for ever, and unsigned bytes wrap where int8 ones would overflow (UBSan reports it). The
  // bytes are the int8 fields' bit patterns, and the sharks' own values never wrap.
  using Lanes = std::uint8_t __attribute__((vector_size(kCapacity)));
  using Bytes = std::array<std::int8_t, kCapacity>;
  static Lanes load(const Bytes& bytes) {
    Lanes lanes;
    std::memcpy(&lanes, bytes.data(), sizeof lanes);
    return lanes;
  }
  static void store(Bytes& bytes, Lanes lanes) { std::memcpy(bytes.data(), &lanes, sizeof lanes); }
  // A mask (lanes of 0 or -1) as bit i per lane i, the lanes past the last shark cleared. Each
  // half's bytes, cut to 0 or 1, are gathered into its top byte by one multiply (the factor's
  // byte j is 0x80 >> j, so byte i lands on bit 56 + i and no two products overlap).
  std::uint32_t bits(Lanes mask) const {
    std::uint64_t half[2];
    std::memcpy(half, &mask, sizeof half);
    constexpr std::uint64_t kOnes = 0x0101010101010101, kGather = 0x0102040810204080;
    const auto low = static_cast<std::uint32_t>(((half[0] & kOnes) * kGather) >> 56);
    const auto high = static_cast<std::uint32_t>(((half[1] & kOnes) * kGather) >> 56);
    return (low | high << 8) & ((std::uint32_t{1} << size_) - 1);
  }

  // Lanes past size_ hold stale or zero bytes: moved along, never reported (bits()).
  Bytes x_{}, y_{}, right_{}, interval_{}, timer_{};
  int size_ = 0;
};

}  // namespace weightspace::synth_seaquest
