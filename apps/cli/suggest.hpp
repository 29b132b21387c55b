// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace weightspace::app {

// The candidates closest to `word` (Levenshtein distance at most 2, or one of them starting with
// it), nearest first: what a typo most likely meant ("brakeout" -> "breakout").
std::vector<std::string> close_names(std::string_view word, const std::vector<std::string>& candidates);

// " (did you mean 'a' or 'b'?)", or "" when nothing is close.
std::string did_you_mean(std::string_view word, const std::vector<std::string>& candidates);

}  // namespace weightspace::app
