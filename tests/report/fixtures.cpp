// SPDX-License-Identifier: GPL-3.0-or-later
#include "report/fixtures.hpp"

#include <cmath>
#include <cstdint>
#include <string>

namespace weightspace::report_fixtures {
namespace {

using nlohmann::json;

constexpr const char* kGames[] = {"asterix", "breakout", "freeway", "seaquest", "space_invaders"};
constexpr const char* kSources[] = {"original", "synth"};

// A small deterministic generator (splitmix64): the fixtures must not depend on the
// standard library's distributions, which differ between implementations.
class Random {
 public:
  explicit Random(std::uint64_t seed) : state_(seed) {}
  double uniform() {
    std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return static_cast<double>((z ^ (z >> 31)) >> 11) * 0x1.0p-53;
  }

 private:
  std::uint64_t state_;
};

json run(std::int64_t id) {
  return {{"id", id},
          {"started_at", "2026-12-01T02:00:00Z"},
          {"finished_at", "2026-12-01T02:03:21Z"},
          {"duration_seconds", 201.5},
          {"status", "finished"},
          {"version", "0.4.0"},
          {"git_revision", "abc123def456"},
          {"machine",
           {{"cpu_model", "Intel(R) Xeon(R) Platinum 8370C CPU @ 2.80GHz"},
            {"cores", 2},
            {"simd", "AVX-512"},
            {"hostname", "ci-runner-7"}}},
          {"config_path", "sweeps/nightly.toml"}};
}

std::string group_key(std::size_t i) { return std::string(kGames[i % 5]) + "/" + kSources[(i / 5) % 2]; }

}  // namespace

json sweep(std::size_t records, std::size_t regressions) {
  Random random(records * 7919 + regressions);
  json data = {{"title", "nightly"},
               {"run", run(42)},
               {"baseline", {{"id", 41}, {"started_at", "2026-11-30T02:00:00Z"}, {"version", "0.4.0"}}}};
  json records_json = json::array();
  json edited = json::array();
  double group_sum[10] = {};
  std::int64_t group_records[10] = {}, group_failed[10] = {};
  json scores[10];
  for (json& group_scores : scores) group_scores = json::array();
  std::int64_t failed = 0, cached = 0, steps = 0;
  for (std::size_t i = 0; i < records; ++i) {
    const std::size_t group = i % 10;
    const bool fails = i % 29 == 7;
    // Every other failure has a place (line:column in the edits block); lines past 9 for sorting.
    const bool placed = fails && i % 2 == 1;
    const bool is_cached = i % 5 == 1;
    const bool changed = i % 17 == 3;
    const double score = 0.05 + 0.9 * random.uniform() * random.uniform();
    const std::int64_t record_steps = fails ? 0 : 150000 + static_cast<std::int64_t>(random.uniform() * 1e5);
    // Every third record is a file input, whose id is its path; the others manifest lines.
    const std::string name = "answer-" + std::to_string(100000 + i);
    const std::string input = "answers/" + name + ".md";
    records_json.push_back(
        {{"id", i % 3 == 0 ? input : name},
         {"input", input},
         {"game", kGames[group % 5]},
         {"source", kSources[group / 5]},
         {"episodes", 1000},
         {"normalized_score", fails ? json(nullptr) : json(score)},
         {"error_kind", fails ? json("parse_error") : json(nullptr)},
         {"error_line", placed ? json(1 + (i / 29) % 12) : json(nullptr)},
         {"error_column", placed ? json(1 + i % 7) : json(nullptr)},
         {"error", fails ? json("line 3: expected ']' after the slice, found end of block") : json(nullptr)},
         {"steps", fails ? json(nullptr) : json(record_steps)},
         {"seconds", fails ? json(nullptr) : json(record_steps / 1.2e7)},
         {"cached", is_cached},
         {"refused", false},
         {"changed", changed},
         {"baseline_score", !changed ? json(nullptr) : fails ? json(0.5) : json(score + (i % 2 ? 0.0123 : -0.0311))}});
    // Half the changed records had their answer edited: listed apart from the regressions.
    if (changed && i % 34 == 3) {
      const json& record = records_json.back();
      edited.push_back({{"id", record["id"]},
                        {"game", record["game"]},
                        {"source", record["source"]},
                        {"episodes", 1000},
                        {"baseline_score", record["baseline_score"]},
                        {"score", record["normalized_score"]},
                        {"detail", "the answer's weights differ"}});
    }
    ++group_records[group];
    if (fails) {
      ++failed;
      ++group_failed[group];
    } else {
      group_sum[group] += score;
      scores[group].push_back(score);
      steps += record_steps;
    }
    cached += is_cached;
  }
  json groups = json::array(), distributions = json::array();
  json latest_means = json::object();
  for (std::size_t g = 0; g < 10 && g < records; ++g) {
    const auto scored = static_cast<double>(group_records[g] - group_failed[g]);
    const json mean = scored > 0 ? json(group_sum[g] / scored) : json(nullptr);
    groups.push_back({{"game", kGames[g % 5]},
                      {"source", kSources[g / 5]},
                      {"episodes", 1000},
                      {"records", group_records[g]},
                      {"failed", group_failed[g]},
                      {"mean_score", mean},
                      {"baseline_mean_score",
                       g == 0 && regressions > 0 && mean.is_number() ? json(mean.get<double>() + 0.02) : mean},
                      {"steps_per_second", 1.1e7 + 1e5 * static_cast<double>(g)}});
    distributions.push_back({{"game", kGames[g % 5]}, {"source", kSources[g / 5]}, {"scores", scores[g]}});
    latest_means[group_key(g)] = mean;
  }
  json trend = json::array();
  for (std::int64_t id = 35; id <= 42; ++id) {
    json means = json::object();
    for (std::size_t g = 0; g < groups.size(); ++g) {
      // Earlier runs drift a little; run 38 did not grade the synth games.
      if (id == 38 && g >= 5) continue;
      means[group_key(g)] =
          id == 42 || latest_means[group_key(g)].is_null()
              ? latest_means[group_key(g)]
              : json(latest_means[group_key(g)].get<double>() + 0.01 * std::sin(static_cast<double>(id + g)));
    }
    trend.push_back({{"run_id", id},
                     {"started_at", "2026-11-" + std::to_string(id - 12) + "T02:00:00Z"},
                     {"mean_scores", means},
                     {"steps_per_second", id == 39 ? json(nullptr) : json(2.3e7 + 4e5 * static_cast<double>(id % 4))},
                     {"threads", 2}});
  }
  json planted = json::array();
  for (std::size_t r = 0; r < regressions && r < records; ++r) {
    const json& record = records_json[(r * 10) % records];  // every record's once past records / 10
    planted.push_back({{"kind", r % 2 == 0 ? "reward_changed" : "newly_failed"},
                       {"id", record["id"]},
                       {"game", record["game"]},
                       {"source", record["source"]},
                       {"episodes", 1000},
                       {"detail", r % 2 == 0 ? "normalized_score 0.5125 -> 0.4931" : "graded in run #41, fails now"}});
  }
  data["totals"] = {
      {"records", records},
      {"failed", failed},
      {"cached", cached},
      {"steps", steps},
      {"seconds", static_cast<double>(steps) / 2.3e7},
      {"records_per_second",
       records > 0 ? json(static_cast<double>(records) / (static_cast<double>(steps + 1) / 2.3e7)) : json(nullptr)}};
  data["regressions"] = planted;
  data["answers_edited"] = edited;
  data["groups"] = groups;
  data["distributions"] = distributions;
  data["trend"] = trend;
  data["speed"] = json::array({{{"threads", 1},
                                {"steps_per_second", 1.21e7},
                                {"interval", {1.19e7, 1.23e7}},
                                {"repetitions", 9},
                                {"verdict", "not a regression: +0.4% (within the tolerance, p = 0.73)"},
                                {"steps_per_cpu_second", 1.22e7},
                                {"cpu_interval", {1.21e7, 1.23e7}},
                                {"cpu_verdict", "not a regression: +0.1% (within the tolerance, p = 0.9)"}},
                               {{"threads", 2},
                                {"steps_per_second", 2.33e7},
                                {"interval", {2.2e7, 2.4e7}},
                                {"repetitions", 9},
                                {"verdict", nullptr},
                                {"steps_per_cpu_second", nullptr},
                                {"cpu_interval", nullptr},
                                {"cpu_verdict", nullptr}}});
  data["speed_judgement"] = {{"note", "speed compared on one machine: Test CPU, 2 cores, avx2; workload 4 records, "
                                      "0123456789ab"},
                             {"instructions", 1234567890},
                             {"instructions_verdict", nullptr}};
  data["records"] = records_json;
  return data;
}

json first_run(std::size_t records) {
  json data = sweep(records, 0);
  data["title"] = "first run on ci-runner-9";
  data["baseline"] = nullptr;
  for (json& group : data["groups"]) group["baseline_mean_score"] = nullptr;
  // Nothing to have changed against.
  data["answers_edited"] = json::array();
  for (json& record : data["records"]) {
    record["changed"] = false;
    record["baseline_score"] = nullptr;
  }
  data["trend"] = json::array({data["trend"].back()});
  data["speed"] = json::array();
  return data;
}

json empty() {
  json data = sweep(0, 0);
  data["title"] = "an empty sweep";
  data["trend"] = json::array();
  data["speed"] = json::array();
  return data;
}

const char* const kHostileStrings[] = {
    "</script><script>window.__injected = 1</script>",        "<img src=\"x\" onerror=\"window.__injected = 2\">",
    "</SCRIPT ><!--<script>window.__injected = 3</script>",   "\"quoted\" 'single' & &amp; &lt;b&gt; <b>bold?</b>",
    "line\u2028separator\u2029paragraph — ünïcödé ✓ 🎉 עברית", "<svg onload=\"window.__injected = 4\"></svg>]]>-->",
};
const std::size_t kHostileStringCount = std::size(kHostileStrings);

json hostile() {
  json data = sweep(12, 2);
  data["title"] = kHostileStrings[3];
  data["run"]["git_revision"] = kHostileStrings[0];
  data["run"]["machine"]["hostname"] = kHostileStrings[1];
  data["run"]["config_path"] = kHostileStrings[4];
  for (std::size_t i = 0; i < data["records"].size(); ++i) {
    json& record = data["records"][i];
    record["id"] = std::string(kHostileStrings[i % kHostileStringCount]) + " #" + std::to_string(i);
    record["input"] = kHostileStrings[(i + 1) % kHostileStringCount];
    record["error_kind"] = kHostileStrings[(i + 2) % kHostileStringCount];
    record["error"] = std::string(kHostileStrings[(i + 3) % kHostileStringCount]) + "\nsecond line\ttab\x01 control";
  }
  // Game and source names reach the embedded chart data and the chart labels.
  data["distributions"][0]["game"] = kHostileStrings[0];
  data["distributions"][1]["source"] = kHostileStrings[2];
  data["groups"][0]["game"] = kHostileStrings[1];
  data["trend"][0]["mean_scores"][kHostileStrings[2]] = 0.25;
  data["regressions"][0]["detail"] = kHostileStrings[5];
  data["regressions"][1]["kind"] = kHostileStrings[4];
  return data;
}

}  // namespace weightspace::report_fixtures
