// SPDX-License-Identifier: GPL-3.0-or-later
#include "apps/report/report_charts.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <numeric>
#include <set>
#include <string_view>

#include "apps/report/html.hpp"

namespace weightspace::report {
namespace {

using nlohmann::json;

constexpr std::size_t kMaxBins = 24;

void append_canvas(std::string& out, std::string_view kind, std::size_t index, const std::string& escaped_label,
                   std::string_view size_class) {
  out += "<figure class=\"chart ";
  out += size_class;
  out += "\"><figcaption>" + escaped_label + "</figcaption><div class=\"chart-box\"><canvas data-chart=\"";
  out += kind;
  out += "\" data-index=\"" + std::to_string(index) + "\" role=\"img\" aria-label=\"" + escaped_label +
         "\"></canvas></div></figure>";
}

json trend_data(const json& trend) {
  // Series in a fixed order (by key), each with one value per run: null where that run had
  // no such game/source.
  std::map<std::string, json> series;
  for (const json& run : trend) {
    for (const auto& [key, score] : run["mean_scores"].items()) series.emplace(key, json::array());
  }
  json runs = json::array();
  json throughput = json::array();
  for (const json& run : trend) {
    runs.push_back({{"id", run["run_id"]}, {"started_at", run["started_at"]}, {"threads", run["threads"]}});
    throughput.push_back(run["steps_per_second"]);
    for (auto& [key, values] : series) {
      const auto found = run["mean_scores"].find(key);
      values.push_back(found == run["mean_scores"].end() ? json(nullptr) : *found);
    }
  }
  json series_list = json::array();
  for (auto& [key, values] : series) series_list.push_back({{"label", key}, {"values", std::move(values)}});
  return {{"runs", std::move(runs)}, {"series", std::move(series_list)}, {"throughput", std::move(throughput)}};
}

constexpr int kTrendDigits = 4;  // a mean score in the trend table: 0.3061, the exact value in the title

// The numbers behind the trend charts, folded away: with the script off, or to copy them. In a
// box that scrolls sideways when there are more series than the page is wide.
void append_trend_table(std::string& out, const json& trend) {
  out +=
      "<details><summary>The numbers</summary><div class=\"table-scroll\"><table id=\"trend-table\" "
      "class=\"sortable numbers\"><thead><tr><th data-type=\"num\" class=\"num\">Run</th><th>Started</th>"
      "<th data-type=\"num\" class=\"num\">Steps/s</th><th data-type=\"num\" class=\"num\">Threads</th>";
  for (const json& series : trend["series"]) {
    out += "<th data-type=\"num\" class=\"num\">";
    append_breakable(out, series["label"].get_ref<const std::string&>());
    out += "</th>";
  }
  out += "</tr></thead><tbody>";
  for (std::size_t i = 0; i < trend["runs"].size(); ++i) {
    const json& run = trend["runs"][i];
    const json& throughput = trend["throughput"][i];
    out += "<tr><td class=\"num\">" + exact_number(run["id"]) + "</td><td class=\"time\">" +
           escaped(run["started_at"].get_ref<const std::string&>()) + "</td><td class=\"num\">" +
           (throughput.is_number() ? si_number(throughput.get<double>()) : std::string()) + "</td><td class=\"num\">" +
           (run["threads"].is_number() ? exact_number(run["threads"]) : std::string()) + "</td>";
    for (const json& series : trend["series"]) append_rounded_cell(out, series["values"][i], kTrendDigits);
    out += "</tr>";
  }
  out += "</tbody></table></div></details>";
}

std::string si_or_dash(const json& value) { return value.is_number() ? si_number(value.get<double>()) : "-"; }

// Per thread count: the median of the repetitions, its 95% interval, how many, and the verdict
// against the baseline (compare's, docs/user-guide.md "How a speed regression is decided").
void append_speed_table(std::string& out, const json& speed) {
  out +=
      "<details open><summary>The numbers</summary><div class=\"table-scroll\"><table id=\"speed-table\" "
      "class=\"sortable numbers\"><thead><tr>"
      "<th data-type=\"num\" class=\"num\">Threads</th><th data-type=\"num\" class=\"num\">Steps/s (median)</th>"
      "<th>95% interval</th><th data-type=\"num\" class=\"num\">Repetitions</th><th>Against the baseline</th>"
      "<th data-type=\"num\" class=\"num\">Steps per CPU second</th><th>95% interval</th>"
      "<th>CPU time against the baseline</th></tr></thead><tbody>";
  auto verdict_cell = [](const json& verdict) {
    return verdict.is_string() ? escaped(verdict.get_ref<const std::string&>()) : std::string("not compared");
  };
  for (const json& point : speed) {
    const json& cpu_interval = point["cpu_interval"];
    out += "<tr><td class=\"num\">" + exact_number(point["threads"]) + "</td><td class=\"num\">" +
           si_number(point["steps_per_second"].get<double>()) + "</td><td>" + si_or_dash(point["interval"][0]) +
           " .. " + si_or_dash(point["interval"][1]) + "</td><td class=\"num\">" +
           exact_number(point["repetitions"]) + "</td><td>" + verdict_cell(point["verdict"]) + "</td><td class=\"num\">" +
           si_or_dash(point["steps_per_cpu_second"]) + "</td><td>" +
           (cpu_interval.is_array() ? si_or_dash(cpu_interval[0]) + " .. " + si_or_dash(cpu_interval[1]) : "-") +
           "</td><td>" + (point["steps_per_cpu_second"].is_null() ? "not kept" : verdict_cell(point["cpu_verdict"])) +
           "</td></tr>";
  }
  out += "</tbody></table></div></details>";
}

// What the throughput trend plots: the sweep's grading (every record, all its threads
// together), not the per-thread-count speed measurement the speed regressions come from.
std::string throughput_caption(const json& trend) {
  std::set<std::int64_t> threads;
  bool unknown = false;
  for (std::size_t i = 0; i < trend["runs"].size(); ++i) {
    if (!trend["throughput"][i].is_number()) continue;
    const json& count = trend["runs"][i]["threads"];
    if (count.is_number_integer()) threads.insert(count.get<std::int64_t>()); else unknown = true;
  }
  std::string caption = "Grading throughput: steps per second over each run's records";
  if (threads.size() == 1 && !unknown) {
    caption += ", " + std::to_string(*threads.begin()) + (*threads.begin() == 1 ? " thread" : " threads");
  } else {
    caption += ", at each run's thread count (see the table)";
  }
  return caption + " (not the speed by thread count below)";
}

// compare's note on the speed (the machine and workload compared, or why not) and the
// instruction count with its verdict.
void append_speed_judgement(std::string& out, const json& judgement) {
  out += "<p class=\"note\" id=\"speed-judgement\">";
  append_escaped(out, judgement["note"].get_ref<const std::string&>());
  out += "</p>";
  if (judgement["instructions"].is_number()) {
    out += "<p class=\"note\" id=\"speed-instructions\">The workload takes " + exact_number(judgement["instructions"]) +
           " instructions (callgrind)";
    if (judgement["instructions_verdict"].is_string()) {
      out += ": ";
      append_escaped(out, judgement["instructions_verdict"].get_ref<const std::string&>());
    }
    out += ".</p>";
  }
}

}  // namespace

std::vector<HistogramBin> histogram(const std::vector<double>& scores) {
  if (scores.empty()) return {};
  const auto [low, high] = std::minmax_element(scores.begin(), scores.end());
  const double min = *low;
  const double max = *high;
  if (!(max > min)) return {{min, max, scores.size()}};
  const auto bins = std::clamp<std::size_t>(
      static_cast<std::size_t>(std::ceil(std::sqrt(static_cast<double>(scores.size())))), 1, kMaxBins);
  const double width = (max - min) / static_cast<double>(bins);
  std::vector<HistogramBin> result(bins);
  for (std::size_t i = 0; i < bins; ++i) {
    result[i].from = min + width * static_cast<double>(i);
    result[i].to = i + 1 == bins ? max : min + width * static_cast<double>(i + 1);
    result[i].count = 0;
  }
  for (const double score : scores) {
    const auto index = static_cast<std::size_t>((score - min) / width);
    ++result[std::min(index, bins - 1)].count;
  }
  return result;
}

json chart_data(const json& data) {
  json histograms = json::array();
  for (const json& distribution : data["distributions"]) {
    const std::vector<double> scores = distribution["scores"].get<std::vector<double>>();
    json bins = json::array();
    for (const HistogramBin& bin : histogram(scores)) {
      bins.push_back({{"from", bin.from}, {"to", bin.to}, {"count", bin.count}});
    }
    const double mean =
        scores.empty() ? 0 : std::accumulate(scores.begin(), scores.end(), 0.0) / static_cast<double>(scores.size());
    histograms.push_back({{"game", distribution["game"]},
                          {"source", distribution["source"]},
                          {"count", scores.size()},
                          {"mean", scores.empty() ? json(nullptr) : json(mean)},
                          {"bins", std::move(bins)}});
  }
  json speed = json::array();
  for (const json& point : data["speed"]) {
    speed.push_back({{"threads", point["threads"]},
                     {"steps_per_second", point["steps_per_second"]},
                     {"interval", point["interval"]},
                     {"repetitions", point["repetitions"]},
                     {"verdict", point["verdict"]},
                     {"steps_per_cpu_second", point["steps_per_cpu_second"]},
                     {"cpu_interval", point["cpu_interval"]},
                     {"cpu_verdict", point["cpu_verdict"]}});
  }
  return {{"histograms", std::move(histograms)},
          {"trend", trend_data(data["trend"])},
          {"speed", std::move(speed)},
          {"speed_judgement", data["speed_judgement"]}};
}

void append_charts(std::string& out, const json& charts) {
  out +=
      "<section id=\"distributions\"><h2>Score distributions</h2>"
      "<noscript><p class=\"note\">The charts are drawn by the page's script; the tables hold the numbers."
      "</p></noscript><div class=\"chart-grid\">";
  const json& histograms = charts["histograms"];
  if (histograms.empty()) out += "<p class=\"note\">No scores in this run.</p>";
  for (std::size_t i = 0; i < histograms.size(); ++i) {
    const json& h = histograms[i];
    std::string label = escaped(h["game"].get_ref<const std::string&>()) + " / " +
                        escaped(h["source"].get_ref<const std::string&>()) +
                        " (n = " + grouped_integer(h["count"].get<std::int64_t>());
    if (h["mean"].is_number()) label += ", mean " + significant(h["mean"].get<double>(), 4);
    label += ")";
    if (h["bins"].empty()) {
      out += "<figure class=\"chart small\"><figcaption>" + label +
             "</figcaption><p class=\"note\">no scores</p></figure>";
    } else {
      append_canvas(out, "histogram", i, label, "small");
    }
  }
  out += "</div></section>\n<section id=\"trend\"><h2>Trend over the last runs</h2><div class=\"chart-grid\">";
  const json& trend = charts["trend"];
  const std::size_t run_count = trend["runs"].size();
  const std::string runs =
      run_count == 1 ? "this run" : "the last " + grouped_integer(static_cast<std::int64_t>(run_count)) + " runs";
  if (trend["series"].empty()) {
    out += "<p class=\"note\">No earlier scores to show.</p>";
  } else {
    // Series with small means lie on top of each other near zero; the page's script offers
    // each its own scale (hidden without the script, which draws the charts).
    if (run_count > 1) {
      out += "<label class=\"chart-control\" hidden><input type=\"checkbox\" id=\"trend-own-scale\"> each "
             "game/source on its own scale</label>";
    }
    append_canvas(out, "trend-score", 0, "Mean normalised score per game/source, " + runs, "wide");
  }
  if (std::any_of(trend["throughput"].begin(), trend["throughput"].end(),
                  [](const json& value) { return value.is_number(); })) {
    append_canvas(out, "trend-throughput", 0, escaped(throughput_caption(trend)) + ", " + runs, "wide");
  } else {
    out += "<p class=\"note\">No throughput measured in these runs.</p>";
  }
  out += "</div>";
  if (!trend["runs"].empty()) append_trend_table(out, trend);
  out += "</section>\n<section id=\"speed\"><h2>Speed by thread count</h2><div class=\"chart-grid\">";
  if (charts["speed"].empty()) {
    out += "<p class=\"note\">No speed measurement in this run.</p>";
  } else {
    append_canvas(out, "speed", 0, "Steps per second by number of threads", "wide");
  }
  out += "</div>";
  if (!charts["speed"].empty()) {
    append_speed_judgement(out, charts["speed_judgement"]);
    append_speed_table(out, charts["speed"]);
  }
  out += "</section>\n";
}

}  // namespace weightspace::report
