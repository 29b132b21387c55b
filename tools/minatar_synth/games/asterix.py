# SPDX-License-Identifier: GPL-3.0-or-later
"""Synthetic Asterix: a variant of MinAtar's asterix.

The player moves freely over rows 1-8 while enemies and gold enter each row from the left or
right edge and cross it; touching gold is worth 1, touching an enemy is bad. Actions keep
MinAtar's meanings: 1 left, 2 up, 3 right, 4 down, 0 and 5 do nothing.

What differs from the original, and why it is still a fair transfer test:
  * Every object has its own speed: it moves one cell every 2 to 5 steps (drawn when it
    appears), where the original moves all objects together every 5 steps. The fastest are
    more than twice as fast as anything in the original.
  * Objects appear more often, every 6 steps instead of 10, still one per empty row at most.
  * Three lives: touching an enemy costs a life and removes the enemy, and the game ends with
    the last life or after 2000 steps. The original ends at the first touch. The remaining
    lives are a gauge.
  The objects, the actions and what each observation channel means are the original's, as
  verify.py's channel groups present it: a policy that keeps out of rows holding an enemy
  heading its way and steps onto gold works here too, but it must cope with faster objects
  and a busier screen, and it can survive a mistake.

Observation (canonical layout): 0 the player; 1 the enemies; 2 the gold; 3 empty; 4 the cell
behind each object, which shows the way it moves (none when that cell is off the grid);
5 one cell per remaining life, row 9 from column 0.

score_cap 100: a scripted player that reads the full state and weighs each move's danger
against the gold nearby collects about 95 gold in the 2000 steps (up to 123); roughly 110
pieces of gold appear in that time.
"""

import numpy as np

from minatar_synth.sticky import StickyActionGame

SPAWN_INTERVAL = 6
GOLD_PROBABILITY = 1 / 3
FASTEST_PERIOD = 2
SLOWEST_PERIOD = 5
LIVES = 3
TIME_LIMIT = 2000


class AsterixEnvironment(StickyActionGame):
    score_cap = 100.0
    channel_names = ["player", "enemy", "gold", "projectile", "trail", "lives"]

    def reset(self):
        self.player_x, self.player_y = 5, 5
        # Slot i holds the object in row i + 1, or None: a dict with its column x, its
        # direction dx (+1 right, -1 left), gold, its period and the steps until it moves.
        self.objects = [None] * 8
        self.spawn_timer = SPAWN_INTERVAL
        self.lives = LIVES
        self.time = 0
        self.terminal = False

    def _act(self, a):
        if self.terminal:
            return 0, True

        self.spawn_timer -= 1
        if self.spawn_timer == 0:
            self.spawn_timer = SPAWN_INTERVAL
            self._spawn()

        if a == 1:
            self.player_x = max(0, self.player_x - 1)
        elif a == 2:
            self.player_y = max(1, self.player_y - 1)
        elif a == 3:
            self.player_x = min(9, self.player_x + 1)
        elif a == 4:
            self.player_y = min(8, self.player_y + 1)

        # Contact is checked after the player moves and again after the objects move.
        reward = self._touch()
        for slot in range(8):
            thing = self.objects[slot]
            if thing is None:
                continue
            thing["timer"] -= 1
            if thing["timer"] == 0:
                thing["timer"] = thing["period"]
                thing["x"] += thing["dx"]
                if thing["x"] < 0 or thing["x"] > 9:
                    self.objects[slot] = None
        reward += self._touch()

        self.time += 1
        if self.lives == 0 or self.time >= TIME_LIMIT:
            self.terminal = True
        return reward, self.terminal

    def _spawn(self):
        # Draw order: the row (none when a single row is free), the side, gold, the period.
        free = [slot for slot in range(8) if self.objects[slot] is None]
        if not free:
            return
        slot = free[self.random.randint(len(free))]
        from_left = self.random.rand() < 0.5
        gold = self.random.rand() < GOLD_PROBABILITY
        period = self.random.randint(FASTEST_PERIOD, SLOWEST_PERIOD + 1)
        self.objects[slot] = {"x": 0 if from_left else 9, "dx": 1 if from_left else -1,
                              "gold": gold, "period": period, "timer": period}

    def _touch(self):
        slot = self.player_y - 1
        thing = self.objects[slot]
        if thing is None or thing["x"] != self.player_x:
            return 0
        self.objects[slot] = None
        if thing["gold"]:
            return 1
        self.lives -= 1
        return 0

    def state(self):
        state = np.zeros((10, 10, 6), dtype=bool)
        state[self.player_y, self.player_x, 0] = True
        for slot, thing in enumerate(self.objects):
            if thing is None:
                continue
            state[slot + 1, thing["x"], 2 if thing["gold"] else 1] = True
            back_x = thing["x"] - thing["dx"]
            if 0 <= back_x <= 9:
                state[slot + 1, back_x, 4] = True
        state[9, :self.lives, 5] = True
        return state


def heuristic(env, rng):
    """The controller of the recorded test traces: stays in its column, leaves its row when an
    enemy comes at it, and otherwise heads for the rows holding gold."""
    def blocked(row):
        if row < 1 or row > 8:
            return True
        thing = env.objects[row - 1]
        return thing is not None and not thing["gold"] and (env.player_x - thing["x"]) * thing["dx"] >= 0

    y = env.player_y
    golds = [slot + 1 for slot, thing in enumerate(env.objects) if thing is not None and thing["gold"]]
    pull = sum(1 if row < y else -1 for row in golds if row != y)
    if blocked(y) or pull != 0:
        if (blocked(y) or pull > 0) and not blocked(y - 1):
            return 2
        if (blocked(y) or pull < 0) and not blocked(y + 1):
            return 4
    return 0
