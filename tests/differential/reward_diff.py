#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Whole-reward differential run: the generator's answers (generate.py) graded by the real
grader (verify.grade_answer, in this process, as verify.main writes reward.json) and by the
`weightspace batch` binary, their reward.json texts compared byte for byte.

    /usr/bin/python3 tests/differential/reward_diff.py --minatar MINATAR_CHECKOUT \\
        [--seeds 101-120] [--count 5000] [--episodes 1] [--play-every 25] \\
        [--weightspace build/release/apps/weightspace] [--verify-dir ../shared/seed] [--examples 2]

Each answer gets a game and a source drawn from a random.Random(seed). Every
--play-every-th answer is graded with --episodes episodes, the others with 0: the grader then
parses and applies the edits, counts them and the nonzero weights and writes the NaN scores,
but plays nothing (a played episode costs the grader about 0.25 s, the parse under 1 ms). One
normalization only: CPython's `<ast.X object at 0x…>` address, which changes from run to run in
CPython itself (weightspace writes `0x?`). With --columns, a SyntaxError's offset is compared
with the batch line's `error_column`, the place weightspace keeps beside the reward. An answer on
which the grader itself raises (outside grade_answer's except clause) is counted as a grader
crash, with weightspace's reward kept for the record. Exit status 1 when any text differs.
Needs the grader's stack: CPython 3.11 with numpy 1.24 (Debian's /usr/bin/python3), a
kenjyoung/MinAtar checkout, tools/minatar_synth.
"""
from __future__ import annotations

import argparse
import json
import random
import re
import subprocess
import sys
import tempfile
import time
import warnings
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(HERE))
from explore import seeds_of  # noqa: E402
from generate import AnswerGenerator  # noqa: E402

GAMES = ["asterix", "breakout", "freeway", "seaquest", "space_invaders"]
ADDRESS = re.compile(r"(<ast\.\w+ object at )0x(?:[0-9a-f]+|\?)>")  # weightspace: 0x?


def normalize(text: str) -> str:
    return ADDRESS.sub(r"\g<1>0x…>", text)


def syntax_error_offset(verify, answer: str) -> int | None:
    """CPython's column (SyntaxError.offset) of the grader's parse failure, if it is one."""
    try:
        verify.apply_edits(answer)
    except SyntaxError as error:
        return error.offset
    except Exception:  # noqa: BLE001  other failures have no place to compare
        return None
    return None


def reward_texts(out: Path) -> list[tuple[str, int | None]]:
    """Each batch line's reward object exactly as weightspace wrote it (not re-serialized), and
    the line's error_column."""
    decoder = json.JSONDecoder()
    texts = []
    for line in out.read_text(encoding="utf-8").splitlines():
        start = line.index('"reward":') + len('"reward":')
        while line[start] == " ":
            start += 1
        _, end = decoder.raw_decode(line, start)
        texts.append((line[start:end], json.loads(line)["error_column"]))
    return texts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minatar", type=Path, required=True, help="kenjyoung/MinAtar checkout (holding minatar/)")
    parser.add_argument("--seeds", default="101-120")
    parser.add_argument("--count", type=int, default=5000, help="answers per seed")
    parser.add_argument("--episodes", type=int, default=1, help="episodes of a played answer")
    parser.add_argument("--play-every", type=int, default=25, help="play every N-th answer, 0 episodes otherwise")
    parser.add_argument("--weightspace", type=Path, default=ROOT / "build/release/apps/weightspace")
    parser.add_argument("--verify-dir", type=Path, default=ROOT.parent.parent / "shared/seed")
    parser.add_argument("--examples", type=int, default=2, help="examples shown per group")
    parser.add_argument("--only", metavar="CATEGORIES", help="draw these generator categories (comma-separated) only")
    parser.add_argument("--columns", action="store_true",
                        help="also compare a SyntaxError's offset with the column of weightspace's place, "
                             "where its message still carries one (not part of reward.json)")
    args = parser.parse_args()
    sys.path[:0] = [str(args.verify_dir), str(args.minatar.resolve()), str(ROOT / "tools")]
    import verify  # noqa: E402  (the grader)
    warnings.simplefilter("ignore")

    totals = {"answers": 0, "identical": 0, "crash": 0, "column": 0, "grader": 0.0, "weightspace": 0.0}
    groups: dict[str, list[tuple]] = {}
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as work:
        for seed in seeds_of(args.seeds):
            cases = AnswerGenerator(seed, args.only.split(",") if args.only else None).cases(args.count)
            records, draw = [], random.Random(seed)
            for i, case in enumerate(cases):
                game, source = draw.choice(GAMES), draw.choice(("original", "synth"))
                episodes = args.episodes if i % args.play_every == 0 else 0
                records.append({"id": case["id"], "answer": case["answer"], "game": game, "source": source,
                                "episodes": episodes})
            manifest, out = Path(work, "manifest.jsonl"), Path(work, "out.jsonl")
            manifest.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
            clock = time.perf_counter()
            subprocess.run([str(args.weightspace), "batch", str(manifest), "--threads", "1", "--quiet",
                            "--out", str(out)], check=True)
            totals["weightspace"] += time.perf_counter() - clock
            ours = reward_texts(out)
            assert len(ours) == len(records), (len(ours), len(records))
            identical = 0
            for record, (our_text, our_column) in zip(records, ours):
                clock = time.perf_counter()
                try:
                    score, metadata = verify.grade_answer(record["game"], record["source"], record["answer"],
                                                          record["episodes"])
                    theirs = json.dumps({"normalized_score": score, **metadata})
                except Exception as error:  # noqa: BLE001  the grader's own crash, not a reward
                    theirs = f"grader crash: {type(error).__name__}: {error}"
                    kind = "grader crash"
                else:
                    kind = None if normalize(theirs) == normalize(our_text) else "differ"
                totals["grader"] += time.perf_counter() - clock
                if kind is None:
                    identical += 1
                    if args.columns and our_column is not None:
                        column = syntax_error_offset(verify, record["answer"])
                        if column is not None and column != our_column:
                            totals["column"] += 1
                            groups.setdefault(f"column (grader {column}, weightspace {our_column})",
                                              []).append((seed, record, f"offset {column}", our_text))
                    continue
                if kind == "grader crash":
                    totals["crash"] += 1
                    key = f"grader crash {theirs.split(':')[1].strip()}"
                else:
                    key = "differ " + re.sub(r"'(?:[^'\\]|\\.)*'|\d+", "…", theirs)[:160]
                groups.setdefault(key, []).append((seed, record, theirs, our_text))
            totals["answers"] += len(records)
            totals["identical"] += identical
            print(f"seed {seed}: {len(records)} answers, {identical} identical", flush=True)

    answers = totals["answers"]
    differing = answers - totals["identical"] - totals["crash"]
    print(f"\n{answers} answers, {totals['identical']} identical, {totals['crash']} grader crashes, "
          f"{differing} differ" + (f", {totals['column']} identical but at another column" if args.columns else "")
          + f"; {time.perf_counter() - started:.0f} s "
          f"(grader {totals['grader']:.0f} s, weightspace {totals['weightspace']:.0f} s)")
    for key, members in sorted(groups.items(), key=lambda kv: -len(kv[1])):
        print(f"\n== {key}: {len(members)}")
        for seed, record, theirs, our_text in sorted(members, key=lambda m: len(m[1]["answer"]))[:args.examples]:
            print(f"   seed {seed} {record['id']} {record['source']}/{record['game']}: {record['answer']!r}")
            print(f"     grader      {theirs}")
            print(f"     weightspace {our_text}")
    sys.exit(1 if differing else 0)


if __name__ == "__main__":
    main()
