// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <array>
#include <cstdint>
#include <cstring>

namespace weightspace {

// Eight int8 lanes as one vector (GCC's and Clang's vector extension, compiled to the target's
// SIMD instructions: SSE2 at least on x86-64), for games whose state holds one byte per lane or
// car (the freeways): their per-step update is branch-free arithmetic per lane, which GCC left
// as a scalar loop. Lanes wrap modulo 256 as int8 does. Comparisons give -1 (all bits set) in
// a lane where they hold and 0 elsewhere: masks.
using ByteLanes8 = std::int8_t __attribute__((vector_size(8)));

inline ByteLanes8 load_lanes(const std::array<std::int8_t, 8>& bytes) {
  ByteLanes8 lanes;
  std::memcpy(&lanes, bytes.data(), sizeof lanes);
  return lanes;
}

inline void store_lanes(std::array<std::int8_t, 8>& bytes, ByteLanes8 lanes) {
  std::memcpy(bytes.data(), &lanes, sizeof lanes);
}

// Python's `% 10` of a column at most one cell off the grid on either side.
inline ByteLanes8 wrap_columns(ByteLanes8 columns) {
  columns += (columns < 0) & 10;
  columns -= (columns >= 10) & 10;
  return columns;
}

}  // namespace weightspace
