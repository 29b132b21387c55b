# SPDX-License-Identifier: GPL-3.0-or-later
"""Concurrent writers are refused, never interleaved (issue 34, item 6): a second batch on an
output a batch is writing (two `batch --resume`), a `merge` of a shard that is still being
written (a batch shard or a sweep shard); the lock goes with its process, kill -9 included.

Each writer is a long one-thread grade (100,000 freeway episodes), killed once checked. Every
run is bounded by a timeout.

usage: python3 locks_test.py WEIGHTSPACE_BINARY EXAMPLES_DIR
"""
import os
import subprocess
import sys
import time

from apps_support import FolderCase, run_tests

BINARY, EXAMPLES = sys.argv[1:3]
del sys.argv[1:3]
ANSWER = os.path.join(EXAMPLES, "answers", "freeway.md")
LONG = ["--game", "freeway", "--episodes", "100000", "--threads", "1", "--quiet"]


def run(*args, cwd=None):
    return subprocess.run([BINARY, *args], capture_output=True, text=True, cwd=cwd, timeout=120)


class Writer:
    """A long-running weightspace process, started once `ready` (a path) exists, killed at exit."""

    def __init__(self, args, ready, cwd=None):
        self.process = subprocess.Popen([BINARY, *args], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=cwd)
        deadline = time.monotonic() + 60
        while not os.path.exists(ready):
            if self.process.poll() is not None or time.monotonic() > deadline:
                raise AssertionError(f"{args}: never wrote {ready}: {self.process.stderr.read()[-500:]!r}")
            time.sleep(0.02)
        time.sleep(0.2)  # past taking the lock, which comes right after the file is created

    def __enter__(self):
        return self

    def __exit__(self, *_):
        self.kill()

    def kill(self):
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait(timeout=60)
        self.process.stderr.close()


class ConcurrentWriters(FolderCase):
    def test_two_batches_on_one_output(self):
        out = self.path("out.jsonl")
        with Writer(["batch", ANSWER, *LONG, "--out", out], ready=out) as writer:
            second = run("batch", ANSWER, *LONG, "--out", out, "--resume")
            self.assertEqual(second.returncode, 1, second.stderr)
            self.assertIn(f"{out} is in use by another weightspace process", second.stderr)
            fresh = run("batch", ANSWER, "--game", "breakout", "--episodes", "2", "--out", out)
            self.assertEqual(fresh.returncode, 1, fresh.stderr)  # nor truncated by a run without --resume
            writer.kill()  # kill -9: the kernel drops the lock
        again = run("batch", ANSWER, "--game", "breakout", "--episodes", "2", "--out", out, "--quiet")
        self.assertEqual(again.returncode, 0, again.stderr)
        with open(out) as f:
            self.assertEqual(len(f.read().splitlines()), 1)

    def test_merge_of_a_batch_shard_still_writing(self):
        out = self.path("r.jsonl")
        shard = self.path("r.shard-0-of-1.jsonl")
        with Writer(["batch", ANSWER, *LONG, "--out", out, "--shard-index", "0", "--shard-count", "1"], ready=shard):
            merge = run("merge", "--out", self.path("merged.jsonl"), shard)
            self.assertEqual(merge.returncode, 1, merge.stderr)
            self.assertIn(f"{shard} is still being written by its shard", merge.stderr)
        self.assertFalse(os.path.exists(self.path("merged.jsonl")))

    def test_two_sweeps_and_a_merge_of_a_sweep_shard_still_writing(self):
        with open(self.path("long.toml"), "w") as f:
            f.write(f'[[answers]]\nname = "one"\npaths = ["{ANSWER}"]\n\n'
                    '[grade]\ngames = ["freeway"]\nepisodes = [100000]\nthreads = 1\n')
        shard = self.path("weightspace.shard-0-of-1.sqlite")
        with Writer(["sweep", "long.toml", "--quiet", "--no-report", "--shard-index", "0", "--shard-count", "1"],
                    ready=shard + "-lock", cwd=self.dir):
            merge = run("merge", "--out", self.path("merged.sqlite"), shard, cwd=self.dir)
            self.assertEqual(merge.returncode, 1, merge.stderr)
            self.assertIn(f"{shard} is still being written by its sweep (process ", merge.stderr)
        database = self.path("weightspace.sqlite")
        with Writer(["sweep", "long.toml", "--quiet", "--no-report"], ready=database + "-lock", cwd=self.dir):
            second = run("sweep", "long.toml", "--quiet", "--no-report", "--resume", cwd=self.dir)
            self.assertEqual(second.returncode, 1, second.stderr)
            self.assertIn("is in use by another sweep", second.stderr)


if __name__ == "__main__":
    sys.exit(run_tests())
