// SPDX-License-Identifier: GPL-3.0-or-later
// The whole page: its structure, what it says about regressions, every record, hostile text,
// and the inlined assets. (The browser test, check_report.js, opens these pages for real.)
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <stdexcept>
#include <string>
#include <string_view>

#include "apps/report/report_assets.hpp"
#include "apps/report/report_html.hpp"
#include "report/fixtures.hpp"

namespace weightspace {
namespace {

using nlohmann::json;

std::size_t count(std::string_view text, std::string_view needle) {
  std::size_t n = 0;
  for (std::size_t at = text.find(needle); at != std::string_view::npos; at = text.find(needle, at + 1)) ++n;
  return n;
}

std::string lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return std::tolower(c); });
  return text;
}

// The part of the page between the element with id="<id>" and the end of its table.
std::string_view table(std::string_view page, std::string_view id) {
  const std::size_t start = page.find("id=\"" + std::string(id) + "\"");
  if (start == std::string_view::npos) return {};
  return page.substr(start, page.find("</table>", start) - start);
}

TEST(ReportPage, IsOneCompleteDocument) {
  const std::string page = render_report_html(report_fixtures::sweep(200, 2));
  EXPECT_TRUE(page.starts_with("<!DOCTYPE html>\n<html lang=\"en\" class=\"no-js\">"));
  EXPECT_TRUE(page.ends_with("</body>\n</html>\n"));
  EXPECT_EQ(count(page, "<body>"), 1u);
  EXPECT_NE(page.find("<title>nightly · weightspace run #42</title>"), std::string::npos);
  // Nothing to fetch: no src or href attribute, no URL scheme outside the licence comment.
  EXPECT_EQ(count(page, " src="), 0u);
  EXPECT_EQ(count(page, " href="), 0u);
  EXPECT_NE(page.find("default-src 'none'"), std::string::npos);
}

TEST(ReportPage, RendersEveryRecordAndGroup) {
  for (const std::size_t records : {0u, 1u, 100u, 101u, 200u, 5000u}) {
    const std::string page = render_report_html(report_fixtures::sweep(records, 0));
    EXPECT_EQ(count(table(page, "records-table"), "<tr"), records + 1) << records;  // + the header row
    // Bodies of 100 rows, which the browser lays out only on screen.
    EXPECT_EQ(count(table(page, "records-table"), "<tbody>"), std::max<std::size_t>(1, (records + 99) / 100));
    EXPECT_EQ(count(table(page, "groups-table"), "<tr"), std::min<std::size_t>(records, 10) + 1) << records;
  }
}

// A failed record's place, line:column, is its own cell before the error's kind and message;
// empty when the error has no place, and for a record that did not fail.
TEST(ReportPage, RecordsShowTheErrorsPlace) {
  json data = report_fixtures::sweep(40, 0);
  data["records"][7]["error_line"] = 12;
  data["records"][7]["error_column"] = 5;
  data["records"][36]["error_line"] = nullptr;  // a failure without a place
  data["records"][36]["error_column"] = nullptr;
  const std::string page = render_report_html(data);
  const std::string_view rows = table(page, "records-table");
  EXPECT_NE(rows.find("<th>Changed</th><th>Place</th><th>Error</th>"), std::string_view::npos);
  EXPECT_NE(rows.find("<td>12:5<td><b>parse_<wbr>error</b> line 3:"), std::string_view::npos);
  EXPECT_EQ(count(rows, "<td><td><b>parse_<wbr>error</b>"), 1u);  // record 36 (record 7 has its place)
  // Every row has 12 cells: 11 omitted-end <td> per row plus the error's.
  EXPECT_EQ(count(rows, "<td"), 40u * 12);
}

// Issue 32: "The numbers" show rounded numbers and scroll sideways in their own box; the
// games table scrolls too; a file input (id == input) does not repeat its path as Input.
TEST(ReportPage, TablesOfNumbersAreRoundedAndScrollInTheirBox) {
  json data = report_fixtures::sweep(30, 0);
  data["trend"][0]["mean_scores"]["asterix/original"] = 0.042300000000000004;
  data["trend"][0]["started_at"] = "2026-11-23T02:00:00Z";
  data["groups"][1]["records"] = 123456;
  const std::string page = render_report_html(data);
  const std::string_view trend = table(page, "trend-table");
  EXPECT_EQ(trend.find("0.042300000000000004<"), std::string_view::npos);
  EXPECT_NE(trend.find("title=\"0.042300000000000004\">0.0423</td>"), std::string_view::npos);
  EXPECT_NE(trend.find("<td class=\"time\">2026-11-23T02:00:00Z</td>"), std::string_view::npos);
  EXPECT_NE(table(page, "groups-table").find(">123,456</td>"), std::string_view::npos);
  for (const char* id : {"trend-table", "groups-table", "speed-table", "records-table"}) {
    EXPECT_NE(page.find("<div class=\"table-scroll" + std::string(id == std::string("records-table") ? " records-scroll" : "") +
                        "\"><table id=\"" + id + "\""),
              std::string::npos)
        << id;
  }
  const std::string_view records = table(page, "records-table");
  // Record 0 is a file input (its id is its path), record 1 a manifest line.
  EXPECT_NE(records.find("<td>answers/<wbr>answer-100000.md<td class=\"same\" title=\"the same as Answer\"><td>"),
            std::string_view::npos);
  EXPECT_NE(records.find("<td>answer-100001<td>answers/<wbr>answer-100001.md<td>"), std::string_view::npos);
  EXPECT_NE(records.find("<td>1,000<td"), std::string_view::npos);  // episodes with a thousands separator
}

// Issue 32: a changed record shows the baseline's score, its own and the difference; edited
// answers are listed apart from the regressions, only when there are some.
TEST(ReportPage, ChangedRecordsShowBaselineNowAndTheDifference) {
  json data = report_fixtures::sweep(40, 0);
  data["records"][3]["normalized_score"] = 0.25;
  data["records"][3]["baseline_score"] = 0.5;
  data["records"][20]["baseline_score"] = nullptr;  // changed, but the baseline record failed
  data["answers_edited"] = json::array({{{"id", "answer-100003"},
                                         {"game", "seaquest"},
                                         {"source", "original"},
                                         {"episodes", 1000},
                                         {"baseline_score", 0.5},
                                         {"score", 0.25},
                                         {"detail", "the answer's weights differ"}}});
  const std::string page = render_report_html(data);
  const std::string_view records = table(page, "records-table");
  EXPECT_NE(records.find("<td class=\"moved\" title=\"0.25\"><span class=\"was\">0.5 \u2192</span> 0.25 "
                         "<span class=\"delta worse\">(-0.25)</span><td>"),
            std::string_view::npos);
  // Records 3 and 37 (changed in the fixture); record 20 has no baseline score: shown as before.
  EXPECT_EQ(count(records, "class=\"moved\""), 2u);
  EXPECT_EQ(count(records, "<td"), 40u * 12);
  const std::string_view edited = table(page, "edited-table");
  EXPECT_EQ(count(edited, "<tr"), 2u);
  EXPECT_NE(edited.find(">0.5</td><td class=\"num\">0.25</td><td class=\"num worse\">-0.25</td>"),
            std::string_view::npos);
  EXPECT_LT(page.find("id=\"answers-edited\""), page.find("id=\"groups\""));
  data["answers_edited"] = json::array();
  EXPECT_EQ(render_report_html(data).find("id=\"answers-edited\""), std::string::npos);
}

// A change that moves every record lists every one as a regression: the same bodies of 100.
TEST(ReportPage, RendersEveryRegressionInBodies) {
  for (const std::size_t regressions : {1u, 100u, 101u, 5000u}) {
    const std::string page = render_report_html(report_fixtures::sweep(5000, regressions));
    const std::string_view rows = table(page, "regressions-table");
    EXPECT_NE(rows.find("class=\"sortable regressions blocks\""), std::string_view::npos);
    EXPECT_EQ(count(rows, "<tr"), regressions + 1) << regressions;
    EXPECT_EQ(count(rows, "<tbody>"), (regressions + 99) / 100) << regressions;
  }
}

TEST(ReportPage, RegressionsComeFirstWithABanner) {
  const std::string page = render_report_html(report_fixtures::sweep(200, 2));
  const std::size_t banner =
      page.find("<p id=\"regressions-banner\" class=\"banner bad\" role=\"alert\">2 regressions against run #41</p>");
  ASSERT_NE(banner, std::string::npos);
  EXPECT_LT(banner, page.find("id=\"groups\""));
  EXPECT_EQ(count(table(page, "regressions-table"), "<tr"), 3u);
  EXPECT_EQ(page.find("no-regressions"), std::string::npos);

  json one = report_fixtures::sweep(200, 1);
  EXPECT_NE(render_report_html(one).find(">1 regression against run #41<"), std::string::npos);
}

TEST(ReportPage, NoRegressionsIsSaidInGreenOnlyAgainstABaseline) {
  const std::string page = render_report_html(report_fixtures::sweep(200, 0));
  EXPECT_NE(page.find("<p id=\"no-regressions\" class=\"banner good\">No regressions against run #41</p>"),
            std::string::npos);
  EXPECT_EQ(page.find("regressions-banner"), std::string::npos);
  EXPECT_EQ(page.find("regressions-table"), std::string::npos);
  const std::string first = render_report_html(report_fixtures::first_run(10));
  // Nothing was compared: said in grey, not in green (issue 32).
  EXPECT_NE(first.find("<p id=\"no-regressions\" class=\"banner neutral\">No regressions (no baseline run): nothing "
                       "was compared</p>"),
            std::string::npos);
  EXPECT_NE(first.find("<dt>Baseline</dt><dd>none</dd>"), std::string::npos);
}

TEST(ReportPage, ChartsHaveACanvasEachOrASentence) {
  const std::string page = render_report_html(report_fixtures::sweep(200, 2));
  EXPECT_EQ(count(page, "<canvas data-chart=\"histogram\""), 10u);
  EXPECT_EQ(count(page, "<canvas data-chart=\"trend-score\""), 1u);
  EXPECT_EQ(count(page, "<canvas data-chart=\"trend-throughput\""), 1u);
  EXPECT_EQ(count(page, "<canvas data-chart=\"speed\""), 1u);
  const std::string empty = render_report_html(report_fixtures::empty());
  EXPECT_EQ(count(empty, "<canvas"), 0u);
  EXPECT_NE(empty.find("No scores in this run."), std::string::npos);
  EXPECT_NE(empty.find("No speed measurement in this run."), std::string::npos);
}

// Issue 32: the throughput trend says what it plots (the grading, at which thread count), and
// the score trend of several runs offers each series its own scale.
TEST(ReportPage, TheThroughputTrendSaysWhatItPlots) {
  json data = report_fixtures::sweep(40, 0);
  std::string page = render_report_html(data);
  EXPECT_NE(page.find("Grading throughput: steps per second over each run&#39;s records, 2 threads (not the speed by "
                      "thread count below), the last 8 runs"),
            std::string::npos);
  EXPECT_NE(page.find("<th data-type=\"num\" class=\"num\">Threads</th>"), std::string::npos);
  EXPECT_NE(page.find("id=\"trend-own-scale\""), std::string::npos);
  data["trend"][2]["threads"] = 8;
  page = render_report_html(data);
  EXPECT_NE(page.find("records, at each run&#39;s thread count (see the table) (not the speed"), std::string::npos);
  // One run: no line to scale.
  EXPECT_EQ(render_report_html(report_fixtures::first_run(10)).find("id=\"trend-own-scale\""), std::string::npos);
}

// The speed section: compare's note, the instruction count, and per thread count the median,
// its interval, the repetitions and the verdict against the baseline (issue 33).
TEST(ReportPage, SpeedShowsTheIntervalAndWhetherItWasJudged) {
  const std::string page = render_report_html(report_fixtures::sweep(20, 0));
  const std::size_t note = page.find("<p class=\"note\" id=\"speed-judgement\">speed compared on one machine: Test CPU");
  ASSERT_NE(note, std::string::npos);
  EXPECT_NE(page.find("<p class=\"note\" id=\"speed-instructions\">The workload takes 1234567890 instructions "
                      "(callgrind).</p>",
                      note),
            std::string::npos);
  const std::string_view speed = table(page, "speed-table");
  EXPECT_NE(speed.find("<th>95% interval</th>"), std::string_view::npos);
  EXPECT_NE(speed.find("<td>11.9 M .. 12.3 M</td><td class=\"num\">9</td>"
                       "<td>not a regression: +0.4% (within the tolerance, p = 0.73)</td>"),
            std::string_view::npos)
      << speed;
  EXPECT_NE(speed.find("<td>not compared</td>"), std::string_view::npos);
  // Per CPU second beside it: its median, interval and verdict; "not kept" for a row without.
  EXPECT_NE(speed.find("<td class=\"num\">12.2 M</td><td>12.1 M .. 12.3 M</td>"
                       "<td>not a regression: +0.1% (within the tolerance, p = 0.9)</td>"),
            std::string_view::npos)
      << speed;
  EXPECT_NE(speed.find("<td class=\"num\">-</td><td>-</td><td>not kept</td>"), std::string_view::npos) << speed;
}

TEST(ReportPage, HostileTextStaysText) {
  const std::string page = render_report_html(report_fixtures::hostile());
  const std::string folded = lower(page);
  // Exactly the page's own elements: the early script, the data, Chart.js, the page's
  // script; one comment (the licence); no other markup the strings carry.
  EXPECT_EQ(count(folded, "<script"), 4u);
  EXPECT_EQ(count(folded, "</script"), 4u);
  EXPECT_EQ(count(folded, "<!--"), 1u);
  EXPECT_EQ(count(folded, "-->"), 1u);
  for (const char* tag : {"<img", "<svg", "onerror=\"", "onload=\""}) EXPECT_EQ(count(folded, tag), 0u) << tag;
  for (std::size_t i = 0; i < report_fixtures::kHostileStringCount; ++i) {
    const std::string_view text = report_fixtures::kHostileStrings[i];
    if (text.find_first_of("<>&\"'") != std::string_view::npos) {
      EXPECT_EQ(page.find(text), std::string::npos) << "unescaped: " << text;
    }
  }
  // (a record's id, with the line-break opportunities after '/' and '_' that ids get)
  EXPECT_NE(page.find("&lt;/<wbr>script&gt;&lt;script&gt;window._<wbr>_<wbr>injected = 1&lt;/<wbr>script&gt; #0"),
            std::string::npos);
  EXPECT_NE(page.find("&quot;quoted&quot; &#39;single&#39; &amp; &amp;amp;"), std::string::npos);
  EXPECT_NE(page.find("second line\ttab&#xFFFD; control"), std::string::npos);
  // The chart data parses back to the hostile labels.
  const std::size_t start = page.find("<script type=\"application/json\" id=\"report-data\">");
  ASSERT_NE(start, std::string::npos);
  const std::size_t body = page.find('>', start) + 1;
  const json data = json::parse(page.substr(body, page.find("</script>", body) - body));
  EXPECT_EQ(data["histograms"][0]["game"], report_fixtures::kHostileStrings[0]);
  EXPECT_EQ(data["histograms"][1]["source"], report_fixtures::kHostileStrings[2]);
}

TEST(ReportPage, InlinesChartJsWithItsLicence) {
  EXPECT_TRUE(report_assets::kChartJs.starts_with("/*!\n * Chart.js v4."));
  EXPECT_EQ(report_assets::kChartJs.find("sourceMappingURL"), std::string_view::npos);
  EXPECT_GT(report_assets::kChartJs.size(), 100000u);
  const std::string page = render_report_html(report_fixtures::empty());
  EXPECT_NE(page.find(report_assets::kChartJs), std::string::npos);
  EXPECT_NE(page.find(report_assets::kChartJsLicense), std::string::npos);
  EXPECT_NE(page.find(report_assets::kKurkleColorLicense), std::string::npos);
  EXPECT_NE(page.find("Permission is hereby granted"), std::string::npos);
  EXPECT_LT(page.find("<!--"), page.find(report_assets::kChartJs));
}

TEST(ReportPage, MissingFieldsAreErrors) {
  json data = report_fixtures::sweep(3, 0);
  data["records"][2].erase("id");
  EXPECT_THROW(
      {
        try {
          render_report_html(data);
        } catch (const std::invalid_argument& error) {
          EXPECT_STREQ(error.what(), "report data: records[2].id: missing");
          throw;
        }
      },
      std::invalid_argument);
  EXPECT_THROW(render_report_html(json()), std::invalid_argument);
}

}  // namespace
}  // namespace weightspace
