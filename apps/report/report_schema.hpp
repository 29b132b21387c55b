// SPDX-License-Identifier: GPL-3.0-or-later
// The report document's schema, checked before anything is rendered.
#pragma once

#include <nlohmann/json.hpp>

namespace weightspace::report {

// Checks that `data` has every field of the report schema with the right type (a few may be
// null; see docs/architecture.md) and that every number is finite; throws
// std::invalid_argument naming the first field that is not, e.g.
// "report data: records[3].game: expected a string, got number". Fields beyond the schema
// are allowed and ignored.
void validate_report_data(const nlohmann::json& data);

}  // namespace weightspace::report
