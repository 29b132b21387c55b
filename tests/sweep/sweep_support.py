# SPDX-License-Identifier: GPL-3.0-or-later
"""Shared pieces of the sweep CLI tests: the binary, tiny sweep configs, generated answers, and
reading the results store with Python's own sqlite3."""
import json
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
import unittest

BINARY, EXAMPLES = sys.argv[1:3]
del sys.argv[1:3]
SANITIZED = os.environ.get("WEIGHTSPACE_SANITIZED") == "1"
FENCE = "```"

# The columns of a record that do not depend on timing: two sweeps of the same config agree on
# them exactly, whatever threads, interruptions and resumes happened.
RECORD_COLUMNS = ("seq, answer_set, id, input, game, source, episodes, weights_sha256, input_sha256, reward, "
                  "normalized_score, error_kind, error_line, error_column, cached, steps")


def answer(k):
    """A distinct, valid answer (its own weights) for every k."""
    return (f"{FENCE}edits\nW1[3::60, 0] = 0.02\nW1[540:600:6, 1] = 0.01\nW2[0, 0] = {400 + k}\n"
            f"W2[1, 0] = -400\nW3[0, 3] = 12\nW3[0, 1] = -12\nb3[0] = {k % 7}\n{FENCE}\n")


def run(*args, cwd=None, check=None, timeout=600, preexec_fn=None):
    """weightspace ARGS; with check=N, asserts the exit status is N."""
    result = subprocess.run([BINARY, *args], cwd=cwd, capture_output=True, text=True, timeout=timeout,
                            preexec_fn=preexec_fn)
    if check is not None and result.returncode != check:
        raise AssertionError(f"weightspace {' '.join(args)} exited {result.returncode}, not {check}:\n"
                             f"stdout: {result.stdout}\nstderr: {result.stderr}")
    return result


class SweepCase(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.dir = self.tmp.name

    def tearDown(self):
        self.tmp.cleanup()

    def write(self, name, text):
        path = os.path.join(self.dir, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        return path

    def examples(self, folder="answers"):
        """The bundled example answers, copied into the test's folder."""
        target = os.path.join(self.dir, folder)
        if not os.path.isdir(target):
            shutil.copytree(os.path.join(EXAMPLES, "answers"), target)
        return target

    def manifest(self, name, count, duplicates=0):
        """A manifest of `count` distinct answers, then `duplicates` repeats of the first ones
        (other ids, same text: the batch cache serves them)."""
        lines = [{"id": f"a{k}", "answer": answer(k)} for k in range(count)]
        lines += [{"id": f"dup{k}", "answer": answer(k)} for k in range(duplicates)]
        return self.write(name, "".join(json.dumps(line) + "\n" for line in lines))

    def config(self, name="nightly.toml", paths=('answers/',), games=("breakout", "freeway"),
               sources=("original", "synth"), episodes=(2,), extra=""):
        quoted = lambda values: "[" + ", ".join(json.dumps(v) for v in values) + "]"
        return self.write(name, f'name = "nightly"\n{extra}\n[[answers]]\nname = "regression"\npaths = {quoted(paths)}\n'
                                f'[grade]\ngames = {quoted(games)}\nsources = {quoted(sources)}\n'
                                f'episodes = {quoted(episodes)}\n')

    def sweep(self, config, *args, check=0, **kwargs):
        result = run("sweep", config, "--quiet", *args, check=check, **kwargs)
        return json.loads(result.stdout) if check == 0 else result

    def query(self, database, sql, *parameters):
        connection = sqlite3.connect(database)
        try:
            with connection:  # commits, but does not close
                return connection.execute(sql, parameters).fetchall()
        finally:
            connection.close()

    def execute(self, database, sql, *parameters):
        self.query(database, sql, *parameters)

    def records(self, database, run_id):
        return self.query(database, f"SELECT {RECORD_COLUMNS} FROM records WHERE run_id = ? ORDER BY seq", run_id)

    def integrity(self, database):
        self.assertEqual(self.query(database, "PRAGMA integrity_check"), [("ok",)])

    def wait_for(self, condition, timeout=120, what="a condition"):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if condition():
                return
            time.sleep(0.01)
        raise AssertionError(f"timed out waiting for {what}")
