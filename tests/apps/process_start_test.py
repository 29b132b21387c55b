# SPDX-License-Identifier: GPL-3.0-or-later
"""bench/process_start.py: one row per command, in the order given, each with a median between
its deciles; a failing command or a bad round count stops the run with a message. No time is
asserted beyond being positive.

usage: python3 process_start_test.py WEIGHTSPACE_BINARY SOURCE_DIR
"""
import os
import subprocess
import sys
import unittest

BINARY, SOURCE = sys.argv[1:3]
del sys.argv[1:3]
SCRIPT = os.path.join(SOURCE, "bench", "process_start.py")


def run(*args):
    return subprocess.run([sys.executable, SCRIPT, *args], capture_output=True, text=True, timeout=120)


class ProcessStartTest(unittest.TestCase):
    def test_one_row_per_command_in_order(self):
        result = run("--rounds", "5", "true", "--", BINARY, "games", "--", BINARY, "--version")
        self.assertEqual(result.returncode, 0, result.stderr)
        lines = result.stdout.splitlines()
        self.assertIn("5 rounds, alternated", lines[0])
        rows = [line.split(None, 3) for line in lines[1:]]
        self.assertEqual([row[3] for row in rows], ["true", f"{BINARY} games", f"{BINARY} --version"])
        for median, p10, p90, _ in rows:
            self.assertLess(0.0, float(p10))
            self.assertLessEqual(float(p10), float(median))
            self.assertLessEqual(float(median), float(p90))

    def test_one_round(self):
        result = run("--rounds", "1", "true")
        self.assertEqual(result.returncode, 0, result.stderr)
        median, p10, p90, command = result.stdout.splitlines()[1].split(None, 3)
        self.assertEqual((command, p10, p90), ("true", median, median))

    def test_a_failing_command_stops_the_run(self):
        result = run("--rounds", "3", "true", "--", BINARY, "no-such-command")
        self.assertNotEqual(result.returncode, 0)
        self.assertIn(f"{BINARY} no-such-command exited with", result.stderr)
        self.assertEqual(result.stdout, "")
        missing = run("--rounds", "3", "true", "--", "/no/such/program")
        self.assertEqual(missing.returncode, 1)
        self.assertIn("cannot run /no/such/program: No such file or directory", missing.stderr)

    def test_bounds(self):
        for rounds in ("0", "100001"):
            result = run("--rounds", rounds, "true")
            self.assertEqual(result.returncode, 2)
            self.assertIn("--rounds must be between 1 and 100000", result.stderr)
        self.assertIn("give at least one command", run("--rounds", "3").stderr)


if __name__ == "__main__":
    unittest.main()
