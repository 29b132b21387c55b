// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>

namespace weightspace {

// Whether a Lockstep has a game that writes its observation leave out the inputs its policy
// does not read (games/input_filter.hpp). Filtering costs a few instructions per observation
// and saves layer 1 a zero row per input left out, but a list of varying length also costs
// layer 1 its masked tail, where the unfiltered lists of a game are often all as long (17 for
// every original freeway step). Measured on the writing games' grades (docs/performance.md):
// it paid where at most a tenth of the inputs written were read (random answers, the synth
// freeway example), and lost up to 5% where 44% were (the original freeway example). So the
// first kTrialInputs written inputs are counted, and the filter stays on for the run only if
// at most a quarter of them were read. Results never depend on it.
class FilterChoice {
 public:
  static constexpr std::int64_t kTrialInputs = 1 << 14;

  bool trying() const { return written_ < kTrialInputs; }
  bool filtering() const { return 4 * kept_ <= written_; }

  // An observation of the trial: `written` inputs listed, `kept` of them read.
  void saw(int written, int kept) {
    written_ += written;
    kept_ += kept;
  }

 private:
  std::int64_t written_ = 0;
  std::int64_t kept_ = 0;
};

}  // namespace weightspace
