// SPDX-License-Identifier: GPL-3.0-or-later
#include <algorithm>
#include <array>
#include <cstring>
#include <string>

#include "parser/python/unicode_tables.hpp"

namespace weightspace {
namespace {

using unicode_data::CodePointRange;

bool in_ranges(const CodePointRange* table, std::size_t count, char32_t code_point) {
  const CodePointRange* end = table + count;
  const CodePointRange* found = std::upper_bound(
      table, end, static_cast<std::uint32_t>(code_point),
      [](std::uint32_t value, const CodePointRange& range) { return value < range.first; });
  return found != table && code_point <= (found - 1)->last;
}

// CPython's unicodedata computes these names instead of storing them; the prefixes and hex
// digits compare case-sensitively there (unlike the stored names).
constexpr std::array<CodePointRange, 8> kUnifiedIdeographs{{{0x3400, 0x4DBF},
                                                             {0x4E00, 0x9FFF},
                                                             {0x20000, 0x2A6DF},
                                                             {0x2A700, 0x2B738},
                                                             {0x2B740, 0x2B81D},
                                                             {0x2B820, 0x2CEA1},
                                                             {0x2CEB0, 0x2EBE0},
                                                             {0x30000, 0x3134A}}};

std::optional<char32_t> unified_ideograph(std::string_view hex_digits) {
  if (hex_digits.size() != 4 && hex_digits.size() != 5) return std::nullopt;
  std::uint32_t value = 0;
  for (char digit : hex_digits) {
    if (digit >= '0' && digit <= '9') {
      value = value * 16 + static_cast<std::uint32_t>(digit - '0');
    } else if (digit >= 'A' && digit <= 'F') {
      value = value * 16 + static_cast<std::uint32_t>(digit - 'A' + 10);
    } else {
      return std::nullopt;
    }
  }
  for (const CodePointRange& range : kUnifiedIdeographs) {
    if (value >= range.first && value <= range.last) return value;
  }
  return std::nullopt;
}

constexpr std::array<const char*, 19> kLeadingJamo{"G", "GG", "N", "D", "DD", "R", "M",
                                                   "B", "BB", "S", "SS", "",  "J", "JJ",
                                                   "C", "K",  "T", "P", "H"};
constexpr std::array<const char*, 21> kVowelJamo{"A",  "AE", "YA", "YAE", "EO", "E",  "YEO",
                                                 "YE", "O",  "WA", "WAE", "OE", "YO", "U",
                                                 "WEO", "WE", "WI", "YU", "EU", "YI", "I"};
constexpr std::array<const char*, 28> kTrailingJamo{
    "",   "G",  "GG", "GS", "N",  "NJ", "NH", "D",  "L", "LG", "LM", "LB", "LS", "LT",
    "LP", "LH", "M",  "B",  "BS", "S",  "SS", "NG", "J", "C",  "K",  "T",  "P",  "H"};

// The longest jamo name that starts `text`, as unicodedata's find_syllable picks it.
template <std::size_t N>
int longest_jamo(std::string_view text, const std::array<const char*, N>& names,
                 std::size_t& length) {
  int best = -1;
  int best_length = -1;
  for (std::size_t index = 0; index < N; ++index) {
    const int name_length = static_cast<int>(std::strlen(names[index]));
    if (name_length <= best_length) continue;
    if (text.substr(0, static_cast<std::size_t>(name_length)) == names[index]) {
      best = static_cast<int>(index);
      best_length = name_length;
    }
  }
  length = best_length < 0 ? 0 : static_cast<std::size_t>(best_length);
  return best;
}

std::optional<char32_t> hangul_syllable(std::string_view rest) {
  std::size_t length = 0;
  const int leading = longest_jamo(rest, kLeadingJamo, length);
  rest.remove_prefix(length);
  const int vowel = longest_jamo(rest, kVowelJamo, length);
  rest.remove_prefix(length);
  const int trailing = longest_jamo(rest, kTrailingJamo, length);
  rest.remove_prefix(length);
  if (leading < 0 || vowel < 0 || trailing < 0 || !rest.empty()) return std::nullopt;
  return static_cast<char32_t>(0xAC00 + (leading * 21 + vowel) * 28 + trailing);
}

}  // namespace

bool is_xid_start(char32_t code_point) {
  if (code_point < 0x80) {
    return (code_point >= 'a' && code_point <= 'z') || (code_point >= 'A' && code_point <= 'Z');
  }
  return in_ranges(unicode_data::kXidStart, unicode_data::kXidStartCount, code_point);
}

bool is_xid_continue(char32_t code_point) {
  if (code_point < 0x80) {
    return (code_point >= 'a' && code_point <= 'z') || (code_point >= 'A' && code_point <= 'Z') ||
           (code_point >= '0' && code_point <= '9') || code_point == '_';
  }
  return in_ranges(unicode_data::kXidContinue, unicode_data::kXidContinueCount, code_point);
}

bool is_printable(char32_t code_point) {
  return in_ranges(unicode_data::kPrintable, unicode_data::kPrintableCount, code_point);
}

std::optional<char32_t> lookup_character_name(std::string_view name) {
  constexpr std::string_view kHangulPrefix = "HANGUL SYLLABLE ";
  constexpr std::string_view kIdeographPrefix = "CJK UNIFIED IDEOGRAPH-";
  if (name.starts_with(kHangulPrefix)) return hangul_syllable(name.substr(kHangulPrefix.size()));
  if (name.starts_with(kIdeographPrefix)) {
    return unified_ideograph(name.substr(kIdeographPrefix.size()));
  }
  std::string upper(name);
  for (char& letter : upper) {
    if (letter >= 'a' && letter <= 'z') letter = static_cast<char>(letter - 'a' + 'A');
  }
  const auto* table = unicode_data::kNamedCharacters;
  const auto* end = table + unicode_data::kNamedCharactersCount;
  const auto* found = std::lower_bound(
      table, end, upper, [](const unicode_data::NamedCharacter& entry, const std::string& key) {
        return std::string_view(entry.name) < std::string_view(key);
      });
  if (found != end && std::string_view(found->name) == upper) return found->code_point;
  return std::nullopt;
}

}  // namespace weightspace
