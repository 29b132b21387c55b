# SPDX-License-Identifier: GPL-3.0-or-later
"""Write random answers shaped like hand-written ones, for differential runs against the
Python grader (bench/compare_python.sh): a few hidden units, sparse W1 rows (often a single
unit per input), slices and single elements, zeros of both signs, tiny and large values; one
answer in five sets no W1 weight, so that its logits are constant.

usage: python3 bench/random_answers.py OUT_DIR COUNT [SEED]
Writes OUT_DIR/<k>/<game>.md and OUT_DIR/<k>/synth/<game>.md for k in 0..COUNT-1 and the
five games, so that
    for d in OUT_DIR/*/; do bench/compare_python.sh MINATAR 30 1 "$d"*.md "$d"synth/*.md; done
compares every answer (the game is the file name and the source synth under synth/, as
compare_python.sh expects).
"""
import os
import random
import sys

GAMES = ("asterix", "breakout", "freeway", "seaquest", "space_invaders")


def value(rng: random.Random) -> str:
    kind = rng.random()
    if kind < 0.05:
        return rng.choice(("0.0", "-0.0", "0"))
    if kind < 0.10:
        return rng.choice(("1e-40", "-3e-39", "1e5", "-2.5e5"))
    return repr(round(rng.uniform(-3, 3), rng.randint(1, 6)))


def answer(rng: random.Random) -> str:
    lines = []
    units1 = rng.sample(range(32), rng.randint(1, 8))
    units2 = rng.sample(range(32), rng.randint(1, 4))
    for unit in units1:
        # Inputs of a few channels, as a hand-written feature would read them.
        channels = rng.sample(range(6), rng.randint(1, 2))
        for _ in range(rng.randint(1, 12)):
            cell = rng.randrange(100)
            lines.append(f"W1[{cell * 6 + rng.choice(channels)}, {unit}] = {value(rng)}")
        if rng.random() < 0.3:
            start = rng.randrange(0, 590)
            lines.append(f"W1[{start}:{start + rng.randint(1, 10)}, {unit}] = {value(rng)}")
        if rng.random() < 0.5:
            lines.append(f"b1[{unit}] = {value(rng)}")
        for target in units2:
            if rng.random() < 0.7:
                lines.append(f"W2[{unit}, {target}] = {value(rng)}")
    for target in units2:
        for action in rng.sample(range(6), rng.randint(1, 3)):
            lines.append(f"W3[{target}, {action}] = {value(rng)}")
        if rng.random() < 0.5:
            lines.append(f"b2[{target}] = {value(rng)}")
    if rng.random() < 0.5:
        lines.append(f"b3[{rng.randrange(6)}] = {value(rng)}")
    if rng.random() < 0.2:
        # Biases carried through W2 and W3 but no W1: the same logits at every step, which the
        # engine samples from one precomputed cdf.
        lines = [line for line in lines if not line.startswith("W1[")]
        lines += [f"b1[{unit}] = {value(rng)}" for unit in units1]
    rng.shuffle(lines)
    return "A random policy.\n\n```edits\n" + "\n".join(lines) + "\n```\n"


def main() -> None:
    out_dir, count = sys.argv[1], int(sys.argv[2])
    rng = random.Random(int(sys.argv[3]) if len(sys.argv) > 3 else 2026)
    for k in range(count):
        for folder in (os.path.join(out_dir, str(k)), os.path.join(out_dir, str(k), "synth")):
            os.makedirs(folder, exist_ok=True)
            for game in GAMES:
                with open(os.path.join(folder, f"{game}.md"), "w", encoding="utf-8") as f:
                    f.write(answer(rng))


if __name__ == "__main__":
    main()
