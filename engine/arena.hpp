// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <oneapi/tbb/task_arena.h>

namespace weightspace {

// A oneTBB arena of `threads` threads (0: every core oneTBB sees), created on first use and
// kept for the life of the process: a grade of short episodes takes about a millisecond, and
// setting up a fresh arena and waking its workers cost several percent of that.
tbb::task_arena& shared_arena(int threads);

}  // namespace weightspace
