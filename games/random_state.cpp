// SPDX-License-Identifier: GPL-3.0-or-later
#include "games/random_state.hpp"

#include <algorithm>
#include <bit>

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

void RandomState::reseed(std::uint32_t seed) {
  key_[0] = seed;
  for (int i = 1; i < kN; ++i) {
    const std::uint32_t previous = key_[static_cast<std::size_t>(i - 1)];
    key_[static_cast<std::size_t>(i)] = kSeedMultiplier * (previous ^ (previous >> 30)) + static_cast<std::uint32_t>(i);
  }
  position_ = 0;
  twisted_ = 0;
  draws_ = 0;
}

void RandomState::reseed_many(std::span<RandomState* const> generators, std::span<const std::uint32_t> seeds) {
  constexpr std::size_t kLanes = 8;
  for (std::size_t first = 0; first < generators.size(); first += kLanes) {
    const std::size_t lanes = std::min(kLanes, generators.size() - first);
    std::uint32_t chain[kLanes] = {};
    for (std::size_t lane = 0; lane < lanes; ++lane) chain[lane] = seeds[first + lane];
    for (std::size_t lane = 0; lane < lanes; ++lane) generators[first + lane]->key_[0] = chain[lane];
    for (int i = 1; i < kN; ++i) {
      for (std::size_t lane = 0; lane < kLanes; ++lane) {
        chain[lane] = kSeedMultiplier * (chain[lane] ^ (chain[lane] >> 30)) + static_cast<std::uint32_t>(i);
      }
      for (std::size_t lane = 0; lane < lanes; ++lane) {
        generators[first + lane]->key_[static_cast<std::size_t>(i)] = chain[lane];
      }
    }
    for (std::size_t lane = 0; lane < lanes; ++lane) {
      RandomState& generator = *generators[first + lane];
      generator.position_ = 0;
      generator.twisted_ = 0;
      generator.draws_ = 0;
    }
  }
}

void RandomState::twist_next_block() {
  constexpr int kBlock = 64;
  if (position_ == kN) position_ = twisted_ = 0;
  auto twist = [](std::uint32_t upper, std::uint32_t lower, std::uint32_t far) {
    const std::uint32_t y = (upper & kUpperMask) | (lower & kLowerMask);
    return far ^ (y >> 1) ^ ((y & 1U) ? kMatrixA : 0U);
  };
  // The textbook twist's three ranges, entered part way: below kN - kM the far word is still
  // old; above it the far word (i + kM - kN) is already new, as is key_[0] for the last word.
  const int end = std::min(twisted_ + kBlock, kN);
  std::uint32_t* key = key_.data();
  int i = twisted_;
  for (; i < end && i < kN - kM; ++i) key[i] = twist(key[i], key[i + 1], key[i + kM]);
  for (; i < end && i < kN - 1; ++i) key[i] = twist(key[i], key[i + 1], key[i + kM - kN]);
  if (i < end) {
    key[kN - 1] = twist(key[kN - 1], key[0], key[kM - 1]);
    ++i;
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
