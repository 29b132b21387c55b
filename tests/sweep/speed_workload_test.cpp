// SPDX-License-Identifier: GPL-3.0-or-later
// The speed workload is chosen by content: answers by weights SHA-256, not by position, so
// reordering or editing answers outside it leaves it as it was; a baseline's workload is kept
// while the run still grades all of it; failed parses are never timed.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "apps/sweep/speed_workload.hpp"

namespace weightspace::app {
namespace {

StoredRecord record(std::int64_t seq, const std::string& sha, const std::string& game = "breakout") {
  StoredRecord stored;
  stored.seq = seq;
  stored.weights_sha256 = sha;
  stored.game = game;
  stored.source = "original";
  stored.episodes = 10;
  return stored;
}

std::vector<std::string> hashes(const std::vector<WorkloadItem>& workload) {
  std::vector<std::string> out;
  for (const WorkloadItem& item : workload) out.push_back(item.weights_sha256 + "/" + item.game);
  return out;
}

TEST(SpeedWorkload, ChosenBySha256NotByPosition) {
  const std::vector<StoredRecord> records = {record(0, "d"), record(1, "b"), record(2, "a", "freeway"), record(3, "c"),
                                             record(4, "b")};
  const std::vector<WorkloadItem> workload = choose_workload(records, 3, std::nullopt);
  EXPECT_EQ(hashes(workload), (std::vector<std::string>{"a/freeway", "b/breakout", "c/breakout"}));
  EXPECT_EQ(workload_records(records, workload), (std::vector<std::int64_t>{2, 1, 3}));  // the first of equal ones
  // The same answers in another order: the same workload.
  const std::vector<StoredRecord> reordered = {record(0, "c"), record(1, "a", "freeway"), record(2, "d"),
                                               record(3, "b")};
  EXPECT_EQ(choose_workload(reordered, 3, std::nullopt), workload);
  // An answer outside the workload edited ("d" became "e"): the same workload.
  const std::vector<StoredRecord> edited = {record(0, "e"), record(1, "b"), record(2, "a", "freeway"), record(3, "c")};
  EXPECT_EQ(choose_workload(edited, 3, std::nullopt), workload);
}

TEST(SpeedWorkload, FailedParsesAreNotTimed) {
  std::vector<StoredRecord> records = {record(0, "a"), record(1, "b")};
  records[0].error_kind = "ValueError";
  records.push_back(record(2, "c"));
  records[2].weights_sha256.reset();
  EXPECT_EQ(hashes(choose_workload(records, 5, std::nullopt)), (std::vector<std::string>{"b/breakout"}));
}

TEST(SpeedWorkload, TheBaselinesWorkloadIsKeptWhileTheRunGradesAllOfIt) {
  const std::vector<StoredRecord> records = {record(0, "a"), record(1, "b"), record(2, "c"), record(3, "z")};
  const std::vector<WorkloadItem> baseline = {{"z", "breakout", "original", 10}, {"c", "breakout", "original", 10}};
  EXPECT_EQ(choose_workload(records, 2, baseline), baseline);
  // Its answer "z" edited away: chosen afresh.
  const std::vector<StoredRecord> edited = {record(0, "a"), record(1, "b"), record(2, "c"), record(3, "y")};
  EXPECT_EQ(hashes(choose_workload(edited, 2, baseline)), (std::vector<std::string>{"a/breakout", "b/breakout"}));
}

TEST(SpeedWorkload, StoredTextRoundTrips) {
  const std::vector<WorkloadItem> workload = {{"ab", "seaquest", "synth", 1000}, {"cd", "breakout", "original", 2}};
  const std::string text = workload_text(workload);
  EXPECT_EQ(parse_workload(text), workload);
  EXPECT_EQ(parse_workload("{\"not\": \"a workload\"}"), std::nullopt);
  EXPECT_EQ(parse_workload("[{\"weights_sha256\": 1}]"), std::nullopt);
  EXPECT_EQ(workload_label(text).substr(0, 11), "2 records, ");
}

}  // namespace
}  // namespace weightspace::app
