// SPDX-License-Identifier: GPL-3.0-or-later
#include "parser/fence.hpp"

#include <array>
#include <cstddef>

namespace weightspace {

namespace {

constexpr std::string_view kFence = "```";
constexpr std::size_t kNotFound = std::string_view::npos;

bool starts_with_at(std::string_view text, std::size_t position, std::string_view prefix) {
  return text.size() - position >= prefix.size() && text.compare(position, prefix.size(), prefix) == 0;
}

// Bytes of the character at `position` if Python's `\s` (str.isspace) matches it, else 0.
std::size_t whitespace_length(std::string_view text, std::size_t position) {
  if (position >= text.size()) return 0;
  const auto byte = static_cast<unsigned char>(text[position]);
  if ((byte >= 0x09 && byte <= 0x0D) || (byte >= 0x1C && byte <= 0x20)) return 1;
  // Every non-ASCII isspace character, in UTF-8.
  static constexpr std::array<std::string_view, 19> kUnicodeSpaces{
      "\xC2\x85",     "\xC2\xA0",     "\xE1\x9A\x80", "\xE2\x80\x80", "\xE2\x80\x81",
      "\xE2\x80\x82", "\xE2\x80\x83", "\xE2\x80\x84", "\xE2\x80\x85", "\xE2\x80\x86",
      "\xE2\x80\x87", "\xE2\x80\x88", "\xE2\x80\x89", "\xE2\x80\x8A", "\xE2\x80\xA8",
      "\xE2\x80\xA9", "\xE2\x80\xAF", "\xE2\x81\x9F", "\xE3\x80\x80"};
  if (byte != 0xC2 && byte != 0xE1 && byte != 0xE2 && byte != 0xE3) return 0;
  for (const std::string_view space : kUnicodeSpaces) {
    if (starts_with_at(text, position, space)) return space.size();
  }
  return 0;
}

// Bytes of the character at `position` if it matches `letter` of "edits" under re.IGNORECASE:
// sre lowercases the subject character and compares it with the letter and, for `i` and `s`,
// with the lowercase letters that share its uppercase (ı U+0131; ſ U+017F). İ U+0130
// lowercases to `i`. No other character lowercases to e, d, i, t, s, ı or ſ.
std::size_t letter_length(std::string_view text, std::size_t position, char letter) {
  if (position >= text.size()) return 0;
  const char byte = text[position];
  if (byte == letter || byte == letter - ('a' - 'A')) return 1;
  if (letter == 'i' && (starts_with_at(text, position, "\xC4\xB0") || starts_with_at(text, position, "\xC4\xB1"))) {
    return 2;
  }
  if (letter == 's' && starts_with_at(text, position, "\xC5\xBF")) return 2;
  return 0;
}

// Where the tag `edits` that starts at `position` ends, or kNotFound.
std::size_t match_tag(std::string_view text, std::size_t position) {
  for (const char letter : std::string_view("edits")) {
    const std::size_t length = letter_length(text, position, letter);
    if (length == 0) return kNotFound;
    position += length;
  }
  return position;
}

}  // namespace

std::optional<std::string_view> last_edits_block(std::string_view answer) {
  std::optional<std::string_view> last;
  std::size_t position = 0;
  while (true) {
    const std::size_t opening = answer.find(kFence, position);
    if (opening == kNotFound) break;
    // A failed attempt moves one character on, like re's scanner; fences only start at a
    // backtick, so the next candidate is the next ``` at or after opening + 1.
    position = opening + 1;
    const std::size_t after_tag = match_tag(answer, opening + kFence.size());
    if (after_tag == kNotFound) continue;
    // Greedy \s* then \n: the body starts after the last line feed of the whitespace run.
    std::size_t body = kNotFound;
    std::size_t cursor = after_tag;
    while (const std::size_t length = whitespace_length(answer, cursor)) {
      if (answer[cursor] == '\n') body = cursor + 1;
      cursor += length;
    }
    if (body == kNotFound) continue;
    const std::size_t closing = answer.find(kFence, body);
    // No ``` after this body means none after any later tag either: findall is done.
    if (closing == kNotFound) break;
    last = answer.substr(body, closing - body);
    position = closing + kFence.size();
  }
  return last;
}

}  // namespace weightspace
