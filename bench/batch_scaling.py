# SPDX-License-Identifier: GPL-3.0-or-later
"""Two threads against one in `weightspace batch`, per game and source (issue 36: "two threads
>= 1.8x one in batch on every game"). Each row grades the game's example answer and --random
hand-written-like answers (bench/random_answers.py) with `batch --cache 0` at --threads 1 and
at --threads 2, alternated, best wall time of --runs each, and checks that both thread counts
wrote the same lines (`--no-timings`: the threads never change a result). Two figures, as
bench/compare_python.sh --batch gives: "records", start-up paid once (a process grading the
answers twice less one grading them once: what a second core buys a running batch), and
"process", the whole process (whose start, ~10 ms on one core, no second thread shortens).

usage: python3 bench/batch_scaling.py [--episodes N] [--random N] [--seed S] [--runs N] [--threads N]
Environment: WEIGHTSPACE (default build/release/apps/weightspace).
Wall time is the point (what a second core buys), so run it on an otherwise idle machine; the
output's first line gives the load average.
"""
import argparse
import math
import os
import random
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
from random_answers import GAMES, answer  # noqa: E402


def parse_args() -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="bench/batch_scaling.py", description=__doc__.split("\n\n")[0])
    p.add_argument("--episodes", type=int, default=1000, help="episodes per answer (default 1000)")
    p.add_argument("--random", type=int, default=7, help="random answers per row besides the example (default 7)")
    p.add_argument("--seed", type=int, default=2026, help="seed of the random answers (default 2026)")
    p.add_argument("--runs", type=int, default=3, help="runs per thread count, best kept (default 3)")
    p.add_argument("--threads", type=int, default=2, help="the thread count compared with one (default 2)")
    a = p.parse_args()
    for name, low, high in (("episodes", 1, 100000), ("random", 0, 1000), ("runs", 1, 50), ("threads", 2, 1024)):
        if not low <= getattr(a, name) <= high:
            p.error(f"--{name} must be {low}-{high}")
    return a


def run_batch(paths, source, game, episodes, threads, out):
    command = [os.environ.get("WEIGHTSPACE", os.path.join(ROOT, "build/release/apps/weightspace")), "batch",
               "--game", game, "--source", source, "--episodes", str(episodes), "--threads", str(threads),
               "--cache", "0", "--no-timings", "--quiet", "--out", out, *paths]
    if os.path.exists(out):
        os.remove(out)
    start = time.perf_counter()
    subprocess.run(command, check=True)
    seconds = time.perf_counter() - start
    with open(out, "rb") as f:
        return seconds, f.read()


def main() -> int:
    args = parse_args()
    rng = random.Random(args.seed)
    status = 0
    ratios = {"records": [], "process": []}
    with tempfile.TemporaryDirectory() as work:
        print(f"# load: {' '.join(open('/proc/loadavg').read().split()[:3])}; wall seconds, best of {args.runs} "
              f"`batch --cache 0` at {args.episodes} episodes; {os.cpu_count()} CPUs")
        out = os.path.join(work, "out.jsonl")
        print(f"{'':<28} {'records (start-up paid once)':^34} {'process':^34}")
        print(f"{'answers':<24} {'n':>3}" + f" {'1 thread s':>11} {args.threads:>2} threads s {'speed-up':>9}" * 2
              + "  lines")
        for source in ("original", "synth"):
            folder = os.path.join(ROOT, "examples", "answers", *(["synth"] if source == "synth" else []))
            for game in GAMES:
                paths = [os.path.join(folder, f"{game}.md")]
                for k in range(args.random):
                    path = os.path.join(work, source, game, f"{k}.md")
                    os.makedirs(os.path.dirname(path), exist_ok=True)
                    with open(path, "w", encoding="utf-8") as f:
                        f.write(answer(rng))
                    paths.append(path)
                once = {1: math.inf, args.threads: math.inf}
                twice = dict(once)
                lines = {}
                for _ in range(args.runs):
                    for threads in once:
                        seconds, _ = run_batch(paths + paths, source, game, args.episodes, threads, out)
                        twice[threads] = min(twice[threads], seconds)
                        seconds, lines[threads] = run_batch(paths, source, game, args.episodes, threads, out)
                        once[threads] = min(once[threads], seconds)
                same = lines[1] == lines[args.threads]
                status |= not same
                records = {threads: twice[threads] - once[threads] for threads in once}
                if min(records.values()) <= 0:
                    sys.exit(f"{source}/{game}: grading the answers twice took no longer than once: too noisy")
                ratio = records[1] / records[args.threads]
                ratios["records"].append(ratio)
                ratios["process"].append(once[1] / once[args.threads])
                print(f"{source + '/' + game:<24} {len(paths):>3} {records[1]:>11.3f} {records[args.threads]:>12.3f} "
                      f"{ratio:>8.2f}x {once[1]:>11.3f} {once[args.threads]:>12.3f} {once[1] / once[args.threads]:>8.2f}x"
                      f"  {'identical' if same else 'DIFFERENT'}")
    for figure, r in ratios.items():
        print(f"{figure}: lowest {min(r):.2f}x, geometric mean {math.exp(sum(map(math.log, r)) / len(r)):.2f}x "
              f"over {len(r)} rows")
    return status


if __name__ == "__main__":
    sys.exit(main())
