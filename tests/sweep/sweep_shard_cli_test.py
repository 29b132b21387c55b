# SPDX-License-Identifier: GPL-3.0-or-later
"""A sweep split into shards (weightspace sweep --shard-index/--shard-count, or the scheduler's
environment) and joined by weightspace merge: the merged run equals a one-process sweep's record
for record, and merge refuses a missing, duplicated, foreign or unfinished shard, naming the
shard to rerun."""
import json
import os
import signal
import sqlite3
import subprocess
import unittest

from sweep_support import BINARY, SweepCase, run


class SweepShardTest(SweepCase):
    def setUp(self):
        super().setUp()
        self.examples()
        # Duplicates of other ids: one process serves them from its cache, wherever the deal put them.
        self.manifest("answers.jsonl", 13, duplicates=13)
        # A failure with a place (line 2, column 1 of its edits block): merge keeps it.
        with open(os.path.join(self.dir, "answers.jsonl"), "a", encoding="utf-8") as f:
            f.write(json.dumps({"id": "placed", "answer": "```edits\nb1[0] = 1\nx[0] = 1\n```\n"}) + "\n")
        self.nightly = self.config(paths=("answers/", "answers.jsonl"), episodes=(1, 2))
        self.db = os.path.join(self.dir, "weightspace.sqlite")

    def shard_db(self, index, count=3):
        return os.path.join(self.dir, f"weightspace.shard-{index}-of-{count}.sqlite")

    def shards(self, config=None, count=3, indices=None):
        for index in range(count) if indices is None else indices:
            result = run("sweep", config or self.nightly, "--shard-index", str(index), "--shard-count", str(count),
                         check=0)
            self.assertIn(f"shard {index} of {count}", result.stderr)
            self.assertIn("no speed pass and no report", result.stderr)
            summary = json.loads(result.stdout)
            self.assertEqual((summary["database"], summary["report"]), (self.shard_db(index, count), None))
        return [self.shard_db(index, count) for index in range(count)]

    def merge(self, out, *shards, check):
        return run("merge", "--out", out, *shards, check=check)

    def test_merged_shards_are_the_one_process_sweep(self):
        one = self.sweep(self.nightly, "--no-report")
        shards = self.shards()
        stored = [self.query(path, "SELECT COUNT(*) FROM records")[0][0] for path in shards]
        self.assertEqual(sum(stored), one["records"])
        self.assertTrue(all(count > 0 for count in stored), stored)
        self.assertEqual(self.query(shards[0], "SELECT COUNT(*) FROM speed"), [(0,)])
        merged = os.path.join(self.dir, "merged.sqlite")
        self.merge(merged, *shards, check=0)
        self.integrity(merged)
        self.assertEqual(self.query(merged, "SELECT id, name, status FROM runs"), [(1, "nightly", "finished")])
        self.assertEqual(self.records(merged, 1), self.records(self.db, one["run"]))
        self.assertEqual(self.query(merged, "SELECT DISTINCT error_kind, error_line, error_column FROM records "
                                            "WHERE id = '\"placed\"'"), [("ValueError", 2, 1)])
        # The shards missed hits one process has: merge decided `cached` again over the whole run.
        cached = self.query(merged, "SELECT SUM(cached) FROM records")[0][0]
        self.assertLess(sum(self.query(path, "SELECT SUM(cached) FROM records")[0][0] for path in shards), cached)

        # The same shard runs merged again (a retried job) add nothing.
        again = self.merge(merged, *shards, check=0)
        self.assertIn(f"{merged} run 1 already holds these 3 sweep shards merged: nothing added", again.stderr)
        self.assertEqual(self.query(merged, "SELECT id FROM runs"), [(1,)])

        # Into the history: a new run of the database the nightly sweep keeps, compared as any other.
        self.merge(self.db, *shards, check=0)
        self.merge(self.db, *shards, check=0)
        self.assertEqual(self.query(self.db, "SELECT id, status FROM runs ORDER BY id"),
                         [(1, "finished"), (2, "finished")])
        self.assertEqual(self.records(self.db, 2), self.records(self.db, 1))
        compared = run("compare", "previous", "latest", "--db", self.db, check=0)
        self.assertIn(f"result: no regression ({one['records']} records unchanged)", compared.stdout)
        report = os.path.join(self.dir, "report.html")
        run("report", "--db", self.db, "--out", report, check=0)
        self.assertTrue(os.path.getsize(report) > 0)

        # A shard graded again makes new shard runs: their merge is a new run.
        self.shards(indices=[0])
        self.merge(self.db, *shards, check=0)
        self.assertEqual(self.query(self.db, "SELECT id, status FROM runs ORDER BY id"),
                         [(1, "finished"), (2, "finished"), (3, "finished")])
        self.assertEqual(self.records(self.db, 3), self.records(self.db, 2))

    def test_the_shard_comes_from_the_scheduler(self):
        environment = dict(os.environ, SLURM_ARRAY_TASK_ID="1", WEIGHTSPACE_SHARD_COUNT="2")
        result = subprocess.run([BINARY, "sweep", self.nightly, "--quiet"], env=environment, capture_output=True,
                                text=True, check=True)
        self.assertEqual(json.loads(result.stdout)["database"], self.shard_db(1, 2))

    def test_refusals_name_the_shard(self):
        report = run("sweep", self.nightly, "--shard-index", "0", "--shard-count", "3", "--report", "r.html", check=2)
        self.assertIn("--report: a shard writes no report", report.stderr)
        shards = self.shards()
        out = os.path.join(self.dir, "merged.sqlite")
        missing = self.merge(out, shards[0], shards[2], check=1)
        self.assertIn("shard 1 of 3 is missing (" + self.shard_db(1) + ")", missing.stderr)
        twice = self.merge(out, shards[0], shards[1], shards[1], shards[2], check=1)
        self.assertIn("are both shard 1 of 3: give each shard once", twice.stderr)
        self.assertFalse(os.path.exists(out))

        other = self.config(name="other.toml", paths=("answers/", "answers.jsonl"), episodes=(1,))
        foreign = os.path.join(self.dir, "foreign")
        os.mkdir(foreign)
        run("sweep", other, "--db", os.path.join(foreign, "weightspace.sqlite"), "--shard-index", "1",
            "--shard-count", "3", "--quiet", check=0)
        mixed = self.merge(out, shards[0], os.path.join(foreign, "weightspace.shard-1-of-3.sqlite"), shards[2], check=1)
        self.assertIn("were run with other options (config_sha256: ", mixed.stderr)

        batch = os.path.join(self.dir, "batch.jsonl")
        run("batch", "--out", batch, "--shard-index", "1", "--shard-count", "3", "--quiet",
            os.path.join(self.dir, "answers.jsonl"), check=0)
        jsonl = self.merge(out, shards[0], batch.replace(".jsonl", ".shard-1-of-3.jsonl"), shards[2], check=2)
        self.assertIn("one is a sweep shard's database, the other a batch shard's JSONL", jsonl.stderr)
        self.assertFalse(os.path.exists(out))

    def test_a_killed_shard_is_named_then_resumed_alone(self):
        # Long enough that a shard is killed after its first commit (256 records) and before its last.
        self.manifest("many.jsonl", 1400, duplicates=300)
        config = self.config(name="many.toml", paths=("many.jsonl",), games=("freeway",), sources=("original",),
                             episodes=(8,))
        shards = self.shards(config, count=2, indices=[0])
        killed = subprocess.Popen([BINARY, "sweep", config, "--quiet", "--shard-index", "1", "--shard-count", "2"],
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.wait_for(lambda: self.stored(shards[1]) > 0, what="the shard's first records")
        killed.send_signal(signal.SIGKILL)
        self.assertEqual(killed.wait(), -signal.SIGKILL)
        kept = self.stored(shards[1])
        out = os.path.join(self.dir, "merged.sqlite")
        unfinished = self.merge(out, *shards, check=1)
        self.assertIn(f"shard 1 of 2 ({shards[1]}) did not finish: rerun it alone with --resume: weightspace sweep "
                      "CONFIG (of sweep \"nightly\") --shard-index 1 --shard-count 2 --resume", unfinished.stderr)
        resumed = json.loads(run("sweep", config, "--quiet", "--shard-index", "1", "--shard-count", "2", "--resume",
                                 check=0).stdout)
        self.assertEqual((resumed["run"], resumed["resumed"]), (1, kept))
        self.assertLess(kept, resumed["records"], "the shard finished before it was killed")
        self.merge(out, *shards, check=0)
        one = self.sweep(config, "--db", "one.sqlite", "--no-report", cwd=self.dir)
        self.assertEqual(self.records(out, 1), self.records(os.path.join(self.dir, "one.sqlite"), one["run"]))

    def stored(self, database):
        try:
            return self.query(database, "SELECT COUNT(*) FROM records")[0][0]
        except sqlite3.Error:  # not created yet
            return 0


if __name__ == "__main__":
    unittest.main()
