// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string_view>

namespace weightspace {

// What the Python 3.11 tokenizer, string decoder and repr() ask CPython's Unicode 14.0
// database. The data (unicode_tables.cpp, unicode_names_data.cpp) is generated from the
// grader's own Python by generate_unicode_tables.py.
bool is_xid_start(char32_t code_point);
bool is_xid_continue(char32_t code_point);
bool is_printable(char32_t code_point);  // str.isprintable(), as repr() asks it

// The code point \N{name} denotes, as CPython 3.11 looks it up (unicodedata.c, _getcode):
// every character name and every alias of the five kinds (not the named sequences, which only
// unicodedata.lookup() accepts), in any case; the computed names "CJK UNIFIED IDEOGRAPH-" and
// "HANGUL SYLLABLE " only with that prefix, their hex digits and jamo in upper case.
std::optional<char32_t> lookup_character_name(std::string_view name);

namespace unicode_data {

struct CodePointRange {
  std::uint32_t first, last;
};
// Whether `code_point` is in one of the sorted, disjoint ranges table[0..count).
bool contains(const CodePointRange* table, std::size_t count, char32_t code_point);

// Names made of a prefix and the code point as "%04X" (stored, so in any case, in CPython).
struct HexNamedRange {
  std::string_view prefix;
  std::uint32_t first, last;
};

// The other names and aliases, in unicode_names_data.cpp; generate_unicode_tables.py
// (encode_names, Lexicon) describes the encoding and unicode_names.cpp decodes it.
struct NameTableLayout {
  const char* digits;            // the digits of the stream, in the order of their values
  unsigned repeats;              // digits below this start an entry
  unsigned tier1, tier2;         // one-digit word codes; lead digits of two-digit codes
  unsigned gap_digits;           // digits after the gap digit (which is `repeats`)
  std::size_t word_count, name_count;
  const char* words;
  std::size_t words_size;
  const char* stream;
  std::size_t stream_size;
};

extern const CodePointRange kXidStart[];
extern const std::size_t kXidStartCount;
extern const CodePointRange kXidContinue[];
extern const std::size_t kXidContinueCount;
extern const CodePointRange kPrintable[];
extern const std::size_t kPrintableCount;
extern const CodePointRange kUnifiedIdeographs[];
extern const std::size_t kUnifiedIdeographsCount;
extern const HexNamedRange kHexNamedRanges[];
extern const std::size_t kHexNamedRangesCount;
extern const NameTableLayout kNameLayout;

// Calls `visit` with every name and alias of kNameLayout's table and its code point.
void for_each_stored_name(const std::function<void(std::string_view, char32_t)>& visit);

}  // namespace unicode_data
}  // namespace weightspace
