// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <optional>
#include <string_view>

namespace weightspace {

// The body of the last ```edits block, exactly what the grader's
//   re.findall(r"```edits\s*\n(.*?)```", answer, re.DOTALL | re.IGNORECASE)[-1]
// returns, or nullopt when findall finds nothing. `answer` is UTF-8 (WTF-8 with lone
// surrogates); the result is a view into it. Python's re semantics that matter:
//  * matches do not overlap and are searched left to right: after a match the scan resumes
//    behind its closing ```;
//  * `edits` is matched case-insensitively with Unicode simple case folding, so besides ASCII
//    case `ı` (U+0131) and `İ` (U+0130) match `i`, and `ſ` (U+017F) matches `s`;
//  * `\s` is str.isspace (includes U+001C..U+001F, U+0085, U+00A0, U+1680, U+2000..U+200A,
//    U+2028, U+2029, U+202F, U+205F, U+3000, \v, \f) and `\s*\n` backtracks to the LAST line
//    feed of the whitespace after the tag, so the body keeps the first line's indentation;
//  * the lazy body ends at the first ``` after it, wherever that is.
// Runs in time linear in the answer size whatever the input (any bytes are safe).
std::optional<std::string_view> last_edits_block(std::string_view answer);

}  // namespace weightspace
