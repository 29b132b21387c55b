# SPDX-License-Identifier: GPL-3.0-or-later
"""The Python module side by side with the C++ it wraps, on the example answers:
  * per-call cost of weightspace.grade_answer(..., episodes=1, threads=1) against the same
    grade() call in C++ (engine_bench BM_GradeAnswer/episodes:1): the difference is what the
    binding adds per call (argument conversion, the metadata dict, the helper thread that lets
    Ctrl-C through on the main thread);
  * a 1000-episode grade through Python against `weightspace grade --threads 1` (a process).
Medians of repetitions; results are checked equal to the CLI's reward.json.

usage: PYTHONPATH=build/release/python /usr/bin/python3 bench/python_bench.py [BUILD_DIR]
"""
import json
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

import weightspace

ROOT = Path(__file__).resolve().parent.parent
BUILD = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "build" / "release"
GAMES = {"asterix": "Asterix", "breakout": "Breakout", "freeway": "Freeway", "seaquest": "Seaquest",
         "space_invaders": "SpaceInvaders"}


def median_seconds(call, repetitions):
    times = []
    for _ in range(repetitions):
        start = time.perf_counter()
        call()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def cpp_medians():
    out = subprocess.run([str(BUILD / "bench" / "engine_bench"), "--benchmark_filter=GradeAnswer",
                          "--benchmark_repetitions=5", "--benchmark_report_aggregates_only=true",
                          "--benchmark_format=json"], capture_output=True, text=True, check=True).stdout
    medians = {}
    for row in json.loads(out)["benchmarks"]:
        if row.get("aggregate_name") == "median":
            medians[row["run_name"]] = row["real_time"] * {"us": 1e-6, "ms": 1e-3, "ns": 1e-9}[row["time_unit"]]
    return medians


def binding_only():
    """A call that the engine answers at once (no edits block): what the binding itself costs."""
    call = lambda: weightspace.grade_answer("breakout", "original", "no edits block here", 1, threads=1)
    main = median_seconds(call, 3000)
    other = []
    thread = threading.Thread(target=lambda: other.append(median_seconds(call, 3000)))
    thread.start()
    thread.join()
    print(f"binding only (a rejected answer): {main * 1e6:.1f} µs from the main thread (which hands the grade "
          f"to a helper thread and watches for Ctrl-C), {other[0] * 1e6:.1f} µs from another thread")


def main():
    binding_only()
    cpp = cpp_medians()
    cli = BUILD / "apps" / "weightspace"
    print(f"{'game':<16} {'py 1-ep µs':>11} {'C++ 1-ep µs':>12} {'overhead µs':>12} "
          f"{'py 1000-ep s':>13} {'CLI 1000-ep s':>14} {'C++ 1000-ep s':>14}")
    for game, type_name in GAMES.items():
        answer = (ROOT / "examples" / "answers" / f"{game}.md").read_text()
        for _ in range(20):  # warm: the thread's lockstep batch, caches
            weightspace.grade_answer(game, "original", answer, 1, threads=1)
        one = median_seconds(lambda: weightspace.grade_answer(game, "original", answer, 1, threads=1), 300)
        full = median_seconds(lambda: weightspace.grade_answer(game, "original", answer, 1000, threads=1), 5)
        command = [str(cli), "grade", "--game", game, "--episodes", "1000", "--threads", "1", "--answer",
                   str(ROOT / "examples" / "answers" / f"{game}.md")]
        expected = subprocess.run(command, capture_output=True, text=True, check=True).stdout.rstrip("\n")
        score, metadata = weightspace.grade_answer(game, "original", answer, 1000, threads=1)
        assert json.dumps({"normalized_score": score, **metadata}) == expected, game
        process = median_seconds(lambda: subprocess.run(command, capture_output=True, check=True), 5)
        cpp_one = cpp[f"BM_GradeAnswer<{type_name}>/episodes:1"]
        cpp_full = cpp[f"BM_GradeAnswer<{type_name}>/episodes:1000"]
        print(f"{game:<16} {one * 1e6:11.1f} {cpp_one * 1e6:12.1f} {(one - cpp_one) * 1e6:12.1f} "
              f"{full:13.4f} {process:14.4f} {cpp_full:14.4f}")


if __name__ == "__main__":
    main()
