// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace weightspace {

// Reading is linear in time and keeps little more than the candidate answers in memory.
// What the grader's main() computes from the bytes of /logs/trajectory.json:
//   verify.assistant_answer(json.loads(Path(...).read_text()))
// i.e. the content of the last assistant message of the last step that has one, returned as
// UTF-8 (WTF-8 when a JSON escape left a lone surrogate). Throws EditError where Python
// raises, with the exception's class as kind:
//  * UnicodeDecodeError: the bytes are not UTF-8 (read_text);
//  * JSONDecodeError, ValueError (an int of more than 4300 digits), RecursionError (nesting
//    deeper than 994): json.loads, see parser/json_reader.hpp;
//  * AttributeError / TypeError: assistant_answer on an unexpected shape, e.g. steps given
//    as a non-empty string or dict ("'str' object has no attribute 'get'"), steps = 5
//    ("'int' object is not reversible"), a content item whose text is null ("sequence item
//    0: expected str instance, NoneType found");
// each message carries Python's text, then the place in the document.
// read_text's newline translation (\r\n and a lone \r -> \n) is applied before json.loads:
// it changes no answer (raw CR/LF are not allowed inside JSON strings), but the lines, columns
// and characters that a JSONDecodeError counts.
std::string assistant_answer(std::string_view trajectory_json_text);

}  // namespace weightspace
