// SPDX-License-Identifier: GPL-3.0-or-later
// The generated Unicode tables against tests/golden/unicode_reference.json, which
// tests/support/record_unicode_reference.py records from the grader's Python alone: repr() of
// every code point, and every name and alias \N{} accepts.
#include <nettle/sha2.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "parser/python/python_float.hpp"
#include "parser/python/unicode_tables.hpp"
#include "support/golden.hpp"

namespace weightspace {
namespace {

class Sha256 {
 public:
  Sha256() { sha256_init(&context_); }
  void add(std::string_view bytes) {
    sha256_update(&context_, bytes.size(), reinterpret_cast<const std::uint8_t*>(bytes.data()));
  }
  std::string hex() {
    std::array<std::uint8_t, SHA256_DIGEST_SIZE> digest{};
    sha256_digest(&context_, digest.size(), digest.data());
    std::string text;
    char buffer[3];
    for (const std::uint8_t byte : digest) {
      std::snprintf(buffer, sizeof buffer, "%02x", byte);
      text += buffer;
    }
    return text;
  }

 private:
  sha256_ctx context_{};
};

std::string hex(std::uint32_t value, int width) {
  char buffer[16];
  std::snprintf(buffer, sizeof buffer, "%0*X", width, value);
  return buffer;
}

TEST(UnicodeTables, ReprOfEveryCodePointIsPythons) {
  const nlohmann::json& reference = testing::golden("unicode_reference.json");
  const auto size = reference["repr_block_size"].get<std::uint32_t>();
  const auto& blocks = reference["repr_blocks"];
  ASSERT_EQ(blocks.size() * size, 0x110000u);
  for (std::uint32_t block = 0; block < blocks.size(); ++block) {
    const std::uint32_t first = block * size;
    const std::uint32_t last = first + size - 1;
    Sha256 sha;
    std::string escaped;  // the ranges the block escapes, to tell where a difference is
    for (std::uint32_t code_point = first; code_point <= last; ++code_point) {
      sha.add(python_repr_str(std::u32string(1, static_cast<char32_t>(code_point))) + "\n");
      if (is_printable(code_point)) continue;
      if (code_point == first || is_printable(code_point - 1)) escaped += " U+" + hex(code_point, 4);
      if (code_point == last || is_printable(code_point + 1)) escaped += "..U+" + hex(code_point, 4);
    }
    EXPECT_EQ(sha.hex().substr(0, 16), blocks[block].get<std::string>())
        << "repr() differs from Python's in U+" << hex(first, 4) << "..U+" << hex(last, 4)
        << "; not printable here:" << escaped;
  }
}

std::string lower(std::string text) {
  for (char& letter : text) {
    if (letter >= 'A' && letter <= 'Z') letter = static_cast<char>(letter - 'A' + 'a');
  }
  return text;
}

// The Hangul syllable names by the Unicode standard's own rule (chapter 3.12), not by the
// parser's: leading consonant, vowel and optional trailing consonant jamo.
std::string hangul_name(std::uint32_t code_point) {
  static const std::array<const char*, 19> leading{"G", "GG", "N", "D",  "DD", "R", "M",
                                                   "B", "BB", "S", "SS", "",   "J", "JJ",
                                                   "C", "K",  "T", "P",  "H"};
  static const std::array<const char*, 21> vowel{"A",  "AE", "YA", "YAE", "EO", "E",  "YEO",
                                                 "YE", "O",  "WA", "WAE", "OE", "YO", "U",
                                                 "WEO", "WE", "WI", "YU", "EU", "YI", "I"};
  static const std::array<const char*, 28> trailing{
      "",   "G",  "GG", "GS", "N",  "NJ", "NH", "D",  "L", "LG", "LM", "LB", "LS", "LT",
      "LP", "LH", "M",  "B",  "BS", "S",  "SS", "NG", "J", "C",  "K",  "T",  "P",  "H"};
  const std::uint32_t index = code_point - 0xAC00;
  return std::string("HANGUL SYLLABLE ") + leading[index / (21 * 28)] + vowel[index / 28 % 21] +
         trailing[index % 28];
}

// Every name the tables know, looked up in its own spelling and in lower case; together they
// must be exactly the names Python's \N{} accepts.
TEST(UnicodeTables, EveryNameAndAliasIsPythons) {
  std::vector<std::pair<std::uint32_t, std::string>> names;
  const auto check = [&](std::string name, std::uint32_t code_point, bool any_case) {
    const auto found = lookup_character_name(name);
    EXPECT_TRUE(found && *found == code_point) << name;
    const auto lower_found = lookup_character_name(lower(name));
    if (any_case) {
      EXPECT_TRUE(lower_found && *lower_found == code_point) << lower(name);
    } else {
      EXPECT_FALSE(lower_found) << lower(name);
    }
    names.emplace_back(code_point, std::move(name));
  };
  std::size_t stored = 0;
  unicode_data::for_each_stored_name([&](std::string_view name, char32_t code_point) {
    check(std::string(name), code_point, true);
    ++stored;
  });
  EXPECT_EQ(stored, unicode_data::kNameLayout.name_count);
  for (std::size_t index = 0; index < unicode_data::kUnifiedIdeographsCount; ++index) {
    const auto& range = unicode_data::kUnifiedIdeographs[index];
    for (std::uint32_t code_point = range.first; code_point <= range.last; ++code_point) {
      check("CJK UNIFIED IDEOGRAPH-" + hex(code_point, 4), code_point, false);
    }
  }
  for (std::size_t index = 0; index < unicode_data::kHexNamedRangesCount; ++index) {
    const auto& range = unicode_data::kHexNamedRanges[index];
    for (std::uint32_t code_point = range.first; code_point <= range.last; ++code_point) {
      check(std::string(range.prefix) + hex(code_point, 4), code_point, true);
    }
  }
  for (std::uint32_t code_point = 0xAC00; code_point <= 0xD7A3; ++code_point) {
    check(hangul_name(code_point), code_point, false);
  }
  std::sort(names.begin(), names.end());
  Sha256 sha;
  for (const auto& [code_point, name] : names) sha.add(hex(code_point, 1) + " " + name + "\n");
  const nlohmann::json& reference = testing::golden("unicode_reference.json")["names"];
  EXPECT_EQ(names.size(), reference["count"].get<std::size_t>());
  EXPECT_EQ(sha.hex(), reference["sha256"].get<std::string>());
}

// What \N{} refuses although a name is close: CPython's rules, recorded in
// tests/golden/edge_cases/unicode.json through the whole parser; here the lookup alone.
TEST(UnicodeTables, NearNamesAreUnknown) {
  for (const char* name :
       {"", " SNOWMAN", "SNOWMAN ", "SNOW  MAN", "SNOW MAN", "SNOWMAN\xC2\xA0", "VS257",
        "LATIN CAPITAL LETTER A WITH MACRON AND GRAVE", "CJK UNIFIED IDEOGRAPH-4e00",
        "cjk unified ideograph-4E00", "CJK UNIFIED IDEOGRAPH-031340", "CJK UNIFIED IDEOGRAPH-",
        "CJK COMPATIBILITY IDEOGRAPH-0F900", "NUSHU CHARACTER-1B2FC", "TANGUT IDEOGRAPH-17000",
        "HANGUL SYLLABLE ", "HANGUL SYLLABLE GAX", "hangul syllable GA"}) {
    EXPECT_FALSE(lookup_character_name(name)) << '"' << name << '"';
  }
  EXPECT_EQ(lookup_character_name("CJK UNIFIED IDEOGRAPH-04E00"), U'\u4E00');
  EXPECT_EQ(lookup_character_name("Byte Order Mark"), U'\uFEFF');
}

}  // namespace
}  // namespace weightspace
