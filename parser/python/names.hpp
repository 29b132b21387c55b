// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>
#include <string_view>

namespace weightspace::python {

// unicodedata.normalize('NFKC', name), which CPython applies to every non-ASCII identifier.
std::string nfkc_normalize(std::string_view name);

}  // namespace weightspace::python
