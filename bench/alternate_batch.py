# SPDX-License-Identifier: GPL-3.0-or-later
"""Two or more weightspace binaries on the same answers, alternated round by round, so that a
slow minute of a shared machine hits each of them: the CPU milliseconds (user + system) of
`weightspace batch --threads 1 --cache 0 --no-timings` over the answers, the median of --rounds
per binary, every sample, and each median against the first binary's (the processes run by
bench/batch_timing.py's Timer, as the batch table's). The binaries must write the same lines
(the script exits 1 otherwise): a speed change never changes a grade.

The measurements in docs/performance.md quoted as "alternated" come from this script (until
2026-12-07 a throwaway /tmp/ab.sh doing the same with `perf stat -e task-clock`).

usage: python3 bench/alternate_batch.py --game G [--source original|synth] [--episodes N]
           [--rounds N] [--cpu C] [--memo auto|hits|always|never] ANSWERS BINARY BINARY...
  ANSWERS  a folder of answers (or one answer file), as `weightspace batch` takes it
  --cpu    pins every process to that CPU with taskset (one CPU's speed for all binaries)
"""
import argparse
import os
import shutil
import statistics
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from batch_timing import Timer  # noqa: E402


def parse_args() -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="bench/alternate_batch.py", description=__doc__.split("\n\n")[0])
    p.add_argument("answers", help="a folder of answers or one answer file")
    p.add_argument("binaries", nargs="+", help="weightspace binaries, the first the base of the ratios")
    p.add_argument("--game", required=True)
    p.add_argument("--source", default="original", choices=("original", "synth"))
    p.add_argument("--episodes", type=int, default=1000, help="episodes per answer (default 1000)")
    p.add_argument("--rounds", type=int, default=5, help="rounds, each running every binary once (default 5)")
    p.add_argument("--cpu", type=int, help="run every process under `taskset -c CPU`")
    p.add_argument("--memo", default="auto", choices=("auto", "hits", "always", "never"))
    a = p.parse_args()
    if not 1 <= a.rounds <= 99:
        p.error("--rounds must be 1-99")
    if not 1 <= a.episodes <= 100000:
        p.error("--episodes must be 1-100000")
    if a.cpu is not None and (a.cpu < 0 or shutil.which("taskset") is None):
        p.error("--cpu needs a CPU number >= 0 and taskset (util-linux)")
    if not os.path.exists(a.answers):
        p.error(f"{a.answers}: no such file or folder")
    for binary in a.binaries:
        if not (os.path.isfile(binary) and os.access(binary, os.X_OK)):
            p.error(f"{binary}: not an executable")
    return a


def main() -> int:
    args = parse_args()
    samples = [[] for _ in args.binaries]  # by position: a binary may be named twice
    texts = [b""] * len(args.binaries)
    pin = None if args.cpu is None else str(args.cpu)
    with tempfile.TemporaryDirectory() as work:
        timer = Timer(work, ("alternate", args.source, args.game), [args.answers], args.episodes, "cpu")
        for _ in range(args.rounds):
            for k, binary in enumerate(args.binaries):
                seconds = timer.run(binary, [args.answers], 1, pin, extra=("--memo", args.memo, "--no-timings"))
                samples[k].append(1000.0 * seconds)
                texts[k] = timer.lines()
    base = statistics.median(samples[0])
    for binary, times, text in zip(args.binaries, samples, texts):
        median = statistics.median(times)
        listed = " ".join(f"{value:.0f}" for value in sorted(times))
        same = "same lines" if text == texts[0] else "DIFFERENT LINES"
        print(f"{binary}: median {median:.0f} ms ({listed}), {median / base:.3f} of the first, {same}")
    return 0 if all(text == texts[0] for text in texts) else 1


if __name__ == "__main__":
    sys.exit(main())
