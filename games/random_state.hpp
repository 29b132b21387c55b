// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <span>

namespace weightspace {

// numpy's legacy numpy.random.RandomState, bit for bit: MT19937 seeded with init_genrand, and
// the legacy distributions the grader and MinAtar use. Every method draws exactly the 32-bit
// words numpy draws, in the same order, so a port can be checked word by word (draws()).
class RandomState {
 public:
  // The 32-bit words of the state (MT19937's n).
  static constexpr int kStateWords = 624;
  // MT19937's m: word i of a new block is twisted from old words i, i + 1 and i + 397.
  static constexpr int kFarOffset = 397;

  explicit RandomState(std::uint32_t seed = 0) { reseed(seed); }
  // A generator to be seeded before its first use (reseed or reseed_many): skips seeding a
  // state nobody reads, which a batch of episode slots would otherwise do 2 x batch times.
  struct Unseeded {};
  explicit RandomState(Unseeded) {}

  // np.random.RandomState(seed): the textbook init_genrand, no output drawn.
  void reseed(std::uint32_t seed);

  // reseed() of several generators at once, with identical results. Seeding is a chain of 623
  // dependent multiplies; running up to sixteen chains side by side hides their latency, which
  // matters because every grader episode seeds two fresh generators.
  //
  // Only the first `words` of each chain (rounded up to a multiple of 8) are computed here:
  // twisting the first t words of the first block reads init words [0, t + 397) only, so a
  // generator drawing a few dozen words never needs the rest. The twist continues the chain
  // itself (one word after another, ~5x the cost of a word seeded here) when it reaches past
  // the prefix; what is drawn is the same for every `words`, only the cost differs.
  static void reseed_many(std::span<RandomState* const> generators, std::span<const std::uint32_t> seeds,
                          int words = kStateWords);
  // The init words the twist has read since seeding: what a reseed_many prefix of this many
  // words would have served without continuing the chain (0 before the first draw).
  int seed_words_read() const {
    if (blocks_ > 0) return kStateWords;
    return twisted_ == 0 ? 0 : std::min(twisted_ + kFarOffset, kStateWords);
  }

  // One tempered MT19937 output (numpy's next_uint32, std::mt19937's operator()).
  // The twist tempers each block's words as it makes them, so a draw is a load.
  [[gnu::always_inline]] std::uint32_t next_uint32() {
    if (position_ == twisted_) twist_next_block();
    return tempered_[static_cast<std::size_t>(position_++ & (kTemperedWords - 1))];
  }

  // Asks for the lines the next draws read (the position and the tempered words).
  void prefetch() const {
    __builtin_prefetch(&position_);
    __builtin_prefetch(tempered_.data());
    __builtin_prefetch(tempered_.data() + kTemperedWords / 2);
  }

  // random_sample() / rand(): 53 bits from two words, (a >> 5, b >> 6). Inline: the grader
  // draws two per step (the sticky test and the action).
  [[gnu::always_inline]] double random_sample() {
    const std::uint32_t a = next_uint32() >> 5;
    const std::uint32_t b = next_uint32() >> 6;
    return (a * 67108864.0 + b) / 9007199254740992.0;
  }

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
  std::uint64_t draws() const { return blocks_ * key_.size() + static_cast<std::uint64_t>(position_); }

  // The generator state (key and position), as numpy's get_state() reports it. The twist is
  // done lazily, block by block, so key() mixes twisted and not-yet-twisted words; it is only
  // meaningful right after seeding (tests compare the seeded key). Not const: it first
  // completes a chain that reseed_many seeded in part.
  const std::array<std::uint32_t, 624>& key() {
    continue_seeding(kStateWords);
    return key_;
  }

 private:
  // MT19937 regenerates all 624 words when they are used up. Word i of the new block depends
  // only on words i, i+1 and i+397 (mod 624) of the old one, so the twist can run in blocks,
  // ascending, as the words are drawn: a short episode twists a few words, not all 624.
  void twist_next_block();
  // Seeds words [seeded_, end) of the init chain from word seeded_ - 1, which is still
  // untwisted: a twist that stays below word 227 never writes words at or above 397.
  void continue_seeding(int end) {
    if (seeded_ < end) extend_chain(end);
  }
  void extend_chain(int end);
  // Init words [0, end) of the chain of `seed`, nothing drawn yet (reseed: all of them).
  void seed_chain(std::uint32_t seed, int end);
  // Nothing drawn since init words [0, seeded) were set.
  void restart(int seeded) {
    position_ = 0;
    twisted_ = 0;
    blocks_ = 0;
    seeded_ = seeded;
  }
  std::uint64_t bounded(std::uint64_t range);

  // No zero-fill: seeding writes every word, and an Unseeded generator is seeded before use.
  std::array<std::uint32_t, 624> key_;
  // The tempered outputs of the block being drawn: word w of the state at w % kTemperedWords.
  static constexpr int kTemperedWords = 32;
  std::array<std::uint32_t, kTemperedWords> tempered_;
  int position_ = 0;   // next word to return
  int twisted_ = 0;    // words [0, twisted_) of the current block are twisted
  int seeded_ = kStateWords;  // init words [0, seeded_) are seeded (all of them once twisted past 227)
  std::uint64_t blocks_ = 0;  // blocks of 624 words drawn before the current one
};

}  // namespace weightspace
