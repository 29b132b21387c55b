// SPDX-License-Identifier: GPL-3.0-or-later
// Assembles the page: head (CSP, style), the tables, the chart placeholders, the embedded
// chart data, the chart library and the page's script.
#include "apps/report/report_html.hpp"

#include <nettle/base64.h>
#include <nettle/sha2.h>

#include <cstdint>
#include <string_view>

#include "apps/report/html.hpp"
#include "apps/report/report_assets.hpp"
#include "apps/report/report_charts.hpp"
#include "apps/report/report_schema.hpp"
#include "apps/report/report_tables.hpp"

namespace weightspace {
namespace {

// Switches the page's style to its scripted form before the first paint (the chart boxes are
// hidden without the script, and the filter shown with it).
constexpr std::string_view kEarlyScript = "document.documentElement.className=\"js\"";

// A CSP source for an inline element's exact text: 'sha256-<base64>'.
std::string csp_hash(std::string_view text) {
  sha256_ctx context;
  sha256_init(&context);
  sha256_update(&context, text.size(), reinterpret_cast<const std::uint8_t*>(text.data()));
  std::uint8_t digest[SHA256_DIGEST_SIZE];
  sha256_digest(&context, sizeof digest, digest);
  char base64[BASE64_ENCODE_RAW_LENGTH(SHA256_DIGEST_SIZE) + 1] = {};
  base64_encode_raw(base64, sizeof digest, digest);
  return "'sha256-" + std::string(base64) + "'";
}

// Only the page's own inline scripts and style sheet may run, and nothing may be fetched:
// the report works offline, and if a string from the data ever escaped its escaping, an
// injected script or handler would still not run.
std::string content_security_policy() {
  return "default-src 'none'; script-src " + csp_hash(kEarlyScript) + " " + csp_hash(report_assets::kChartJs) + " " +
         csp_hash(report_assets::kReportJs) + "; style-src " + csp_hash(report_assets::kReportCss) +
         "; base-uri 'none'; form-action 'none'";
}

void append_head(std::string& out, const nlohmann::json& data) {
  out +=
      "<!DOCTYPE html>\n<html lang=\"en\" class=\"no-js\"><head><meta charset=\"utf-8\">\n"
      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
      "<meta http-equiv=\"Content-Security-Policy\" content=\"";
  out += content_security_policy();
  out += "\">\n<title>";
  report::append_escaped(out, data["title"].get_ref<const std::string&>());
  out += " · weightspace run #" + std::to_string(data["run"]["id"].get<std::int64_t>()) + "</title>\n<script>";
  out += kEarlyScript;
  out += "</script>\n<style>";
  out += report_assets::kReportCss;
  out += "</style>\n</head>\n<body>\n";
}

void append_scripts(std::string& out, const nlohmann::json& charts) {
  out += "<script type=\"application/json\" id=\"report-data\">";
  out += report::script_json(charts);
  out += "</script>\n<!--\nThe charts are drawn by Chart.js (https://www.chartjs.org), inlined below.\n\n";
  out += report_assets::kChartJsLicense;
  out += "\nChart.js's build includes @kurkle/color (https://github.com/kurkle/color):\n\n";
  out += report_assets::kKurkleColorLicense;
  out += "\n-->\n<script>";
  out += report_assets::kChartJs;
  out += "</script>\n<script>";
  out += report_assets::kReportJs;
  out += "</script>\n";
}

}  // namespace

std::string render_report_html(const nlohmann::json& data) {
  report::validate_report_data(data);
  const nlohmann::json charts = report::chart_data(data);
  std::string out;
  out.reserve(report_assets::kChartJs.size() + 16384 + data["records"].size() * 200);
  append_head(out, data);
  report::append_summary(out, data);
  out += "<main>\n";
  report::append_regressions(out, data);
  report::append_answers_edited(out, data);
  report::append_groups(out, data);
  report::append_charts(out, charts);
  report::append_records(out, data);
  out +=
      "</main>\n<footer>A weightspace sweep report. The charts are drawn with Chart.js (MIT License; its "
      "licence is in this page's source).</footer>\n";
  append_scripts(out, charts);
  out += "</body>\n</html>\n";
  return out;
}

}  // namespace weightspace
