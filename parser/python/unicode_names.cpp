// SPDX-License-Identifier: GPL-3.0-or-later
// \N{name}: CPython 3.11's unicodedata _getcode over the generated tables. The rules (which
// names are computed, what ignores case) are checked against CPython by the generator.
#include <algorithm>
#include <array>
#include <bit>
#include <cstring>
#include <string>
#include <vector>

#include "parser/python/unicode_tables.hpp"

namespace weightspace {
namespace {

using unicode_data::kNameLayout;

// 1 to 6 upper-case hex digits, as CPython reads the computed names; lower case never matches.
std::optional<std::uint32_t> upper_hex(std::string_view digits) {
  if (digits.empty() || digits.size() > 6) return std::nullopt;
  std::uint32_t value = 0;
  for (const char digit : digits) {
    if (digit >= '0' && digit <= '9') {
      value = value * 16 + static_cast<std::uint32_t>(digit - '0');
    } else if (digit >= 'A' && digit <= 'F') {
      value = value * 16 + static_cast<std::uint32_t>(digit - 'A' + 10);
    } else {
      return std::nullopt;
    }
  }
  return value;
}

// CJK UNIFIED IDEOGRAPH-: four or five digits, so a leading zero is accepted ("04E00").
std::optional<char32_t> unified_ideograph(std::string_view digits) {
  if (digits.size() != 4 && digits.size() != 5) return std::nullopt;
  const auto value = upper_hex(digits);
  if (!value || !unicode_data::contains(unicode_data::kUnifiedIdeographs,
                                        unicode_data::kUnifiedIdeographsCount, *value)) {
    return std::nullopt;
  }
  return *value;
}

// The other prefix-and-"%04X" names are stored ones in CPython, so only their exact spelling
// (in any case, which `upper` has already folded) matches.
std::optional<char32_t> hex_named(std::string_view upper) {
  for (std::size_t index = 0; index < unicode_data::kHexNamedRangesCount; ++index) {
    const unicode_data::HexNamedRange& range = unicode_data::kHexNamedRanges[index];
    if (!upper.starts_with(range.prefix)) continue;
    const std::string_view digits = upper.substr(range.prefix.size());
    const auto value = upper_hex(digits);
    const std::size_t width = std::max<std::size_t>(4, (std::bit_width(value.value_or(0)) + 3) / 4);
    if (value && digits.size() == width && *value >= range.first && *value <= range.last) {
      return *value;
    }
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

// FNV-1a: names are short and the table is built once, so a simple byte hash does.
std::uint32_t hash_byte(std::uint32_t hash, char byte) {
  return (hash ^ static_cast<unsigned char>(byte)) * 16777619u;
}
constexpr std::uint32_t kHashStart = 2166136261u;

// The stored names, decoded once from kNameLayout, with an open-addressing hash index.
class NameIndex {
 public:
  NameIndex() {
    word_ends_.reserve(kNameLayout.word_count);
    name_ends_.reserve(kNameLayout.name_count);
    code_points_.reserve(kNameLayout.name_count);
    decode_words();
    decode_names();
    name_words_.shrink_to_fit();
    slots_.assign(std::bit_ceil(code_points_.size() * 3 / 2), 0);  // at most 2/3 full
    for (std::size_t entry = 0; entry < code_points_.size(); ++entry) {
      std::uint32_t hash = kHashStart;
      for_each_byte(entry, [&](char byte) { hash = hash_byte(hash, byte); });
      std::size_t slot = hash & (slots_.size() - 1);
      while (slots_[slot] != 0) slot = (slot + 1) & (slots_.size() - 1);
      slots_[slot] = static_cast<std::uint32_t>(entry + 1);
    }
  }

  // `upper`: the name in upper case.
  std::optional<char32_t> find(std::string_view upper) const {
    std::uint32_t hash = kHashStart;
    for (const char byte : upper) hash = hash_byte(hash, byte);
    for (std::size_t slot = hash & (slots_.size() - 1); slots_[slot] != 0;
         slot = (slot + 1) & (slots_.size() - 1)) {
      if (is_name(slots_[slot] - 1, upper)) return code_points_[slots_[slot] - 1];
    }
    return std::nullopt;
  }

  void for_each(const std::function<void(std::string_view, char32_t)>& visit) const {
    std::string name;
    for (std::size_t entry = 0; entry < code_points_.size(); ++entry) {
      name.clear();
      for_each_byte(entry, [&](char byte) { name += byte; });
      visit(name, code_points_[entry]);
    }
  }

 private:
  std::string_view word(std::uint16_t id) const {
    const std::uint32_t begin = id == 0 ? 0 : word_ends_[id - 1];
    return std::string_view(words_).substr(begin, word_ends_[id] - begin);
  }

  bool is_name(std::size_t entry, std::string_view upper) const {
    const std::uint32_t begin = entry == 0 ? 0 : name_ends_[entry - 1];
    std::size_t at = 0;
    for (std::uint32_t index = begin; index < name_ends_[entry]; ++index) {
      if (index != begin && (at == upper.size() || upper[at++] != ' ')) return false;
      const std::string_view text = word(name_words_[index]);
      if (upper.substr(at, text.size()) != text) return false;
      at += text.size();
    }
    return at == upper.size();
  }

  template <class Visit>
  void for_each_byte(std::size_t entry, Visit&& visit) const {
    const std::uint32_t begin = entry == 0 ? 0 : name_ends_[entry - 1];
    for (std::uint32_t index = begin; index < name_ends_[entry]; ++index) {
      if (index != begin) visit(' ');
      for (const char byte : word(name_words_[index])) visit(byte);
    }
  }

  // Each word is 'a' + the length it shares with the previous word, then the rest of it.
  void decode_words() {
    const std::string_view text(kNameLayout.words, kNameLayout.words_size);
    std::string current;
    for (std::size_t at = 0; at < text.size();) {
      current.resize(static_cast<std::size_t>(text[at++] - 'a'));
      while (at < text.size() && !(text[at] >= 'a' && text[at] <= 'z')) current += text[at++];
      words_ += current;
      word_ends_.push_back(static_cast<std::uint32_t>(words_.size()));
    }
  }

  // The stream's grammar is in generate_unicode_tables.py (encode_names).
  void decode_names() {
    std::array<unsigned, 128> value{};
    const unsigned base = static_cast<unsigned>(std::strlen(kNameLayout.digits));
    for (unsigned digit = 0; digit < base; ++digit) {
      value[static_cast<unsigned char>(kNameLayout.digits[digit])] = digit;
    }
    const std::string_view stream(kNameLayout.stream, kNameLayout.stream_size);
    std::size_t at = 0;
    const auto next = [&] { return value[static_cast<unsigned char>(stream[at++])]; };
    const unsigned gap = kNameLayout.repeats;
    const unsigned first_word = gap + 1;
    const unsigned tier2 = first_word + kNameLayout.tier1;
    const unsigned tier3 = tier2 + kNameLayout.tier2;
    std::int64_t code_point = -1;
    std::uint32_t previous = 0;  // where the previous entry's words start
    while (at < stream.size()) {
      std::int64_t delta = 1;
      unsigned digit = next();
      if (digit == gap) {
        delta = 0;
        for (unsigned place = 0; place < kNameLayout.gap_digits; ++place) {
          delta = delta * base + next();
        }
        digit = next();
      }
      code_point += delta;
      const auto begin = static_cast<std::uint32_t>(name_words_.size());
      for (unsigned repeated = 0; repeated < digit; ++repeated) {
        const std::uint16_t id = name_words_[previous + repeated];
        name_words_.push_back(id);
      }
      while (at < stream.size() && value[static_cast<unsigned char>(stream[at])] >= first_word) {
        const unsigned lead = next();
        unsigned id = lead - first_word;
        if (lead >= tier3) {
          id = kNameLayout.tier1 + kNameLayout.tier2 * base + (lead - tier3) * base * base;
          id += next() * base;
          id += next();
        } else if (lead >= tier2) {
          id = kNameLayout.tier1 + (lead - tier2) * base + next();
        }
        name_words_.push_back(static_cast<std::uint16_t>(id));
      }
      name_ends_.push_back(static_cast<std::uint32_t>(name_words_.size()));
      code_points_.push_back(static_cast<char32_t>(code_point));
      previous = begin;
    }
  }

  std::string words_;                      // the lexicon, words back to back
  std::vector<std::uint32_t> word_ends_;   // where each word ends in words_
  std::vector<std::uint16_t> name_words_;  // the word ids of every name, back to back
  std::vector<std::uint32_t> name_ends_;   // where each name ends in name_words_
  std::vector<char32_t> code_points_;
  std::vector<std::uint32_t> slots_;  // entry + 1 at the name's hash (or after it), 0 = free
};

// Built at the first stored-name lookup, not at start-up; a function-local static is
// initialised once even when threads race to it.
const NameIndex& name_index() {
  static const NameIndex index;
  return index;
}

}  // namespace

std::optional<char32_t> lookup_character_name(std::string_view name) {
  constexpr std::string_view kHangulPrefix = "HANGUL SYLLABLE ";
  constexpr std::string_view kUnifiedPrefix = "CJK UNIFIED IDEOGRAPH-";
  if (name.starts_with(kHangulPrefix)) return hangul_syllable(name.substr(kHangulPrefix.size()));
  if (name.starts_with(kUnifiedPrefix)) {
    return unified_ideograph(name.substr(kUnifiedPrefix.size()));
  }
  // CPython compares stored names after Py_TOUPPER, which folds ASCII only; no name has any
  // other character (the source's non-ASCII even reaches it rewritten as \U escapes).
  std::string upper(name);
  for (char& letter : upper) {
    if (static_cast<unsigned char>(letter) >= 0x80) return std::nullopt;
    if (letter >= 'a' && letter <= 'z') letter = static_cast<char>(letter - 'a' + 'A');
  }
  if (const auto code_point = hex_named(upper)) return code_point;
  return name_index().find(upper);
}

void unicode_data::for_each_stored_name(
    const std::function<void(std::string_view, char32_t)>& visit) {
  name_index().for_each(visit);
}

}  // namespace weightspace
