// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// What parse_edits_block raises for a block, as the front-end tests compare it.

#include <string>
#include <string_view>

#include "parser/python/grammar.hpp"

namespace weightspace::testing {

struct Raised {
  std::string kind;
  std::string message;
  int line = 0;
  int column = 0;
};

// The EditError parse_edits_block throws for `body`, or kind "(none)" when it parses.
inline Raised raised(std::string_view body) {
  try {
    parse_edits_block(body);
  } catch (const EditError& error) {
    return {error.kind(), error.what(), error.line(), error.column()};
  }
  return {"(none)", "", 0, 0};
}

}  // namespace weightspace::testing
