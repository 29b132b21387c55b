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
  EXPECT_NE(rows.find("<td>12:5<td><b>parse_error</b> line 3:"), std::string_view::npos);
  EXPECT_EQ(count(rows, "<td><td><b>parse_error</b>"), 1u);  // record 36 (record 7 has its place)
  // Every row has 12 cells: 11 omitted-end <td> per row plus the error's.
  EXPECT_EQ(count(rows, "<td"), 40u * 12);
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

TEST(ReportPage, NoRegressionsIsSaidInGreen) {
  const std::string page = render_report_html(report_fixtures::sweep(200, 0));
  EXPECT_NE(page.find("<p id=\"no-regressions\" class=\"banner good\">No regressions against run #41</p>"),
            std::string::npos);
  EXPECT_EQ(page.find("regressions-banner"), std::string::npos);
  EXPECT_EQ(page.find("regressions-table"), std::string::npos);
  const std::string first = render_report_html(report_fixtures::first_run(10));
  EXPECT_NE(first.find(">No regressions (no baseline run)<"), std::string::npos);
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
  EXPECT_NE(page.find("&lt;/script&gt;&lt;script&gt;window.__injected = 1&lt;/script&gt; #0"), std::string::npos);
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
