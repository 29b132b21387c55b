#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The speed gate's proof (issue 33): no false alarms on a loaded machine, real slowdowns caught.

Runs RUNS sweeps of identical code and config into one store, with a CPU hog (one busy loop per
core) during a random half of them, and compares every consecutive pair with `weightspace
compare`: each must exit 0 (no regression). With --slow-binary, one more sweep by that binary (a
genuinely slower build, e.g. cmake -DWEIGHTSPACE_TEST_SLOWDOWN=25) under the hog must be flagged
by both the instruction count and a statistical time test (CPU time or wall time; both are shown). --no-hog runs everything on
the quiet machine; --hog-always runs every sweep (the slower build's and its baseline's too)
under the hog, a steadily loaded machine; --hog-loops sets the busy loops (default: one per
core). Prints one line per comparison and a summary; exit 0 when the proof holds, 1 when it does
not, 2 on bad arguments.

usage: bench/speed_gate_proof.py BINARY [--runs 20] [--slow-binary SLOW]
         [--no-hog | --hog-always] [--hog-loops N] [--seed 1]
         [--records 4] [--episodes 20] [--repeat 9] [--min-time 0.5] [--threads 1,2] [--speed-tol 10]
         [--keep DIR]
"""
import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile

EXAMPLES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "examples", "answers")
SWEEP_TIMEOUT = 1800  # seconds per sweep: valgrind's count is the long part


def config_text(args):
    threads = ", ".join(str(int(t)) for t in args.threads.split(","))
    return (f'name = "proof"\nbaseline = "previous"\n[[answers]]\nname = "examples"\npaths = ["answers/"]\n'
            f'[grade]\ngames = ["breakout", "freeway", "seaquest"]\nsources = ["original"]\n'
            f'episodes = [{args.episodes}]\n[speed]\nthreads = [{threads}]\nrecords = {args.records}\n'
            f'repeat = {args.repeat}\nmin_time = {args.min_time}\ninstructions = true\n')


class Hog:
    """LOOPS busy loops, started and stopped by this script only (by their own pids)."""

    def __init__(self, loops):
        self.loops = loops
        self.processes = []

    def __enter__(self):
        for _ in range(self.loops):
            self.processes.append(subprocess.Popen([sys.executable, "-c", "while True: pass"]))
        return self

    def __exit__(self, *exc):
        for process in self.processes:
            process.kill()
            process.wait()


def sweep(binary, folder, hogged, loops):
    command = [binary, "sweep", os.path.join(folder, "proof.toml"), "--quiet", "--no-report"]
    if hogged:
        with Hog(loops):
            result = subprocess.run(command, capture_output=True, text=True, timeout=SWEEP_TIMEOUT)
    else:
        result = subprocess.run(command, capture_output=True, text=True, timeout=SWEEP_TIMEOUT)
    if result.returncode != 0:
        sys.exit(f"sweep failed ({result.returncode}): {result.stderr}")
    return json.loads(result.stdout)["run"]


def compare(binary, folder, base, new, speed_tol):
    result = subprocess.run([binary, "compare", str(base), str(new), "--db", os.path.join(folder, "weightspace.sqlite"),
                             "--json", "--speed-tol", str(speed_tol)], capture_output=True, text=True, timeout=120)
    if result.returncode not in (0, 1):
        sys.exit(f"compare {base} {new} failed ({result.returncode}): {result.stderr}")
    document = json.loads(result.stdout)
    speed = document["speed"]
    instructions = speed["instructions"]
    walls = [f'{row["threads"]}t {100 * row["change"]:+.1f}% p={row["p_value"]:.2g} {row["verdict"]}'
             for row in speed["threads"]]
    cpus = [f'{row["threads"]}t {100 * row["cpu"]["change"]:+.1f}% p={row["cpu"]["p_value"]:.2g} {row["cpu"]["verdict"]}'
            for row in speed["threads"] if row["cpu"]]
    summary = {"exit": result.returncode, "compared": speed["compared"], "gate": speed["gate"],
               "instructions": None if instructions is None else instructions["change"],
               "instruction_regression": bool(instructions and instructions["regression"]),
               "wall_regression": any(row["verdict"] == "regression" for row in speed["threads"]),
               "cpu_regression": any(row["cpu"] and row["cpu"]["verdict"] == "regression" for row in speed["threads"]),
               "wall": "; ".join(walls), "cpu": "; ".join(cpus) or "-"}
    return summary


def describe(label, summary):
    change = "-" if summary["instructions"] is None else f'{100 * summary["instructions"]:+.4f}%'
    return (f'{label}: exit {summary["exit"]}, gate {summary["gate"]}, instructions {change}, '
            f'wall time: {summary["wall"]}; CPU time: {summary["cpu"]}')


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("binary")
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--slow-binary")
    load = parser.add_mutually_exclusive_group()
    load.add_argument("--no-hog", action="store_true")
    load.add_argument("--hog-always", action="store_true")
    parser.add_argument("--hog-loops", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--records", type=int, default=4)
    parser.add_argument("--episodes", type=int, default=20)
    parser.add_argument("--repeat", type=int, default=9)
    parser.add_argument("--min-time", type=float, default=0.5)
    parser.add_argument("--threads", default="1,2")
    parser.add_argument("--speed-tol", type=float, default=10.0, help="compare --speed-tol (percent)")
    parser.add_argument("--keep", help="work in this folder (created) and keep it")
    args = parser.parse_args()
    if not 2 <= args.runs <= 100 or not 1 <= args.records <= 1000 or not 1 <= args.episodes <= 1000:
        parser.error("--runs must be 2-100, --records 1-1000, --episodes 1-1000")
    if not 0 <= args.speed_tol <= 100:
        parser.error("--speed-tol must be 0-100")
    if not 1 <= args.hog_loops <= 64:
        parser.error("--hog-loops must be 1-64")
    folder = args.keep or tempfile.mkdtemp(prefix="weightspace-proof-")
    os.makedirs(folder, exist_ok=True)
    try:
        shutil.copytree(EXAMPLES, os.path.join(folder, "answers"), dirs_exist_ok=True)
        with open(os.path.join(folder, "proof.toml"), "w", encoding="utf-8") as f:
            f.write(config_text(args))
        if args.hog_always:
            hogged = set(range(args.runs))
        elif args.no_hog:
            hogged = set()
        else:
            hogged = set(random.Random(args.seed).sample(range(args.runs), args.runs // 2))
        runs = []
        for index in range(args.runs):
            runs.append(sweep(args.binary, folder, index in hogged, args.hog_loops))
            print(f"run {runs[-1]}: {'hog' if index in hogged else 'idle'}", flush=True)
        alarms = 0
        wall_alarms = 0
        cpu_alarms = 0
        for base, new in zip(runs, runs[1:]):
            summary = compare(args.binary, folder, base, new, args.speed_tol)
            alarms += summary["exit"] != 0 or not summary["compared"]
            wall_alarms += summary["wall_regression"]
            cpu_alarms += summary["cpu_regression"]
            print(describe(f"compare {base} {new}", summary), flush=True)
        print(f"false alarms: {alarms} in {len(runs) - 1} comparisons (judged 'regression' by wall time alone "
              f"{wall_alarms}, by CPU time alone {cpu_alarms}; the instruction count gates)")
        caught = True
        if args.slow_binary:
            slow = sweep(args.slow_binary, folder, not args.no_hog, args.hog_loops)
            summary = compare(args.binary, folder, runs[-1], slow, args.speed_tol)
            print(describe(f"compare {runs[-1]} {slow} (slower build{'' if args.no_hog else f', {args.hog_loops} busy loops'})", summary))
            timed = summary["wall_regression"] or summary["cpu_regression"]
            caught = summary["exit"] == 1 and summary["instruction_regression"] and timed
            yes = {True: "yes", False: "NO"}
            print(f"slower build caught: instruction count {yes[summary['instruction_regression']]}, "
                  f"statistical time test {yes[timed]} (wall time {yes[summary['wall_regression']]}, "
                  f"CPU time {yes[summary['cpu_regression']]})")
        return 0 if alarms == 0 and caught else 1
    finally:
        if not args.keep:
            shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
