# SPDX-License-Identifier: GPL-3.0-or-later
"""weightspace's bundled synth games, the grader's WEIGHT_SPACE_SOURCE=synth suite.

verify.py imports `minatar_synth.games.<game>` (put this folder's parent, tools/, on
PYTHONPATH) and uses the one class in it whose name ends in "Environment". Each game is a
documented variant of the MinAtar game of the same name: the same objects and action meanings,
observed directly as a (10, 10, 6) state in the canonical channel layout

  0 the player, 1 hazards, 2 targets and pickups, 3 the player's projectile or ball,
  4 motion trails and directions, 5 gauges,

with different dynamics that a policy written for the original has to generalise over.
The C++ ports in games/synth/ reproduce these classes step for step and draw for draw.
Python 3 and numpy only.
"""

GAMES = ("asterix", "breakout", "freeway", "seaquest", "space_invaders")
