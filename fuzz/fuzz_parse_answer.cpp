// SPDX-License-Identifier: GPL-3.0-or-later
// libFuzzer target: parse_answer on arbitrary bytes. It must never throw, crash or hang, and
// what it returns must be self-consistent.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "parser/answer.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace weightspace;
  const ParsedAnswer parsed = parse_answer(std::string_view(reinterpret_cast<const char*>(data), size));
  if (parsed.success != !parsed.error.has_value()) __builtin_trap();
  if (!parsed.success) {
    if (parsed.error->kind().empty()) __builtin_trap();
    return 0;
  }
  // apply_edits' final check held, and nonzero_weights counts what is there.
  std::int64_t nonzero = 0;
  for (const float value : parsed.weights.values()) {
    if (!std::isfinite(value) || std::fabs(value) > 1e6f) __builtin_trap();
    nonzero += value != 0.0f ? 1 : 0;
  }
  if (nonzero != parsed.nonzero_weights || parsed.edit_count < 0) __builtin_trap();
  return 0;
}
