// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <nlohmann/json.hpp>

#include <string>

namespace weightspace {

// The self-contained HTML report of one sweep run: one page with its CSS, its script and the
// chart library inlined, so it opens offline from a CI artifact. The tables are rendered here,
// so the page reads without JavaScript; the charts are drawn in the browser from the data
// embedded in the page. Pure: no I/O.
//
// `data` is the report document (schema in docs/architecture.md, "The HTML report"): title,
// run, baseline (or null), totals, regressions, groups, distributions, trend, speed, records.
// Throws std::invalid_argument naming the first missing or mistyped field (e.g.
// "report data: records[3].game: expected a string").
std::string render_report_html(const nlohmann::json& data);

}  // namespace weightspace
