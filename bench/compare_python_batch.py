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
    grading the row's answers twice (each listed twice, each graded from scratch: --cache 0)
    less those of one grading them once, best of --runs each. That is what one more grade of
    the answers costs in a running batch: parsing, hashing and building the policy, playing,
    writing the lines; not the process's start;
  - "process": the whole `batch` process grading them once (start, parse, output included).
Every answer is also graded by weightspace at Python's episode count and its reward.json text
must equal Python's; the script exits 1 otherwise.

Times are CPU seconds by default (--clock cpu: grade_answer's process_time, the batch
process's user + system time), so that a shared machine's other load does not count against
either side; --clock wall times both by the wall clock instead.

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
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
from random_answers import GAMES, answer  # noqa: E402


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
    a = p.parse_args()
    for name, low, high in (("episodes", 1, 100000), ("python_episodes", 1, 100000), ("random", 0, 1000), ("runs", 1, 50)):
        if not low <= getattr(a, name) <= high:
            p.error(f"--{name.replace('_', '-')} must be {low}-{high}")
    return a


def answer_sets(work: str, count: int, seed: int) -> dict:
    """{(set, source, game): [answer paths]}: the examples, then `count` random answers per row."""
    import random
    rows = {}
    for source in ("original", "synth"):
        folder = os.path.join(ROOT, "examples", "answers", *(["synth"] if source == "synth" else []))
        for game in GAMES:
            rows[("examples", source, game)] = [os.path.join(folder, f"{game}.md")]
    rng = random.Random(seed)
    for source in ("original", "synth"):
        for game in GAMES:
            paths = []
            for k in range(count):
                path = os.path.join(work, "random", source, game, f"{k}.md")
                os.makedirs(os.path.dirname(path), exist_ok=True)
                with open(path, "w", encoding="utf-8") as f:
                    f.write(answer(rng))
                paths.append(path)
            if paths:
                rows[("random", source, game)] = paths
    return rows


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


def batch(args, key, paths, episodes, out) -> float:
    """One `weightspace batch` run of the row's answers; the process's wall or CPU seconds (--clock)."""
    _, source, game = key
    command = [os.environ.get("WEIGHTSPACE", os.path.join(ROOT, "build/release/apps/weightspace")), "batch",
               "--game", game, "--source", source, "--episodes", str(episodes), "--threads", "1", "--cache", "0",
               "--quiet", "--out", out, *paths]
    if args.pin:
        command = ["taskset", "-c", args.pin, *command]
    if os.path.exists(out):
        os.remove(out)
    start = time.perf_counter()
    process = subprocess.Popen(command)
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - start
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode != 0:
        sys.exit(f"{' '.join(command)} exited {process.returncode}")
    return usage.ru_utime + usage.ru_stime if args.clock == "cpu" else wall


def records(path: str) -> list:
    return [json.loads(line) for line in open(path, encoding="utf-8")]


def main() -> int:
    args = parse_args()
    baseline = {}
    if args.baseline and os.path.exists(args.baseline):
        baseline = json.load(open(args.baseline, encoding="utf-8"))
    status = 0
    with tempfile.TemporaryDirectory() as work:
        rows = answer_sets(work, args.random, args.seed)
        print(f"# load: {' '.join(open('/proc/loadavg').read().split()[:3])}; {args.clock} seconds; weightspace: best of "
              f"{args.runs} `batch --threads 1 --cache 0` processes at {args.episodes} episodes (records: answers "
              f"graded twice less once, start-up paid once; process: the whole process)"
              f"{' pinned to CPU ' + args.pin if args.pin else ''}; Python: grade_answer alone at "
              f"{args.python_episodes} episodes{' (saved baseline ' + args.baseline + ')' if baseline else ''}")
        print(f"{'':<9} {'':<24} {'':>3} {'':>15} {'weightspace steps/s and ratio':^43}")
        print(f"{'set':<9} {'answer':<24} {'n':>3} {'python steps/s':>15} {'records':>12} {'ratio':>8} {'process':>12} "
              f"{'ratio':>8}  reward.json")
        ratios = {figure: {"examples": [], "random": []} for figure in ("records", "process")}
        for key, paths in rows.items():
            name = "/".join(key)
            measured = baseline.get(name)
            if measured is None:
                measured = baseline[name] = python_side(args, key, paths)
            elif measured["answers_sha256"] != digest(paths) or measured["episodes"] != args.python_episodes:
                sys.exit(f"{args.baseline}: {name} was measured on other answers or episodes; remove it to measure again")
            check = os.path.join(work, "check.jsonl")
            batch(args, key, paths, args.python_episodes, check)
            same = sum(json.dumps(r["reward"]) == p for r, p in zip(records(check), measured["rewards"]))
            if same != len(paths):
                status = 1
            out = os.path.join(work, "out.jsonl")
            once = twice = math.inf
            for _ in range(args.runs):
                twice = min(twice, batch(args, key, paths + paths, args.episodes, out))
                once = min(once, batch(args, key, paths, args.episodes, out))
            steps = sum(r["steps"] for r in records(out))
            if twice <= once:
                sys.exit(f"{name}: grading the answers twice took no longer than once ({twice:.4f} s, {once:.4f} s): "
                         "too noisy to measure; use more --runs or a quieter machine")
            process_best, record_best = once, twice - once
            python_rate = measured["steps"] / measured[args.clock]
            record_rate, process_rate = steps / record_best, steps / process_best
            ratios["records"][key[0]].append(record_rate / python_rate)
            ratios["process"][key[0]].append(process_rate / python_rate)
            print(f"{key[0]:<9} {key[1] + '/' + key[2]:<24} {len(paths):>3} {python_rate:>15,.0f} {record_rate:>12,.0f} "
                  f"{record_rate / python_rate:>7.0f}x {process_rate:>12,.0f} {process_rate / python_rate:>7.0f}x  "
                  f"{'identical' if same == len(paths) else 'DIFFERENT'} {same}/{len(paths)}")
    if args.baseline and not os.path.exists(args.baseline):
        with open(args.baseline, "w", encoding="utf-8") as f:
            json.dump(baseline, f, indent=1)
    geo = lambda r: math.exp(sum(map(math.log, r)) / len(r))  # noqa: E731
    for figure, by_set in ratios.items():
        everything = by_set["examples"] + by_set["random"]
        for label, r in (("examples", by_set["examples"]), ("random", by_set["random"]), ("all", everything)):
            if r:
                print(f"{figure}: geometric mean {label}: {geo(r):.0f}x over {len(r)} rows (lowest {min(r):.0f}x)")
    return status


if __name__ == "__main__":
    sys.exit(main())
