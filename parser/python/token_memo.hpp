// SPDX-License-Identifier: GPL-3.0-or-later
// Flags per token standing in for pegen's memo where the parser needs it: whether a rule was
// already tried at a token, and how. Indexed like Parser::tokens_ (dropped in step with them).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace weightspace::python {

class TokenMemo {
 public:
  // Sets `flag` at `position`; tells whether it was set already.
  bool test_and_set(std::size_t position, std::uint32_t flag) {
    if (position >= flags_.size()) flags_.resize(position + 1);
    const bool was_set = (flags_[position] & flag) != 0;
    flags_[position] |= flag;
    return was_set;
  }
  bool test(std::size_t position, std::uint32_t flag) const {
    return position < flags_.size() && (flags_[position] & flag) != 0;
  }
  void drop_front(std::size_t count) {
    flags_.erase(flags_.begin(),
                 flags_.begin() + static_cast<std::ptrdiff_t>(std::min(count, flags_.size())));
  }
  void clear() { flags_.clear(); }

 private:
  std::vector<std::uint32_t> flags_;
};

}  // namespace weightspace::python
