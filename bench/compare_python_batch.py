# SPDX-License-Identifier: GPL-3.0-or-later
"""The batch mode of bench/compare_python.sh: policy-steps per second of the Python grader
against `weightspace batch --threads 1 --cache 0`, per game and source, for the example answers
(examples/answers) and for random hand-written-like answers (bench/random_answers.py), with
the ratio and the geometric mean of the ratios.

The Python grader runs about 15,000 steps/s, so its side grades fewer episodes per answer
(--python-episodes) than weightspace's (--episodes): what is compared is steps per second,
each side's own steps over its own time. Python's time is grade_answer alone (one interpreter
per game, imports not counted). weightspace gets two figures, best of
--runs each:
  - "records": start-up paid once, as on Python's side: the seconds (--clock) of a process
    grading the row's answers 2k times less those of one grading them k times, over k, where
    k copies make a process take at least --min-seconds (bench/batch_timing.py). Each grade is
    from scratch (--cache 0, no shared parse): what one more grade of the answers costs in a
    running batch: parsing, hashing and building the policy, playing, writing the lines; not
    the process's start;
  - "process": the whole `batch` process grading them once (start, parse, output included).
Every answer is also graded by weightspace at Python's episode count and its reward.json text
must equal Python's; the script exits 1 otherwise.

Times are CPU seconds by default (--clock cpu: grade_answer's process_time, the batch
process's user + system time), so that a shared machine's other load does not count against
either side; --clock wall times both by the wall clock instead.

--before BINARY times a second weightspace (an older build) in the same run, the two binaries
alternated in each round, and prints its columns first: before and after side by side under
the same load; both must write Python's reward.json texts.

--baseline FILE keeps the slow side: if FILE exists its Python figures are used (the answer
texts and parameters must match what it was measured on, or the script stops), otherwise they
are measured and written there.
"""
import argparse
import hashlib
import json
import math
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
from batch_timing import Timer, answer_sets, default_binary  # noqa: E402


def parse_args() -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="bench/compare_python.sh --batch", description=__doc__.split("\n\n")[0])
    p.add_argument("minatar", help="a kenjyoung/MinAtar checkout (the folder holding minatar/)")
    p.add_argument("--episodes", type=int, default=1000, help="weightspace episodes per answer (default 1000)")
    p.add_argument("--python-episodes", type=int, default=100, help="Python episodes per answer (default 100)")
    p.add_argument("--random", type=int, default=10, help="random answers per game and source (default 10)")
    p.add_argument("--seed", type=int, default=2026, help="seed of the random answers (default 2026)")
    p.add_argument("--runs", type=int, default=3, help="weightspace runs per row, best kept (default 3)")
    p.add_argument("--baseline", help="JSON file of the Python side: read if it exists, else written")
    p.add_argument("--pin", help="run weightspace under `taskset -c PIN` (a CPU list)")
    p.add_argument("--clock", choices=("cpu", "wall"), default="cpu", help="CPU (default) or wall seconds")
    p.add_argument("--min-seconds", type=float, default=0.3,
                   help="copies of a row's answers per process until one takes this long (default 0.3)")
    p.add_argument("--before", help="another weightspace binary, timed in the same run (alternated with WEIGHTSPACE)")
    a = p.parse_args()
    for name, low, high in (("episodes", 1, 100000), ("python_episodes", 1, 100000), ("random", 0, 1000), ("runs", 1, 50),
                            ("min_seconds", 0, 60)):
        if not low <= getattr(a, name) <= high:
            p.error(f"--{name.replace('_', '-')} must be {low}-{high}")
    return a


def digest(paths: list) -> str:
    h = hashlib.sha256()
    for path in paths:
        h.update(open(path, "rb").read())
    return h.hexdigest()


def python_side(args, key, paths) -> dict:
    _, source, game = key
    env = dict(os.environ, PYTHONPATH=f"{args.minatar}:{os.path.join(ROOT, 'tools')}")
    verify_dir = os.environ.get("VERIFY_DIR", os.path.join(ROOT, "..", "shared", "seed"))
    python = os.environ.get("PYTHON", "/usr/bin/python3")
    run = subprocess.run([python, os.path.join(HERE, "python_grade.py"), verify_dir, source, game,
                          str(args.python_episodes), *paths], env=env, capture_output=True, text=True)
    if run.returncode != 0:
        sys.exit(f"the Python grader failed on {'/'.join(key)}:\n{run.stderr}")
    rewards = run.stdout.splitlines()
    # stderr also holds MinAtar's warnings; the timing lines are the last len(paths)
    times = [line.split() for line in run.stderr.splitlines()[-len(paths):]]
    wall, cpu = sum(float(t[0]) for t in times), sum(float(t[1]) for t in times)
    steps = sum(round(json.loads(r).get("mean_episode_length", 0) * args.python_episodes) for r in rewards)
    return {"answers_sha256": digest(paths), "episodes": args.python_episodes, "rewards": rewards,
            "wall": wall, "cpu": cpu, "steps": steps}


def identical_rewards(args, binary, timer, measured) -> int:
    """How many of the row's reward.json texts `binary` writes as Python did (at Python's episodes)."""
    timer.run(binary, timer.paths, episodes=args.python_episodes)
    return sum(json.dumps(r["reward"]) == p for r, p in zip(timer.records(), measured["rewards"]))


def python_figures(args, baseline, key, paths) -> dict:
    name = "/".join(key)
    measured = baseline.get(name)
    if measured is None:
        measured = baseline[name] = python_side(args, key, paths)
    elif measured["answers_sha256"] != digest(paths) or measured["episodes"] != args.python_episodes:
        sys.exit(f"{args.baseline}: {name} was measured on other answers or episodes; remove it to measure again")
    return measured


def print_header(args, binaries, measured_before: bool):
    print(f"# load: {' '.join(open('/proc/loadavg').read().split()[:3])}; {args.clock} seconds; weightspace: best of "
          f"{args.runs} `batch --threads 1 --cache 0` processes at {args.episodes} episodes (records: answers "
          f"graded 2k times less k times, over k, k copies taking >= {args.min_seconds} s: start-up paid once; "
          f"process: the whole process)"
          f"{' pinned to CPU ' + args.pin if args.pin else ''}; Python: grade_answer alone at "
          f"{args.python_episodes} episodes{' (saved baseline ' + args.baseline + ')' if measured_before else ''}")
    for label, binary in binaries.items():
        print(f"# {label}: {binary}")
    columns = "".join(f" {label + ' records':>17} {'ratio':>7} {label + ' process':>17} {'ratio':>7}"
                      for label in binaries)
    print(f"{'set':<9} {'answer':<24} {'n':>3} {'python steps/s':>15}{columns} {'k':>3}  reward.json")


def main() -> int:
    args = parse_args()
    binaries = {"after": default_binary()}
    if args.before:
        binaries = {"before": args.before, **binaries}
    baseline = {}
    if args.baseline and os.path.exists(args.baseline):
        baseline = json.load(open(args.baseline, encoding="utf-8"))
    status = 0
    ratios = {(label, figure): {"examples": [], "random": []} for label in binaries for figure in ("records", "process")}
    with tempfile.TemporaryDirectory() as work:
        rows = answer_sets(work, args.random, args.seed)
        print_header(args, binaries, bool(baseline))
        for key, paths in rows.items():
            measured = python_figures(args, baseline, key, paths)
            timer = Timer(work, key, paths, args.episodes, args.clock)
            same = {label: identical_rewards(args, binary, timer, measured) for label, binary in binaries.items()}
            status |= any(count != len(paths) for count in same.values())
            python_rate = measured["steps"] / measured[args.clock]
            line = f"{key[0]:<9} {key[1] + '/' + key[2]:<24} {len(paths):>3} {python_rate:>15,.0f}"
            runners = {label: (binary, 1, args.pin) for label, binary in binaries.items()}
            timed = timer.time(runners, args.runs, args.min_seconds)
            for label, (steps, record_seconds, process_seconds, copies) in timed.items():
                for figure, seconds in (("records", record_seconds), ("process", process_seconds)):
                    rate = steps / seconds
                    ratios[(label, figure)][key[0]].append(rate / python_rate)
                    line += f" {rate:>17,.0f} {rate / python_rate:>6.0f}x"
            verdicts = [f"{'identical' if count == len(paths) else 'DIFFERENT'} {count}/{len(paths)}" for count in same.values()]
            print(f"{line} {copies:>3}  {', '.join(verdicts)}")
    if args.baseline and not os.path.exists(args.baseline):
        with open(args.baseline, "w", encoding="utf-8") as f:
            json.dump(baseline, f, indent=1)
    print_means(ratios)
    return status


def print_means(ratios: dict):
    geo = lambda r: math.exp(sum(map(math.log, r)) / len(r))  # noqa: E731
    for (label, figure), by_set in ratios.items():
        everything = by_set["examples"] + by_set["random"]
        for name, r in (("examples", by_set["examples"]), ("random", by_set["random"]), ("all", everything)):
            if r:
                print(f"{label} {figure}: geometric mean {name}: {geo(r):.0f}x over {len(r)} rows (lowest {min(r):.0f}x)")


if __name__ == "__main__":
    sys.exit(main())
