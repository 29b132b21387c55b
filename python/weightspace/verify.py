# SPDX-License-Identifier: GPL-3.0-or-later
"""python -m weightspace.verify: a drop-in for verify.py's main(), graded by weightspace.

Reads WEIGHT_SPACE_GAME, WEIGHT_SPACE_SOURCE, WEIGHT_SPACE_EPISODES (default 1000) and
/logs/trajectory.json, and writes /logs/verifier/reward.json, exactly as verify.main does.
"""
import json
import os
from pathlib import Path

from . import assistant_answer, grade_answer


def main() -> None:
    game = os.environ["WEIGHT_SPACE_GAME"]
    source = os.environ["WEIGHT_SPACE_SOURCE"]
    episodes = int(os.environ.get("WEIGHT_SPACE_EPISODES", "1000"))
    trajectory = json.loads(Path("/logs/trajectory.json").read_text())
    normalized_score, metadata = grade_answer(game, source, assistant_answer(trajectory), episodes)
    reward_path = Path("/logs/verifier/reward.json")
    reward_path.parent.mkdir(parents=True, exist_ok=True)
    reward_path.write_text(json.dumps({"normalized_score": normalized_score, **metadata}))


if __name__ == "__main__":
    main()
