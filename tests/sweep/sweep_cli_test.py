# SPDX-License-Identifier: GPL-3.0-or-later
"""`weightspace sweep` end to end: the records equal `weightspace batch`'s, the config's
line-numbered errors, and the results store under attack: a missing answer set, a newer schema,
another program's file, a locked database, two sweeps at once, kill -9 and SIGINT then --resume,
and a full disk (a file size limit, and a full tmpfs when the test may mount one).

usage: python3 sweep_cli_test.py WEIGHTSPACE_BINARY EXAMPLES_DIR
"""
import json
import os
import resource
import signal
import sqlite3
import subprocess
import unittest

from sweep_support import BINARY, SweepCase, run


class Sweep(SweepCase):
    def test_records_are_the_batch_lines(self):
        self.examples()
        config = self.config()
        summary = self.sweep(config)
        self.assertEqual((summary["run"], summary["status"], summary["records"]), (1, "finished", 40))
        self.assertTrue(os.path.isfile(summary["report"]))
        database = summary["database"]
        self.integrity(database)
        lines = []
        for source in ("original", "synth"):
            batch = run("batch", "answers/", "--game", "breakout,freeway", "--source", source, "--episodes", "2",
                        "--quiet", cwd=self.dir, check=0)
            lines += [json.loads(line) for line in batch.stdout.splitlines()]
        stored = self.query(database, "SELECT id, input, game, source, episodes, reward, weights_sha256, cached "
                                      "FROM records WHERE run_id = 1 ORDER BY seq")
        self.assertEqual(len(stored), len(lines))
        for row, line in zip(stored, lines):
            self.assertEqual(row, (json.dumps(line["id"]), line["input"], line["game"], line["source"],
                                   line["episodes"], json.dumps(line["reward"]), line["weights_sha256"],
                                   int(line["cached"])))
        # The same config from another working folder: the same ids (relative to the config).
        self.sweep(os.path.basename(config), cwd=self.dir)
        other = os.path.join(self.dir, "elsewhere")
        os.mkdir(other)
        self.sweep(os.path.join("..", os.path.basename(config)), "--db", "../weightspace.sqlite", cwd=other)
        self.assertEqual([r[1:] for r in self.records(database, 1)], [r[1:] for r in self.records(database, 3)])
        self.assertEqual(self.query(database, "SELECT id, status FROM runs ORDER BY id"),
                         [(1, "finished"), (2, "finished"), (3, "finished")])

    def test_config_errors_name_line_and_column(self):
        self.examples()
        cases = {
            'name = "x"\n[[answers]\nname = "a"\n': "bad.toml:2:",
            '[[answers]]\nname = "a"\npaths = ["answers/"]\n[grade]\nepsiodes = [2]\n':
                "bad.toml:5:1: unknown key \"epsiodes\" in [grade] (did you mean 'episodes'?)",
            '[[answers]]\nname = "a"\npaths = ["answers/"]\n[grade]\ngames = ["brakeout"]\n':
                "bad.toml:5:10: no game \"brakeout\" in source original (did you mean 'breakout'?)",
            '[[answers]]\nname = "a"\npaths = ["answers/"]\n[grade]\nepisodes = 2\n':
                "bad.toml:5:12: grade.episodes must be a non-empty array, e.g. episodes = [1000], not an integer",
            '[[answers]]\nname = "a"\npaths = ["answers/"]\n[grade]\nepisodes = [-1]\n':
                "bad.toml:5:13: grade.episodes[0] must be from 0 to 4294959377, not -1",
            '[[answers]]\nname = "a"\npaths = ["answers/"]\n[[answers]]\nname = "a"\npaths = ["answers/"]\n':
                "bad.toml:5:8: two answer sets are named \"a\"",
            'name = "x"\n': "bad.toml:1:1: no answer sets",
            'baseline = "pined"\n[[answers]]\nname = "a"\npaths = ["answers/"]\n':
                "bad.toml:1:12: baseline must be \"pinned\", \"previous\" or a run id, not \"pined\" (did you mean 'pinned'?)",
            '[[answers]]\nname = "a"\npaths = ["answers/"]\n[speed]\nthreads = [1, 1]\n':
                "bad.toml:5:15: speed.threads lists the same value twice",
        }
        for text, expected in cases.items():
            with self.subTest(expected=expected):
                self.write("bad.toml", text)
                result = run("sweep", "bad.toml", cwd=self.dir, check=2)
                self.assertIn(expected, result.stderr)
                self.assertFalse(os.path.exists(os.path.join(self.dir, "weightspace.sqlite")))

    def test_a_missing_answer_set_is_named(self):
        self.examples()
        self.config(paths=("answers/", "missing/"))
        result = run("sweep", "nightly.toml", cwd=self.dir, check=2)
        self.assertIn("nightly.toml:5:22: answer set \"regression\": missing/ does not exist", result.stderr)
        self.assertFalse(os.path.exists(os.path.join(self.dir, "weightspace.sqlite")))

    def test_a_newer_schema_or_another_file_is_refused(self):
        self.examples()
        config = self.config()
        database = self.sweep(config)["database"]
        self.execute(database, "PRAGMA user_version = 99")
        for args in (["sweep", config], ["runs", "--db", database], ["compare", "1", "1", "--db", database],
                     ["report", "1", "--db", database]):
            result = run(*args, check=2)
            self.assertIn(f"database {database} has schema version 99, newer than the 5 this weightspace", result.stderr)
        self.assertEqual(self.query(database, "PRAGMA user_version"), [(99,)])
        other = os.path.join(self.dir, "other.sqlite")
        self.execute(other, "CREATE TABLE notes (text TEXT)")
        result = run("sweep", config, "--db", other, check=2)
        self.assertIn(f"{other} is an SQLite database of another program, not a weightspace results store", result.stderr)
        text = self.write("text.sqlite", "just some text, long enough to look like a header " * 20)
        self.assertIn(f"{text} is not an SQLite database", run("runs", "--db", text, check=2).stderr)

    def test_a_locked_database_is_reported_and_left_whole(self):
        self.examples()
        config = self.config()
        database = self.sweep(config)["database"]
        holder = sqlite3.connect(database, isolation_level=None)
        holder.execute("BEGIN EXCLUSIVE")
        result = run("sweep", config, check=1)
        self.assertIn(f"database {database} is locked by another process (waited 2000 ms)", result.stderr)
        holder.execute("ROLLBACK")
        holder.execute("BEGIN IMMEDIATE")  # a writer does not stop readers in WAL mode
        self.assertIn("finished", run("runs", "--db", database, check=0).stdout)
        holder.execute("ROLLBACK")
        holder.close()
        self.integrity(database)
        self.assertEqual(self.sweep(config)["run"], 2)

    def slow_config(self):
        """A sweep of about a second (freeway plays 2,500 steps an episode), with cache hits."""
        self.manifest("answers.jsonl", 600, duplicates=100)
        return self.config(paths=("answers.jsonl",), games=("freeway",), sources=("original",), episodes=(8,))

    def start(self, config, *args):
        return subprocess.Popen([BINARY, "sweep", config, "--quiet", *args], stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True)

    def stored(self, database):
        try:
            return self.query(database, "SELECT COUNT(*) FROM records")[0][0]
        except sqlite3.Error:
            return 0

    def test_two_sweeps_on_one_database(self):
        config = self.slow_config()
        database = os.path.join(self.dir, "weightspace.sqlite")
        first = self.start(config)
        self.wait_for(lambda: self.stored(database) > 0, what="the first sweep's records")
        second = run("sweep", config, check=1)
        self.assertIn(f"database {database} is in use by another sweep (process {first.pid}); one sweep writes a "
                      "database at a time", second.stderr)
        self.assertIn("running", run("runs", "--db", database, check=0).stdout)
        self.assertEqual(first.wait(), 0, first.stderr.read())
        first.stdout.close()
        first.stderr.close()
        self.assertEqual(self.query(database, "SELECT id, status FROM runs"), [(1, "finished")])
        self.assertEqual(self.stored(database), 700)

    def interrupted_then_resumed(self, stop):
        config = self.slow_config()
        database = os.path.join(self.dir, "weightspace.sqlite")
        sweep = self.start(config)
        self.wait_for(lambda: self.stored(database) > 0, what="committed records")
        stop(sweep)
        status = sweep.wait()
        sweep.stdout.close()
        sweep.stderr.close()
        self.integrity(database)
        kept = self.stored(database)
        self.assertLess(kept, 700, "the sweep finished before it was stopped")
        # Whole transactions only: the records kept are the run's first ones, without a gap.
        self.assertEqual(self.query(database, "SELECT MIN(seq), MAX(seq) FROM records"), [(0, kept - 1)])
        result = self.sweep(config, "--resume")
        self.assertEqual((result["run"], result["resumed"], result["records"]), (1, kept, 700))
        self.sweep(config, "--db", "fresh.sqlite", cwd=self.dir)
        self.assertEqual(self.records(database, 1), self.records(os.path.join(self.dir, "fresh.sqlite"), 1))
        self.assertGreater(self.query(database, "SELECT SUM(cached) FROM records")[0][0], 0)
        return status

    def test_kill_9_then_resume_gives_the_uninterrupted_records(self):
        status = self.interrupted_then_resumed(lambda sweep: sweep.send_signal(signal.SIGKILL))
        self.assertEqual(status, -signal.SIGKILL)

    def test_sigint_keeps_what_was_graded_then_resume(self):
        def interrupt(sweep):
            sweep.send_signal(signal.SIGINT)
            self.assertEqual(sweep.wait(), 1)
            self.assertIn("interrupted: run 1 keeps the records graded so far", sweep.stderr.read())
            database = os.path.join(self.dir, "weightspace.sqlite")
            self.assertEqual(self.query(database, "SELECT status FROM runs"), [("interrupted",)])
        self.interrupted_then_resumed(interrupt)

    def test_resume_refuses_a_changed_config(self):
        config = self.slow_config()
        database = os.path.join(self.dir, "weightspace.sqlite")
        sweep = self.start(config)
        self.wait_for(lambda: self.stored(database) > 0, what="committed records")
        sweep.kill()
        sweep.wait()
        sweep.stdout.close()
        sweep.stderr.close()
        with open(config, encoding="utf-8") as f:
            text = f.read()
        with open(config, "a", encoding="utf-8") as f:
            f.write("threads = 1\n")
        result = self.sweep(config, "--resume", check=2)
        self.assertIn(f"cannot resume run 1 of {database}: {config} changed since the run started", result.stderr)
        self.write("nightly.toml", text)
        self.write("answers.jsonl", json.dumps({"id": "new", "answer": "x"}) + "\n")
        result = self.sweep(config, "--resume", check=2)
        self.assertIn(f"{database} run 1 record 0 is a0 on freeway/original/8 of answer set \"regression\", but the "
                      "config's record 0 is new on freeway/original/8 of \"regression\": the answer sets changed since "
                      "the run started; cannot resume", result.stderr)

    def full_disk_then_resume(self, database, fill, free, expected, note):
        config = self.slow_config()
        result = self.sweep(config, "--db", database, "--no-report", check=1, preexec_fn=fill)
        self.assertIn(f"database {database}: {expected}", result.stderr)
        self.assertIn(note, result.stderr)
        self.assertIn(f"--resume continues run 1", result.stderr)
        self.integrity(database)
        kept = self.stored(database)
        self.assertLess(kept, 700)
        free()
        resumed = self.sweep(config, "--db", database, "--no-report", "--resume")
        self.assertEqual((resumed["run"], resumed["resumed"], resumed["records"]), (1, kept, 700))
        reference = os.path.join(self.dir, "reference.sqlite")
        self.sweep(config, "--db", reference, "--no-report")
        self.assertEqual(self.records(database, 1), self.records(reference, 1))

    def test_a_file_size_limit_mid_sweep(self):
        def limit():
            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
            resource.setrlimit(resource.RLIMIT_FSIZE, (160 << 10, 160 << 10))
        self.full_disk_then_resume(os.path.join(self.dir, "weightspace.sqlite"), limit, lambda: None,
                                   "input/output error (", "file size limit 163840 bytes)")

    def test_a_full_tmpfs_mid_sweep(self):
        mount = os.path.join(self.dir, "small")
        os.mkdir(mount)
        if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=160k", "tmpfs", mount], capture_output=True).returncode:
            self.skipTest("cannot mount a tmpfs here (needs root)")
        try:
            grow = lambda: subprocess.run(["mount", "-o", "remount,size=16m", mount], check=True)
            self.full_disk_then_resume(os.path.join(mount, "weightspace.sqlite"), None, grow,
                                       "the disk or the database is full (", " KiB free on its file system)")
        finally:
            subprocess.run(["umount", mount], check=True)


if __name__ == "__main__":
    unittest.main()
