// SPDX-License-Identifier: GPL-3.0-or-later
#include "games/random_state.hpp"

#include <algorithm>
#include <bit>
#include <cstring>

#if defined(__AVX2__)
#include <immintrin.h>
#endif

namespace weightspace {

namespace {
constexpr int kN = 624;
constexpr int kM = 397;
constexpr std::uint32_t kMatrixA = 0x9908b0dfU;
constexpr std::uint32_t kUpperMask = 0x80000000U;
constexpr std::uint32_t kLowerMask = 0x7fffffffU;

// The smallest all-ones mask covering range (numpy's gen_mask).
std::uint64_t mask_for(std::uint64_t range) {
  return range == 0 ? 0 : (~std::uint64_t{0} >> std::countl_zero(range));
}
}  // namespace

namespace {
constexpr std::uint32_t kSeedMultiplier = 1812433253U;
}  // namespace

static_assert(RandomState::kStateWords == kN && RandomState::kFarOffset == kM);

void RandomState::reseed(std::uint32_t seed) { seed_chain(seed, kN); }

void RandomState::seed_chain(std::uint32_t seed, int end) {
  key_[0] = seed;
  seeded_ = 1;
  extend_chain(end);
  restart(end);
}

void RandomState::extend_chain(int end) {
  for (int i = seeded_; i < end; ++i) {
    const std::uint32_t previous = key_[static_cast<std::size_t>(i - 1)];
    key_[static_cast<std::size_t>(i)] = kSeedMultiplier * (previous ^ (previous >> 30)) + static_cast<std::uint32_t>(i);
  }
  seeded_ = end;
}

namespace {
// reseed_many's prefix: whole 8-word rows, at least one.
int seeded_prefix(int words) { return std::clamp((words + 7) / 8 * 8, 8, kN); }
}  // namespace

#if defined(__AVX2__)

namespace {

// rows[j] lane l -> rows[l] lane j, for 8 x 8 words.
inline void transpose8(__m256i rows[8]) {
  __m256i pairs[8], quads[8];
  for (int k = 0; k < 8; k += 2) {
    pairs[k] = _mm256_unpacklo_epi32(rows[k], rows[k + 1]);
    pairs[k + 1] = _mm256_unpackhi_epi32(rows[k], rows[k + 1]);
  }
  for (int k = 0; k < 8; k += 4) {
    quads[k] = _mm256_unpacklo_epi64(pairs[k], pairs[k + 2]);
    quads[k + 1] = _mm256_unpackhi_epi64(pairs[k], pairs[k + 2]);
    quads[k + 2] = _mm256_unpacklo_epi64(pairs[k + 1], pairs[k + 3]);
    quads[k + 3] = _mm256_unpackhi_epi64(pairs[k + 1], pairs[k + 3]);
  }
  for (int k = 0; k < 4; ++k) {
    rows[k] = _mm256_permute2x128_si256(quads[k], quads[k + 4], 0x20);
    rows[k + 4] = _mm256_permute2x128_si256(quads[k], quads[k + 4], 0x31);
  }
}

}  // namespace

// Sixteen chains in two registers (one chain step is ~6 cycles of dependent latency, so two
// registers keep the multiplier busy), eight steps at a time, transposed so that each
// generator gets whole 8-word stores instead of one scattered word per step.
void RandomState::reseed_many(std::span<RandomState* const> generators, std::span<const std::uint32_t> seeds,
                              int words) {
  const int prefix = seeded_prefix(words);
  constexpr std::size_t kRegisters = 2;
  constexpr std::size_t kLanes = 8 * kRegisters;
  static_assert(kN % 8 == 0);
  const __m256i multiplier = _mm256_set1_epi32(static_cast<int>(kSeedMultiplier));
  for (std::size_t first = 0; first < generators.size(); first += kLanes) {
    const std::size_t lanes = std::min(kLanes, generators.size() - first);
    alignas(32) std::uint32_t initial[kLanes] = {};
    for (std::size_t lane = 0; lane < lanes; ++lane) initial[lane] = seeds[first + lane];
    __m256i chain[kRegisters];
    for (std::size_t r = 0; r < kRegisters; ++r) {
      chain[r] = _mm256_load_si256(reinterpret_cast<const __m256i*>(initial + 8 * r));
    }
    for (int block = 0; block < prefix; block += 8) {
      __m256i rows[kRegisters][8];
      for (int step = 0; step < 8; ++step) {
        const int i = block + step;
        for (std::size_t r = 0; r < kRegisters; ++r) {
          if (i > 0) {
            const __m256i mixed = _mm256_xor_si256(chain[r], _mm256_srli_epi32(chain[r], 30));
            chain[r] = _mm256_add_epi32(_mm256_mullo_epi32(mixed, multiplier), _mm256_set1_epi32(i));
          }
          rows[r][step] = chain[r];
        }
      }
      for (std::size_t r = 0; r < kRegisters; ++r) transpose8(rows[r]);
      for (std::size_t lane = 0; lane < lanes; ++lane) {
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(generators[first + lane]->key_.data() + block),
                            rows[lane / 8][lane % 8]);
      }
    }
    for (std::size_t lane = 0; lane < lanes; ++lane) {
      RandomState& generator = *generators[first + lane];
      generator.restart(prefix);
    }
  }
}

#else

void RandomState::reseed_many(std::span<RandomState* const> generators, std::span<const std::uint32_t> seeds,
                              int words) {
  const int prefix = seeded_prefix(words);
  for (std::size_t k = 0; k < generators.size(); ++k) generators[k]->seed_chain(seeds[k], prefix);
}

#endif

namespace {

// The twist of one word, or of eight side by side (GCC's portable vectors: one AVX2 register).
using Words8 = std::uint32_t __attribute__((vector_size(32)));

template <typename Word>
[[gnu::always_inline]] inline Word twist(Word upper, Word lower, Word far) {
  const Word y = (upper & kUpperMask) | (lower & kLowerMask);
  return far ^ (y >> 1) ^ ((Word{} - (y & 1U)) & kMatrixA);
}

inline Words8 load8(const std::uint32_t* words) {
  Words8 v;
  std::memcpy(&v, words, sizeof v);
  return v;
}

// MT19937's tempering of eight words side by side.
inline Words8 temper8(Words8 y) {
  y ^= y >> 11;
  y ^= (y << 7) & 0x9d2c5680U;
  y ^= (y << 15) & 0xefc60000U;
  y ^= y >> 18;
  return y;
}

}  // namespace

void RandomState::twist_next_block() {
  constexpr int kBlock = 32;  // a short episode draws a few dozen words per generator
  if (position_ == kN) {
    position_ = twisted_ = 0;
    ++blocks_;
  }
  // The textbook twist's three ranges, entered part way: below kN - kM the far word is still
  // old; above it the far word (i + kM - kN) is already new, as is key_[0] for the last word.
  // Eight words at a time read words i + 1 .. i + 8 before they are twisted, and far words
  // at least 219 places away, so every lane sees what the one-word loop would.
  const int end = std::min(twisted_ + kBlock, kN);
  continue_seeding(std::min(end + kM, kN));  // twisting word i reads init words i + 1 and i + 397
  std::uint32_t* key = key_.data();
  int i = twisted_;
  auto twist8 = [key](int at, int far) {
    const Words8 next = twist(load8(key + at), load8(key + at + 1), load8(key + far));
    std::memcpy(key + at, &next, sizeof next);
  };
  for (; i + 8 <= end && i + 8 <= kN - kM; i += 8) twist8(i, i + kM);
  for (; i < end && i < kN - kM; ++i) key[i] = twist(key[i], key[i + 1], key[i + kM]);
  for (; i + 8 <= end && i + 8 <= kN - 1; i += 8) twist8(i, i + kM - kN);
  for (; i < end && i < kN - 1; ++i) key[i] = twist(key[i], key[i + 1], key[i + kM - kN]);
  if (i < end) {
    key[kN - 1] = twist(key[kN - 1], key[0], key[kM - 1]);
    ++i;
  }
  // The block's outputs, tempered eight at a time: a draw is then a load (blocks start at
  // multiples of kTemperedWords, and are 32 words long or the last 16 of the state).
  static_assert(kBlock == kTemperedWords && kN % 8 == 0);
  for (int w = twisted_; w < i; w += 8) {
    const Words8 out = temper8(load8(key + w));
    std::memcpy(tempered_.data() + (w & (kTemperedWords - 1)), &out, sizeof out);
  }
  twisted_ = i;
}

// numpy's random_bounded_uint64 with use_masked=true, for the closed range [0, range].
std::uint64_t RandomState::bounded(std::uint64_t range) {
  if (range == 0) return 0;
  if (range <= 0xffffffffULL) {
    if (range == 0xffffffffULL) return next_uint32();
    const auto mask = static_cast<std::uint32_t>(mask_for(range));
    std::uint32_t value;
    while ((value = (next_uint32() & mask)) > range) {
    }
    return value;
  }
  auto next64 = [this] {
    const std::uint64_t high = next_uint32();
    return (high << 32) | next_uint32();
  };
  if (range == ~std::uint64_t{0}) return next64();
  const std::uint64_t mask = mask_for(range);
  std::uint64_t value;
  while ((value = (next64() & mask)) > range) {
  }
  return value;
}

std::int64_t RandomState::randint(std::int64_t low, std::int64_t high) {
  const auto range = static_cast<std::uint64_t>(high) - static_cast<std::uint64_t>(low) - 1;
  return static_cast<std::int64_t>(static_cast<std::uint64_t>(low) + bounded(range));
}

void RandomState::randint(std::int64_t low, std::int64_t high, std::span<std::int64_t> out) {
  for (auto& value : out) value = randint(low, high);
}

void RandomState::rand(std::span<double> out) {
  for (auto& value : out) value = random_sample();
}

void RandomState::choice_cdf(std::span<const double> p, std::span<double> cdf) {
  double running = 0.0;
  for (std::size_t i = 0; i < p.size(); ++i) {
    running += p[i];
    cdf[i] = running;
  }
  const double last = cdf[p.size() - 1];
  for (std::size_t i = 0; i < p.size(); ++i) cdf[i] /= last;
}

int RandomState::search_right(std::span<const double> cdf, double u) {
  int index = 0;
  while (index < static_cast<int>(cdf.size()) && cdf[index] <= u) ++index;
  return index;
}

int RandomState::choice(std::span<const double> p) {
  constexpr std::size_t kMaxOutcomes = 64;
  std::array<double, kMaxOutcomes> cdf{};
  const std::span<double> view(cdf.data(), p.size());
  choice_cdf(p, view);
  return search_right(view, random_sample());
}

}  // namespace weightspace
