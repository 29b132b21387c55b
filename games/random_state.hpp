// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <array>
#include <cstdint>
#include <span>

namespace weightspace {

// numpy's legacy numpy.random.RandomState, bit for bit: MT19937 seeded with init_genrand, and
// the legacy distributions the grader and MinAtar use. Every method draws exactly the 32-bit
// words numpy draws, in the same order, so a port can be checked word by word (draws()).
class RandomState {
 public:
  explicit RandomState(std::uint32_t seed = 0) { reseed(seed); }

  // np.random.RandomState(seed): the textbook init_genrand, no output drawn.
  void reseed(std::uint32_t seed);

  // One tempered MT19937 output (numpy's next_uint32, std::mt19937's operator()).
  std::uint32_t next_uint32();

  // random_sample() / rand(): 53 bits from two words, (a >> 5, b >> 6).
  double random_sample();

  // randint(high): uniform in [0, high). numpy's masked rejection; a range of one value
  // (high == 1) returns 0 and draws nothing. Precondition: high >= 1.
  std::int64_t randint(std::int64_t high) { return randint(0, high); }

  // randint(low, high): uniform in [low, high). Precondition: low < high.
  std::int64_t randint(std::int64_t low, std::int64_t high);

  // randint(low, high, size=out.size()) and rand(out.size()): element by element, as numpy.
  void randint(std::int64_t low, std::int64_t high, std::span<std::int64_t> out);
  void rand(std::span<double> out);

  // choice(p.size(), p=p) with replacement and no size: cdf = cumsum(p), cdf /= cdf[-1], one
  // random_sample(), searchsorted(side='right'). The caller validates p (numpy's checks on
  // negative entries and the sum belong to the caller, who knows how to report them).
  int choice(std::span<const double> p);

  // The cdf choice() builds, for callers that want to inspect it (diagnostics, tests).
  static void choice_cdf(std::span<const double> p, std::span<double> cdf);
  // The index choice() returns for a given uniform draw u and cdf.
  static int search_right(std::span<const double> cdf, double u);

  // Total number of 32-bit words drawn since the last reseed.
  std::uint64_t draws() const { return draws_; }

  // The generator state (key and position), as numpy's get_state() reports it.
  const std::array<std::uint32_t, 624>& key() const { return key_; }
  int position() const { return position_; }

 private:
  void regenerate();
  std::uint64_t bounded(std::uint64_t range);

  std::array<std::uint32_t, 624> key_{};
  int position_ = 624;
  std::uint64_t draws_ = 0;
};

}  // namespace weightspace
