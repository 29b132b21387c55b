// SPDX-License-Identifier: GPL-3.0-or-later
// The report's charts: the data the page's script draws them from, and their placeholders.
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace weightspace::report {

struct HistogramBin {
  double from;
  double to;
  std::size_t count;
};

// Equal-width bins over [min, max] of `scores` (finite), about sqrt(n) of them and at most
// 24; one bin when every score is the same, none when there are no scores. The maximum
// falls in the last bin.
std::vector<HistogramBin> histogram(const std::vector<double>& scores);

// What the page's script plots, embedded in the page as JSON: "histograms" (one per
// distribution, binned here so the page does not carry every score twice), "trend" (runs,
// one mean-score series per game/source, throughput) and "speed".
nlohmann::json chart_data(const nlohmann::json& data);

// The charts' sections: a canvas per chart, whose data-chart/data-index attributes name its
// entry in chart_data; a sentence instead of a chart that has nothing to show.
void append_charts(std::string& out, const nlohmann::json& chart_data);

}  // namespace weightspace::report
