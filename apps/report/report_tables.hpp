// SPDX-License-Identifier: GPL-3.0-or-later
// The report's HTML that reads without JavaScript: the header with the run's facts and totals,
// the regression banner and list, the per-game/source table, and the records table. Each
// appends to `out`; `data` has passed validate_report_data.
#pragma once

#include <nlohmann/json.hpp>

#include <string>

namespace weightspace::report {

void append_summary(std::string& out, const nlohmann::json& data);
void append_regressions(std::string& out, const nlohmann::json& data);
// Records whose answer changed since the baseline (not regressions), when there are any.
void append_answers_edited(std::string& out, const nlohmann::json& data);
void append_groups(std::string& out, const nlohmann::json& data);
void append_records(std::string& out, const nlohmann::json& data);

}  // namespace weightspace::report
