// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace weightspace {

// Pieces of Python's json.dumps output, so weightspace writes the grader's reward.json byte for
// byte: floats as repr(float) (shortest round-trip digits, exponent form outside 1e-4..1e16,
// NaN/Infinity as json.dumps spells them), strings with ensure_ascii escapes.
std::string python_float_repr(double value);
std::string python_json_float(double value);
std::string python_json_string(std::string_view utf8);
// python_json_string, or null (json.dumps(None)) when there is no string.
std::string python_json_string_or_null(const std::optional<std::string>& utf8);

}  // namespace weightspace
