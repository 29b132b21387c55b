// SPDX-License-Identifier: GPL-3.0-or-later
// libFuzzer target: assistant_answer (json.loads + verify.assistant_answer) on arbitrary bytes.
// Only EditError may escape, and an answer is always text a Python str could hold.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "parser/python/error.hpp"
#include "parser/trajectory.hpp"
#include "parser/utf8.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace weightspace;
  try {
    const std::string answer = assistant_answer(std::string_view(reinterpret_cast<const char*>(data), size));
    if (utf8::find_decode_problem(answer, utf8::Surrogates::Allow).has_value()) __builtin_trap();
    if (answer.size() > size) __builtin_trap();
  } catch (const EditError& error) {
    if (error.kind().empty()) __builtin_trap();
  }
  return 0;
}
