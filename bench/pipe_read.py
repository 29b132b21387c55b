#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""An answer read from a file, through a pipe and through a FIFO: wall times, best of N.

    python3 bench/pipe_read.py WEIGHTSPACE_BINARY [--megabytes 200] [--rounds 3] [--check 1.5]

The answer is MEGABYTES of prose and one small edits block, so that reading it (and finding
its last edits block) is most of the work. Each round runs, in alternation, `weightspace parse
--answer FILE`, `cat FILE | weightspace parse --answer -` and the same through a FIFO; the
machine's drift falls on all three alike. Then `yes` (an endless input) into `parse --answer -`
under a 2 GiB address-space limit: the time until the --max-input-bytes guard stops it.
With --check R, exits 1 when the pipe's or the FIFO's best time is more than R times the
file's (issue 34: reads from a pipe at 13 MB/s took 15.4 s for what a file read in 2.6 s).
docs/performance.md, "Reading answers from pipes".
"""

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import threading
import time

LIMIT = 2 << 30  # address space of the `yes` run, as tests/apps/robustness_test.py


def write_answer(path, megabytes):
    line = b"The policy below keeps the paddle under the ball; nothing in this line is an edit.\n"
    block = b"```edits\nb3[0] = 1\n```\n"
    with open(path, "wb") as f:
        chunk = line * ((1 << 20) // len(line) + 1)
        written = 0
        while written < megabytes * 1_000_000:
            f.write(chunk)
            written += len(chunk)
        f.write(block)


def timed(command, **kwargs):
    start = time.monotonic()
    result = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, **kwargs)
    seconds = time.monotonic() - start
    if result.returncode != 0 or b'"parse_success":true' not in result.stdout:
        sys.exit(f"{command}: exit {result.returncode}: {result.stderr[-500:]!r} {result.stdout[:300]!r}")
    return seconds


def through_fifo(binary, answer, folder):
    fifo = os.path.join(folder, "fifo")
    if not os.path.exists(fifo):
        os.mkfifo(fifo)
    feeder = threading.Thread(target=lambda: subprocess.run(f"cat '{answer}' > '{fifo}'", shell=True, check=True))
    start = time.monotonic()
    feeder.start()
    seconds = timed([binary, "parse", "--answer", fifo])
    feeder.join()
    return max(seconds, time.monotonic() - start)


def endless(binary):
    def limit():
        resource.setrlimit(resource.RLIMIT_AS, (LIMIT, LIMIT))
    start = time.monotonic()
    result = subprocess.run(f"yes | '{binary}' parse --answer -", shell=True, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, preexec_fn=limit)
    seconds = time.monotonic() - start
    if b"larger than" not in result.stdout + result.stderr and b"not enough memory" not in result.stdout:
        sys.exit(f"yes | parse: no limit reported: {result.stdout[:300]!r} {result.stderr[-300:]!r}")
    return seconds


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("binary")
    parser.add_argument("--megabytes", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--check", type=float, default=None)
    parser.add_argument("--no-endless", action="store_true", help="skip the `yes` run")
    options = parser.parse_args()
    if not 1 <= options.megabytes <= 2000 or not 1 <= options.rounds <= 20:
        sys.exit("--megabytes must be 1..2000 and --rounds 1..20")
    with tempfile.TemporaryDirectory() as folder:
        answer = os.path.join(folder, "answer.md")
        write_answer(answer, options.megabytes)
        size = os.path.getsize(answer) / 1e6
        times = {"file": [], "pipe": [], "fifo": []}
        for _ in range(options.rounds):
            times["file"].append(timed([options.binary, "parse", "--answer", answer]))
            times["pipe"].append(timed(f"cat '{answer}' | '{options.binary}' parse --answer -", shell=True))
            times["fifo"].append(through_fifo(options.binary, answer, folder))
        best = {way: min(seconds) for way, seconds in times.items()}
        for way, seconds in best.items():
            print(f"{way}: {size:.0f} MB in {seconds:.2f} s ({size / seconds:.0f} MB/s), "
                  f"{seconds / best['file']:.2f}x the file; rounds: {', '.join(f'{s:.2f}' for s in times[way])}")
    if not options.no_endless:
        print(f"yes | parse --answer - under a 2 GiB address space: stopped after {endless(options.binary):.2f} s")
    if options.check is not None and max(best["pipe"], best["fifo"]) > options.check * best["file"]:
        sys.exit(f"a pipe or FIFO took more than {options.check}x the file's time")


if __name__ == "__main__":
    main()
