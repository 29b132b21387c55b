// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstddef>
#include <string_view>

namespace weightspace {

// A reader for exactly the JSON that Python 3.11's json.loads(text) accepts with default
// arguments (its C scanner), which is more than RFC 8259 and more than nlohmann::json reads:
//  * NaN, Infinity and -Infinity are numbers;
//  * an object may repeat a key (the dict keeps the last value);
//  * \uD800..\uDFFF escapes that do not form a pair become lone surrogates (kept as WTF-8);
//  * integers have any size, but more than 4300 digits raise ValueError (int_max_str_digits);
//  * containers nested deeper than the interpreter's recursion limit raise RecursionError.
// And it rejects what json.loads rejects, with the same exception class: JSONDecodeError
// ("Expecting value: line 1 column 5 (char 4)", Python's message and position, counted in
// code points), including a leading U+FEFF ("Unexpected UTF-8 BOM").
//
// The reader does not build a tree; it reports the document in order to a JsonEvents
// receiver, so a caller keeps only what it needs and memory stays bounded by the input.

enum class JsonType { Null, Bool, Int, Float, String, Array, Object };

// Python's type(value).__name__ for what json.loads makes of each JSON type.
const char* python_type_name(JsonType type);

struct JsonScalar {
  JsonType type = JsonType::Null;
  bool truthy = false;      // bool(value) in Python: 0, -0, 0.0, 1e-400, "", false, null are false
  std::string_view text;    // String: the decoded value (WTF-8); numbers: the literal as written
  std::size_t offset = 0;   // byte offset of the value in the document
};

class JsonEvents {
 public:
  virtual ~JsonEvents() = default;
  // type is Array or Object; offset is that of the opening bracket.
  virtual void begin_container(JsonType type, std::size_t offset) = 0;
  // `closing` is the offset of the closing bracket.
  virtual void end_container(std::size_t closing) = 0;
  // Inside an object, before each value: the decoded key (WTF-8).
  virtual void key(std::string_view key) = 0;
  virtual void scalar(const JsonScalar& value) = 0;
};

// Containers json.loads can nest when the grader calls it (verify.main -> json.loads ->
// JSONDecoder.decode -> raw_decode: five Python frames under the recursion limit of 1000).
// Measured with CPython 3.11: depth 994 loads, 995 raises RecursionError.
inline constexpr int kPythonJsonMaxDepth = 994;

// Reads `text` (a Python str as UTF-8/WTF-8) like json.loads; throws EditError on what
// json.loads raises, after delivering the events for everything before the error.
void read_python_json(std::string_view text, JsonEvents& events);

// Python's bool(float(literal)) for a JSON number literal such as "-0.0e7" or "2e-324":
// false exactly when the value rounds to zero in binary64.
bool json_float_is_nonzero(std::string_view literal);

}  // namespace weightspace
