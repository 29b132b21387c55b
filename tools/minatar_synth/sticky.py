# SPDX-License-Identifier: GPL-3.0-or-later
"""The part of the synth class contract every game shares: the generator, seeding and the
sticky action, exactly as MinAtar's Environment wrapper does them (and as weightspace's
Environment<G> does for the C++ ports).

The class name does not end in "Environment", so verify.py's lookup of the one
`*Environment` class defined in a game module never sees it.
"""

import numpy as np


class StickyActionGame:
    """Subclasses define `score_cap`, `reset()`, `state()` and `_act(a)`, the game's own step
    for the action actually taken."""

    def __init__(self, sticky_action_prob=0.1):
        self.random = np.random.RandomState()
        self.sticky_action_prob = sticky_action_prob
        self.last_action = 0
        self.reset()

    def seed(self, seed=None):
        if seed is not None:
            self.random = np.random.RandomState(seed)

    def act(self, a):
        # The sticky test is the first draw of every step, before any of the game's own.
        if self.random.rand() < self.sticky_action_prob:
            a = self.last_action
        self.last_action = a
        return self._act(a)
