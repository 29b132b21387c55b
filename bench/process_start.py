#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Whole-process times of short commands, spawned in alternation: median and spread.

    python3 bench/process_start.py [--rounds N] COMMAND [-- COMMAND ...]

Each round spawns every command once, in the order given, and waits for it (stdout and stderr
to /dev/null), so the machine's drift falls on all of them alike; `perf stat -r` runs one command
many times in a row and moved by more than the differences measured here. Put `/bin/true` first:
it is this machine's floor, and includes what spawning from Python costs. A command that fails
stops the run. docs/performance.md, "Process start".
"""

import argparse
import os
import statistics
import sys
import time


def commands_of(words):
    commands, current = [], []
    for word in words:
        if word == "--":
            if current:
                commands.append(current)
            current = []
        else:
            current.append(word)
    if current:
        commands.append(current)
    return commands


def spawn_ms(command, devnull):
    actions = [(os.POSIX_SPAWN_DUP2, devnull, 1), (os.POSIX_SPAWN_DUP2, devnull, 2)]
    start = time.perf_counter_ns()
    try:
        pid = os.posix_spawnp(command[0], command, os.environ, file_actions=actions)
    except OSError as error:
        sys.exit(f"process_start.py: cannot run {command[0]}: {error.strerror}")
    _, status = os.waitpid(pid, 0)
    elapsed = (time.perf_counter_ns() - start) / 1e6
    code = os.waitstatus_to_exitcode(status)
    if code != 0:
        sys.exit(f"process_start.py: {' '.join(command)} exited with {code}")
    return elapsed


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=300, help="spawns of each command (default 300)")
    parser.add_argument("words", nargs=argparse.REMAINDER, help="commands, separated by --")
    args = parser.parse_args()
    if not 1 <= args.rounds <= 100_000:
        parser.error("--rounds must be between 1 and 100000")
    commands = commands_of(args.words)
    if not commands:
        parser.error("give at least one command")
    times = [[] for _ in commands]
    with open(os.devnull, "wb") as sink:
        for command in commands:  # one unmeasured round: page cache, binaries loaded
            spawn_ms(command, sink.fileno())
        for _ in range(args.rounds):
            for k, command in enumerate(commands):
                times[k].append(spawn_ms(command, sink.fileno()))
    print(f"{'median ms':>10} {'p10':>8} {'p90':>8}  command ({args.rounds} rounds, alternated)")
    for command, samples in zip(commands, times):
        # Inclusive: the deciles stay within the samples (the default extrapolates past the
        # smallest and largest of a few rounds, even below zero).
        deciles = statistics.quantiles(samples, n=10, method="inclusive") if len(samples) > 1 else samples
        print(f"{statistics.median(samples):10.3f} {deciles[0]:8.3f} {deciles[-1]:8.3f}  {' '.join(command)}")


if __name__ == "__main__":
    main()
