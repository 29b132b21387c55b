# SPDX-License-Identifier: GPL-3.0-or-later
"""python -m weightspace.verify: a drop-in for verify.py's main(), graded by weightspace.

Reads WEIGHT_SPACE_GAME, WEIGHT_SPACE_SOURCE, WEIGHT_SPACE_EPISODES (default 1000) and
/logs/trajectory.json, and writes /logs/verifier/reward.json, exactly as verify.main does.
--trajectory and --reward name other files, as `weightspace verify` takes them.
"""
from __future__ import annotations

import argparse
import json
import os
from pathlib import Path
from typing import Sequence

from . import assistant_answer, grade_answer

TRAJECTORY = "/logs/trajectory.json"
REWARD = "/logs/verifier/reward.json"


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m weightspace.verify",
        description="Drop-in for verify.py's main(): grades the trajectory's last assistant answer on "
                    "WEIGHT_SPACE_GAME / WEIGHT_SPACE_SOURCE over WEIGHT_SPACE_EPISODES episodes (default 1000) "
                    "and writes reward.json, byte for byte as verify.py does.")
    parser.add_argument("--trajectory", default=TRAJECTORY, help=f"trajectory JSON to grade (default: {TRAJECTORY})")
    parser.add_argument("--reward", default=REWARD, help=f"where to write reward.json (default: {REWARD})")
    parser.add_argument("--threads", type=int, default=None,
                        help="grading threads, 1-1024 (default: all cores); never changes the result")
    return parser


def main(argv: Sequence[str] | None = None) -> None:
    parser = _parser()
    options = parser.parse_args(argv)
    if options.threads is not None and not 1 <= options.threads <= 1024:
        parser.error(f"--threads must be between 1 and 1024, got {options.threads}")
    # The grader dies with a KeyError here; say which variable is missing instead.
    for name in ("WEIGHT_SPACE_GAME", "WEIGHT_SPACE_SOURCE"):
        if name not in os.environ:
            parser.error(f"{name} is not set (the grader would raise KeyError)")
    game = os.environ["WEIGHT_SPACE_GAME"]
    source = os.environ["WEIGHT_SPACE_SOURCE"]
    episodes = int(os.environ.get("WEIGHT_SPACE_EPISODES", "1000"))
    trajectory = json.loads(Path(options.trajectory).read_text())
    normalized_score, metadata = grade_answer(game, source, assistant_answer(trajectory), episodes,
                                              threads=options.threads)
    reward_path = Path(options.reward)
    reward_path.parent.mkdir(parents=True, exist_ok=True)
    reward_path.write_text(json.dumps({"normalized_score": normalized_score, **metadata}))


if __name__ == "__main__":
    main()
