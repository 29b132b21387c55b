# SPDX-License-Identifier: GPL-3.0-or-later
"""One module per synth game, each defining exactly one `<Name>Environment` class.

Every class follows the same contract (the conformance kit and the C++ ports rely on it):
`score_cap` class attribute; `__init__(sticky_action_prob=0.1)` creates `self.random`, sets
`self.sticky_action_prob` and `self.last_action = 0`, then calls `reset()`; `seed(seed)`
replaces `self.random` with `np.random.RandomState(seed)`; `reset()` may draw from
`self.random` but leaves `last_action` alone; `act(a)` first draws the sticky-action test
(`self.random.rand() < self.sticky_action_prob` repeats `last_action`), records the action,
and returns `(0, True)` without drawing more once the episode is over; `state()` returns a
(10, 10, 6) bool array in the canonical layout described in the package docstring.
"""
