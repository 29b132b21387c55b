# SPDX-License-Identifier: GPL-3.0-or-later
"""Synthetic Breakout: a variant of MinAtar's breakout.

The paddle on the bottom row keeps a ball, which moves one cell diagonally per step, bouncing
against a wall of bricks; every brick broken is worth 1. Actions keep MinAtar's meanings:
1 left, 3 right, the rest do nothing.

What differs from the original, and why it is still a fair transfer test:
  * The wall is rows 2-4 (not 1-3) and has holes: each brick is present with probability 3/4,
    drawn at reset and again whenever an emptied wall is rebuilt. The ball can slip through a
    hole and bounce around behind the wall.
  * Every brick the ball runs into breaks and reflects it (the original lets the ball pass
    into a brick without breaking it on the step after a hit).
  * The ball is launched from a random column of row 5, heading up at a random diagonal,
    instead of from a fixed corner.
  * The paddle steers: a caught ball always goes back up, leaving to the side the paddle was
    pushed towards (left or right action) or keeping its direction when the paddle was not
    pushed. The original reflects or reverses it depending on which cell hit the paddle.
  * Three balls: a missed ball costs a life and a new one is launched; the game ends with the
    last ball or after 2000 steps. The remaining lives are a gauge.
  The objects, the actions and what each observation channel means are the original's, as
  verify.py's channel groups present it: a policy that keeps the paddle under the ball's next
  column plays this game well, but it meets launches from anywhere and new bounce rules.

Observation (canonical layout): 0 the paddle (row 9); 1 empty; 2 the bricks; 3 the ball;
4 the ball's previous cell (its trail); 5 one cell per remaining life, row 9 from column 0.

score_cap 170: a scripted player that reads the full state, follows the ball's landing column
and steers each catch towards the bricks breaks about 170 bricks in the 2000 steps (up to 192;
one that only follows the ball breaks about 110). 170 is a very good episode.
"""

import numpy as np

from minatar_synth.sticky import StickyActionGame

WALL_ROWS = (2, 3, 4)
BRICK_PROBABILITY = 0.75
LAUNCH_ROW = 5
LIVES = 3
TIME_LIMIT = 2000


class BreakoutEnvironment(StickyActionGame):
    score_cap = 170.0
    channel_names = ["paddle", "hazard", "brick", "ball", "trail", "lives"]

    def reset(self):
        self.bricks = np.zeros((10, 10), dtype=bool)
        self._build_wall()
        self.paddle = 4
        self.lives = LIVES
        self.time = 0
        self.terminal = False
        self._launch()

    def _build_wall(self):
        # One draw per brick, row by row, left to right.
        for y in WALL_ROWS:
            for x in range(10):
                self.bricks[y, x] = self.random.rand() < BRICK_PROBABILITY

    def _launch(self):
        # Draw order: the column, then the horizontal direction.
        self.ball_x = self.random.randint(10)
        self.ball_y = LAUNCH_ROW
        self.dx = 1 if self.random.randint(2) == 1 else -1
        self.dy = -1
        self.trail_x, self.trail_y = self.ball_x, self.ball_y

    def _act(self, a):
        if self.terminal:
            return 0, True

        push = -1 if a == 1 else (1 if a == 3 else 0)
        self.paddle = min(9, max(0, self.paddle + push))

        reward = 0
        missed = False
        self.trail_x, self.trail_y = self.ball_x, self.ball_y
        x, y = self.ball_x + self.dx, self.ball_y + self.dy
        if x < 0 or x > 9:
            self.dx = -self.dx
            x = self.ball_x
        if y < 0:
            self.dy = 1
            y = self.ball_y
        elif self.bricks[y, x]:
            self.bricks[y, x] = False
            reward = 1
            self.dy = -self.dy
            y = self.ball_y
        elif y == 9:
            if self.paddle == self.ball_x or self.paddle == x:
                self.dy = -1
                y = self.ball_y
                if push != 0:
                    self.dx = push
                if not self.bricks.any():
                    self._build_wall()
            else:
                missed = True
        self.ball_x, self.ball_y = x, y

        if missed:
            # The last ball stays in the bottom row; any other is replaced at once.
            self.lives -= 1
            if self.lives == 0:
                self.terminal = True
            else:
                self._launch()
        self.time += 1
        if self.time >= TIME_LIMIT:
            self.terminal = True
        return reward, self.terminal

    def state(self):
        state = np.zeros((10, 10, 6), dtype=bool)
        state[9, self.paddle, 0] = True
        state[:, :, 2] = self.bricks
        state[self.ball_y, self.ball_x, 3] = True
        state[self.trail_y, self.trail_x, 4] = True
        state[9, :self.lives, 5] = True
        return state


def heuristic(env, rng):
    """The controller of the recorded test traces: keeps the paddle under the ball's next column."""
    target = min(9, max(0, env.ball_x + env.dx))
    return 3 if env.paddle < target else (1 if env.paddle > target else 0)
