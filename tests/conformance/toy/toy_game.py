# SPDX-License-Identifier: GPL-3.0-or-later
"""Toy catch game: the Python half of the conformance kit's end-to-end test.

Not a game anyone grades: a small, complete example of the synth class contract
(docs/adding-a-game.md) whose C++ port is tests/conformance/toy_game.hpp. It is built to
exercise what makes ports go wrong:
  * draws in reset() (the player's column, the first object's lane) and in act() (the
    sticky-action test, a spawn chance, the object's kind, its lane);
  * a draw whose result is unused: the kind is drawn before looking for a free lane, and is
    thrown away when no lane is free;
  * randint(1), which draws nothing, when exactly one lane is free;
  * list handling: objects live in a Python list, filtered into a new list each step (never
    mutated while iterated), and a shot hits the first object in list order;
  * int and float rewards: a caught target gives int 1, a shot hazard float 1.0.

The player (channel 0) moves along row 9 (1 left, 3 right) and fires (5) a shot (channel 3)
that rises one row per step. Objects fall one row per step down lanes 1, 4 and 7: hazards
(channel 1) cost a life when they reach the player, targets (channel 2) score when caught.
Channel 4 is the cell each object fell from, channel 5 the remaining lives (row 0 from
column 9 leftwards). The game ends with the last life or after 300 steps.
"""

import numpy as np

LANES = [1, 4, 7]
SPAWN_CHANCE = 0.45
# A lane takes a new object only when no object in it is above this row (after the fall).
LANE_CLEAR_ROW = 3
LIVES = 3
TIME_LIMIT = 300
HAZARD, TARGET = 0, 1


class ToyEnvironment:
    score_cap = 50.0
    channel_names = ["player", "hazard", "target", "shot", "trail", "lives"]

    def __init__(self, sticky_action_prob=0.1):
        self.random = np.random.RandomState()
        self.sticky_action_prob = sticky_action_prob
        self.last_action = 0
        self.reset()

    def seed(self, seed=None):
        if seed is not None:
            self.random = np.random.RandomState(seed)

    def reset(self):
        self.player = self.random.randint(1, 9)
        # Each object is [x, y, kind, last_y]; last_y is where it fell from (-1: nowhere).
        self.objects = [[LANES[self.random.randint(len(LANES))], 0, TARGET, -1]]
        self.shot = None
        self.lives = LIVES
        self.time = 0
        self.terminal = False

    def act(self, a):
        if self.random.rand() < self.sticky_action_prob:
            a = self.last_action
        self.last_action = a
        if self.terminal:
            return 0, True

        reward = 0
        if a == 1:
            self.player = max(0, self.player - 1)
        elif a == 3:
            self.player = min(9, self.player + 1)
        if self.shot is not None:
            self.shot[1] -= 1
            if self.shot[1] < 0:
                self.shot = None
        if a == 5 and self.shot is None:
            self.shot = [self.player, 8]

        kept = []
        for obj in self.objects:
            obj[3] = obj[1]
            obj[1] += 1
            if obj[1] > 9:
                continue
            if self.shot is not None and self.shot[0] == obj[0] and self.shot[1] == obj[1]:
                if obj[2] == HAZARD:
                    reward += 1.0
                self.shot = None
                continue
            if obj[1] == 9 and obj[0] == self.player:
                if obj[2] == TARGET:
                    reward += 1
                else:
                    self.lives -= 1
                continue
            kept.append(obj)
        self.objects = kept

        if self.random.rand() < SPAWN_CHANCE:
            kind = self.random.randint(2)
            free = [lane for lane in LANES
                    if not any(obj[0] == lane and obj[1] <= LANE_CLEAR_ROW for obj in self.objects)]
            if free:
                self.objects.append([free[self.random.randint(len(free))], 0, kind, -1])

        self.time += 1
        if self.lives <= 0 or self.time >= TIME_LIMIT:
            self.terminal = True
        return reward, self.terminal

    def state(self):
        state = np.zeros((10, 10, 6), dtype=bool)
        state[9, self.player, 0] = True
        for x, y, kind, last_y in self.objects:
            state[y, x, 1 if kind == HAZARD else 2] = True
            if last_y >= 0:
                state[last_y, x, 4] = True
        if self.shot is not None:
            state[self.shot[1], self.shot[0], 3] = True
        for k in range(self.lives):
            state[0, 9 - k, 5] = True
        return state


class Heuristic:
    """A controller for record_trace.py: chase the lowest target, shoot hazards overhead."""

    label = "heuristic"

    def __init__(self, rng):
        self.rng = rng

    def __call__(self, env):
        if self.rng.rand() < 0.1:
            return int(self.rng.randint(6))
        above = [o for o in env.objects if o[0] == env.player]
        if any(o[2] == HAZARD for o in above) and env.shot is None:
            return 5
        targets = sorted((o for o in env.objects if o[2] == TARGET), key=lambda o: -o[1])
        if targets:
            goal = targets[0][0]
            if goal < env.player:
                return 1
            if goal > env.player:
                return 3
        return 0
