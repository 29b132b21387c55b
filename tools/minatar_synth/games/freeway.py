# SPDX-License-Identifier: GPL-3.0-or-later
"""Synthetic Freeway: a variant of MinAtar's freeway.

A chicken in column 4 crosses eight lanes of traffic (rows 1-8) from the bottom row to the
top; every crossing is worth 1 and puts it back at the bottom. Actions keep MinAtar's
meanings: 2 up, 4 down, the rest do nothing.

What differs from the original, and why it is still a fair transfer test:
  * Two cars per lane, five cells apart, instead of one; they start at a random column.
  * Traffic keeps to its side: lanes 1-4 drive left and lanes 5-8 drive right (the original
    draws each lane's direction at random). As in the original a car moves one cell every 2
    to 6 steps, drawn per lane at reset and again after every crossing.
  * The chicken is quicker: it can take a step every 2 steps, not every 3.
  * A car that hits the chicken pushes it back three rows (down) and stuns it for 2 steps,
    where the original sends it back to the bottom row.
  * The game lasts 2000 steps (the original 2500), and the time left is a gauge.
  The objects, the actions and what each observation channel means are the original's, as
  verify.py's channel groups present it: a policy that walks up and waits while a car is
  about to cross column 4 in the lane above works here too, but with two cars per lane some
  car is always near column 4, so it has to read which way each one is heading.

Observation (canonical layout): 0 the chicken; 1 the cars; 2 and 3 empty; 4 the cell behind
each car, which shows the way it drives; 5 the time left, a bar of ceil(10 * steps left /
2000) cells in row 9 from column 0.

score_cap 50: a planner that reads the car timers and searches the next 45 steps for the
quickest safe way up crosses about 50 times in the 2000 steps (up to 61). Always pressing up
crosses only a few times.
"""

import numpy as np

from minatar_synth.sticky import StickyActionGame

CHICKEN_COLUMN = 4
PLAYER_PERIOD = 2
FASTEST_PERIOD = 2
SLOWEST_PERIOD = 6
CAR_SPACING = 5
TIME_LIMIT = 2000
PUSH_BACK = 3


class FreewayEnvironment(StickyActionGame):
    score_cap = 50.0
    channel_names = ["chicken", "car", "target", "projectile", "trail", "time"]

    def reset(self):
        self.position = 9
        self.move_timer = PLAYER_PERIOD
        self.time = 0
        self.terminal = False
        # Lane i is row i + 1; its cars are at columns x and (x + 5) % 10.
        self.directions = [-1 if i < 4 else 1 for i in range(8)]
        self.columns = [self.random.randint(10) for _ in range(8)]
        self._draw_periods()

    def _draw_periods(self):
        self.periods = [self.random.randint(FASTEST_PERIOD, SLOWEST_PERIOD + 1) for _ in range(8)]
        self.timers = list(self.periods)

    def _hit(self):
        # One of the two cars of the chicken's lane is in column 4.
        lane = self.position - 1
        if lane < 0 or lane > 7:
            return False
        return (CHICKEN_COLUMN - self.columns[lane]) % CAR_SPACING == 0

    def _act(self, a):
        if self.terminal:
            return 0, True

        reward = 0
        if self.move_timer > 0:
            self.move_timer -= 1
        elif a == 2 or a == 4:
            self.move_timer = PLAYER_PERIOD - 1
            self.position = max(0, self.position - 1) if a == 2 else min(9, self.position + 1)
            if self.position == 0:
                reward = 1
                self.position = 9
                self._draw_periods()

        # A car is checked after the chicken moves and again after the cars move; a hit
        # pushes the chicken back at most once per step.
        hit = self._hit()
        for lane in range(8):
            self.timers[lane] -= 1
            if self.timers[lane] == 0:
                self.timers[lane] = self.periods[lane]
                self.columns[lane] = (self.columns[lane] + self.directions[lane]) % 10
        if hit or self._hit():
            self.position = min(9, self.position + PUSH_BACK)
            self.move_timer = PLAYER_PERIOD

        self.time += 1
        if self.time >= TIME_LIMIT:
            self.terminal = True
        return reward, self.terminal

    def state(self):
        state = np.zeros((10, 10, 6), dtype=bool)
        state[self.position, CHICKEN_COLUMN, 0] = True
        for lane in range(8):
            for x in (self.columns[lane], (self.columns[lane] + CAR_SPACING) % 10):
                state[lane + 1, x, 1] = True
                state[lane + 1, (x - self.directions[lane]) % 10, 4] = True
        time_left = TIME_LIMIT - self.time
        state[9, :(10 * time_left + TIME_LIMIT - 1) // TIME_LIMIT, 5] = True
        return state


def heuristic(env, rng):
    """The controller of the recorded test traces: walks up unless a car in the lane above is
    in column 4 or one cell short of it."""
    lane = env.position - 2
    if lane >= 0:
        for x in (env.columns[lane], (env.columns[lane] + CAR_SPACING) % 10):
            if (CHICKEN_COLUMN - x) * env.directions[lane] % 10 <= 1:
                return 0
    return 2
