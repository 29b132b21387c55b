# SPDX-License-Identifier: GPL-3.0-or-later
"""The speed part of `weightspace sweep` end to end: the timed workload is pinned by content
(answers by weights SHA-256) and kept from the baseline, so editing or reordering answers outside
it leaves it as it was and compare judges two runs on the same work; repetitions are stored; the
instruction count (valgrind's callgrind) of identical code is the same in two runs.

usage: python3 speed_cli_test.py WEIGHTSPACE_BINARY EXAMPLES_DIR
"""
import json
import os
import shutil
import unittest

from sweep_support import SANITIZED, SweepCase, answer, run


class SpeedWorkload(SweepCase):
    def setUp(self):
        super().setUp()
        self.db = os.path.join(self.dir, "weightspace.sqlite")
        self.lines = [{"id": f"a{k}", "answer": answer(k)} for k in range(6)]
        self.write_manifest()
        self.toml = self.config(paths=("answers.jsonl",), games=("breakout",), sources=("original",),
                                extra="baseline = \"previous\"")
        with open(self.toml, "a", encoding="utf-8") as f:
            f.write("[speed]\nthreads = [1, 2]\nrecords = 2\nrepeat = 3\nmin_time = 0\n")

    def write_manifest(self):
        self.write("answers.jsonl", "".join(json.dumps(line) + "\n" for line in self.lines))

    def workload(self, run_id):
        [(text,)] = self.query(self.db, "SELECT speed_workload FROM runs WHERE id = ?", run_id)
        return json.loads(text)

    def test_the_workload_is_chosen_by_content_and_kept_from_the_baseline(self):
        self.sweep(self.toml)
        first = self.workload(1)
        self.assertEqual(len(first), 2)
        hashes = dict(self.query(self.db, "SELECT id, weights_sha256 FROM records WHERE run_id = 1"))
        # The two smallest SHA-256 of the six answers, whatever their place in the manifest.
        self.assertEqual([item["weights_sha256"] for item in first], sorted(hashes.values())[:2])
        rows = self.query(self.db, "SELECT threads, repetitions FROM speed WHERE run_id = 1 ORDER BY threads")
        self.assertEqual([(threads, len(json.loads(text))) for threads, text in rows], [(1, 3), (2, 3)])
        # Each repetition: [steps, wall seconds, CPU seconds of the process], both times positive.
        for _, text in rows:
            for steps, seconds, cpu_seconds in json.loads(text):
                self.assertGreater(steps, 0)
                self.assertGreater(seconds, 0)
                self.assertGreater(cpu_seconds, 0)

        # Answers outside the workload edited: the same workload (reordering: speed_workload_test).
        timed = {item["weights_sha256"] for item in first}
        for line in self.lines:
            if hashes[json.dumps(line["id"])] not in timed:
                line["answer"] = answer(100 + int(line["id"][1:]))
        self.write_manifest()
        self.sweep(self.toml)
        self.assertEqual(self.workload(2), first)
        self.assertIn("speed compared on one machine", run("compare", "1", "2", "--db", self.db, check=0).stdout)

        # An answer of the workload edited: another workload, and compare does not judge speed.
        for line in self.lines:
            if hashes.get(json.dumps(line["id"])) == first[0]["weights_sha256"]:
                line["answer"] = answer(200)
        self.write_manifest()
        self.sweep(self.toml)
        self.assertNotEqual(self.workload(3), first)
        result = run("compare", "2", "3", "--db", self.db, check=0)
        self.assertIn("speed not judged: the runs timed different workloads (run 2: 2 records, ", result.stdout)


@unittest.skipIf(SANITIZED, "a sanitized build does not run under valgrind")
@unittest.skipIf(shutil.which("valgrind") is None, "no valgrind (Debian's valgrind package)")
class InstructionCount(SweepCase):
    def test_identical_code_counts_the_same_instructions(self):
        self.examples()
        toml = self.config(games=("breakout",), sources=("original",), episodes=(2,))
        with open(toml, "a", encoding="utf-8") as f:
            f.write("[speed]\nthreads = [1]\nrecords = 1\nrepeat = 1\nmin_time = 0\ninstructions = true\n")
        db = os.path.join(self.dir, "weightspace.sqlite")
        for _ in range(2):
            self.sweep(toml)
        counts = [count for (count,) in self.query(db, "SELECT speed_instructions FROM runs ORDER BY id")]
        self.assertTrue(all(count > 1_000_000 for count in counts), counts)
        self.assertLess(abs(counts[1] / counts[0] - 1), 0.001, counts)
        result = run("compare", "1", "2", "--db", db, check=0)
        self.assertIn("instructions (callgrind, the speed gate", result.stdout)


if __name__ == "__main__":
    unittest.main()
