// SPDX-License-Identifier: GPL-3.0-or-later
// Which shard a process is (flags and the schedulers' environment), how shards are named, and
// how records are dealt to them.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <numeric>
#include <random>
#include <set>
#include <string>

#include "apps/cli/files.hpp"
#include "apps/cluster/shard.hpp"
#include "apps/cluster/shard_meta.hpp"
#include "apps/cluster/shard_set.hpp"
#include "apps/version.hpp"

namespace weightspace::app {
namespace {

using Variables = std::map<std::string, std::string>;

Environment environment_of(const Variables& variables) {
  return [variables](const char* name) -> const char* {
    const auto found = variables.find(name);
    return found == variables.end() ? nullptr : found->second.c_str();
  };
}

std::optional<ShardSpec> resolve(const Variables& variables, ShardFlags flags = {}) {
  return resolve_shard(flags, environment_of(variables));
}

// The UsageError's message, or "" when there was none.
std::string error_of(const Variables& variables, ShardFlags flags = {}) {
  try {
    resolve(variables, flags);
  } catch (const UsageError& error) {
    return error.what();
  }
  return "";
}

const Variables kSlurmTask2 = {{"SLURM_ARRAY_TASK_ID", "2"},  {"SLURM_ARRAY_TASK_COUNT", "4"},
                               {"SLURM_ARRAY_TASK_MIN", "0"}, {"SLURM_ARRAY_TASK_MAX", "3"},
                               {"SLURM_ARRAY_TASK_STEP", "1"}};

TEST(ResolveShard, NothingSetIsNotSharded) { EXPECT_FALSE(resolve({}).has_value()); }

TEST(ResolveShard, SlurmArrayGivesIndexAndCount) {
  const auto shard = resolve(kSlurmTask2);
  ASSERT_TRUE(shard);
  EXPECT_EQ(shard->index, 2);
  EXPECT_EQ(shard->count, 4);
  EXPECT_EQ(shard->from, "SLURM_ARRAY_TASK_ID=2, SLURM_ARRAY_TASK_COUNT=4");
}

TEST(ResolveShard, SlurmCountFromMaxWhenCountIsMissing) {
  const auto shard = resolve({{"SLURM_ARRAY_TASK_ID", "5"}, {"SLURM_ARRAY_TASK_MIN", "0"}, {"SLURM_ARRAY_TASK_MAX", "7"}});
  ASSERT_TRUE(shard);
  EXPECT_EQ(shard->index, 5);
  EXPECT_EQ(shard->count, 8);
}

TEST(ResolveShard, SlurmArraysNotNumberedFromZeroNeedAnExplicitCount) {
  Variables rerun = {{"SLURM_ARRAY_TASK_ID", "2"},  {"SLURM_ARRAY_TASK_COUNT", "1"}, {"SLURM_ARRAY_TASK_MIN", "2"},
                     {"SLURM_ARRAY_TASK_MAX", "2"}, {"SLURM_ARRAY_TASK_STEP", "1"}};
  EXPECT_NE(error_of(rerun).find("start at SLURM_ARRAY_TASK_MIN=2"), std::string::npos) << error_of(rerun);
  rerun["WEIGHTSPACE_SHARD_COUNT"] = "4";
  const auto shard = resolve(rerun);
  ASSERT_TRUE(shard);
  EXPECT_EQ(shard->index, 2);
  EXPECT_EQ(shard->count, 4);
  EXPECT_EQ(shard->from, "SLURM_ARRAY_TASK_ID=2, WEIGHTSPACE_SHARD_COUNT=4");
}

TEST(ResolveShard, SlurmStepsAndGapsAreRefused) {
  const Variables stepped = {{"SLURM_ARRAY_TASK_ID", "4"},  {"SLURM_ARRAY_TASK_COUNT", "4"}, {"SLURM_ARRAY_TASK_MIN", "0"},
                             {"SLURM_ARRAY_TASK_MAX", "6"}, {"SLURM_ARRAY_TASK_STEP", "2"}};
  EXPECT_NE(error_of(stepped).find("has a step (SLURM_ARRAY_TASK_STEP=2)"), std::string::npos) << error_of(stepped);
  const Variables gaps = {{"SLURM_ARRAY_TASK_ID", "5"}, {"SLURM_ARRAY_TASK_COUNT", "3"}, {"SLURM_ARRAY_TASK_MIN", "0"},
                          {"SLURM_ARRAY_TASK_MAX", "5"}};
  EXPECT_NE(error_of(gaps).find("not every index from 0"), std::string::npos) << error_of(gaps);
  EXPECT_NE(error_of({{"SLURM_ARRAY_TASK_ID", "1"}}).find("neither SLURM_ARRAY_TASK_COUNT nor SLURM_ARRAY_TASK_MAX"),
            std::string::npos);
}

TEST(ResolveShard, KubernetesIndexNeedsACount) {
  EXPECT_NE(error_of({{"JOB_COMPLETION_INDEX", "3"}}).find("JOB_COMPLETION_INDEX=3) but no shard count"),
            std::string::npos);
  const auto shard = resolve({{"JOB_COMPLETION_INDEX", "3"}, {"WEIGHTSPACE_SHARD_COUNT", "8"}});
  ASSERT_TRUE(shard);
  EXPECT_EQ(shard->index, 3);
  EXPECT_EQ(shard->count, 8);
  EXPECT_EQ(shard->from, "JOB_COMPLETION_INDEX=3, WEIGHTSPACE_SHARD_COUNT=8");
  ShardFlags flags;
  flags.count = 6;
  EXPECT_EQ(resolve({{"JOB_COMPLETION_INDEX", "3"}}, flags)->count, 6);
}

TEST(ResolveShard, FlagsOverrideTheEnvironment) {
  ShardFlags flags;
  flags.index = 1;
  flags.count = 3;
  Variables both = kSlurmTask2;
  both["WEIGHTSPACE_SHARD_COUNT"] = "9";
  const auto shard = resolve(both, flags);
  ASSERT_TRUE(shard);
  EXPECT_EQ(shard->index, 1);
  EXPECT_EQ(shard->count, 3);
  EXPECT_EQ(shard->from, "--shard-index=1, --shard-count=3");
  // An index flag alone takes the count from WEIGHTSPACE_SHARD_COUNT, not from a Slurm array
  // whose task is then not the shard.
  ShardFlags index_only;
  index_only.index = 0;
  EXPECT_NE(error_of(kSlurmTask2, index_only).find("(--shard-index=0) but no shard count"), std::string::npos);
  EXPECT_EQ(resolve({{"WEIGHTSPACE_SHARD_COUNT", "5"}}, index_only)->count, 5);
  // A count flag alone takes the index from it.
  ShardFlags count_only;
  count_only.count = 10;
  const auto counted = resolve(kSlurmTask2, count_only);
  EXPECT_EQ(counted->index, 2);
  EXPECT_EQ(counted->count, 10);
}

TEST(ResolveShard, NoShardIgnoresTheEnvironment) {
  ShardFlags flags;
  flags.none = true;
  EXPECT_FALSE(resolve(kSlurmTask2, flags).has_value());
  EXPECT_FALSE(resolve({{"SLURM_ARRAY_TASK_ID", "oops"}}, flags).has_value());
}

TEST(ResolveShard, BadValuesNameTheirSource) {
  for (const char* bad : {"abc", "-1", "+2", " 2", "2 ", "", "1e3", "0x10", "99999999999999999999999"}) {
    const std::string message = error_of({{"SLURM_ARRAY_TASK_ID", bad}, {"SLURM_ARRAY_TASK_COUNT", "4"}});
    EXPECT_NE(message.find(std::string("SLURM_ARRAY_TASK_ID=\"") + bad + "\" is not a whole number"), std::string::npos)
        << bad << ": " << message;
  }
  EXPECT_NE(error_of({{"JOB_COMPLETION_INDEX", "0"}, {"WEIGHTSPACE_SHARD_COUNT", "four"}})
                .find("WEIGHTSPACE_SHARD_COUNT=\"four\""),
            std::string::npos);
  EXPECT_NE(error_of({{"JOB_COMPLETION_INDEX", "0"}, {"WEIGHTSPACE_SHARD_COUNT", "0"}}).find("must be from 1"),
            std::string::npos);
}

TEST(ResolveShard, IndexMustBeBelowCount) {
  const std::string message = error_of({{"JOB_COMPLETION_INDEX", "4"}, {"WEIGHTSPACE_SHARD_COUNT", "4"}});
  EXPECT_NE(message.find("(JOB_COMPLETION_INDEX=4) must be below the shard count (WEIGHTSPACE_SHARD_COUNT=4)"),
            std::string::npos)
      << message;
}

TEST(ResolveShard, CountWithoutIndexAndTwoSchedulersAreRefused) {
  EXPECT_NE(error_of({{"WEIGHTSPACE_SHARD_COUNT", "4"}}).find("but no shard index"), std::string::npos);
  const std::string both = error_of({{"SLURM_ARRAY_TASK_ID", "1"}, {"JOB_COMPLETION_INDEX", "2"}});
  EXPECT_NE(both.find("both SLURM_ARRAY_TASK_ID=1 and JOB_COMPLETION_INDEX=2"), std::string::npos) << both;
}

TEST(ShardFileName, IndexPaddedBeforeTheExtension) {
  EXPECT_EQ(shard_file_name("out/results.jsonl", {3, 16, ""}), "out/results.shard-03-of-16.jsonl");
  EXPECT_EQ(shard_file_name("results.jsonl", {0, 4, ""}), "results.shard-0-of-4.jsonl");
  EXPECT_EQ(shard_file_name("results", {7, 1000, ""}), "results.shard-007-of-1000");
  EXPECT_EQ(shard_file_name("a.b/c.d.jsonl", {0, 1, ""}), "a.b/c.d.shard-0-of-1.jsonl");
}

TEST(RecordWork, ScalesWithEpisodesAndGame) {
  EXPECT_GT(record_work("freeway", "original", 100), 20 * record_work("breakout", "original", 100));
  EXPECT_EQ(record_work("freeway", "original", 0), record_work("no_such_game", "original", 100));
  EXPECT_EQ(record_work("freeway", "original", -5), record_work("freeway", "original", 0));
  EXPECT_LT(record_work("asterix", "original", 1000), record_work("asterix", "original", 2000));
  // Absurd episode counts stay far from overflowing a sum of a million records.
  EXPECT_LT(record_work("freeway", "original", std::int64_t{1} << 62), std::uint64_t{1} << 44);
}

TEST(ShardBalancer, DealsWithinOneRecordOfEven) {
  std::mt19937_64 random(7);
  const char* games[] = {"asterix", "breakout", "freeway", "seaquest", "space_invaders"};
  for (const std::int64_t count : {1, 2, 4, 7, 64}) {
    ShardBalancer balancer(count);
    std::uint64_t largest = 0;
    for (int record = 0; record < 5000; ++record) {
      const std::uint64_t work = record_work(games[random() % 5], "original", 1 + static_cast<int>(random() % 20));
      largest = std::max(largest, work);
      const std::int64_t expected = balancer.next_shard();
      EXPECT_EQ(balancer.assign(work), expected);
    }
    std::uint64_t most = 0;
    std::uint64_t least = ~std::uint64_t{0};
    for (std::int64_t shard = 0; shard < count; ++shard) {
      most = std::max(most, balancer.work_of(shard));
      least = std::min(least, balancer.work_of(shard));
    }
    EXPECT_LE(most - least, largest) << count << " shards";
  }
}

TEST(ShardBalancer, TiesGoToTheLowestShard) {
  ShardBalancer balancer(3);
  EXPECT_EQ(balancer.assign(10), 0);
  EXPECT_EQ(balancer.assign(10), 1);
  EXPECT_EQ(balancer.assign(5), 2);
  EXPECT_EQ(balancer.assign(5), 2);  // 10 = 10 = 10: the lowest next
  EXPECT_EQ(balancer.assign(1), 0);
}

TEST(RecordsFingerprint, ChangesWithAnyFieldAndTheOrder) {
  auto record = [](std::string id, std::string game, std::int64_t episodes, std::string text) {
    BatchRecord r;
    r.id = std::move(id);
    r.input = "m.jsonl:1";
    r.request.game = std::move(game);
    r.request.episodes = episodes;
    r.text = std::move(text);
    return r;
  };
  auto hex = [](const std::vector<BatchRecord>& records) {
    RecordsFingerprint fingerprint;
    for (const BatchRecord& r : records) fingerprint.add(r);
    return fingerprint.hex();
  };
  const BatchRecord a = record("\"a\"", "breakout", 10, "x");
  const BatchRecord b = record("\"b\"", "breakout", 10, "x");
  const std::string base = hex({a, b});
  EXPECT_EQ(base.size(), 64u);
  EXPECT_EQ(base, hex({a, b}));
  EXPECT_NE(base, hex({b, a}));
  EXPECT_NE(base, hex({a}));
  std::set<std::string> seen = {base};
  for (const BatchRecord& changed : {record("\"b\"", "freeway", 10, "x"), record("\"b\"", "breakout", 11, "x"),
                                     record("\"b\"", "breakout", 10, "y"), record("\"b\"", "breakout", 10, "")}) {
    EXPECT_TRUE(seen.insert(hex({a, changed})).second);
  }
  // Field boundaries count: "ab" + "" is not "a" + "b".
  EXPECT_NE(hex({record("\"ab\"", "", 1, "")}), hex({record("\"a\"", "b", 1, "")}));
}

// A shard description as a finished batch shard writes it, with `options` and `count` as given.
std::string shard_description(const std::string& options, const std::string& count = "2") {
  return std::string(R"({"format": "weightspace-shard", "format_version": 1, "weightspace_version": ")") + kVersion +
         R"(", "shard_index": 1, "shard_count": )" + count + R"(, "out": "grades.jsonl", "options": )" + options +
         R"(, "complete": true, "inputs_sha256": "00", "records": 1, "total_records": 2, "work": 4, "total_work": 8})";
}

std::string description_error(const std::string& text) {
  try {
    parse_shard_meta(text, "g.shard.json");
  } catch (const CommandError& error) {
    return error.what();
  }
  return "";
}

TEST(ShardMeta, ReadsWhatABatchShardWrites) {
  const ShardMeta meta = parse_shard_meta(shard_description(R"({"cache": 4096, "timings": true})"), "g.shard.json");
  EXPECT_EQ(meta.index, 1);
  EXPECT_FALSE(is_sweep_shard(meta));
  EXPECT_TRUE(shard_timings(meta, "g"));
  EXPECT_EQ(shard_cache(meta), 4096u);
}

// Found writing fuzz/fuzz_shard_meta (which checks them): each of these escaped `merge` as a JSON
// library exception (out_of_range, type_error), not an error naming the file.
TEST(ShardMeta, OptionsTheMergesReadAreChecked) {
  const std::pair<const char*, const char*> cases[] = {
      {R"({"cache": 4096})", "its options' timings is not true or false"},
      {R"({"cache": 4096, "timings": 1})", "its options' timings is not true or false"},
      {R"({"timings": true})", "its options' cache is not a whole number"},
      {R"({"cache": "4096", "timings": true})", "its options' cache is not a whole number"},
      {R"({"cache": -1, "timings": true})", "its options' cache is not a whole number"},
      {R"({"cache": 1, "sweep": 7})", "its options' sweep is not a string"},
      {R"([1])", "its options are not an object"},
  };
  for (const auto& [options, problem] : cases) {
    EXPECT_EQ(description_error(shard_description(options)), std::string("g.shard.json is not a weightspace shard "
                                                                         "description: ") + problem)
        << options;
  }
}

TEST(ShardMeta, AShardCountBeyondTheLimitIsRefused) {
  // check_shards sized a vector by it: 2^62 shards threw std::length_error (found with the above).
  EXPECT_EQ(description_error(shard_description(R"({"cache": 1, "timings": true})", "4611686018427387904")),
            "g.shard.json: shard 1 of 4611686018427387904 is not a shard");
  EXPECT_EQ(description_error(shard_description(R"({"cache": 1, "timings": true})", std::to_string(kMaxShards))), "");
}

TEST(ShardMeta, NumbersAreWholeAndWithin64Bits) {
  // The fuzzer's input: a shard count of 218446744073709551615, which JSON reads as a float,
  // was cast to int64 (undefined behaviour: UBSan's float-cast-overflow).
  EXPECT_EQ(description_error(shard_description(R"({"cache": 1, "timings": true})", "218446744073709551615")),
            "g.shard.json is not a weightspace shard description: shard_count is not a whole number within 64 bits");
  EXPECT_EQ(description_error(shard_description(R"({"cache": 1, "timings": true})", "2.0")),
            "g.shard.json is not a weightspace shard description: shard_count is not a whole number within 64 bits");
  std::string text = shard_description(R"({"cache": 1, "timings": true})");
  text.replace(text.find("\"records\": 1"), std::string("\"records\": 1").size(), "\"records\": -1");
  EXPECT_EQ(description_error(text),
            "g.shard.json is not a weightspace shard description: records is not a whole number from 0 within 64 bits");
}

TEST(ShardMeta, ASweepShardIsNotMergedAsABatchShard) {
  const ShardMeta meta = parse_shard_meta(shard_description(R"({"sweep": "nightly", "cache": 1})"), "g.shard.json");
  EXPECT_TRUE(is_sweep_shard(meta));
  EXPECT_THROW(shard_timings(meta, "g.jsonl"), CommandError);
  const std::vector<ShardOutput> shards = check_shards({ShardOutput{"a", meta}, ShardOutput{"b", [&] {
                                                         ShardMeta first = meta;
                                                         first.index = 0;
                                                         return first;
                                                       }()}});
  EXPECT_EQ(shards.front().path, "b");
}

}  // namespace
}  // namespace weightspace::app
