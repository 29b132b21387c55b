// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>

#include "apps/sweep/config.hpp"
#include "apps/sweep/store.hpp"

namespace weightspace::app {

// The run a report of `run` compares with, by the rule of its config's `baseline`: a run id;
// the pinned run of its name (unless that is `run` itself), else the previous finished run.
std::optional<std::int64_t> baseline_for(Store& store, const RunInfo& run, const Baseline& rule);

// The report document apps/report renders (schema: docs/architecture.md "The HTML report"):
// the run, its baseline, totals, regressions against the baseline, per game/source/episodes
// groups, score distributions, the trend of the last `trend` finished runs of its name, speed,
// and every record.
nlohmann::json report_data(Store& store, std::int64_t run, std::optional<std::int64_t> baseline, int trend,
                           double speed_tolerance = 0.10);

// Renders the report of `run` and writes it to `path` (atomically); `data_path`, when not
// empty, also gets the data document as JSON.
void write_report(Store& store, std::int64_t run, std::optional<std::int64_t> baseline, int trend,
                  const std::string& path, const std::string& data_path = "");

}  // namespace weightspace::app
