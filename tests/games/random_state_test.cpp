// SPDX-License-Identifier: GPL-3.0-or-later
#include "games/random_state.hpp"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "support/golden.hpp"

namespace weightspace {
namespace {

using testing::f64_bits;
using testing::f64_from_hex;
using testing::golden;

const nlohmann::json& seeds() { return golden("random_state.json").at("seeds"); }

std::vector<double> p_vector(int index) {
  std::vector<double> p;
  for (const auto& hex : golden("random_state.json").at("p_vectors").at(index).at("p_hex")) {
    p.push_back(f64_from_hex(hex.get<std::string>()));
  }
  return p;
}

void expect_same_double(double actual, const nlohmann::json& hex, const std::string& where) {
  EXPECT_EQ(f64_bits(actual), f64_bits(f64_from_hex(hex.get<std::string>()))) << where;
}

TEST(RandomState, MatchesStdMt19937ConformanceValue) {
  const auto& check = golden("random_state.json").at("std_mt19937_check");
  RandomState random(check.at("seed").get<std::uint32_t>());
  std::uint32_t value = 0;
  for (int i = 0; i < check.at("index_1_based").get<int>(); ++i) value = random.next_uint32();
  EXPECT_EQ(value, check.at("value").get<std::uint32_t>());
  std::mt19937 reference(check.at("seed").get<std::uint32_t>());
  RandomState again(check.at("seed").get<std::uint32_t>());
  for (int i = 0; i < 5000; ++i) ASSERT_EQ(again.next_uint32(), reference()) << i;
}

TEST(RandomState, SeedingGivesNumpysInitialKey) {
  for (const auto& record : seeds()) {
    RandomState random(record.at("seed").get<std::uint32_t>());
    const auto head = record.at("init_key_head").get<std::vector<std::uint32_t>>();
    const auto tail = record.at("init_key_tail").get<std::vector<std::uint32_t>>();
    for (int i = 0; i < 8; ++i) {
      EXPECT_EQ(random.key()[i], head[i]);
      EXPECT_EQ(random.key()[616 + i], tail[i]);
    }
  }
}

TEST(RandomState, RawWordsMatchNumpy) {
  for (const auto& record : seeds()) {
    RandomState random(record.at("seed").get<std::uint32_t>());
    const auto expected = record.at("raw_uint32").get<std::vector<std::uint32_t>>();
    for (std::size_t i = 0; i < expected.size(); ++i) {
      ASSERT_EQ(random.next_uint32(), expected[i]) << "seed " << record.at("seed") << " word " << i;
    }
    EXPECT_EQ(random.draws(), expected.size());
  }
}

TEST(RandomState, RandomSampleMatchesNumpy) {
  for (const auto& record : seeds()) {
    RandomState random(record.at("seed").get<std::uint32_t>());
    const auto& samples = record.at("random_sample");
    for (const auto& hex : samples.at("hex")) expect_same_double(random.random_sample(), hex, "random_sample");
    EXPECT_EQ(random.draws(), samples.at("uint32_consumed").get<std::uint64_t>());
  }
}

TEST(RandomState, RandintMatchesNumpyIncludingTheDrawlessRangeOfOne) {
  for (const auto& record : seeds()) {
    for (const auto& block : record.at("randint")) {
      RandomState random(record.at("seed").get<std::uint32_t>());
      const auto n = block.at("n").get<std::int64_t>();
      for (const auto& value : block.at("values")) {
        ASSERT_EQ(random.randint(n), value.get<std::int64_t>()) << "randint(" << n << ")";
      }
      EXPECT_EQ(random.draws(), block.at("uint32_consumed").get<std::uint64_t>()) << "randint(" << n << ")";
    }
    RandomState random(record.at("seed").get<std::uint32_t>());
    const auto& low_high = record.at("randint_1_9");
    for (const auto& value : low_high.at("values")) ASSERT_EQ(random.randint(1, 9), value.get<std::int64_t>());
    EXPECT_EQ(random.draws(), low_high.at("uint32_consumed").get<std::uint64_t>());
  }
}

TEST(RandomState, SizedRandintAndRandMatchNumpy) {
  for (const auto& record : seeds()) {
    RandomState random(record.at("seed").get<std::uint32_t>());
    const auto& sized = record.at("randint_1_6_8");
    const auto counts = sized.at("uint32_count_after_each").get<std::vector<std::uint64_t>>();
    for (std::size_t i = 0; i < sized.at("values").size(); ++i) {
      std::vector<std::int64_t> out(8);
      random.randint(1, 6, out);
      ASSERT_EQ(out, sized.at("values")[i].get<std::vector<std::int64_t>>());
      ASSERT_EQ(random.draws(), counts[i]);
    }
    RandomState uniform(record.at("seed").get<std::uint32_t>());
    for (const auto& row : record.at("rand8").at("values")) {
      std::vector<double> out(8);
      uniform.rand(out);
      for (int i = 0; i < 8; ++i) expect_same_double(out[i], row[i], "rand(8)");
    }
    EXPECT_EQ(uniform.draws(), record.at("rand8").at("uint32_consumed").get<std::uint64_t>());
  }
}

TEST(RandomState, ChoiceMatchesNumpyForEveryProbabilityVector) {
  for (const auto& record : seeds()) {
    for (const auto& block : record.at("choice6")) {
      RandomState random(record.at("seed").get<std::uint32_t>());
      const auto p = p_vector(block.at("p_index").get<int>());
      for (const auto& value : block.at("values")) {
        ASSERT_EQ(random.choice(p), value.get<int>()) << block.at("p_name");
      }
      EXPECT_EQ(random.draws(), block.at("uint32_consumed").get<std::uint64_t>());
    }
  }
}

TEST(RandomState, InterleavedCallsShareOneStateAsInNumpy) {
  for (const auto& record : seeds()) {
    RandomState random(record.at("seed").get<std::uint32_t>());
    int call_index = 0;
    for (const auto& call : record.at("interleaved").at("calls")) {
      const auto op = call.at("op").get<std::string>();
      const std::string where = op + " call " + std::to_string(call_index++);
      const auto& result = call.at("result");
      if (op == "rand") {
        expect_same_double(random.random_sample(), result, where);
      } else if (op == "randint") {
        ASSERT_EQ(random.randint(call.at("n").get<std::int64_t>()), result.get<std::int64_t>()) << where;
      } else if (op == "randint_1_9") {
        ASSERT_EQ(random.randint(1, 9), result.get<std::int64_t>()) << where;
      } else if (op == "randint_1_6_8") {
        std::vector<std::int64_t> out(8);
        random.randint(1, 6, out);
        ASSERT_EQ(out, result.get<std::vector<std::int64_t>>()) << where;
      } else if (op == "rand8") {
        std::vector<double> out(8);
        random.rand(out);
        for (int i = 0; i < 8; ++i) expect_same_double(out[i], result[i], where);
      } else if (op == "choice6") {
        ASSERT_EQ(random.choice(p_vector(call.at("p_index").get<int>())), result.get<int>()) << where;
      } else {
        FAIL() << "unknown op " << op;
      }
      ASSERT_EQ(random.draws(), call.at("uint32_count").get<std::uint64_t>()) << where;
    }
  }
}

TEST(RandomState, ReseedManyEqualsReseedingOneByOne) {
  for (const std::size_t count : {1, 2, 7, 8, 9, 15, 16, 17, 20, 33}) {
    std::vector<RandomState> many(count), single(count);
    std::vector<RandomState*> pointers;
    std::vector<std::uint32_t> seeds;
    for (std::size_t i = 0; i < count; ++i) {
      many[i].random_sample();  // a used state must be fully replaced
      pointers.push_back(&many[i]);
      seeds.push_back(i % 3 == 0 ? 0xffffffffU - static_cast<std::uint32_t>(i) : 1729U + static_cast<std::uint32_t>(i));
      single[i].reseed(seeds.back());
    }
    RandomState::reseed_many(pointers, seeds);
    for (std::size_t i = 0; i < count; ++i) {
      EXPECT_EQ(many[i].draws(), 0U);
      for (int k = 0; k < 1500; ++k) ASSERT_EQ(many[i].next_uint32(), single[i].next_uint32()) << count << " " << i;
    }
  }
}

// reseed_many seeding a prefix of the chain, every length: the twist continues the chain when
// it reaches past it, at the first word, at the ends of its 32-word blocks, at word 227 (the
// first whose twist reads a new word) and 624 (the next block), and the state's accessors
// report what plain reseed() gives.
TEST(RandomState, ReseedManyPrefixDrawsAsPlainReseed) {
  std::vector<int> prefixes{-3, 0, 1, 7, 9, 625, 4000};
  for (int words = 8; words <= RandomState::kStateWords; words += 8) prefixes.push_back(words);
  const std::vector<std::uint64_t> checkpoints{0, 1, 2, 31, 32, 33, 64, 65, 226, 227, 228, 255, 256, 623, 624, 625, 1300};
  for (const int words : prefixes) {
    std::vector<RandomState> many(3), plain(3);
    std::vector<RandomState*> pointers;
    std::vector<std::uint32_t> seeds{1729U, 0xffffffffU, 7919U + static_cast<std::uint32_t>(words)};
    for (std::size_t i = 0; i < many.size(); ++i) {
      many[i].random_sample();  // a used state must be fully replaced
      pointers.push_back(&many[i]);
      plain[i].reseed(seeds[i]);
    }
    RandomState::reseed_many(pointers, seeds, words);
    for (std::size_t i = 0; i < many.size(); ++i) {
      for (const std::uint64_t checkpoint : checkpoints) {
        const std::string where = "prefix " + std::to_string(words) + " generator " + std::to_string(i) + " word " +
                                  std::to_string(checkpoint);
        while (plain[i].draws() < checkpoint) ASSERT_EQ(many[i].next_uint32(), plain[i].next_uint32()) << where;
        ASSERT_EQ(many[i].draws(), plain[i].draws()) << where;
        ASSERT_EQ(many[i].seed_words_read(), plain[i].seed_words_read()) << where;
        // key() completes the chain: on copies, drawing on after it.
        RandomState completed = many[i];
        RandomState reference = plain[i];
        ASSERT_EQ(completed.key(), reference.key()) << where;
        for (int k = 0; k < 40; ++k) ASSERT_EQ(completed.next_uint32(), reference.next_uint32()) << where;
      }
    }
  }
}

// What the twist has read of the init chain: nothing before the first draw, then 397 words
// past each 32-word block twisted, all 624 from word 227 on.
TEST(RandomState, SeedWordsReadFollowsTheTwist) {
  RandomState random(5);
  const std::vector<std::pair<std::uint64_t, int>> expected{
      {0, 0}, {1, 429}, {32, 429}, {33, 461}, {224, 621}, {225, 624}, {624, 624}, {625, 624}, {2000, 624}};
  for (const auto& [draws, words] : expected) {
    while (random.draws() < draws) random.next_uint32();
    EXPECT_EQ(random.seed_words_read(), words) << draws;
  }
  random.reseed(6);
  EXPECT_EQ(random.seed_words_read(), 0);
}

}  // namespace
}  // namespace weightspace
