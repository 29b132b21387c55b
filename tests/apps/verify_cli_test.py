# SPDX-License-Identifier: GPL-3.0-or-later
"""`weightspace verify` against verify.main, from tests/golden/verify_runs.json (recorded by
tests/support/record_verify_runs.py): WEIGHT_SPACE_EPISODES read as Python's int() reads it,
counts of zero or less (NaN means, the exact count kept in the metadata), unknown games, and
the variables whose absence or bad value kills the grader (then verify writes no reward
either and exits non-zero).

usage: python3 verify_cli_test.py WEIGHTSPACE_BINARY GOLDEN_DIR
"""
import json
import os
import re
import subprocess
import sys
import tempfile
import unittest

BINARY, GOLDEN = sys.argv[1:3]
del sys.argv[1:3]
VARIABLES = ("WEIGHT_SPACE_GAME", "WEIGHT_SPACE_SOURCE", "WEIGHT_SPACE_EPISODES")


class VerifyAgainstTheGrader(unittest.TestCase):
    def test_every_recorded_run(self):
        with open(os.path.join(GOLDEN, "verify_runs.json"), encoding="utf-8") as file:
            cases = json.load(file)["cases"]
        self.assertGreaterEqual(len(cases), 30)
        with tempfile.TemporaryDirectory() as folder:
            trajectory = os.path.join(folder, "trajectory.json")
            reward = os.path.join(folder, "reward.json")
            for case in cases:
                with self.subTest(environment=case["environment"]):
                    with open(trajectory, "w", encoding="utf-8") as file:
                        file.write(case["trajectory"])
                    if os.path.exists(reward):
                        os.remove(reward)
                    environment = {k: v for k, v in os.environ.items() if k not in VARIABLES}
                    environment.update(case["environment"])
                    result = subprocess.run([BINARY, "verify", "--trajectory", trajectory, "--reward", reward],
                                            env=environment, capture_output=True, timeout=120)
                    if "crash" in case:
                        self.assertNotEqual(result.returncode, 0, result.stderr)
                        self.assertFalse(os.path.exists(reward))
                        self.assertIn(b"WEIGHT_SPACE_", result.stderr)  # the message names the variable
                        continue
                    self.assertEqual(result.returncode, 0, result.stderr)
                    with open(reward, encoding="utf-8") as file:
                        self.assertEqual(file.read(), case["reward_json"])

    def test_a_failed_grade_prints_its_place_on_stderr(self):
        answer = "Let me fix it.\n```edits\nb3[0] = 1\nb3[0, 0] = 1\n```"
        with tempfile.TemporaryDirectory() as folder:
            trajectory = os.path.join(folder, "trajectory.json")
            reward = os.path.join(folder, "reward.json")
            with open(trajectory, "w", encoding="utf-8") as file:
                json.dump({"steps": [{"messages": [{"role": "assistant", "content": answer}]}]}, file)
            environment = {k: v for k, v in os.environ.items() if k not in VARIABLES}
            environment.update(WEIGHT_SPACE_GAME="breakout", WEIGHT_SPACE_SOURCE="original", WEIGHT_SPACE_EPISODES="2")
            result = subprocess.run([BINARY, "verify", "--trajectory", trajectory, "--reward", reward],
                                    env=environment, capture_output=True, text=True, timeout=120, check=True)
            with open(reward, encoding="utf-8") as file:
                error = json.load(file)["error"]
            self.assertNotIn("(line", error)  # the grader's text, the place beside it
            # The line counts from the assistant message's first line: the block's line 2 is its line 4.
            self.assertRegex(result.stderr, r"^" + re.escape(trajectory) + r":4:\d+: IndexError: ")
            self.assertEqual(result.stderr, f"{trajectory}:4:{result.stderr.split(':')[2]}: IndexError: {error}\n")


if __name__ == "__main__":
    unittest.main()
