# SPDX-License-Identifier: GPL-3.0-or-later
"""Wrap each examples/answers/<game>.md into a minimal agent trajectory.

The grader takes the last assistant message of trajectory["steps"], so each
trajectory is one step with the task prompt and the answer text verbatim.
Run after editing an answer: python3 examples/make_trajectories.py
"""
import json
from pathlib import Path

GAMES = ("asterix", "breakout", "freeway", "seaquest", "space_invaders")
EXAMPLES = Path(__file__).resolve().parent

PROMPT = (
    "You are writing the weights of a small policy network for the MinAtar game {game}. "
    "The network is 600 -> 32 -> 32 -> 6 with tanh hidden layers: tensors W1 (600x32), b1 (32), "
    "W2 (32x32), b2 (32), W3 (32x6), b3 (6), all float32 and initially zero. The input is the "
    "10x10 grid with 6 channels flattened as (row*10+col)*6+channel; actions are sampled from "
    "the softmax of the 6 outputs. Explain your design briefly, then give Python assignments to "
    "slices of these tensors in a ```edits block."
)


def trajectory(game: str, answer: str) -> dict:
    return {
        "steps": [
            {
                "messages": [
                    {"role": "user", "content": PROMPT.format(game=game)},
                    {"role": "assistant", "content": answer},
                ]
            }
        ]
    }


def main() -> None:
    output_directory = EXAMPLES / "trajectories"
    output_directory.mkdir(exist_ok=True)
    for game in GAMES:
        answer = (EXAMPLES / "answers" / f"{game}.md").read_text()
        text = json.dumps(trajectory(game, answer), indent=2) + "\n"
        (output_directory / f"{game}.json").write_text(text)


if __name__ == "__main__":
    main()
