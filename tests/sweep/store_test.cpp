// SPDX-License-Identifier: GPL-3.0-or-later
// The results store's own guarantees: a transaction that fails (here: the database is full)
// leaves nothing of itself, the store stays consistent and takes more records once there is room;
// values go in and come out exactly (NaN as NULL, text with quotes and NULs, a failure's place);
// a result stored and read back is the batch line it was.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <limits>
#include <string>
#include <vector>

#include "apps/batch/batch_output.hpp"
#include "apps/sweep/run_data.hpp"
#include "apps/sweep/store.hpp"

namespace weightspace::app {
namespace {

class StoreTest : public ::testing::Test {
 protected:
  void SetUp() override {
    folder_ = std::filesystem::temp_directory_path() /
              ("weightspace_store_test_" + std::to_string(::getpid()) + "_" +
               ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(folder_);
    std::filesystem::create_directories(folder_);
    path_ = (folder_ / "store.sqlite").string();
  }
  void TearDown() override { std::filesystem::remove_all(folder_); }

  static std::int64_t new_run(Store& store) {
    RunInfo run;
    run.name = "test";
    run.config_path = "/config.toml";
    run.config_text = "name = \"test\"\n";
    run.started_at = utc_now();
    run.version = "0";
    run.git_revision = "r";
    run.machine = this_machine();
    return store.begin_run(run);
  }

  static std::vector<StoredRecord> batch(std::int64_t first, std::int64_t count) {
    std::vector<StoredRecord> records;
    for (std::int64_t seq = first; seq < first + count; ++seq) {
      StoredRecord record;
      record.seq = seq;
      record.answer_set = "set";
      record.id_json = "\"a" + std::to_string(seq) + "\"";
      record.input = "answers/a" + std::to_string(seq) + ".md";
      record.game = "breakout";
      record.source = "original";
      record.episodes = 2;
      record.reward = std::string(400, 'x');  // the size of a real reward text
      record.normalized_score = 0.25;
      record.steps = seq;
      records.push_back(record);
    }
    return records;
  }

  std::filesystem::path folder_;
  std::string path_;
};

TEST_F(StoreTest, AFullDatabaseKeepsWholeTransactionsAndResumes) {
  std::int64_t run = 0;
  std::int64_t committed = 0;
  std::string failure;
  {
    Store store(path_, sqlite::Database::Mode::Create);
    run = new_run(store);
    // A page budget a little above what the store holds: the disk is "full" a few batches on.
    const std::int64_t pages = store.database().integer("PRAGMA page_count");
    store.database().integer(("PRAGMA max_page_count = " + std::to_string(pages + 40)).c_str());
    try {
      for (;; committed += 64) store.add_records(run, batch(committed, 64), 0.5, 64);
    } catch (const CommandError& error) {
      failure = error.what();
    }
    EXPECT_GT(committed, 0);
    EXPECT_EQ(store.record_count(run), committed) << "the failed transaction left records behind";
  }
  EXPECT_NE(failure.find("database " + path_ + ": the disk or the database is full"), std::string::npos) << failure;
  // A new connection has no page budget: the store is consistent and the run goes on.
  Store store(path_, sqlite::Database::Mode::Existing);
  sqlite::Statement check = store.database().prepare("PRAGMA integrity_check");
  ASSERT_TRUE(check.step());
  EXPECT_EQ(check.text(0), "ok");
  store.add_records(run, batch(committed, 64), 0.5, 64);
  const std::vector<StoredRecord> records = store.records(run);
  ASSERT_EQ(static_cast<std::int64_t>(records.size()), committed + 64);
  for (std::size_t i = 0; i < records.size(); ++i) EXPECT_EQ(records[i].seq, static_cast<std::int64_t>(i));
  EXPECT_DOUBLE_EQ(store.run(run)->grade_seconds, 0.5 * static_cast<double>(committed / 64 + 1));
}

TEST_F(StoreTest, ANegativeSchemaVersionIsRefused) {
  // fuzz/fuzz_store's mutated stores: user_version -939524092 was "migrated" from schema 1.
  { Store store(path_, sqlite::Database::Mode::Create); }
  {
    sqlite::Database database(path_, sqlite::Database::Mode::Existing);
    database.exec("PRAGMA user_version = -939524092");
  }
  try {
    Store store(path_, sqlite::Database::Mode::Existing);
    ADD_FAILURE() << "opened";
  } catch (const UsageError& error) {
    EXPECT_EQ(std::string(error.what()), "database " + path_ +
                                             " has schema version -939524092, which no weightspace writes: it is not "
                                             "a results store");
  }
  sqlite::Database database(path_, sqlite::Database::Mode::Existing);
  EXPECT_EQ(database.integer("PRAGMA user_version"), -939524092);  // refused, untouched
}

TEST_F(StoreTest, AnUncommittedTransactionLeavesNothing) {
  Store store(path_, sqlite::Database::Mode::Create);
  const std::int64_t run = new_run(store);
  {
    sqlite::Transaction transaction(store.database());
    store.database().prepare("UPDATE runs SET status = 'finished' WHERE id = ?").bind(1, run).run();
  }
  EXPECT_EQ(store.run(run)->status, "running");
}

TEST_F(StoreTest, ValuesComeBackExactly) {
  Store store(path_, sqlite::Database::Mode::Create);
  const std::int64_t run = new_run(store);
  std::vector<StoredRecord> records = batch(0, 2);
  records[0].normalized_score = std::numeric_limits<double>::quiet_NaN();
  const char text[] = "{\"error\": \"a \\\"quoted\\\" \0 byte\"}";
  records[0].reward = std::string(text, sizeof text - 1);
  records[1].weights_sha256 = std::string(64, 'f');
  records[1].error_kind = "SyntaxError";
  records[1].seconds = 0.125;
  store.add_records(run, records, 1.0, 10);
  const std::vector<StoredRecord> back = store.records(run);
  ASSERT_EQ(back.size(), 2u);
  EXPECT_TRUE(std::isnan(back[0].normalized_score));
  EXPECT_EQ(back[0].reward, records[0].reward);
  EXPECT_FALSE(back[0].weights_sha256);
  EXPECT_EQ(back[1].weights_sha256, records[1].weights_sha256);
  EXPECT_EQ(back[1].error_kind, "SyntaxError");
  EXPECT_EQ(back[1].seconds, 0.125);
  EXPECT_EQ(store.run(run)->failed, 1);
  EXPECT_EQ(store.run(run)->grade_steps, 10);
}

// A failed result's place (line, column in the edits block) and a refusal for a limit of the
// machine go into the store and come back into the batch line compare, merge and --resume
// rebuild from it; no place stays null.
TEST_F(StoreTest, AFailuresPlaceRoundTripsAsTheBatchLine) {
  std::vector<BatchResult> results(4);
  for (std::size_t i = 0; i < results.size(); ++i) {
    BatchResult& result = results[i];
    result.record.id = "\"a" + std::to_string(i) + "\"";
    result.record.input = "answers/a" + std::to_string(i) + ".md";
    result.record.request.game = "breakout";
    result.record.request.source = "original";
    result.record.request.episodes = 2;
    result.reward.game = "breakout";
    result.reward.source = "original";
    result.reward.episodes = BigInt(2);
  }
  results[0].reward.error = PythonError{"ValueError", "unknown tensor 'x'", 12, 5};
  results[1].reward.error = PythonError{"ValueError", "answer has no edits block", 0, 0};
  results[2].reward.parse_success = true;
  results[2].weights_sha256 = std::string(64, 'a');
  results[3].reward.error = PythonError{"MemoryError", "4294959377 episodes need more memory than this machine has", 0, 0};
  results[3].refused = true;
  std::vector<StoredRecord> stored;
  for (const BatchResult& result : results) {
    stored.push_back(to_stored(result, static_cast<std::int64_t>(stored.size()), "set", std::nullopt));
  }
  EXPECT_EQ(stored[0].error_line, 12);
  EXPECT_EQ(stored[0].error_column, 5);
  EXPECT_FALSE(stored[1].error_line || stored[1].error_column);

  Store store(path_, sqlite::Database::Mode::Create);
  const std::int64_t run = new_run(store);
  store.add_records(run, stored, 1.0, 0);
  const std::vector<StoredRecord> back = store.records(run);
  ASSERT_EQ(back.size(), results.size());
  EXPECT_EQ(back[0].error_line, 12);
  EXPECT_EQ(back[0].error_column, 5);
  for (std::size_t i = 1; i < back.size(); ++i) EXPECT_FALSE(back[i].error_line || back[i].error_column) << i;
  for (std::size_t i = 0; i < back.size(); ++i) {
    EXPECT_EQ(back[i].refused, i == 3) << i;
    EXPECT_EQ(to_batch_result(back[i]).refused, i == 3) << i;
    EXPECT_EQ(batch_line(to_batch_result(back[i]), false), batch_line(results[i], false)) << i;
  }
  EXPECT_NE(batch_line(results[0], false).find("\"error_line\": 12, \"error_column\": 5"), std::string::npos);
}

TEST_F(StoreTest, ANewRunIsTheUnfinishedOneUntilItFinishes) {
  Store store(path_, sqlite::Database::Mode::Create);
  const std::int64_t first = new_run(store);
  EXPECT_EQ(store.unfinished("test"), first);
  EXPECT_FALSE(store.latest_finished("test"));
  store.set_status(first, "finished", std::nullopt);
  EXPECT_FALSE(store.unfinished("test"));
  EXPECT_EQ(store.latest_finished(std::nullopt), first);
  EXPECT_TRUE(store.run(first)->finished_at);
  const std::int64_t second = new_run(store);
  store.mark_killed_runs();
  EXPECT_EQ(store.run(second)->status, "failed");
  EXPECT_EQ(store.previous_finished("test", second), first);
}

}  // namespace
}  // namespace weightspace::app
