// SPDX-License-Identifier: GPL-3.0-or-later
#include <algorithm>

#include "parser/python/unicode_tables.hpp"

namespace weightspace {

bool unicode_data::contains(const CodePointRange* table, std::size_t count, char32_t code_point) {
  const CodePointRange* end = table + count;
  const CodePointRange* found = std::upper_bound(
      table, end, static_cast<std::uint32_t>(code_point),
      [](std::uint32_t value, const CodePointRange& range) { return value < range.first; });
  return found != table && code_point <= (found - 1)->last;
}

bool is_xid_start(char32_t code_point) {
  if (code_point < 0x80) {
    return (code_point >= 'a' && code_point <= 'z') || (code_point >= 'A' && code_point <= 'Z');
  }
  return unicode_data::contains(unicode_data::kXidStart, unicode_data::kXidStartCount, code_point);
}

bool is_xid_continue(char32_t code_point) {
  if (code_point < 0x80) {
    return (code_point >= 'a' && code_point <= 'z') || (code_point >= 'A' && code_point <= 'Z') ||
           (code_point >= '0' && code_point <= '9') || code_point == '_';
  }
  return unicode_data::contains(unicode_data::kXidContinue, unicode_data::kXidContinueCount,
                                code_point);
}

bool is_printable(char32_t code_point) {
  return unicode_data::contains(unicode_data::kPrintable, unicode_data::kPrintableCount,
                                code_point);
}

}  // namespace weightspace
