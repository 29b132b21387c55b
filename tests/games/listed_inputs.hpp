// SPDX-License-Identifier: GPL-3.0-or-later
// An observation's active inputs as a vector, for comparisons with readable failure output.
#pragma once

#include <vector>

#include "games/cells.hpp"

namespace weightspace::testing {

inline std::vector<int> listed(const ActiveInputs& inputs) { return {inputs.view().begin(), inputs.view().end()}; }

}  // namespace weightspace::testing
