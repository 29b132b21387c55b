// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <span>

namespace weightspace {

// float(np.mean(values)) for a float64 array: numpy's add.reduce (starting from 0.0, then
// its pairwise summation in blocks of 128 with eight accumulators) divided by the count.
// NaN for no values, as numpy (which also warns). For integer-valued scores every order gives
// the same sum; the exact order matters once rewards are fractional.
double numpy_mean(std::span<const double> values);

}  // namespace weightspace
