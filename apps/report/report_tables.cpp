// SPDX-License-Identifier: GPL-3.0-or-later
#include "apps/report/report_tables.hpp"

#include <cstdint>
#include <cstdio>
#include <initializer_list>
#include <string_view>

#include "apps/report/html.hpp"

namespace weightspace::report {
namespace {

using nlohmann::json;

struct Column {
  std::string_view title;
  bool numeric = false;  // sorted as numbers by the page's script, and right-aligned
};
constexpr bool kNumeric = true;
constexpr std::size_t kRowsPerBody = 100;

void append_head(std::string& out, std::string_view id, std::string_view css_class,
                 std::initializer_list<Column> columns) {
  out += "<table id=\"";
  out += id;
  out += "\" class=\"sortable ";
  out += css_class;
  out += "\"><thead><tr>";
  for (const Column& column : columns) {
    out += column.numeric ? "<th data-type=\"num\" class=\"num\">" : "<th>";
    out += column.title;
    out += "</th>";
  }
  out += "</tr></thead><tbody>";
}

// The text of a string-or-null field (null is an empty cell).
std::string_view text_of(const json& value) {
  return value.is_string() ? std::string_view(value.get_ref<const std::string&>()) : std::string_view();
}

void append_cell(std::string& out, const json& value) {
  out += "<td>";
  append_breakable(out, text_of(value));
  out += "</td>";
}

void append_number_cell(std::string& out, const std::string& text, std::string_view css_class = {}) {
  out += "<td class=\"num";
  if (!css_class.empty()) (out += ' ') += css_class;
  out += "\">";
  out += text;
  out += "</td>";
}

std::string exact_or_empty(const json& number) { return number.is_null() ? std::string() : exact_number(number); }

// An integer with thousands separators (the page's sorting reads them), empty for null.
std::string grouped_or_empty(const json& number) {
  return number.is_number_integer() ? grouped_integer(number.get<std::int64_t>()) : exact_or_empty(number);
}

// A score to six significant digits, and exactly in the cell's title (for hovering, and for
// sorting) when that is longer: 0.30609000000000003 reads as 0.30609.
void append_score(std::string& out, const json& score, bool closed) {
  if (score.is_null()) {
    out += closed ? "<td class=\"num\"></td>" : "<td>";
    return;
  }
  const std::string exact = exact_number(score);
  const std::string shown = significant(score.get<double>(), 6);
  out += closed ? "<td class=\"num\"" : "<td";
  if (shown != exact) out += " title=\"" + exact + "\"";
  out += ">" + shown;
  if (closed) out += "</td>";
}

// A change of score, `now - base`: three significant digits with its sign, and the cell class
// that colours it ("worse", "better", or none when equal).
struct ScoreChange {
  std::string text;
  std::string_view css_class;
};
ScoreChange score_change(double base, double now) {
  const double change = now - base;
  char text[32];
  std::snprintf(text, sizeof text, "%+.3g", change);
  return {change == 0 ? "0" : text, change < 0 ? "worse" : change > 0 ? "better" : ""};
}

// A changed record's score cell (unclosed, as the records table's cells): the baseline's score
// -> this run's, and the difference; the title holds this run's exact score, which the page
// sorts by. Both are numbers.
constexpr int kMovedDigits = 4;  // two scores and a change in a score's width; the exact one in the title
void append_moved_score(std::string& out, const json& base, const json& now) {
  out += "<td class=\"moved\" title=\"" + exact_number(now) + "\"><span class=\"was\">" +
         significant(base.get<double>(), kMovedDigits) + " \u2192</span> " + significant(now.get<double>(), kMovedDigits);
  const ScoreChange change = score_change(base.get<double>(), now.get<double>());
  out += " <span class=\"delta ";
  out += change.css_class;
  out += "\">(" + change.text + ")</span>";
}

void append_fact(std::string& out, std::string_view term, const std::string& escaped_description) {
  out += "<div><dt>";
  out += term;
  out += "</dt><dd>";
  out += escaped_description;
  out += "</dd></div>";
}

void append_total(std::string& out, std::string_view label, const std::string& value, bool bad = false) {
  out += bad ? "<li class=\"bad\"><span class=\"value\">" : "<li><span class=\"value\">";
  out += value;
  out += "</span> <span class=\"label\">";
  out += label;
  out += "</span></li>";
}

std::string machine_description(const json& machine) {
  std::string text;
  const auto add = [&text](const std::string& part) {
    if (part.empty()) return;
    if (!text.empty()) text += ", ";
    text += part;
  };
  add(escaped(text_of(machine["cpu_model"])));
  if (machine["cores"].is_number()) add(std::to_string(machine["cores"].get<std::int64_t>()) + " cores");
  add(escaped(text_of(machine["simd"])));
  add(escaped(text_of(machine["hostname"])));
  return text.empty() ? "unknown" : text;
}

}  // namespace

void append_summary(std::string& out, const json& data) {
  const json& run = data["run"];
  out += "<header><h1>";
  append_escaped(out, data["title"].get_ref<const std::string&>());
  out += "</h1><p class=\"run-line\">weightspace sweep, run #" + std::to_string(run["id"].get<std::int64_t>()) +
         " · <span class=\"status\">";
  append_escaped(out, run["status"].get_ref<const std::string&>());
  out += "</span> · started ";
  append_escaped(out, run["started_at"].get_ref<const std::string&>());
  if (run["finished_at"].is_string()) {
    out += " · finished ";
    append_escaped(out, run["finished_at"].get_ref<const std::string&>());
  }
  if (run["duration_seconds"].is_number()) out += " · took " + duration(run["duration_seconds"].get<double>());
  out += "</p><dl class=\"facts\">";
  std::string version = escaped(run["version"].get_ref<const std::string&>());
  if (run["git_revision"].is_string()) version += " (git " + escaped(text_of(run["git_revision"])) + ")";
  append_fact(out, "Version", version);
  append_fact(out, "Machine", machine_description(run["machine"]));
  if (run["config_path"].is_string()) append_fact(out, "Configuration", escaped(text_of(run["config_path"])));
  const json& baseline = data["baseline"];
  append_fact(out, "Baseline",
              baseline.is_null() ? std::string("none")
                                 : "run #" + std::to_string(baseline["id"].get<std::int64_t>()) + ", started " +
                                       escaped(baseline["started_at"].get_ref<const std::string&>()) + ", version " +
                                       escaped(baseline["version"].get_ref<const std::string&>()));
  out += "</dl><ul class=\"totals\">";
  const json& totals = data["totals"];
  append_total(out, "records", grouped_integer(totals["records"].get<std::int64_t>()));
  const std::int64_t failed = totals["failed"].get<std::int64_t>();
  append_total(out, "failed", grouped_integer(failed), failed > 0);
  append_total(out, "cached", grouped_integer(totals["cached"].get<std::int64_t>()));
  append_total(out, "steps", si_number(static_cast<double>(totals["steps"].get<std::int64_t>())));
  append_total(out, "grading time", duration(totals["seconds"].get<double>()));
  if (totals["records_per_second"].is_number()) {
    append_total(out, "records/s", si_number(totals["records_per_second"].get<double>()));
  }
  out += "</ul></header>\n";
}

void append_regressions(std::string& out, const json& data) {
  const json& regressions = data["regressions"];
  const json& baseline = data["baseline"];
  const std::string against = baseline.is_null()
                                  ? std::string(" (no baseline run)")
                                  : " against run #" + std::to_string(baseline["id"].get<std::int64_t>());
  if (regressions.empty()) {
    // Green only when something was compared: a first run is neither good nor bad news.
    out += baseline.is_null() ? "<p id=\"no-regressions\" class=\"banner neutral\">No regressions" + against + ": "
                                "nothing was compared</p>\n"
                              : "<p id=\"no-regressions\" class=\"banner good\">No regressions" + against + "</p>\n";
    return;
  }
  const std::size_t count = regressions.size();
  out += "<p id=\"regressions-banner\" class=\"banner bad\" role=\"alert\">" +
         grouped_integer(static_cast<std::int64_t>(count)) + (count == 1 ? " regression" : " regressions") + against +
         "</p>\n";
  out += "<section id=\"regressions\"><h2>Regressions</h2>";
  // In bodies of kRowsPerBody as the records (below): a change that moves every record
  // lists them all here too.
  append_head(out, "regressions-table", "regressions blocks",
              {{"Kind"}, {"Answer"}, {"Game"}, {"Source"}, {"Episodes", kNumeric}, {"Detail"}});
  for (std::size_t i = 0; i < count; ++i) {
    const json& regression = regressions[i];
    if (i > 0 && i % kRowsPerBody == 0) out += "</tbody><tbody>";
    out += "<tr>";
    append_cell(out, regression["kind"]);
    append_cell(out, regression["id"]);
    append_cell(out, regression["game"]);
    append_cell(out, regression["source"]);
    append_number_cell(out, exact_or_empty(regression["episodes"]));
    append_cell(out, regression["detail"]);
    out += "</tr>";
  }
  out += "</tbody></table></section>\n";
}

void append_answers_edited(std::string& out, const json& data) {
  const json& edited = data["answers_edited"];
  if (edited.empty()) return;
  out += "<section id=\"answers-edited\"><h2>Answers edited <span class=\"count\">(" +
         grouped_integer(static_cast<std::int64_t>(edited.size())) +
         ")</span></h2><p class=\"note\">Not regressions: the answer's text or its weights differ from the "
         "baseline's, so its score may move.</p>";
  append_head(out, "edited-table", "edited blocks",
              {{"Answer"}, {"Game"}, {"Source"}, {"Episodes", kNumeric}, {"Baseline", kNumeric}, {"Score", kNumeric},
               {"Change", kNumeric}});
  for (std::size_t i = 0; i < edited.size(); ++i) {
    const json& edit = edited[i];
    if (i > 0 && i % kRowsPerBody == 0) out += "</tbody><tbody>";
    out += "<tr>";
    append_cell(out, edit["id"]);
    append_cell(out, edit["game"]);
    append_cell(out, edit["source"]);
    append_number_cell(out, grouped_integer(edit["episodes"].get<std::int64_t>()));
    append_score(out, edit["baseline_score"], true);
    append_score(out, edit["score"], true);
    if (edit["baseline_score"].is_number() && edit["score"].is_number()) {
      const ScoreChange change = score_change(edit["baseline_score"].get<double>(), edit["score"].get<double>());
      append_number_cell(out, change.text, change.css_class);
    } else {
      append_number_cell(out, "");
    }
    out += "</tr>";
  }
  out += "</tbody></table></section>\n";
}

void append_groups(std::string& out, const json& data) {
  out += "<section id=\"groups\"><h2>Games and sources</h2><div class=\"table-scroll\">";
  append_head(out, "groups-table", "groups numbers",
              {{"Game"},
               {"Source"},
               {"Episodes", kNumeric},
               {"Records", kNumeric},
               {"Failed", kNumeric},
               {"Mean score", kNumeric},
               {"Baseline", kNumeric},
               {"Change", kNumeric},
               {"Steps/s", kNumeric}});
  for (const json& group : data["groups"]) {
    out += "<tr>";
    append_cell(out, group["game"]);
    append_cell(out, group["source"]);
    append_number_cell(out, grouped_integer(group["episodes"].get<std::int64_t>()));
    append_number_cell(out, grouped_integer(group["records"].get<std::int64_t>()));
    const bool failed = group["failed"].get<std::int64_t>() > 0;
    append_number_cell(out, grouped_integer(group["failed"].get<std::int64_t>()), failed ? "bad" : "");
    append_score(out, group["mean_score"], true);
    append_score(out, group["baseline_mean_score"], true);
    if (group["mean_score"].is_number() && group["baseline_mean_score"].is_number()) {
      const ScoreChange change =
          score_change(group["baseline_mean_score"].get<double>(), group["mean_score"].get<double>());
      append_number_cell(out, change.text, change.css_class);
    } else {
      append_number_cell(out, "");
    }
    append_number_cell(out, group["steps_per_second"].is_number() ? si_number(group["steps_per_second"].get<double>())
                                                                  : std::string());
    out += "</tr>";
  }
  out += "</tbody></table></div></section>\n";
}

void append_records(std::string& out, const json& data) {
  const json& records = data["records"];
  out += "<section id=\"records\"><h2>Records <span class=\"count\">(" +
         grouped_integer(static_cast<std::int64_t>(records.size())) + ")</span></h2>";
  // The filter works only with the script, which unhides it.
  out +=
      "<div id=\"records-filter\" class=\"filter\" hidden><input id=\"filter-text\" type=\"search\" "
      "placeholder=\"Filter records\" aria-label=\"Filter records by text\"> <label><input id=\"filter-errors\" "
      "type=\"checkbox\"> errors only</label> <label><input id=\"filter-changed\" type=\"checkbox\"> changed "
      "only</label> <span id=\"filter-count\" aria-live=\"polite\"></span></div>";
  out += "<div class=\"table-scroll records-scroll\">";
  append_head(out, "records-table", "records blocks",
              {{"Answer"},
               {"Input"},
               {"Game"},
               {"Source"},
               {"Episodes", kNumeric},
               {"Score", kNumeric},
               {"Steps", kNumeric},
               {"Seconds", kNumeric},
               {"Cached"},
               {"Changed"},
               {"Place"},
               {"Error"}});
  // Up to 10^5 rows: the end tags HTML lets a row and its cells omit are omitted, and the
  // numeric columns are right-aligned by the style sheet rather than by a class per cell.
  // The rows come in bodies of kRowsPerBody, which the browser lays out only when on screen
  // (report.css: content-visibility).
  out.reserve(out.size() + records.size() * 160);
  for (std::size_t i = 0; i < records.size(); ++i) {
    const json& record = records[i];
    if (i > 0 && i % kRowsPerBody == 0) out += "</tbody><tbody>";
    const bool failed = !record["error"].is_null() || !record["error_kind"].is_null();
    const bool changed = record["changed"].get<bool>();
    out += failed ? (changed ? "<tr class=\"err changed\">" : "<tr class=\"err\">")
                  : (changed ? "<tr class=\"changed\">" : "<tr>");
    // Paths and game names wrap at their separators. A file input's id is its path: the
    // Input cell is left empty then rather than repeating it.
    out += "<td>";
    append_breakable(out, text_of(record["id"]));
    const bool same_input = record["input"] == record["id"];
    out += same_input ? "<td class=\"same\" title=\"the same as Answer\">" : "<td>";
    if (!same_input) append_breakable(out, text_of(record["input"]));
    for (const char* field : {"game", "source"}) {
      out += "<td>";
      append_breakable(out, text_of(record[field]));
    }
    out += "<td>" + grouped_or_empty(record["episodes"]);
    // A changed record shows where it came from: baseline -> now (difference). One that fails
    // now has no score (its error says why; the regressions list it as newly failed).
    if (changed && !record["baseline_score"].is_null() && record["normalized_score"].is_number()) {
      append_moved_score(out, record["baseline_score"], record["normalized_score"]);
    } else {
      append_score(out, record["normalized_score"], false);
    }
    out += "<td>" + grouped_or_empty(record["steps"]);
    out += "<td>" + (record["seconds"].is_number() ? fixed(record["seconds"].get<double>(), 3) : std::string());
    out += record["cached"].get<bool>() ? "<td>yes" : "<td>";
    out += changed ? "<td>yes<td>" : "<td><td>";
    // Where in the edits block the error is, line:column, as an editor's go-to takes it (and
    // sorted by the page's numeric collation: 9:1 before 10:3); empty when it has no place.
    if (record["error_line"].is_number_integer() && record["error_column"].is_number_integer()) {
      out += std::to_string(record["error_line"].get<std::int64_t>()) + ':' +
             std::to_string(record["error_column"].get<std::int64_t>());
    }
    out += "<td>";
    // Refused: past the grading machine's limits, not the answer's fault (its error says which).
    if (record["refused"].get<bool>()) out += "<b>refused</b> ";
    if (record["error_kind"].is_string()) {
      out += "<b>";
      append_breakable(out, text_of(record["error_kind"]));
      out += "</b> ";
    }
    // No line break before the next row: it would belong to this unclosed cell.
    append_escaped(out, text_of(record["error"]));
  }
  out += "</tbody></table></div></section>\n";
}

}  // namespace weightspace::report
