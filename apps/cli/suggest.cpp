// SPDX-License-Identifier: GPL-3.0-or-later
#include "apps/cli/suggest.hpp"

#include <algorithm>
#include <numeric>

namespace weightspace::app {

namespace {

std::size_t distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  std::iota(row.begin(), row.end(), 0);
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

}  // namespace

std::vector<std::string> close_names(std::string_view word, const std::vector<std::string>& candidates) {
  std::vector<std::pair<std::size_t, std::string>> scored;
  for (const std::string& candidate : candidates) {
    const std::size_t d = distance(word, candidate);
    if (d <= 2 || (!word.empty() && candidate.starts_with(word))) scored.emplace_back(d, candidate);
  }
  std::stable_sort(scored.begin(), scored.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
  std::vector<std::string> names;
  for (auto& [d, name] : scored) {
    if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(std::move(name));
  }
  return names;
}

std::string did_you_mean(std::string_view word, const std::vector<std::string>& candidates) {
  const std::vector<std::string> names = close_names(word, candidates);
  if (names.empty()) return "";
  const std::size_t shown = std::min<std::size_t>(names.size(), 3);
  std::string text = " (did you mean '" + names[0];
  for (std::size_t i = 1; i < shown; ++i) text += (i + 1 == shown ? "' or '" : "', '") + names[i];
  return text + "'?)";
}

}  // namespace weightspace::app
