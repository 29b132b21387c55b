// SPDX-License-Identifier: GPL-3.0-or-later
// apps/serve/ without a network: request bodies and labels, the response shapes, the token
// comparison, the metrics text, and the shared engine's queue bound, order and cancellation.
#include <gtest/gtest.h>

#include <chrono>
#include <string>

#include "apps/serve/grading_service.hpp"
#include "apps/serve/metrics.hpp"
#include "apps/serve/serve_request.hpp"
#include "engine/grade.hpp"

namespace weightspace::serve {
namespace {

using nlohmann::json;
using namespace std::chrono_literals;

int status_of(const std::function<void()>& call) {
  try {
    call();
  } catch (const RequestError& error) {
    return error.status();
  }
  return 0;
}

BatchRecord answer_record(const std::string& game, std::int64_t episodes, int weight) {
  BatchRecord record;
  record.text = "```edits\nW3[0, 1] = " + std::to_string(weight) + ".5\n```";
  record.request.game = game;
  record.request.episodes = episodes;
  return record;
}

TEST(ServeRequest, RecordsTakeTheServersDefaultsAndKeepTheirBounds) {
  RecordDefaults defaults;
  defaults.game = "breakout";
  defaults.episodes = 7;
  defaults.max_episodes = 50;
  const BatchRecord record = grade_record(json::parse(R"({"answer": "x"})"), defaults);
  EXPECT_EQ(record.request.game, "breakout");
  EXPECT_EQ(record.request.source, "original");
  EXPECT_EQ(record.request.episodes, 7);
  EXPECT_EQ(record.content, BatchRecord::Content::Answer);
  const BatchRecord trajectory =
      grade_record(json::parse(R"({"trajectory": {"steps": []}, "episodes": 50, "source": "synth"})"), defaults);
  EXPECT_EQ(trajectory.content, BatchRecord::Content::Trajectory);
  EXPECT_EQ(trajectory.text, R"({"steps":[]})");
  EXPECT_EQ(trajectory.request.source, "synth");
  EXPECT_EQ(status_of([&] { grade_record(json::parse(R"({"answer": "x", "episodes": 51})"), defaults); }), 400);
  EXPECT_EQ(status_of([&] { grade_record(json::parse(R"({"answer": "x", "episodes": 18446744073709551615})"),
                                         defaults); }), 400);
  EXPECT_EQ(status_of([&] { grade_record(json::parse(R"({"answer": "x", "trajectory": "y"})"), defaults); }), 400);
  defaults.game.clear();
  EXPECT_EQ(status_of([&] { grade_record(json::parse(R"({"answer": "x"})"), defaults); }), 400);
  defaults.max_records = 2;
  EXPECT_EQ(status_of([&] { grade_many_records(json::parse(R"([{"answer":"a","game":"breakout"},
                              {"answer":"b","game":"breakout"},{"answer":"c","game":"breakout"}])"), defaults); }),
            413);
  EXPECT_EQ(status_of([&] { parse_body("{\"answer\": "); }), 400);
}

TEST(ServeRequest, LabelsNameGameSourceAndEpisodes) {
  RecordDefaults defaults;
  defaults.game = "freeway";
  defaults.episodes = 1000;
  GradeRequest request = label_request("synth/breakout@200", defaults);
  EXPECT_EQ(request.game, "breakout");
  EXPECT_EQ(request.source, "synth");
  EXPECT_EQ(request.episodes, 200);
  request = label_request("seaquest", defaults);
  EXPECT_EQ(request.source, "original");
  EXPECT_EQ(request.episodes, 1000);
  EXPECT_EQ(label_request("@5", defaults).game, "freeway");
  for (const char* bad : {"breakout@", "breakout@x", "breakout@-1", "breakout@100001", "other/breakout"}) {
    EXPECT_EQ(status_of([&] { label_request(bad, defaults); }), 400) << bad;
  }
}

TEST(ServeRequest, OpenRlhfQueriesLoseTheirPrompt) {
  RecordDefaults defaults;
  defaults.game = "breakout";
  const auto records = reward_records(
      json::parse(R"({"query": ["P: say\nA: ok", "other"], "prompts": ["P: say\n", "nope"], "labels": [null, "asterix"]})"),
      defaults);
  ASSERT_EQ(records.size(), 2u);
  EXPECT_EQ(records[0].text, "A: ok");
  EXPECT_EQ(records[0].request.game, "breakout");
  EXPECT_EQ(records[1].text, "other");  // not prefixed by its prompt: graded whole
  EXPECT_EQ(records[1].request.game, "asterix");
  EXPECT_EQ(status_of([&] { reward_records(json::parse(R"({"query": ["a"], "labels": []})"), defaults); }), 400);
}

TEST(ServeRequest, ResultsCarryTheRewardTextUnchanged) {
  BatchResult result;
  result.record.request.game = "breakout";
  result.reward = grade(GradeRequest{"breakout", "original", 3, {}}, "```edits\nW3[0, 1] = 2.5\n```").reward;
  result.weights_sha256 = "ab";
  result.cached = true;
  result.seconds = 0.5;
  result.steps = 12;
  EXPECT_EQ(result_json(result),
            "{\"reward\": " + reward_json(result.reward) +
                ", \"weights_sha256\": \"ab\", \"error_kind\": null, \"error_line\": null, \"error_column\": null"
                ", \"cached\": true, \"seconds\": 0.5, \"steps\": 12}");
  result.reward.normalized_score = 1e-05;
  EXPECT_EQ(rewards_json({result, result}), "{\"rewards\": [1e-05, 1e-05]}");
  EXPECT_EQ(error_json("a \"b\"\n"), "{\"error\": \"a \\\"b\\\"\\n\"}");
}

TEST(ServeRequest, AFailedResultCarriesTheErrorsClassAndPlaceBesideTheReward) {
  BatchResult result;
  result.reward = grade(GradeRequest{"breakout", "original", 3, {}}, "```edits\nW3[0, 1] = 2.5\nW9[0] = 1\n```").reward;
  ASSERT_FALSE(result.reward.parse_success);
  ASSERT_TRUE(result.reward.error && result.reward.error->has_place());
  const json parsed = json::parse(result_json(result));
  EXPECT_EQ(parsed["error_kind"], result.reward.error->kind);
  EXPECT_EQ(parsed["error_line"], result.reward.error->line);
  EXPECT_EQ(parsed["error_column"], result.reward.error->column);
  EXPECT_FALSE(parsed.contains("refused"));
  // The reward text itself holds the grader's message only.
  EXPECT_EQ(parsed["reward"].dump(), json::parse(reward_json(result.reward)).dump());
  result.refused = true;
  EXPECT_EQ(json::parse(result_json(result))["refused"], true);
}

TEST(ServeRequest, TokensMatchOnlyWhole) {
  EXPECT_TRUE(same_token("Bearer abc", "Bearer abc"));
  EXPECT_FALSE(same_token("Bearer ab", "Bearer abc"));
  EXPECT_FALSE(same_token("Bearer abcd", "Bearer abc"));
  EXPECT_FALSE(same_token("Bearer abd", "Bearer abc"));
  EXPECT_FALSE(same_token("", "Bearer abc"));
}

TEST(ServeMetrics, TextIsCumulativeAndCounted) {
  Metrics metrics;
  metrics.record("/v1/grade", 200, 0.002);
  metrics.record("/v1/grade", 200, 0.3);
  metrics.record("/v1/grade", 503, 0.0001);
  ServiceCounts counts;
  counts.grades = 2;
  counts.queued = 3;
  const std::string text = metrics.text(counts);
  EXPECT_NE(text.find("weightspace_requests_total{endpoint=\"/v1/grade\",status=\"200\"} 2\n"), std::string::npos);
  EXPECT_NE(text.find("weightspace_requests_total{endpoint=\"/v1/grade\",status=\"503\"} 1\n"), std::string::npos);
  EXPECT_NE(text.find("weightspace_request_seconds_bucket{endpoint=\"/v1/grade\",le=\"0.001\"} 1\n"), std::string::npos);
  EXPECT_NE(text.find("weightspace_request_seconds_bucket{endpoint=\"/v1/grade\",le=\"0.0025\"} 2\n"),
            std::string::npos);
  EXPECT_NE(text.find("weightspace_request_seconds_bucket{endpoint=\"/v1/grade\",le=\"+Inf\"} 3\n"), std::string::npos);
  EXPECT_NE(text.find("weightspace_request_seconds_count{endpoint=\"/v1/grade\"} 3\n"), std::string::npos);
  EXPECT_NE(text.find("# TYPE weightspace_grades_total counter\nweightspace_grades_total 2.0\n"), std::string::npos);
  EXPECT_NE(text.find("weightspace_queue_depth 3.0\n"), std::string::npos);
}

TEST(GradingService, ResultsAreTheBatchEnginesInOrderAndTheQueueIsBounded) {
  GradingService service(ServiceOptions{.threads = 2, .queue = 3, .cache_entries = 16});
  std::vector<BatchRecord> records = {answer_record("breakout", 20, 1), answer_record("freeway", 5, 2),
                                      answer_record("breakout", 20, 1)};
  std::shared_ptr<Ticket> ticket = service.submit(records);
  ASSERT_NE(ticket, nullptr);
  const auto until = std::chrono::steady_clock::now() + 600s;
  for (std::size_t index = 0; index < records.size(); ++index) {
    const std::optional<BatchResult> result = ticket->next(until);
    ASSERT_TRUE(result.has_value());
    const Grade expected = grade(records[index].request, records[index].text);
    EXPECT_EQ(reward_json(result->reward), reward_json(expected.reward));
    EXPECT_EQ(result->cached, index == 2);  // the first record's weights, game and episodes
  }
  EXPECT_EQ(service.counts().grades, 3u);
  EXPECT_EQ(service.counts().cached, 1u);
  // Four records never fit a queue of three.
  EXPECT_EQ(service.submit({records[0], records[1], records[2], records[0]}), nullptr);
}

TEST(GradingService, ACancelledTicketsWaitingRecordsAreDropped) {
  GradingService service(ServiceOptions{.threads = 1, .queue = 64, .cache_entries = 0});
  std::vector<BatchRecord> records;
  for (int index = 0; index < 40; ++index) records.push_back(answer_record("breakout", 200, index));
  std::shared_ptr<Ticket> ticket = service.submit(records);
  ASSERT_NE(ticket, nullptr);
  ASSERT_TRUE(ticket->next(std::chrono::steady_clock::now() + 600s).has_value());
  ticket->cancel();
  EXPECT_FALSE(ticket->next(std::chrono::steady_clock::now() + 600s).has_value());
  // A later request is still served, after the dropped ones.
  std::shared_ptr<Ticket> later = service.submit({answer_record("freeway", 3, 1)});
  ASSERT_NE(later, nullptr);
  ASSERT_TRUE(later->next(std::chrono::steady_clock::now() + 600s).has_value());
  const ServiceCounts counts = service.counts();
  EXPECT_GT(counts.dropped, 0u);
  EXPECT_LT(counts.grades, 41u);
  EXPECT_EQ(counts.grades + counts.dropped, 41u);
}

}  // namespace
}  // namespace weightspace::serve
