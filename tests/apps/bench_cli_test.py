# SPDX-License-Identifier: GPL-3.0-or-later
"""`weightspace bench`: the report's shape (table and Google Benchmark JSON), that the steps it
counts are the grade's, and its refusals. No timing is asserted, only that times were taken.

usage: python3 bench_cli_test.py WEIGHTSPACE_BINARY EXAMPLES_DIR
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

BINARY, EXAMPLES = sys.argv[1:3]
del sys.argv[1:3]
ANSWER = os.path.join(EXAMPLES, "answers", "seaquest.md")
SANITIZED = os.environ.get("WEIGHTSPACE_SANITIZED") == "1"


def run(*args):
    return subprocess.run([BINARY, *args], capture_output=True, text=True, timeout=300)


class BenchTest(unittest.TestCase):
    def test_google_benchmark_json(self):
        with tempfile.TemporaryDirectory() as folder:
            out = os.path.join(folder, "bench.json")
            result = run("bench", "--game", "seaquest", "--answer", ANSWER, "--episodes", "3",
                         "--repetitions", "3", "--threads", "1,2", "--json", out, "--min-time", "0", "--no-extend")
            self.assertEqual(result.returncode, 0, result.stderr)
            self.assertIn("policy-steps/s", result.stdout)  # the table, beside the file
            with open(out) as f:
                document = json.load(f)
        self.assertEqual(document["context"]["weights"], ANSWER)
        # The weights by content too: the SHA-256 that batch prints for the same answer.
        batch = run("batch", ANSWER, "--game", "breakout", "--episodes", "1", "--quiet")
        self.assertEqual(batch.returncode, 0, batch.stderr)
        line = json.loads(batch.stdout)
        self.assertEqual(document["context"]["weights_sha256"], line["weights_sha256"])
        runs = document["benchmarks"]
        self.assertEqual(len(runs), 2 * (3 + 3))  # per thread count: 3 repetitions, mean/median/stddev
        grade = json.loads(run("grade", "--game", "seaquest", "--answer", ANSWER, "--episodes", "3",
                               "--diagnostics").stdout)
        for threads in (1, 2):
            name = f"bench/original/seaquest/threads:{threads}"
            iterations = [r for r in runs if r["run_name"] == name and r["run_type"] == "iteration"]
            self.assertEqual([r["repetition_index"] for r in iterations], [0, 1, 2])
            for r in iterations:
                self.assertEqual((r["name"], r["threads"], r["time_unit"], r["iterations"]), (name, threads, "ms", 1))
                self.assertGreater(r["real_time"], 0)
                self.assertGreater(r["cpu_time"], 0)
                # items are policy steps: the grade's mean episode length times its episodes
                steps = r["items_per_second"] * r["real_time"] / 1e3
                self.assertAlmostEqual(steps, grade["mean_episode_length"] * 3, delta=1e-6 * steps)
            aggregates = {r["aggregate_name"]: r for r in runs if r["run_name"] == name and r["run_type"] == "aggregate"}
            self.assertEqual(set(aggregates), {"mean", "median", "stddev"})
            self.assertEqual(aggregates["median"]["name"], name + "_median")

    def test_profiles_and_weights_files(self):
        for profile in ("zero", "dense"):
            result = run("bench", "--game", "breakout", "--profile", profile, "--episodes", "2", "--repetitions", "1", "--min-time", "0", "--no-extend",
                         "--json", "-")
            self.assertEqual(result.returncode, 0, result.stderr)
            self.assertEqual(json.loads(result.stdout)["context"]["weights"], "profile:" + profile)
        with tempfile.TemporaryDirectory() as folder:
            weights = os.path.join(folder, "w.json")
            self.assertEqual(run("parse", "--answer", ANSWER, "--weights-out", weights).returncode, 0)
            result = run("bench", "--game", "seaquest", "--weights", weights, "--episodes", "2", "--repetitions", "1", "--min-time", "0", "--no-extend")
            self.assertEqual(result.returncode, 0, result.stderr)
            self.assertIn("seaquest", result.stdout)

    def test_memo_choice_and_hit_share(self):
        # With the memo always used, some steps of the seaquest example hit (its episodes revisit
        # observations); never used, none; the steps counted are the same either way.
        shares, steps = {}, {}
        for memo in ("always", "never", "auto"):
            result = run("bench", "--game", "seaquest", "--answer", ANSWER, "--episodes", "20", "--repetitions", "1", "--min-time", "0", "--no-extend",
                         "--memo", memo, "--json", "-")
            self.assertEqual(result.returncode, 0, result.stderr)
            document = json.loads(result.stdout)
            self.assertEqual(document["context"]["memo"], memo)
            first = document["benchmarks"][0]
            shares[memo] = first["memo_hits"]
            steps[memo] = round(first["items_per_second"] * first["real_time"] / 1e3)
        self.assertGreater(shares["always"], 0.1)
        self.assertLessEqual(shares["always"], 1.0)
        self.assertEqual(shares["never"], 0.0)
        self.assertEqual(len(set(steps.values())), 1, steps)
        table = run("bench", "--game", "seaquest", "--answer", ANSWER, "--episodes", "2", "--repetitions", "1", "--min-time", "0", "--no-extend")
        self.assertIn("memo hits", table.stdout)
        refused = run("bench", "--game", "seaquest", "--answer", ANSWER, "--memo", "sometimes")
        self.assertEqual(refused.returncode, 2, refused.stderr)
        self.assertIn("--memo", refused.stderr)

    def test_the_header_states_the_plan_and_rates_have_si_prefixes(self):
        result = run("bench", "--game", "seaquest", "--answer", ANSWER, "--episodes", "2", "--repetitions", "2",
                     "--threads", "2,1", "--min-time", "0.05", "--no-extend")
        self.assertEqual(result.returncode, 0, result.stderr)
        lines = result.stdout.splitlines()
        self.assertIn("threads 2,1; 2 repetitions each, interleaved, each at least 0.05 s (whole grades; one untimed "
                      "warm-up grade per thread count)", lines[1])
        self.assertEqual(lines[2].split()[:4], ["threads", "policy-steps/s", "95%", "interval"])
        for row in lines[3:5]:
            # "2  7.29 M  7.1 M .. 7.4 M ...": a number and its SI prefix, never 7.287e+06
            self.assertRegex(row, r"^ +[12] +[0-9.]+ [kMG] +[0-9.]+ [kMG] \.\. [0-9.]+ [kMG] ")
            self.assertNotIn("e+", row)

    def test_short_or_noisy_rows_are_extended_and_warned_about(self):
        with tempfile.TemporaryDirectory() as folder:
            out = os.path.join(folder, "bench.json")
            # One grade of 2 episodes per repetition: far under 0.2 s, so every round is doubtful.
            result = run("bench", "--game", "seaquest", "--answer", ANSWER, "--episodes", "2", "--repetitions", "3",
                         "--min-time", "0", "--json", out)
            self.assertEqual(result.returncode, 0, result.stderr)
            self.assertEqual(result.stderr.count("a row is too short or too noisy: 3 more repetitions per thread "
                                                 "count (--no-extend: never)"), 2)
            self.assertRegex(result.stderr, r"threads 1: a repetition took 0\.\d+ s, under 0\.2 s: its figures are "
                                            r"not to be trusted")
            self.assertRegex(result.stdout, r"\(a repetition took 0\.\d+ s, under 0\.2 s\)\n")
            with open(out) as f:
                document = json.load(f)
            self.assertEqual(document["context"]["min_time_seconds"], 0)
            self.assertEqual(sum(r["run_type"] == "iteration" for r in document["benchmarks"]), 9)
            result = run("bench", "--game", "seaquest", "--answer", ANSWER, "--episodes", "2", "--repetitions", "3",
                         "--min-time", "0", "--no-extend", "--json", out)
            self.assertNotIn("more repetitions", result.stderr)
            self.assertIn("its figures are not to be trusted", result.stderr)
            with open(out) as f:
                self.assertEqual(sum(r["run_type"] == "iteration" for r in json.load(f)["benchmarks"]), 3)

    @unittest.skipIf(SANITIZED, "a sanitized build does not run under valgrind")
    @unittest.skipIf(shutil.which("valgrind") is None, "no valgrind (Debian's valgrind package)")
    def test_instructions_are_counted_and_the_same_twice(self):
        args = ("bench", "--game", "seaquest", "--answer", ANSWER, "--episodes", "2", "--repetitions", "1",
                "--min-time", "0", "--no-extend", "--instructions")
        counts = []
        for _ in range(2):
            result = run(*args, "--json", "-")
            self.assertEqual(result.returncode, 0, result.stderr)
            counts.append(json.loads(result.stdout)["context"]["instructions"])
        self.assertGreater(counts[0], 1_000_000)
        self.assertLess(abs(counts[1] / counts[0] - 1), 0.001, counts)
        table = run(*args)
        self.assertRegex(table.stdout, r"\ninstructions: \d+ \(callgrind: the whole `bench` process on 1 thread")

    def test_refusals(self):
        usage = [
            ("bench", "--game", "seaquest", "--episodes", "2"),                            # no weights
            ("bench", "--game", "pong", "--profile", "zero"),                              # unknown game
            ("bench", "--game", "seaquest", "--profile", "zero", "--episodes", "0"),
            ("bench", "--game", "seaquest", "--profile", "zero", "--threads", "0"),
            ("bench", "--game", "seaquest", "--profile", "zero", "--threads", "1,2000"),
            ("bench", "--game", "seaquest", "--profile", "zero", "--repetitions", "0"),
            ("bench", "--game", "seaquest", "--profile", "zero", "--min-time", "-1"),
            ("bench", "--game", "seaquest", "--profile", "zero", "--min-time", "61"),
            ("bench", "--game", "seaquest", "--profile", "sparse"),
            ("bench", "--game", "seaquest", "--profile", "zero", "--answer", ANSWER),       # two weight sources
        ]
        for args in usage:
            result = run(*args)
            self.assertEqual(result.returncode, 2, (args, result.stderr))
            self.assertLess(len(result.stderr.splitlines()), 4, args)
        with tempfile.TemporaryDirectory() as folder:
            broken = os.path.join(folder, "broken.md")
            with open(broken, "w") as f:
                f.write("```edits\nb1[0] = (\n```")
            result = run("bench", "--game", "seaquest", "--answer", broken, "--episodes", "2")
            self.assertEqual(result.returncode, 1)
            self.assertIn("the answer does not parse: '(' was never closed", result.stderr)


if __name__ == "__main__":
    unittest.main()
