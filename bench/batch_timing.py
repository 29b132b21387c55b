# SPDX-License-Identifier: GPL-3.0-or-later
"""Timing `weightspace batch` rows, shared by bench/compare_python_batch.py (weightspace
against the Python grader) and bench/batch_scaling.py (two threads against one), so that both
time the same answers the same way.

A row is one game and source's answers. Each is timed two ways, best of `runs` rounds:
  - records, start-up paid once: a process grading the answers 2k times less one grading them
    k times, divided by k, where k copies make one process take at least `min_seconds`
    (calibrated per row). That is what one more grade of the answers costs a running batch.
    Each copy is a separate path (a symbolic link), so no record shares the parse of the one
    before it (batch shares it only between consecutive records of one input) and every grade
    parses, hashes, builds the policy, plays and writes its line from scratch (--cache 0).
    Without the k copies a short row's difference (breakout's 8 answers: 20 ms) was within a
    process's noise: two threads measured 1.67-1.97x on rows that scale 1.93x over 64 copies;
  - process: one whole process grading the answers once.
"""
import json
import math
import os
import random
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
from random_answers import GAMES, answer  # noqa: E402

MAX_COPIES = 256


def default_binary() -> str:
    return os.environ.get("WEIGHTSPACE", os.path.join(ROOT, "build/release/apps/weightspace"))


def answer_sets(work: str, count: int, seed: int) -> dict:
    """{(set, source, game): [answer paths]}: the examples, then `count` random answers per row."""
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


class Timer:
    """Runs `batch` processes of one row's answers: `clock` "cpu" (user + system seconds) or
    "wall"."""

    def __init__(self, work: str, key: tuple, paths: list, episodes: int, clock: str = "cpu"):
        self.work, self.key, self.paths, self.episodes, self.clock = work, key, paths, episodes, clock
        self.out = os.path.join(work, "timing.jsonl")
        self._copies = {1: list(paths)}

    def copies(self, k: int) -> list:
        """The answers k times over, each copy a distinct path (a symbolic link: a hard link
        cannot cross from the checkout to a /tmp of another file system)."""
        if k not in self._copies:
            listed = []
            for c in range(k):
                folder = os.path.join(self.work, "copies", *self.key, str(c))
                os.makedirs(folder, exist_ok=True)
                for i, path in enumerate(self.paths):
                    link = os.path.join(folder, f"{i}-{os.path.basename(path)}")
                    if not os.path.exists(link):
                        os.symlink(os.path.abspath(path), link)
                    listed.append(link)
            self._copies[k] = listed
        return self._copies[k]

    def run(self, binary: str, paths: list, threads: int = 1, pin=None, episodes=None, extra=()) -> float:
        """One process (under `taskset -c pin` when a CPU list is given); its seconds by the
        clock. Its lines are left in self.out."""
        _, source, game = self.key
        command = [binary, "batch", "--game", game, "--source", source, "--episodes", str(episodes or self.episodes),
                   "--threads", str(threads), "--cache", "0", "--quiet", *extra, "--out", self.out, *paths]
        if pin:
            command = ["taskset", "-c", pin, *command]
        if os.path.exists(self.out):
            os.remove(self.out)
        start = time.perf_counter()
        process = subprocess.Popen(command)
        _, status, usage = os.wait4(process.pid, 0)
        wall = time.perf_counter() - start
        if os.waitstatus_to_exitcode(status) != 0:
            sys.exit(f"{' '.join(command)} exited {os.waitstatus_to_exitcode(status)}")
        return usage.ru_utime + usage.ru_stime if self.clock == "cpu" else wall

    def lines(self) -> bytes:
        with open(self.out, "rb") as f:
            return f.read()

    def records(self) -> list:
        return [json.loads(line) for line in self.lines().splitlines()]

    def calibrate(self, binary: str, threads: int, pin, min_seconds: float) -> int:
        """The fewest copies (a power of two) one process takes at least min_seconds over."""
        k = 1
        while k < MAX_COPIES and self.run(binary, self.copies(k), threads, pin) < min_seconds:
            k *= 2
        return k

    def best(self, runners: dict, lists: dict, runs: int, done=lambda best: True) -> dict:
        """{(label, list name): best seconds}: each runner {label: (binary, threads, CPU list to
        pin to or None)} on each answer list {name: paths}, all alternated in each round so that
        a change of the machine's load falls on all; `runs` rounds, then up to twice `runs` more
        while done(best) is false (a measurement lost in the noise). self.rounds: how many ran;
        self.steps[label]: the steps of the last list's grading."""
        best = {(label, name): math.inf for label in runners for name in lists}
        self.steps = {}
        self.rounds = 0
        while self.rounds < runs or (self.rounds < 3 * runs and not done(best)):
            self.rounds += 1
            for label, (binary, threads, pin) in runners.items():
                for name, paths in lists.items():
                    best[label, name] = min(best[label, name], self.run(binary, paths, threads, pin))
                self.steps[label] = sum(record["steps"] for record in self.records())
        return best

    def time(self, runners: dict, runs: int, min_seconds: float) -> dict:
        """Start-up paid once: {label: (steps, records seconds, process seconds, copies)} for
        runners as best() takes them; the records seconds are one grading's (2k copies less k,
        over k)."""
        k = max(self.calibrate(*runner, min_seconds) for runner in runners.values())
        lists = {"twice": self.copies(2 * k), "once": self.copies(k), "process": self.paths}
        if k == 1:
            del lists["process"]  # "once" is that process
        best = self.best(runners, lists, runs, lambda best: all(best[r, "twice"] > best[r, "once"] for r in runners))
        for label in runners:
            if best[label, "twice"] <= best[label, "once"]:
                sys.exit(f"{'/'.join(self.key)}: {label}: grading the answers {2 * k} times took no longer than {k} "
                         f"times ({best[label, 'twice']:.4f} s, {best[label, 'once']:.4f} s) in {self.rounds} rounds: "
                         "too noisy to measure; use more --min-seconds or a quieter machine")
        return {label: (self.steps[label], (best[label, "twice"] - best[label, "once"]) / k,
                        best[label, "process" if k > 1 else "once"], k) for label in runners}
