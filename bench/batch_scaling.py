# SPDX-License-Identifier: GPL-3.0-or-later
"""Two threads against one in `weightspace batch`, per game and source (issue 36: "two threads
>= 1.8x one in batch on every game"). The rows are bench/compare_python.sh --batch's: each
game's example answer, and --random hand-written-like answers (bench/random_answers.py), timed
by bench/batch_timing.py with `batch --cache 0` at --threads 1 and at --threads N, alternated,
best wall time of --runs each. Both thread counts must write the same lines (`--no-timings`:
the threads never change a result). Two figures: "copies", one process grading k copies of
the row's answers (each a separate path, graded from scratch), k the fewest taking at least
--min-seconds, so that the process's start (~10 ms, which no second thread shortens) is at
most 1% of it: what a second core buys a running batch; and "process", one process grading
the answers once, start included. A difference of two processes (the batch table's "records")
doubles the noise of two-CPU wall times on a virtual machine: it gave 0.92x and 1.36x on rows
whose whole processes sped up 1.41x and 1.94x in the same run.

One thread is timed pinned to each CPU the N threads run on, and the speed-up is taken
against the fastest: a virtual machine's CPUs need not be equally fast. "attainable" is the
most those CPUs could give (the sum of their speeds over the fastest's), "effic." the
speed-up over it.

usage: python3 bench/batch_scaling.py [--episodes N] [--random N] [--seed S] [--runs N] [--threads N]
                                      [--min-seconds S]
Environment: WEIGHTSPACE (default build/release/apps/weightspace).
Wall time is the point (what a second core buys), so run it on an otherwise idle machine; the
output's first line gives the load average.
"""
import argparse
import math
import os
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from batch_timing import Timer, answer_sets, default_binary  # noqa: E402


def parse_args() -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="bench/batch_scaling.py", description=__doc__.split("\n\n")[0])
    p.add_argument("--episodes", type=int, default=1000, help="episodes per answer (default 1000)")
    p.add_argument("--random", type=int, default=10, help="random answers per game and source (default 10)")
    p.add_argument("--seed", type=int, default=2026, help="seed of the random answers (default 2026)")
    p.add_argument("--runs", type=int, default=3, help="runs per thread count, best kept (default 3)")
    p.add_argument("--threads", type=int, default=2, help="the thread count compared with one (default 2)")
    p.add_argument("--min-seconds", type=float, default=1.0,
                   help="copies of a row's answers per process until one takes this long (default 1.0)")
    a = p.parse_args()
    for name, low, high in (("episodes", 1, 100000), ("random", 0, 1000), ("runs", 1, 50), ("threads", 2, 1024),
                            ("min_seconds", 0, 60)):
        if not low <= getattr(a, name) <= high:
            p.error(f"--{name.replace('_', '-')} must be {low}-{high}")
    return a


def same_lines(binary: str, timer: Timer, threads: int) -> bool:
    """Whether one thread and `threads` threads write the same lines for the row."""
    written = []
    for count in (1, threads):
        timer.run(binary, timer.paths, count, extra=("--no-timings",))
        written.append(timer.lines())
    return written[0] == written[1]


def scaling(best: dict, cpus: list) -> dict:
    """The k copies' figures: the fastest and slowest CPU's one thread, the N threads' speed-up
    over the fastest, what the CPUs could give at most (the sum of their speeds over the
    fastest's), and the efficiency (the speed-up over that)."""
    singles = [best[f"cpu{c}", "copies"] for c in cpus]
    fastest = min(singles)
    speed_up = fastest / best["all", "copies"]
    attainable = sum(fastest / single for single in singles)
    return {"fastest": fastest, "slowest": max(singles), "speed_up": speed_up, "attainable": attainable,
            "efficiency": speed_up / attainable}


def geometric_mean(r: list) -> float:
    return math.exp(sum(map(math.log, r)) / len(r))


def main() -> int:
    args = parse_args()
    binary = default_binary()
    cpus = sorted(os.sched_getaffinity(0))[:args.threads]
    if len(cpus) < args.threads:
        print(f"--threads {args.threads}: this process may run on {len(cpus)} CPUs only", file=sys.stderr)
        return 77  # ctest's "skipped"
    # One thread pinned to each CPU the threads run on: a virtual machine's CPUs need not be
    # equally fast (this one's CPU 1 ran 37% slower than CPU 0 on 2026-12-06), so one unpinned
    # thread's time depends on where the kernel put it. The speed-up is taken against the
    # fastest CPU; "attainable" is what these CPUs could give at most (the sum of their speeds
    # over the fastest's), and the efficiency the speed-up over it.
    runners = {f"cpu{c}": (binary, 1, str(c)) for c in cpus}
    runners["all"] = (binary, args.threads, ",".join(map(str, cpus)))
    status = 0
    figures = {"copies": [], "attainable": [], "efficiency": [], "process": []}
    with tempfile.TemporaryDirectory() as work:
        print(f"# load: {' '.join(open('/proc/loadavg').read().split()[:3])}; wall seconds, best of {args.runs} "
              f"`batch --cache 0` at {args.episodes} episodes; copies: one process grading k copies of the answers, "
              f"k the fewest taking >= {args.min_seconds} s; one thread pinned to each of CPUs {cpus}, "
              f"{args.threads} threads to all of them")
        print(f"{'':<42} {'k copies in one process':^63} {'process of the answers once':^34}")
        print(f"{'set':<9} {'answers':<24} {'n':>3} {'k':>3} {'1 thread s':>11} {'slowest s':>10} {args.threads:>2} threads s "
              f"{'speed-up':>9} {'attainable':>10} {'effic.':>7} {'1 thread s':>11} {args.threads:>2} threads s "
              f"{'speed-up':>9}  lines")
        for key, paths in answer_sets(work, args.random, args.seed).items():
            timer = Timer(work, key, paths, args.episodes, clock="wall")
            same = same_lines(binary, timer, args.threads)
            status |= not same
            k = max(timer.calibrate(*runner, args.min_seconds) for runner in runners.values())
            lists = {"copies": timer.copies(k), "process": paths} if k > 1 else {"copies": paths}
            # Up to twice --runs more rounds while the row is below 90% of what its CPUs could
            # give: a disturbance of the host lasting a row's runs (three consecutive rows at
            # 57-64% on 2026-12-06 measured 95-98% again minutes later) is not the engine's.
            best = timer.best(runners, lists, args.runs, lambda best: scaling(best, cpus)["efficiency"] >= 0.9)
            copies = scaling(best, cpus)
            process = "process" if k > 1 else "copies"
            process_1 = min(best[f"cpu{c}", process] for c in cpus)
            row = {"copies": copies["speed_up"], "attainable": copies["attainable"],
                   "efficiency": copies["efficiency"], "process": process_1 / best["all", process]}
            for figure, value in row.items():
                figures[figure].append(value)
            print(f"{key[0]:<9} {key[1] + '/' + key[2]:<24} {len(paths):>3} {k:>3} {copies['fastest']:>11.3f} "
                  f"{copies['slowest']:>10.3f} {best['all', 'copies']:>12.3f} {row['copies']:>8.2f}x "
                  f"{row['attainable']:>9.2f}x {row['efficiency']:>6.0%} "
                  f"{process_1:>11.4f} {best['all', process]:>12.4f} {row['process']:>8.2f}x  "
                  f"{'identical' if same else 'DIFFERENT'}")
    for figure, r in figures.items():
        unit = "%" if figure == "efficiency" else "x"
        show = (lambda v: f"{v:.0%}") if unit == "%" else (lambda v: f"{v:.2f}x")
        print(f"{figure}: lowest {show(min(r))}, geometric mean {show(geometric_mean(r))} over {len(r)} rows")
    return status


if __name__ == "__main__":
    sys.exit(main())
