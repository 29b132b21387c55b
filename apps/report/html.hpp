// SPDX-License-Identifier: GPL-3.0-or-later
// Escaping and number formatting for the HTML report.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <string_view>

namespace weightspace::report {

// Appends `text` escaped for HTML text and for quoted attribute values: & < > " ' become
// character references, and the C0 control characters that HTML forbids become U+FFFD.
// Any other byte (UTF-8 included) is copied as it is.
void append_escaped(std::string& out, std::string_view text);
std::string escaped(std::string_view text);
// As append_escaped, with a line-break opportunity (<wbr>) after each '/', '\\' and '_': a
// path or a game name wraps between its parts, not inside one ("space_" "invaders", never
// "space_invader" "s").
void append_breakable(std::string& out, std::string_view text);

// `value` serialised for a <script type="application/json"> element: < > & and U+2028/2029
// are written as \uXXXX escapes (they occur only inside JSON strings), so no string in it
// can close the element or open an HTML comment. Invalid UTF-8 becomes U+FFFD.
std::string script_json(const nlohmann::json& value);

// The shortest text that reads back as the same double (what JSON holds); integers as is.
std::string exact_number(const nlohmann::json& number);
// 1234567 -> "1,234,567".
std::string grouped_integer(std::int64_t value);
// A rate or count with an SI prefix and three significant digits: 1.23e7 -> "12.3 M";
// below 1000, a whole number as it is (42 -> "42").
std::string si_number(double value);
// Seconds for a person: "0.84 s", "12.5 s", "3 min 20 s", "2 h 05 min".
std::string duration(double seconds);
// `value` with `digits` significant digits: 0.123456 -> "0.1235".
std::string significant(double value, int digits);
// A right-aligned table cell for a number or null: `value` to `digits` significant digits
// (integers with thousands separators), the exact value in the cell's title when that reads
// differently (for hovering, and for the page's sorting); an empty cell for null.
void append_rounded_cell(std::string& out, const nlohmann::json& value, int digits);
// `value` with `decimals` digits after the point, sign included when `signed_plus`.
std::string fixed(double value, int decimals, bool signed_plus = false);

}  // namespace weightspace::report
