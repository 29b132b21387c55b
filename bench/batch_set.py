# SPDX-License-Identifier: GPL-3.0-or-later
"""Write the batch bench set: COUNT hand-written-like answers (bench/random_answers.py) over the
five games and both sources, plus 10% bad inputs and 10% duplicates, and a manifest of them.

usage: python3 bench/batch_set.py OUT_DIR COUNT [SEED]
Writes OUT_DIR/answers/<k>/[synth/]<game>.md, OUT_DIR/bad/<k>.md and OUT_DIR/manifest.jsonl
with one record per answer: {"id", "answer_path", "game", "source"} (duplicates point at the
same file again; bad answers cycle through the ways an answer fails).
"""
import json
import os
import random
import sys

sys.path.insert(0, os.path.dirname(__file__))
from random_answers import GAMES, answer  # noqa: E402

BAD = (
    "I could not decide on weights.",
    "```edits\nW1[0, 0] = (\n```",
    "```edits\nW1[600, 0] = 1.0\n```",
    "```edits\nW9[0] = 1\n```",
    "```edits\nb3[0] = float('nan')\n```",
)


def main() -> None:
    out_dir, count = sys.argv[1], int(sys.argv[2])
    rng = random.Random(int(sys.argv[3]) if len(sys.argv) > 3 else 2026)
    records = []
    for k in range(count):
        source = "synth" if k % 2 else "original"
        game = GAMES[(k // 2) % len(GAMES)]
        folder = os.path.join(out_dir, "answers", str(k), *(["synth"] if source == "synth" else []))
        os.makedirs(folder, exist_ok=True)
        path = os.path.join(folder, f"{game}.md")
        with open(path, "w", encoding="utf-8") as f:
            f.write(answer(rng))
        records.append({"id": f"a{k}", "answer_path": os.path.relpath(path, out_dir), "game": game, "source": source})
    os.makedirs(os.path.join(out_dir, "bad"), exist_ok=True)
    for k in range(count // 10):
        path = os.path.join(out_dir, "bad", f"{k}.md")
        with open(path, "w", encoding="utf-8") as f:
            f.write(BAD[k % len(BAD)])
        records.insert(rng.randrange(len(records) + 1), {"id": f"bad{k}", "answer_path": os.path.relpath(path, out_dir),
                                                          "game": GAMES[k % len(GAMES)], "source": "original"})
    for k in range(count // 10):
        original = records[rng.randrange(len(records))]
        records.insert(rng.randrange(len(records) + 1), dict(original, id=f"dup{k}"))
    with open(os.path.join(out_dir, "manifest.jsonl"), "w", encoding="utf-8") as f:
        for record in records:
            f.write(json.dumps(record) + "\n")


if __name__ == "__main__":
    main()
