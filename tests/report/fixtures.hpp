// SPDX-License-Identifier: GPL-3.0-or-later
// Report documents for the renderer's tests, in the schema render_report_html takes.
#pragma once

#include <nlohmann/json.hpp>

#include <cstddef>

namespace weightspace::report_fixtures {

// A sweep of `records` answers over five games and two sources, with a few failures and
// changes, eight earlier runs, two thread counts; `regressions` of them planted against the
// baseline. Deterministic for given arguments.
nlohmann::json sweep(std::size_t records, std::size_t regressions);
// A first run on a new machine: no baseline, one run of trend, no speed measurement.
nlohmann::json first_run(std::size_t records);
// No records at all.
nlohmann::json empty();
// Every string a person could write, aimed at the page: markup, a closing </script>, an
// HTML comment opener, quotes, ampersands, U+2028/2029, non-ASCII, control characters.
nlohmann::json hostile();
// The hostile strings, for the tests that look for them in the page.
extern const char* const kHostileStrings[];
extern const std::size_t kHostileStringCount;

}  // namespace weightspace::report_fixtures
