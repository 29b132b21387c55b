// SPDX-License-Identifier: GPL-3.0-or-later
// The renderer's parts: escaping, number formats, the schema check, the histogram.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <stdexcept>
#include <string>
#include <vector>

#include "apps/report/html.hpp"
#include "apps/report/report_charts.hpp"
#include "apps/report/report_schema.hpp"
#include "report/fixtures.hpp"

namespace weightspace::report {
namespace {

using nlohmann::json;

TEST(ReportEscaping, EscapesMarkupQuotesAndControls) {
  EXPECT_EQ(escaped("<script>alert(\"x\" & 'y')</script>"),
            "&lt;script&gt;alert(&quot;x&quot; &amp; &#39;y&#39;)&lt;/script&gt;");
  EXPECT_EQ(escaped(std::string("a\0b\x01\x7f", 5)), "a&#xFFFD;b&#xFFFD;&#xFFFD;");
  EXPECT_EQ(escaped("tab\tnew\nline\r"), "tab\tnew\nline\r");
  EXPECT_EQ(escaped("ünïcödé ✓ 🎉"), "ünïcödé ✓ 🎉");
}

TEST(ReportEscaping, ScriptJsonCannotCloseItsElement) {
  const json value = {{"a", "</script><!--<script>&amp;"}, {"b", "x\u2028y\u2029z"}, {"</SCRIPT>", 1}};
  const std::string text = script_json(value);
  for (const char* forbidden : {"<", ">", "&", "\u2028", "\u2029"}) {
    EXPECT_EQ(text.find(forbidden), std::string::npos) << forbidden << " in " << text;
  }
  EXPECT_EQ(json::parse(text), value);
}

TEST(ReportEscaping, ScriptJsonReplacesInvalidUtf8) {
  const std::string text = script_json(json{{"bad", std::string("a\xff\xfe")}});
  EXPECT_EQ(json::parse(text)["bad"], "a\ufffd\ufffd");
}

TEST(ReportFormats, Numbers) {
  EXPECT_EQ(grouped_integer(0), "0");
  EXPECT_EQ(grouped_integer(999), "999");
  EXPECT_EQ(grouped_integer(1000), "1,000");
  EXPECT_EQ(grouped_integer(1234567), "1,234,567");
  EXPECT_EQ(grouped_integer(-1234567), "-1,234,567");
  EXPECT_EQ(grouped_integer(std::numeric_limits<std::int64_t>::min()), "-9,223,372,036,854,775,808");
  EXPECT_EQ(si_number(1.23e7), "12.3 M");
  EXPECT_EQ(si_number(2.5e7), "25.0 M");
  EXPECT_EQ(si_number(123456789), "123 M");
  EXPECT_EQ(si_number(999.4), "999");
  EXPECT_EQ(si_number(1500), "1.50 k");
  EXPECT_EQ(si_number(9.8), "9.80");
  EXPECT_EQ(si_number(0), "0");
  EXPECT_EQ(si_number(42), "42");
  EXPECT_EQ(si_number(0.5), "0.50");
  EXPECT_EQ(duration(0.84), "0.84 s");
  EXPECT_EQ(duration(12.5), "12.5 s");
  EXPECT_EQ(duration(200), "3 min 20 s");
  EXPECT_EQ(duration(7500), "2 h 05 min");
  EXPECT_EQ(exact_number(json(0.1)), "0.1");
  EXPECT_EQ(exact_number(json(1000)), "1000");
  EXPECT_EQ(significant(0.123456, 4), "0.1235");
  EXPECT_EQ(fixed(-0.25, 3, true), "-0.250");
}

// Paths and game names wrap between their parts (issue 32: "space_invader|s" was cut).
TEST(ReportFormats, BreakableTextWrapsAtSeparatorsOnly) {
  std::string out;
  append_breakable(out, "runs/night_7/a-b.md");
  EXPECT_EQ(out, "runs/<wbr>night_<wbr>7/<wbr>a-b.md");
  out.clear();
  append_breakable(out, "<x>\\space_invaders/");
  EXPECT_EQ(out, "&lt;x&gt;\\<wbr>space_<wbr>invaders/");  // escaped, and no <wbr> at the end
  out.clear();
  append_breakable(out, "");
  EXPECT_EQ(out, "");
}

// A table's number: significant digits or thousands, the exact value in the title (issue 32:
// the trend table printed 0.042300000000000004).
TEST(ReportFormats, RoundedCellsKeepTheExactValueInTheTitle) {
  std::string out;
  append_rounded_cell(out, json(0.042300000000000004), 4);
  EXPECT_EQ(out, "<td class=\"num\" title=\"0.042300000000000004\">0.0423</td>");
  out.clear();
  append_rounded_cell(out, json(0.5), 4);
  EXPECT_EQ(out, "<td class=\"num\">0.5</td>");
  out.clear();
  append_rounded_cell(out, json(1234567), 4);
  EXPECT_EQ(out, "<td class=\"num\" title=\"1234567\">1,234,567</td>");
  out.clear();
  append_rounded_cell(out, json(nullptr), 4);
  EXPECT_EQ(out, "<td class=\"num\"></td>");
}

TEST(ReportHistogram, BinsCoverTheRangeAndCountEveryScore) {
  std::vector<double> scores;
  for (int i = 0; i < 1000; ++i) scores.push_back(std::sin(i) * 0.5 + 0.25);
  const std::vector<HistogramBin> bins = histogram(scores);
  ASSERT_EQ(bins.size(), 24u);  // sqrt(1000) = 32, capped
  EXPECT_EQ(bins.front().from, *std::min_element(scores.begin(), scores.end()));
  EXPECT_EQ(bins.back().to, *std::max_element(scores.begin(), scores.end()));
  std::size_t total = 0;
  for (std::size_t i = 0; i < bins.size(); ++i) {
    total += bins[i].count;
    if (i > 0) {
      EXPECT_EQ(bins[i].from, bins[i - 1].to);
    }
  }
  EXPECT_EQ(total, scores.size());
}

TEST(ReportHistogram, SmallEqualAndEmpty) {
  EXPECT_TRUE(histogram({}).empty());
  const auto same = histogram({0.5, 0.5, 0.5});
  ASSERT_EQ(same.size(), 1u);
  EXPECT_EQ(same[0].count, 3u);
  EXPECT_EQ(same[0].from, 0.5);
  EXPECT_EQ(same[0].to, 0.5);
  const auto two = histogram({0.0, 1.0});  // ceil(sqrt(2)) = 2 bins; the maximum in the last
  ASSERT_EQ(two.size(), 2u);
  EXPECT_EQ(two[0].count, 1u);
  EXPECT_EQ(two[1].count, 1u);
}

TEST(ReportChartData, TrendSeriesHaveOneValuePerRunAndNullForGaps) {
  const json charts = chart_data(report_fixtures::sweep(40, 0));
  const json& trend = charts["trend"];
  ASSERT_EQ(trend["runs"].size(), 8u);
  ASSERT_EQ(trend["series"].size(), 10u);
  for (const json& series : trend["series"]) EXPECT_EQ(series["values"].size(), 8u);
  // Run 38 (the fourth) graded no synth game; run 39 measured no throughput.
  EXPECT_TRUE(trend["series"][1]["values"][3].is_null()) << trend["series"][1]["label"];
  EXPECT_TRUE(trend["throughput"][4].is_null());
  EXPECT_EQ(charts["histograms"].size(), 10u);
  EXPECT_EQ(charts["speed"].size(), 2u);
}

// Removing any field of the schema, or giving it the wrong type, is an error naming it.
TEST(ReportData, EveryMissingFieldIsNamed) {
  const json valid = report_fixtures::sweep(12, 2);
  EXPECT_NO_THROW(validate_report_data(valid));
  const std::vector<std::pair<std::string, std::string>> fields = {
      {"/title", "title"},
      {"/run", "run"},
      {"/run/id", "run.id"},
      {"/run/machine", "run.machine"},
      {"/run/machine/cores", "run.machine.cores"},
      {"/baseline", "baseline"},
      {"/baseline/version", "baseline.version"},
      {"/totals/steps", "totals.steps"},
      {"/regressions", "regressions"},
      {"/regressions/1/detail", "regressions[1].detail"},
      {"/groups/3/mean_score", "groups[3].mean_score"},
      {"/distributions/0/scores", "distributions[0].scores"},
      {"/trend/2/mean_scores", "trend[2].mean_scores"},
      {"/speed/1/threads", "speed[1].threads"},
      {"/records", "records"},
      {"/records/11/changed", "records[11].changed"},
      {"/records/0/error", "records[0].error"},
      {"/records/7/error_line", "records[7].error_line"},
      {"/records/7/error_column", "records[7].error_column"},
      {"/records/5/baseline_score", "records[5].baseline_score"},
      {"/answers_edited", "answers_edited"},
      {"/answers_edited/0/baseline_score", "answers_edited[0].baseline_score"},
      {"/trend/1/threads", "trend[1].threads"}};
  for (const auto& [pointer, name] : fields) {
    json data = valid;
    const json::json_pointer where(pointer);
    data[where.parent_pointer()].erase(where.back());
    try {
      validate_report_data(data);
      ADD_FAILURE() << "no error without " << pointer;
    } catch (const std::invalid_argument& error) {
      EXPECT_EQ(std::string(error.what()), "report data: " + name + ": missing");
    }
  }
}

TEST(ReportData, WrongTypesAndNonFiniteNumbersAreNamed) {
  const json valid = report_fixtures::sweep(12, 2);
  const auto message = [&](const std::string& pointer, const json& value) {
    json data = valid;
    data[json::json_pointer(pointer)] = value;
    try {
      validate_report_data(data);
    } catch (const std::invalid_argument& error) {
      return std::string(error.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(message("/records/3/game", 7), "report data: records[3].game: expected a string, got number");
  EXPECT_EQ(message("/records/3/episodes", 1000.5),
            "report data: records[3].episodes: expected an integer, got number");
  EXPECT_EQ(message("/records/3/normalized_score", "0.5"),
            "report data: records[3].normalized_score: expected a number or null, got string");
  EXPECT_EQ(message("/records/7/error_line", "3"),
            "report data: records[7].error_line: expected an integer or null, got string");
  EXPECT_EQ(message("/records/7/error_column", 2.5),
            "report data: records[7].error_column: expected an integer or null, got number");
  EXPECT_EQ(message("/records/3/cached", nullptr), "report data: records[3].cached: expected true or false, got null");
  EXPECT_EQ(message("/distributions/2/scores/0", std::nan("")),
            "report data: distributions[2].scores[0]: not a finite number");
  EXPECT_EQ(message("/trend/0/mean_scores/breakout~1original", "high"),
            "report data: trend[0].mean_scores[\"breakout/original\"]: expected a number or null, got string");
  EXPECT_EQ(message("/baseline", 41), "report data: baseline: expected an object or null, got number");
  EXPECT_EQ(message("/groups", json::object()), "report data: groups: expected an array, got object");
  EXPECT_EQ(message("/run/machine", "x86"), "report data: run.machine: expected an object, got string");
  try {
    validate_report_data(json::array());
    ADD_FAILURE() << "an array passed";
  } catch (const std::invalid_argument& error) {
    EXPECT_STREQ(error.what(), "report data: expected a JSON object, got array");
  }
}

TEST(ReportData, DocumentedNullsAreAccepted) {
  json data = report_fixtures::sweep(12, 2);
  for (const char* pointer : {"/baseline",
                              "/run/finished_at",
                              "/run/duration_seconds",
                              "/run/git_revision",
                              "/run/config_path",
                              "/run/machine/cpu_model",
                              "/run/machine/cores",
                              "/run/machine/simd",
                              "/run/machine/hostname",
                              "/totals/records_per_second",
                              "/regressions/0/id",
                              "/regressions/0/game",
                              "/regressions/0/source",
                              "/regressions/0/episodes",
                              "/groups/0/mean_score",
                              "/groups/0/baseline_mean_score",
                              "/groups/0/steps_per_second",
                              "/trend/0/steps_per_second",
                              "/records/0/normalized_score",
                              "/records/0/steps",
                              "/records/0/seconds",
                              "/records/7/error_line",
                              "/records/7/error_column"}) {
    data[json::json_pointer(pointer)] = nullptr;
  }
  data["extra"] = "ignored";
  EXPECT_NO_THROW(validate_report_data(data));
}

}  // namespace
}  // namespace weightspace::report
