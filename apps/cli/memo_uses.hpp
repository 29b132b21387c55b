// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <array>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <weightspace/run_options.hpp>

namespace weightspace::app {

// --memo's names (bench, batch), as the table and the JSON context give them back.
inline constexpr std::array<std::pair<std::string_view, PolicyMemoUse>, 4> kMemoUses = {
    {{"auto", PolicyMemoUse::automatic},
     {"hits", PolicyMemoUse::hit_rate},
     {"always", PolicyMemoUse::always},
     {"never", PolicyMemoUse::never}}};

inline std::vector<std::string> memo_names() {
  std::vector<std::string> names;
  for (const auto& [name, use] : kMemoUses) names.emplace_back(name);
  return names;
}

// The name of `use`, as --memo takes it.
inline std::string_view memo_name(PolicyMemoUse use) {
  for (const auto& [name, known] : kMemoUses) {
    if (known == use) return name;
  }
  throw std::invalid_argument("a PolicyMemoUse without a name");
}

// What instruction counts (valgrind) run for the use named `name`: `hits` for `auto`, whose
// choice follows the clock (engine/memo_choice.hpp), the name itself otherwise.
inline std::string counted_memo(std::string_view name) { return std::string(name == "auto" ? "hits" : name); }

// The use named `name`. The options check it against memo_names() first, so another name is
// a caller's bug: std::invalid_argument, not a quiet choice for the user.
inline PolicyMemoUse memo_use(std::string_view name) {
  for (const auto& [known, use] : kMemoUses) {
    if (known == name) return use;
  }
  throw std::invalid_argument("unknown --memo value '" + std::string(name) + "'");
}

}  // namespace weightspace::app
