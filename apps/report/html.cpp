// SPDX-License-Identifier: GPL-3.0-or-later
#include "apps/report/html.hpp"

#include <cmath>
#include <cstdio>

namespace weightspace::report {

void append_escaped(std::string& out, std::string_view text) {
  for (const char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      case '\t':
      case '\n':
      case '\r': out += c; break;
      default:
        // NUL and the other C0 controls are parse errors in HTML, and a NUL would be dropped
        // silently: show that something was there.
        if (static_cast<unsigned char>(c) < 0x20 || c == '\x7f') {
          out += "&#xFFFD;";
        } else {
          out += c;
        }
    }
  }
}

std::string escaped(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  append_escaped(out, text);
  return out;
}

void append_breakable(std::string& out, std::string_view text) {
  std::size_t start = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '/' && text[i] != '\\' && text[i] != '_') continue;
    append_escaped(out, text.substr(start, i + 1 - start));
    if (i + 1 < text.size()) out += "<wbr>";
    start = i + 1;
  }
  append_escaped(out, text.substr(start));
}

std::string script_json(const nlohmann::json& value) {
  const std::string json = value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  std::string out;
  out.reserve(json.size() + json.size() / 16);
  for (std::size_t i = 0; i < json.size(); ++i) {
    const char c = json[i];
    if (c == '<') {
      out += "\\u003c";
    } else if (c == '>') {
      out += "\\u003e";
    } else if (c == '&') {
      out += "\\u0026";
    } else if (c == '\xe2' && i + 2 < json.size() && json[i + 1] == '\x80' &&
               (json[i + 2] == '\xa8' || json[i + 2] == '\xa9')) {
      // U+2028 and U+2029 end a line in older JavaScript parsers; escaped, they are plain text.
      out += json[i + 2] == '\xa8' ? "\\u2028" : "\\u2029";
      i += 2;
    } else {
      out += c;
    }
  }
  return out;
}

std::string exact_number(const nlohmann::json& number) { return number.dump(); }

std::string grouped_integer(std::int64_t value) {
  // The magnitude in unsigned arithmetic, where negating INT64_MIN is defined.
  const auto bits = static_cast<unsigned long long>(value);
  const std::string digits = std::to_string(value < 0 ? 0ULL - bits : bits);
  std::string out = value < 0 ? "-" : "";
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

std::string fixed(double value, int decimals, bool signed_plus) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, signed_plus ? "%+.*f" : "%.*f", decimals, value);
  return buffer;
}

std::string significant(double value, int digits) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.*g", digits, value);
  return buffer;
}

void append_rounded_cell(std::string& out, const nlohmann::json& value, int digits) {
  if (!value.is_number()) {
    out += "<td class=\"num\"></td>";
    return;
  }
  const std::string exact = exact_number(value);
  const std::string shown = value.is_number_integer() ? grouped_integer(value.get<std::int64_t>())
                                                      : significant(value.get<double>(), digits);
  out += "<td class=\"num\"";
  if (shown != exact) out += " title=\"" + exact + "\"";
  out += ">" + shown + "</td>";
}

std::string si_number(double value) {
  if (!std::isfinite(value)) return fixed(value, 0);
  static constexpr struct {
    double scale;
    const char* prefix;
  } kPrefixes[] = {{1e12, " T"}, {1e9, " G"}, {1e6, " M"}, {1e3, " k"}, {1, ""}};
  for (const auto& [scale, prefix] : kPrefixes) {
    const double scaled = value / scale;
    // A count below 1000 is shown whole: 0 steps, not 0.00.
    if (scale == 1 && value == std::trunc(value)) return fixed(value, 0);
    if (std::fabs(scaled) >= 1 || scale == 1) {
      const double magnitude = std::fabs(scaled);
      const int decimals = magnitude >= 99.95 ? 0 : magnitude >= 9.995 ? 1 : 2;
      return fixed(scaled, decimals) + prefix;
    }
  }
  return fixed(value, 2);
}

std::string duration(double seconds) {
  if (!std::isfinite(seconds)) return fixed(seconds, 0);
  if (seconds < 10) return fixed(seconds, 2) + " s";
  if (seconds < 60) return fixed(seconds, 1) + " s";
  const auto whole = static_cast<long long>(std::llround(seconds));
  char buffer[64];
  if (whole < 3600) {
    std::snprintf(buffer, sizeof buffer, "%lld min %lld s", whole / 60, whole % 60);
  } else {
    std::snprintf(buffer, sizeof buffer, "%lld h %02lld min", whole / 3600, whole / 60 % 60);
  }
  return buffer;
}

}  // namespace weightspace::report
