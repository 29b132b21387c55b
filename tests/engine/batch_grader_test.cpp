// SPDX-License-Identifier: GPL-3.0-or-later
// BatchGrader: every record's reward is grade()'s, byte for byte, in input order, whatever the
// threads, lockstep batch, window and cache; cached records equal fresh grades.
#include <weightspace/batch_grader.hpp>

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <iterator>
#include <stdexcept>

#include <weightspace/reward.hpp>

#include "engine/grade.hpp"
#include "parser/trajectory.hpp"
#include "support/golden.hpp"

namespace weightspace {
namespace {

BatchRecord answer_record(std::string id, std::string game, std::int64_t episodes, std::string answer) {
  BatchRecord record;
  record.id = std::move(id);
  record.input = record.id;
  record.request.game = std::move(game);
  record.request.episodes = episodes;
  record.text = std::move(answer);
  return record;
}

struct Outcome {
  std::uint64_t sequence;
  std::string id;
  std::string reward;
  std::optional<std::string> sha;
  bool cached;
  std::int64_t steps;
};

std::vector<Outcome> run_all(const std::vector<BatchRecord>& records, const BatchOptions& options,
                             BatchSummary* summary = nullptr) {
  BatchGrader grader(options);
  std::size_t next = 0;
  std::vector<Outcome> outcomes;
  const BatchSummary done = grader.run(
      [&]() -> std::optional<BatchRecord> {
        if (next == records.size()) return std::nullopt;
        return records[next++];
      },
      [&](BatchResult&& result) {
        outcomes.push_back({result.sequence, result.record.id, reward_json(result.reward), result.weights_sha256,
                            result.cached, result.steps});
      });
  if (summary) *summary = done;
  return outcomes;
}

std::vector<BatchRecord> golden_records() {
  std::vector<BatchRecord> records;
  for (const auto& grade_case : testing::golden("grades.json").at("cases")) {
    BatchRecord record = answer_record(grade_case.at("id").get<std::string>(), grade_case.at("game").get<std::string>(),
                                       grade_case.at("episodes").get<std::int64_t>(),
                                       grade_case.at("answer").get<std::string>());
    record.request.source = grade_case.at("source").get<std::string>();
    records.push_back(std::move(record));
  }
  return records;
}

// Answers that parse to the same weights, bad answers, an unknown game, short grades.
std::vector<BatchRecord> mixed_records() {
  std::vector<BatchRecord> records;
  const char* games[] = {"breakout", "seaquest", "freeway", "asterix", "space_invaders"};
  for (int i = 0; i < 40; ++i) {
    const std::string game = games[i % 5];
    std::string answer = "```edits\nW1[" + std::to_string(i % 7) + ", :] = 0.5\nb3[" + std::to_string(i % 6) + "] = 1\n```";
    records.push_back(answer_record("r" + std::to_string(i), game, 6 + i % 3, answer));
  }
  records.push_back(answer_record("same-weights", "breakout", 6, "```edits\nW1[0, :] = 0.5\nb3[0] = 0\nb3[0] = 1\n```"));
  records.push_back(answer_record("no-block", "breakout", 6, "no edits here"));
  records.push_back(answer_record("syntax", "breakout", 6, "```edits\nb3[0] = (\n```"));
  records.push_back(answer_record("pong", "pong", 6, "```edits\nb3[0] = 1\n```"));
  records.push_back(answer_record("pong-again", "pong", 6, "```edits\nb3[0] = 1\n```"));
  records.push_back(answer_record("zero-episodes", "breakout", 0, "```edits\nb3[0] = 1\n```"));
  BatchRecord unreadable = answer_record("unreadable", "breakout", 6, "");
  unreadable.error = PythonError{"OSError", "cannot read x.md: No such file or directory"};
  records.push_back(unreadable);
  BatchRecord trajectory = answer_record("trajectory", "seaquest", 6,
                                         R"({"steps": [{"messages": [{"role": "assistant", "content": "```edits\nb3[1] = 2\n```"}]}]})");
  trajectory.content = BatchRecord::Content::Trajectory;
  records.push_back(trajectory);
  BatchRecord broken = answer_record("broken-trajectory", "seaquest", 6, "{\"steps\": [");
  broken.content = BatchRecord::Content::Trajectory;
  records.push_back(broken);
  return records;
}

TEST(BatchGrader, ReproducesEveryGoldenGradeInInputOrder) {
  const std::vector<BatchRecord> records = golden_records();
  BatchOptions options;
  options.run.threads = 2;
  const std::vector<Outcome> outcomes = run_all(records, options);
  ASSERT_EQ(outcomes.size(), records.size());
  const auto& cases = testing::golden("grades.json").at("cases");
  for (std::size_t i = 0; i < records.size(); ++i) {
    EXPECT_EQ(outcomes[i].sequence, i);
    EXPECT_EQ(outcomes[i].id, records[i].id);
    GradeRequest request = records[i].request;
    request.run.threads = 1;
    EXPECT_EQ(outcomes[i].reward, reward_json(grade(request, records[i].text).reward)) << records[i].id;
    if (cases[i].at("expected").is_null() || cases[i].at("expected").at("parse_success").get<double>() == 0.0) continue;
    EXPECT_EQ(outcomes[i].reward, cases[i].at("expected_reward_json").get<std::string>()) << records[i].id;
  }
}

TEST(BatchGrader, ResultsDoNotDependOnThreadsBatchWindowOrCache) {
  const std::vector<BatchRecord> records = mixed_records();
  BatchOptions reference_options;
  reference_options.run.threads = 1;
  reference_options.cache_entries = 0;
  const std::vector<Outcome> reference = run_all(records, reference_options);
  ASSERT_EQ(reference.size(), records.size());
  for (std::size_t i = 0; i < records.size(); ++i) {
    GradeRequest request = records[i].request;
    if (records[i].error || records[i].content == BatchRecord::Content::Trajectory) continue;
    EXPECT_EQ(reference[i].reward, reward_json(grade(request, records[i].text).reward)) << records[i].id;
    EXPECT_FALSE(reference[i].cached);
  }
  for (const int threads : {1, 2}) {
    for (const int batch : {1, 5, 32}) {
      for (const int window : {1, 2, 0}) {
        for (const std::size_t cache : {std::size_t{0}, std::size_t{3}, std::size_t{4096}}) {
          BatchOptions options;
          options.run.threads = threads;
          options.run.lockstep = batch;
          options.window = window;
          options.cache_entries = cache;
          const std::vector<Outcome> outcomes = run_all(records, options);
          ASSERT_EQ(outcomes.size(), reference.size());
          for (std::size_t i = 0; i < outcomes.size(); ++i) {
            const std::string where = records[i].id + " threads " + std::to_string(threads) + " batch " +
                                      std::to_string(batch) + " window " + std::to_string(window) + " cache " +
                                      std::to_string(cache);
            EXPECT_EQ(outcomes[i].sequence, i) << where;
            EXPECT_EQ(outcomes[i].reward, reference[i].reward) << where;
            EXPECT_EQ(outcomes[i].sha, reference[i].sha) << where;
            EXPECT_EQ(outcomes[i].steps, reference[i].steps) << where;
            if (cache == 0) {
              EXPECT_FALSE(outcomes[i].cached) << where;
            }
          }
        }
      }
    }
  }
}

TEST(BatchGrader, IdenticalWeightsAreGradedOnceAndKeepTheirOwnEditCount) {
  std::vector<BatchRecord> records;
  records.push_back(answer_record("a", "breakout", 20, "```edits\nW1[:, 3] = 0.25\nb3[2] = 1\n```"));
  records.push_back(answer_record("b", "breakout", 20, "```edits\nb3[2] = 5\nW1[:, 3] = 0.25\nb3[2] = 1\n```"));
  records.push_back(answer_record("c", "seaquest", 20, "```edits\nW1[:, 3] = 0.25\nb3[2] = 1\n```"));
  records.push_back(answer_record("d", "breakout", 21, "```edits\nW1[:, 3] = 0.25\nb3[2] = 1\n```"));
  records.push_back(answer_record("e", "breakout", 20, "```edits\nW1[:, 3] = 0.25\nb3[2] = 1\n```"));
  BatchOptions options;
  options.run.threads = 2;
  BatchSummary summary;
  const std::vector<Outcome> outcomes = run_all(records, options, &summary);
  const std::vector<bool> cached = {false, true, false, false, true};
  for (std::size_t i = 0; i < records.size(); ++i) {
    EXPECT_EQ(outcomes[i].cached, cached[i]) << records[i].id;
    EXPECT_EQ(outcomes[i].reward, reward_json(grade(records[i].request, records[i].text).reward)) << records[i].id;
  }
  EXPECT_NE(outcomes[0].reward, outcomes[1].reward);  // edit_count 2 and 3
  EXPECT_EQ(outcomes[1].steps, outcomes[0].steps);
  EXPECT_EQ(summary.cached, 2u);
  EXPECT_EQ(summary.steps, outcomes[0].steps + outcomes[2].steps + outcomes[3].steps);
}

TEST(BatchGrader, RememberedResultsAreCacheHitsForLaterRecords) {
  const std::vector<BatchRecord> first = {answer_record("a", "breakout", 10, "```edits\nb3[4] = 2\n```")};
  BatchOptions options;
  options.run.threads = 1;
  BatchGrader grader(options);
  std::vector<BatchResult> results;
  std::size_t next = 0;
  auto feed = [&](const std::vector<BatchRecord>& records) {
    next = 0;
    return [&records, &next]() -> std::optional<BatchRecord> {
      if (next == records.size()) return std::nullopt;
      return records[next++];
    };
  };
  grader.run(feed(first), [&](BatchResult&& result) { results.push_back(std::move(result)); });
  ASSERT_EQ(results.size(), 1u);

  BatchGrader resumed(options);
  resumed.remember(results[0]);
  std::vector<BatchResult> later;
  const std::vector<BatchRecord> second = {answer_record("b", "breakout", 10, "```edits\nb3[4] = 2\n```")};
  resumed.run(feed(second), [&](BatchResult&& result) { later.push_back(std::move(result)); });
  ASSERT_EQ(later.size(), 1u);
  EXPECT_TRUE(later[0].cached);
  EXPECT_EQ(reward_json(later[0].reward), reward_json(results[0].reward));
  EXPECT_EQ(later[0].steps, results[0].steps);
}

TEST(BatchGrader, ReadErrorsAndBrokenTrajectoriesAreFailedRecords) {
  const std::vector<BatchRecord> records = mixed_records();
  BatchOptions options;
  const std::vector<Outcome> outcomes = run_all(records, options);
  auto find = [&](const std::string& id) {
    for (const Outcome& outcome : outcomes) {
      if (outcome.id == id) return outcome;
    }
    throw std::logic_error("no record " + id);
  };
  EXPECT_NE(find("unreadable").reward.find("\"error\": \"cannot read x.md: No such file or directory\""),
            std::string::npos);
  EXPECT_FALSE(find("unreadable").sha);
  EXPECT_NE(find("broken-trajectory").reward.find("\"error\": \"broken-trajectory: Expecting value"), std::string::npos)
      << find("broken-trajectory").reward;
  EXPECT_NE(find("trajectory").reward.find("\"parse_success\": 1.0"), std::string::npos);
  EXPECT_NE(find("no-block").reward.find("\"error\": \"answer has no edits block\""), std::string::npos);
  EXPECT_TRUE(find("pong").sha);
  EXPECT_TRUE(find("pong-again").cached);
  EXPECT_EQ(find("pong").reward, find("pong-again").reward);
}

// An input graded on several games is parsed once for all its records (engine/batch_grader.cpp,
// SharedParse): only a record of the same input with the same text and content shares it.
TEST(BatchGrader, RecordsOfOneInputShareItsParseAndNothingElse) {
  const std::string answer = "```edits\nW1[0:40, 0] = 0.5\nW3[0, :] = 1\nb3[2] = 0.25\n```";
  std::vector<BatchRecord> records;
  for (const char* game : {"breakout", "seaquest", "freeway", "asterix", "space_invaders", "pong"}) {
    records.push_back(answer_record("matrix", game, 3, answer));
  }
  // The same input with another text (a manifest may repeat a name), then a third.
  records.push_back(answer_record("matrix", "breakout", 3, "```edits\nb3[4] = 2\n```"));
  records.push_back(answer_record("matrix", "seaquest", 3, answer + "\n"));
  // One broken trajectory text under two inputs: each error names its own input.
  for (const char* input : {"t1", "t2"}) {
    for (const char* game : {"breakout", "asterix"}) {
      BatchRecord broken = answer_record(input, game, 3, "{\"steps\": [");
      broken.content = BatchRecord::Content::Trajectory;
      records.push_back(broken);
    }
  }
  // The same text as an answer, not a trajectory.
  records.push_back(answer_record("t2", "breakout", 3, "{\"steps\": ["));
  // An unreadable record, then one of the same input and (empty) text that was read.
  BatchRecord unreadable = answer_record("u", "breakout", 3, "");
  unreadable.error = PythonError{"OSError", "cannot read u: No such file or directory"};
  records.push_back(unreadable);
  records.push_back(answer_record("u", "breakout", 3, ""));
  records.push_back(answer_record("u", "breakout", 3, ""));
  for (const int threads : {1, 2}) {
    BatchOptions options;
    options.run.threads = threads;
    options.window = 4;
    options.cache_entries = 0;
    const std::vector<Outcome> outcomes = run_all(records, options);
    ASSERT_EQ(outcomes.size(), records.size());
    for (std::size_t i = 0; i < records.size(); ++i) {
      GradeRequest request = records[i].request;
      request.run.threads = 1;
      std::string want;
      if (records[i].error) {
        ParsedAnswer failed;
        failed.error = EditError(*records[i].error);
        want = reward_json(make_reward(request, failed, Rollout{}));
      } else if (records[i].content == BatchRecord::Content::Trajectory) {
        try {
          want = reward_json(grade(request, assistant_answer(records[i].text)).reward);
        } catch (const EditError& error) {
          want = records[i].input + ": " + error.what();
          EXPECT_NE(outcomes[i].reward.find("\"error\": \"" + want), std::string::npos) << i << outcomes[i].reward;
          continue;
        }
      } else {
        want = reward_json(grade(request, records[i].text).reward);
      }
      EXPECT_EQ(outcomes[i].reward, want) << "record " << i << ", threads " << threads;
    }
    EXPECT_EQ(outcomes[0].sha, outcomes[4].sha);
    EXPECT_NE(outcomes[0].sha, outcomes[6].sha);
  }
}

TEST(BatchGrader, StopsWhenCancelledAndWhenTheSinkThrows) {
  const std::vector<BatchRecord> records = mixed_records();
  for (const int threads : {1, 2}) {  // one thread runs without oneTBB's pipeline
    BatchOptions options;
    options.run.threads = threads;
    BatchGrader grader(options);
    std::atomic<bool> cancel{false};
    std::size_t next = 0;
    std::size_t reported = 0;
    auto source = [&]() -> std::optional<BatchRecord> {
      if (next == records.size()) return std::nullopt;
      return records[next++];
    };
    const BatchSummary summary = grader.run(source, [&](BatchResult&&) {
      if (++reported == 5) cancel = true;
    }, &cancel);
    EXPECT_TRUE(summary.cancelled) << threads;
    EXPECT_EQ(reported, 5u) << threads;
    EXPECT_LT(next, records.size()) << threads;

    next = 0;
    EXPECT_THROW(grader.run(source, [](BatchResult&&) { throw std::runtime_error("disk full"); }), std::runtime_error);
    // The grader is usable again after a failed run.
    next = 0;
    std::vector<Outcome> again;
    grader.run(source, [&](BatchResult&& result) {
      again.push_back({result.sequence, result.record.id, reward_json(result.reward), result.weights_sha256,
                       result.cached, result.steps});
    });
    ASSERT_EQ(again.size(), records.size()) << threads;
    for (std::size_t i = 0; i < again.size(); ++i) EXPECT_EQ(again[i].sequence, i);
  }
}

// One thread finishes each record before it asks for the next: a caller that waits for its
// result before it hands over another record (a server's single client) is never stuck.
TEST(BatchGrader, OneThreadFinishesEachRecordBeforeTakingTheNext) {
  const std::vector<BatchRecord> records = mixed_records();
  BatchOptions options;
  options.run.threads = 1;
  BatchGrader grader(options);
  std::size_t next = 0;
  std::size_t finished = 0;
  grader.run(
      [&]() -> std::optional<BatchRecord> {
        EXPECT_EQ(finished, next) << "record " << next << " taken before record " << finished << " finished";
        if (next == records.size()) return std::nullopt;
        return records[next++];
      },
      [&](BatchResult&&) { ++finished; });
  EXPECT_EQ(finished, records.size());
}

bool tbb_allocator_loaded() {
  std::ifstream maps("/proc/self/maps");
  const std::string text((std::istreambuf_iterator<char>(maps)), std::istreambuf_iterator<char>());
  return text.find("libtbbmalloc") != std::string::npos;
}

// A one-thread batch never sets oneTBB up: its set-up (the scalable allocator's library, /proc
// reads, a search for the RML server) cost a short batch process 71 page faults. The probe
// is the allocator library oneTBB loads when it starts, checked in a fresh process (gtest runs
// a threadsafe death test's body in a new execution of this binary), then after a two-thread
// run, which must show it.
TEST(BatchGraderDeathTest, OneThreadDoesNotSetUpOneTbb) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        BatchOptions options;
        options.run.threads = 1;
        std::vector<BatchRecord> records = mixed_records();
        records.resize(6);
        const bool before = tbb_allocator_loaded();
        const std::size_t one = run_all(records, options).size();
        const bool after_one = tbb_allocator_loaded();
        options.run.threads = 2;
        const std::size_t two = run_all(records, options).size();
        const bool after_two = tbb_allocator_loaded();
        std::exit(!before && !after_one && after_two && one == 6 && two == 6 ? 0 : 1);
      },
      ::testing::ExitedWithCode(0), "");
}

}  // namespace
}  // namespace weightspace
