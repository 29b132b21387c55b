#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Local differential exploration: generated answers through the real grader
(verify.apply_edits, as tests/support/record_parser_cases.py records it) and through
weightspace's parser (the Python module's native apply_edits, in the same process), with the
disagreements grouped by kind and a small example of each.

    /usr/bin/python3 tests/differential/explore.py --seeds 1-8 --count 5000 \\
        [--build build/differential] [--examples 2] [--shrink] [--save found_input.json]

Needs the grader's stack (CPython 3.11, numpy 1.24, ../shared/seed/verify.py) and a build
tree with the Python module (target weightspace_python). Kinds, in the order they are
checked: accept/reject (one side parses, the other raises), error class, message (str() of
the exception, exactly), edit_count, weights (nonzero count
or the sha256 of the six float32 tensors). --shrink reduces each group's example, one line,
then one character at a time, while it stays in its group; --save writes the examples as
record_parser_cases.py input, for a golden file.
"""
from __future__ import annotations

import argparse
import hashlib
import importlib.util
import json
import re
import sys
import time
import warnings
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(HERE))
from generate import AnswerGenerator  # noqa: E402

ORDER = ["W1", "b1", "W2", "b2", "W3", "b3"]


def load_recorder():
    spec = importlib.util.spec_from_file_location("record_parser_cases", ROOT / "tests/support/record_parser_cases.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def load_native(build: Path):
    sys.path.insert(0, str(build / "python"))
    try:
        from weightspace import _native
    except ImportError as error:
        sys.exit(f"explore.py: no weightspace module under {build / 'python'} ({error}); "
                 f"build it: cmake --build {build} --target weightspace_python")
    return _native


def ours(native, answer: str) -> dict:
    try:
        tensors, applied = native.apply_edits(answer)
    except native.AnswerError as error:
        kind, message, _line, _column = error.args
        return {"parse_success": False, "error_type": kind, "message": message}
    data = b"".join(tensors[name].tobytes() for name in ORDER)
    return {"parse_success": True, "edit_count": applied,
            "nonzero_weights": sum(int((tensors[name] != 0).sum()) for name in ORDER),
            "sha256": hashlib.sha256(data).hexdigest()}


def disagreement(expected: dict, actual: dict) -> str | None:
    if expected["parse_success"] != actual["parse_success"]:
        return "accept/reject"
    if not expected["parse_success"]:
        if expected["error_type"] != actual["error_type"]:
            return "error class"
        message = actual["message"]
        if message != expected["message"]:
            return "message"
        return None
    if expected["edit_count"] != actual["edit_count"]:
        return "edit_count"
    if expected["nonzero_weights"] != actual["nonzero_weights"] or expected["sha256"] != actual["sha256"]:
        return "weights"
    return None


def shape_of(message: str) -> str:
    """A message with its quoted text and numbers blanked, to group messages of one kind."""
    message = re.sub(r"'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"", "'…'", message)
    return re.sub(r"\d+", "N", message)[:90]


def describe(outcome: dict) -> str:
    if outcome["parse_success"]:
        return f"success: {outcome['edit_count']} edits, {outcome['nonzero_weights']} nonzero, {outcome['sha256'][:12]}"
    return f"{outcome['error_type']}: {outcome['message']}"


def group_key(kind: str, expected: dict, actual: dict) -> tuple:
    def side(outcome):
        return "success" if outcome["parse_success"] else outcome["error_type"] + ": " + shape_of(outcome["message"])
    return kind, side(expected), side(actual)


def shrink(answer: str, key: tuple, grader, native) -> str:
    """Greedy reduction: drop lines, then single characters, while the disagreement stays in its group."""
    def same(candidate):
        expected, actual = grader(candidate), ours(native, candidate)
        kind = disagreement(expected, actual)
        return kind is not None and group_key(kind, expected, actual) == key

    lines = answer.splitlines(keepends=True)
    i = 0
    while i < len(lines) and len(lines) > 1:
        candidate = "".join(lines[:i] + lines[i + 1:])
        if same(candidate):
            lines.pop(i)
        else:
            i += 1
    answer = "".join(lines)
    i = 0
    while i < len(answer):
        candidate = answer[:i] + answer[i + 1:]
        if same(candidate):
            answer = candidate
        else:
            i += 1
    return answer


def seeds_of(text: str) -> list[int]:
    seeds = []
    for part in text.split(","):
        low, _, high = part.partition("-")
        seeds += list(range(int(low), int(high or low) + 1))
    return seeds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", default="1-4", help="seeds, e.g. 1-8 or 3,7,20-22 (default 1-4)")
    parser.add_argument("--count", type=int, default=5000, help="answers per seed (default 5000)")
    parser.add_argument("--build", type=Path, default=ROOT / "build/differential", help="build tree with the module")
    parser.add_argument("--examples", type=int, default=1, help="examples shown per group (default 1)")
    parser.add_argument("--shrink", action="store_true", help="reduce each group's first example")
    parser.add_argument("--save", type=Path, help="write the examples as record_parser_cases.py input")
    parser.add_argument("--only", metavar="CATEGORIES", help="draw these categories (comma-separated) only")
    parser.add_argument("--skip", type=re.compile, metavar="REGEX",
                        help="leave out answers this matches (e.g. a known disagreement: '\\\\N\\{')")
    args = parser.parse_args()
    recorder = load_recorder()
    native = load_native(args.build.resolve())
    warnings.simplefilter("ignore")  # the grader's DeprecationWarnings for odd escapes, numpy's casts

    groups: dict[tuple, list[dict]] = {}
    totals = {"answers": 0, "agree": 0, "grader": 0.0, "weightspace": 0.0, "generate": 0.0}
    outcomes: dict[str, int] = {}
    started = time.perf_counter()
    for seed in seeds_of(args.seeds):
        clock = time.perf_counter()
        cases = AnswerGenerator(seed, args.only.split(",") if args.only else None).cases(args.count)
        totals["generate"] += time.perf_counter() - clock
        if args.skip:
            cases = [case for case in cases if not args.skip.search(case["answer"])]
        agree = 0
        for case in cases:
            answer = case["answer"]
            clock = time.perf_counter()
            expected = recorder.outcome(answer)
            middle = time.perf_counter()
            actual = ours(native, answer)
            totals["grader"] += middle - clock
            totals["weightspace"] += time.perf_counter() - middle
            label = "success" if expected["parse_success"] else expected["error_type"]
            outcomes[label] = outcomes.get(label, 0) + 1
            kind = disagreement(expected, actual)
            if kind is None:
                agree += 1
                continue
            groups.setdefault(group_key(kind, expected, actual), []).append(
                {"seed": seed, "id": case["id"], "answer": answer, "expected": expected, "actual": actual})
        totals["answers"] += len(cases)
        totals["agree"] += agree
        print(f"seed {seed}: {len(cases)} answers, {agree} agree ({100 * agree / max(len(cases), 1):.2f} %)", flush=True)

    answers = totals["answers"]
    print(f"\n{answers} answers, {totals['agree']} agree ({100 * totals['agree'] / max(answers, 1):.3f} %), "
          f"{answers - totals['agree']} disagree in {len(groups)} groups; "
          f"{time.perf_counter() - started:.1f} s (generate {totals['generate']:.1f} s, "
          f"grader {totals['grader']:.1f} s, weightspace {totals['weightspace']:.1f} s)")
    print("grader outcomes: " + ", ".join(f"{k} {v}" for k, v in sorted(outcomes.items(), key=lambda kv: -kv[1])))
    saved = []
    for key, members in sorted(groups.items(), key=lambda kv: (-len(kv[1]), kv[0])):
        members.sort(key=lambda m: len(m["answer"]))
        kind, want, got = key
        print(f"\n== {kind}: {len(members)} answers\n   grader:      {want}\n   weightspace: {got}")
        for member in members[:args.examples]:
            answer = member["answer"]
            if args.shrink:
                answer = shrink(answer, key, recorder.outcome, native)
            print(f"   seed {member['seed']} {member['id']}: {answer!r}")
            print(f"     grader      {describe(recorder.outcome(answer))}")
            print(f"     weightspace {describe(ours(native, answer))}")
            saved.append({"id": f"found/{kind.replace('/', '_').replace(' ', '_')}_{len(saved) + 1:03d}",
                          "category": kind.replace(" ", "_").replace("/", "_"), "answer": answer})
    if args.save:
        args.save.write_text(json.dumps({"cases": saved}, indent=1, ensure_ascii=True) + "\n")
        print(f"\n{len(saved)} examples written to {args.save}")


if __name__ == "__main__":
    main()
