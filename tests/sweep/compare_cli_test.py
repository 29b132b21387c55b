# SPDX-License-Identifier: GPL-3.0-or-later
"""`weightspace compare`, `runs` and `report` on crafted results databases: each kind of
difference and its exit status (0 no regression, 1 regression, 2 bad input), batch JSONL files
as operands, the runs listing and pinning, the report's data, a failed record's place (line,
column) kept from the sweep through the store to compare and the report, and the migration of
schema version 1 and 2 databases (made here with raw SQL) to the current one.

usage: python3 compare_cli_test.py WEIGHTSPACE_BINARY EXAMPLES_DIR
"""
import json
import os
import shutil
import sqlite3
import unittest

from sweep_support import SweepCase, run

# Schema version 1, as it was: no pinned column, no speed table.
SCHEMA_1 = """
CREATE TABLE runs (id INTEGER PRIMARY KEY, name TEXT NOT NULL, config_path TEXT NOT NULL, config_text TEXT NOT NULL,
  started_at TEXT NOT NULL, finished_at TEXT,
  status TEXT NOT NULL CHECK (status IN ('running', 'finished', 'failed', 'interrupted')), error TEXT,
  version TEXT NOT NULL, git_revision TEXT NOT NULL, cpu_model TEXT NOT NULL, cores INTEGER NOT NULL,
  simd TEXT NOT NULL, hostname TEXT NOT NULL, threads INTEGER NOT NULL, grade_seconds REAL NOT NULL DEFAULT 0,
  grade_steps INTEGER NOT NULL DEFAULT 0);
CREATE INDEX runs_by_name ON runs (name, id);
CREATE TABLE records (run_id INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE, seq INTEGER NOT NULL,
  answer_set TEXT NOT NULL, id TEXT NOT NULL, input TEXT NOT NULL, game TEXT NOT NULL, source TEXT NOT NULL,
  episodes INTEGER NOT NULL, weights_sha256 TEXT, input_sha256 TEXT, reward TEXT NOT NULL, normalized_score REAL,
  error_kind TEXT, cached INTEGER NOT NULL, steps INTEGER NOT NULL, seconds REAL NOT NULL,
  PRIMARY KEY (run_id, seq)) WITHOUT ROWID;
PRAGMA application_id = 1465078355;
PRAGMA user_version = 1;
"""
# Schema version 2, as it was: records have no error_line, error_column.
SCHEMA_2 = SCHEMA_1.replace("grade_steps INTEGER NOT NULL DEFAULT 0);",
                            "grade_steps INTEGER NOT NULL DEFAULT 0, "
                            "pinned INTEGER NOT NULL DEFAULT 0 CHECK (pinned IN (0, 1)));").replace(
    "PRAGMA user_version = 1;", """CREATE TABLE speed (run_id INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
  threads INTEGER NOT NULL, records INTEGER NOT NULL, steps INTEGER NOT NULL, seconds REAL NOT NULL,
  PRIMARY KEY (run_id, threads)) WITHOUT ROWID;
PRAGMA user_version = 2;""")
RECORD_1_COLUMNS = ("run_id, seq, answer_set, id, input, game, source, episodes, weights_sha256, input_sha256, reward, "
                    "normalized_score, error_kind, cached, steps, seconds")
RUN_1_COLUMNS = ("id, name, config_path, config_text, started_at, finished_at, status, error, version, git_revision, "
                 "cpu_model, cores, simd, hostname, threads, grade_seconds, grade_steps")


class Compare(SweepCase):
    def setUp(self):
        super().setUp()
        self.examples()
        self.config(extra="", games=("breakout", "freeway"))
        with open(os.path.join(self.dir, "nightly.toml"), "a", encoding="utf-8") as f:
            f.write("[speed]\nthreads = [1]\nrecords = 4\nrepeat = 1\nmin_time = 0\n")
        self.db = os.path.join(self.dir, "weightspace.sqlite")
        for _ in range(2):
            self.sweep(os.path.join(self.dir, "nightly.toml"))
        # Run 2 timed exactly as run 1, so that only what a test changes differs.
        self.change("UPDATE speed SET steps = (SELECT steps FROM speed WHERE run_id = 1), "
                     "seconds = (SELECT seconds FROM speed WHERE run_id = 1), "
                     "repetitions = (SELECT repetitions FROM speed WHERE run_id = 1) WHERE run_id = 2")

    def repetitions(self, run_id, seconds, steps=5_000_000, cpu=None):
        """Gives run `run_id`'s speed row one repetition of `steps` steps per entry of `seconds`; with
        `cpu`, each repetition's CPU seconds too (else the older [steps, seconds] form)."""
        rows = [[steps, s] for s in seconds] if cpu is None else [[steps, s, c] for s, c in zip(seconds, cpu)]
        self.change("UPDATE speed SET repetitions = ? WHERE run_id = ?", json.dumps(rows), run_id)

    def change(self, sql, *parameters):
        self.execute(self.db, sql, *parameters)

    def compare(self, *args, check):
        return run("compare", *args, "--db", self.db, check=check)

    def test_no_change(self):
        result = self.compare("1", "2", check=0)
        self.assertIn("result: no regression (40 records unchanged)", result.stdout)
        self.assertIn("speed compared on one machine", result.stdout)
        self.assertEqual(self.compare("previous", "latest", check=0).stdout, result.stdout)
        document = json.loads(self.compare("1", "2", "--json", check=0).stdout)
        self.assertEqual((document["regression"], document["unchanged"], document["speed"]["compared"]), (False, 40, True))

    def test_a_changed_reward_is_a_regression_naming_the_record(self):
        where = "run_id = 2 AND id = '\"answers/breakout.md\"' AND game = 'breakout' AND source = 'original'"
        [(text,)] = self.query(self.db, f"SELECT reward FROM records WHERE {where}")
        reward = json.loads(text)
        before, reward["normalized_score"] = reward["normalized_score"], 0.5
        self.change(f"UPDATE records SET reward = ? WHERE {where}", json.dumps(reward))
        result = self.compare("1", "2", check=1)
        self.assertRegex(result.stdout, r"reward_changed +answers/breakout\.md +breakout +original +2 +"
                                        f"normalized_score {before!r} -> 0.5\n")
        self.assertIn("result: 1 regression", result.stdout)
        document = json.loads(self.compare("1", "2", "--json", check=1).stdout)
        self.assertEqual([(r["kind"], r["id"], r["game"], r["new_reward"]) for r in document["regressions"]],
                         [("reward_changed", "answers/breakout.md", "breakout", json.dumps(reward))])

    def test_a_removed_record_is_a_regression_an_added_one_is_not(self):
        self.change("DELETE FROM records WHERE run_id = 2 AND seq = 5")
        result = self.compare("1", "2", check=1)
        self.assertRegex(result.stdout, r"removed +answers/\S+ +\w+ +original +2 +in run 1, not in run 2")
        result = self.compare("2", "1", check=0)
        self.assertIn("records added (1; not regressions)", result.stdout)

    def test_an_edited_answer_is_reported_not_judged(self):
        self.change("UPDATE records SET input_sha256 = 'edited', weights_sha256 = 'edited', "
                     "reward = replace(reward, '\"edit_count\": ', '\"edit_count\": 1') WHERE run_id = 2 AND seq = 0")
        result = self.compare("1", "2", check=0)
        self.assertIn("answers changed (1; not regressions", result.stdout)

    def test_a_record_refused_for_a_machine_limit_is_a_regression_but_not_an_exactness_change(self):
        message = "not graded, a limit of this machine (not of the answer): 2000000000 episodes"
        [(text,)] = self.query(self.db, "SELECT reward FROM records WHERE run_id = 2 AND seq = 3")
        graded = json.loads(text)
        refused = {"normalized_score": 0.0, **{k: graded[k] for k in ("game", "source", "episodes")},
                   "parse_success": 0.0, "error": message}
        self.change("UPDATE records SET refused = 1, reward = ?, error_kind = 'MemoryError' WHERE run_id = 2 AND seq = 3",
                     json.dumps(refused))
        result = self.compare("1", "2", check=1)
        self.assertRegex(result.stdout, r"refused +answers/\S+ +\w+ +original +2 +not graded in run 2: "
                                        r"not graded, a limit of this machine")
        self.assertNotIn("reward_changed", result.stdout)
        [regression] = json.loads(self.compare("1", "2", "--json", check=1).stdout)["regressions"]
        self.assertEqual(regression["kind"], "refused")
        # The other way round the refusal is BASE's: listed, not a regression.
        result = self.compare("2", "1", check=0)
        self.assertRegex(result.stdout, r"refused_in_base +answers/\S+ +\w+ +original +2 +not graded in run 2: ")
        # The report marks the record.
        page = os.path.join(self.dir, "report.html")
        run("report", "2", "--baseline", "none", "--db", self.db, "-o", page, check=0)
        with open(page, encoding="utf-8") as f:
            self.assertIn("<b>refused</b>", f.read())

    def test_speed_is_judged_on_one_machine_only(self):
        # No ties: the exact test.
        self.repetitions(1, [0.500, 0.510, 0.490, 0.505, 0.520, 0.495, 0.480, 0.515, 0.485])
        self.repetitions(2, [1.000, 1.020, 0.980, 1.010, 0.990, 1.005, 1.030, 0.970, 0.995])
        result = self.compare("1", "2", check=1)
        self.assertRegex(result.stdout, r"speed +threads 1 +10\.00 -> 5\.00 M steps/s \(-50\.0%, tolerance 10\.0%, "
                                        r"p = 4\.11e-05\)")
        self.assertRegex(result.stdout, r"\n +1 +10\.00 \[9\.71, 10\.31\] +5\.00 \[4\.90, 5\.10\] +-50\.0% "
                                        r"\[-52\.5%, -47\.4%\] +9 / 9 +4\.11e-05 +regression: ")
        speed = json.loads(self.compare("1", "2", "--json", check=1).stdout)["speed"]
        [row] = speed["threads"]
        self.assertEqual((row["verdict"], row["base_repetitions"], row["exact"], row["base_interval"], speed["gate"]),
                         ("regression", 9, True, [5_000_000 / 0.515, 5_000_000 / 0.485], "wall_time"))
        self.assertAlmostEqual(row["p_value"], 2 / 48620)  # 9 against 9, fully apart: 2 / C(18, 9)
        self.compare("1", "2", "--speed-tol", "60", check=0)
        self.change("UPDATE runs SET cpu_model = 'Another CPU' WHERE id = 2")
        result = self.compare("1", "2", check=0)
        self.assertIn("speed not compared: runs are from different machines (run 1: ", result.stdout)
        self.assertIn("run 2: Another CPU, ", result.stdout)

    def test_a_slowdown_that_is_not_significant_too_short_or_too_noisy_is_not_a_regression(self):
        self.repetitions(1, [0.50, 0.51, 0.49, 0.50, 0.52, 0.50, 0.48, 0.51, 0.50])
        self.repetitions(2, [0.50, 0.51, 0.49, 0.50, 0.52, 0.50, 0.48, 0.51, 0.50][:4] + [0.9] * 5)
        result = self.compare("1", "2", check=0)
        self.assertRegex(result.stdout, r"not judged: too noisy \(a median's interval spans \d+\.\d%, more than 20\.0%\)")
        self.repetitions(2, [0.1] * 9, steps=500_000)
        self.assertIn("not judged: too short (0.100 s per repetition, need 0.2 s)", self.compare("1", "2", check=0).stdout)
        self.repetitions(2, [0.5] * 4, steps=1_000_000)
        self.assertIn("not judged: too few repetitions (4, need 5)", self.compare("1", "2", check=0).stdout)
        self.repetitions(2, [0.53, 0.54, 0.52, 0.53, 0.55, 0.53, 0.51, 0.54, 0.53])
        result = self.compare("1", "2", check=0)
        self.assertRegex(result.stdout, r"not a regression: -5\.\d% \(within the tolerance, p = ")

    def test_different_workloads_are_not_judged(self):
        self.repetitions(1, [0.50] * 9)
        self.repetitions(2, [1.00] * 9)
        self.change("""UPDATE runs SET speed_workload = replace(speed_workload, '"episodes":2', '"episodes":3') """
                    "WHERE id = 2")
        result = self.compare("1", "2", check=0)
        self.assertRegex(result.stdout, r"speed not judged: the runs timed different workloads \(run 1: 4 records, "
                                        r"[0-9a-f]{12}; run 2: 4 records, [0-9a-f]{12}\)")
        self.assertFalse(json.loads(self.compare("1", "2", "--json", check=0).stdout)["speed"]["compared"])

    def test_the_instruction_count_gates_when_both_runs_have_it(self):
        self.repetitions(1, [0.50, 0.51, 0.49, 0.50, 0.52, 0.50, 0.48, 0.51, 0.50])
        self.repetitions(2, [1.00, 1.02, 0.98, 1.01, 0.99, 1.00, 1.03, 0.97, 1.00])
        self.change("UPDATE runs SET speed_instructions = 1000000000")
        # Wall time halved (a loaded machine) but the same instructions: judged, shown, not gated.
        result = self.compare("1", "2", check=0)
        self.assertIn("regression: -50.0%, beyond 10.0% and significant", result.stdout)
        self.assertIn("instructions (callgrind, the speed gate; the times above are judged, not gated): "
                      "1000000000 -> 1000000000 (+0.00%, tolerance 1.0%)\n", result.stdout)
        self.change("UPDATE runs SET speed_instructions = 1020000000 WHERE id = 2")
        result = self.compare("1", "2", check=1)
        self.assertRegex(result.stdout, r"speed +instructions +1000000000 -> 1020000000 \(\+2\.00%, tolerance 1\.0%\)")
        document = json.loads(self.compare("1", "2", "--json", check=1).stdout)
        self.assertEqual((document["speed"]["gate"], document["speed"]["instructions"]["regression"]),
                         ("instructions", True))
        self.compare("1", "2", "--instructions-tol", "3", check=0)

    def test_cpu_time_gates_when_both_runs_kept_it(self):
        base_cpu = [0.50, 0.51, 0.49, 0.50, 0.52, 0.50, 0.48, 0.51, 0.50]
        self.repetitions(1, base_cpu, cpu=base_cpu)
        # A loaded machine: wall time doubled, the process's CPU time as before. Judged, not gated.
        self.repetitions(2, [1.00, 1.02, 0.98, 1.01, 0.99, 1.00, 1.03, 0.97, 1.00], cpu=[c + 0.001 for c in base_cpu])
        result = self.compare("1", "2", check=0)
        self.assertIn("regression: -50.0%, beyond 10.0% and significant", result.stdout)
        self.assertIn("the speed gate: CPU time (no instruction count in both runs; wall time is judged, not gated)",
                      result.stdout)
        self.assertRegex(result.stdout, r"CPU time \(the process's, all threads\)\n +threads +base M steps/CPU s")
        document = json.loads(self.compare("1", "2", "--json", check=0).stdout)
        [row] = document["speed"]["threads"]
        self.assertEqual((document["speed"]["gate"], row["verdict"], row["cpu"]["verdict"], row["regression"]),
                         ("cpu_time", "regression", "not a regression", False))
        self.assertAlmostEqual(row["cpu"]["base_steps_per_cpu_second"], 10_000_000)
        # The code itself slower: more CPU time per step, a regression by the gate.
        self.repetitions(2, [1.00] * 9, cpu=[0.80, 0.81, 0.79, 0.80, 0.82, 0.80, 0.78, 0.81, 0.80])
        result = self.compare("1", "2", check=1)
        self.assertRegex(result.stdout, r"speed +threads 1 +10\.00 -> 6\.25 M steps per CPU second \(-37\.5%, "
                                        r"tolerance 10\.0%, p = ")
        # One side without CPU time (an older store's row): wall time gates again.
        self.repetitions(1, base_cpu)
        self.assertEqual(json.loads(self.compare("1", "2", "--json", check=1).stdout)["speed"]["gate"], "wall_time")

    def test_batch_files_as_operands(self):
        lines = []
        for source in ("original", "synth"):
            batch = run("batch", "answers/", "--game", "breakout,freeway", "--source", source, "--episodes", "2",
                        "--quiet", cwd=self.dir, check=0)
            lines += batch.stdout.splitlines()
        same = self.write("same.jsonl", "\n".join(lines) + "\n")
        result = self.compare(same, "latest", check=0)
        self.assertIn(f"speed not compared: {same} is a batch file, with no machine or speed record", result.stdout)
        changed = json.loads(lines[3])
        changed["reward"]["normalized_score"] += 1
        edited = self.write("changed.jsonl", "\n".join(lines[:3] + [json.dumps(changed)] + lines[4:]) + "\n")
        result = self.compare(same, edited, check=1)
        self.assertRegex(result.stdout, r"reward_changed +answers/\S+ +\w+ +original +2 +normalized_score ")

    def test_bad_input_exits_2(self):
        self.write("broken.jsonl", '{"id": 1}\nnot json\n')
        cases = [(["99", "2"], f"no run 99 in {self.db}"),
                 (["lastest", "2"], "'lastest' is not a run (did you mean 'latest'?): give a run id, latest, previous, baseline"),
                 (["baseline", "latest"], "no run of \"nightly\" is pinned as the baseline"),
                 ([os.path.join(self.dir, "broken.jsonl"), "2"], "broken.jsonl:1: not a weightspace batch record"),
                 ([os.path.join(self.dir, "none.jsonl"), "2"], "cannot read batch file")]
        for args, expected in cases:
            with self.subTest(args=args):
                self.assertIn(expected, self.compare(*args, check=2).stderr)
        missing = os.path.join(self.dir, "missing.sqlite")
        result = run("compare", "1", "2", "--db", missing, check=2)
        self.assertIn(f"no results database at {missing}", result.stderr)
        self.assertFalse(os.path.exists(missing))

    def test_runs_lists_and_pins(self):
        table = run("runs", "--db", self.db, check=0).stdout.splitlines()
        self.assertEqual([line.split()[:3] for line in table], [["id", "name", "status"], ["2", "nightly", "finished"],
                                                                ["1", "nightly", "finished"]])
        run("runs", "--db", self.db, "--pin", "1", check=0)
        self.assertTrue(run("runs", "--db", self.db, check=0).stdout.splitlines()[2].endswith("baseline"))
        listed = json.loads(run("runs", "--db", self.db, "--json", check=0).stdout)
        self.assertEqual([(r["id"], r["pinned"], r["records"]) for r in listed], [(2, False, 40), (1, True, 40)])
        run("runs", "--db", self.db, "--pin", "2", check=0)
        self.assertEqual(self.query(self.db, "SELECT id FROM runs WHERE pinned"), [(2,)])
        self.compare("baseline", "1", check=0)
        self.assertIn("no run 9", run("runs", "--db", self.db, "--pin", "9", check=2).stderr)
        self.assertEqual(len(json.loads(run("runs", "--db", self.db, "--json", "--limit", "1", check=0).stdout)), 1)
        # A --name no run has is a typo to point out, not an empty table (issue 32).
        self.assertIn("no runs of sweep name 'other'", run("runs", "--db", self.db, "--name", "other", check=2).stderr)
        self.assertIn("did you mean 'nightly'", run("runs", "--db", self.db, "--name", "nightlyy", check=2).stderr)

    def test_report_data_and_page(self):
        self.change("UPDATE records SET reward = replace(reward, '\"parse_success\": 1.0', '\"parse_success\": 1.0 ') "
                     "WHERE run_id = 2 AND seq = 7")
        out, data = os.path.join(self.dir, "r.html"), os.path.join(self.dir, "r.json")
        run("report", "2", "--baseline", "1", "--db", self.db, "-o", out, "--data", data, check=0)
        with open(data, encoding="utf-8") as f:
            document = json.load(f)
        self.assertEqual((document["title"], document["run"]["id"], document["baseline"]["id"]), ("nightly", 2, 1))
        self.assertEqual([(r["kind"], r["detail"]) for r in document["regressions"]],
                         [("reward_changed", "the reward text differs")])
        self.assertEqual([r["changed"] for r in document["records"]].index(True), 7)
        self.assertEqual(len(document["records"]), 40)
        self.assertEqual([t["run_id"] for t in document["trend"]], [1, 2])
        self.assertEqual(sorted(g["game"] + "/" + g["source"] for g in document["distributions"]),
                         ["breakout/original", "breakout/synth", "freeway/original", "freeway/synth"])
        with open(out, encoding="utf-8") as f:
            page = f.read()
        self.assertIn("<html", page)
        self.assertIn("nightly", page)
        run("report", "latest", "--db", self.db, "-o", out, "--baseline", "none", "--data", data, check=0)
        with open(data, encoding="utf-8") as f:
            self.assertIsNone(json.load(f)["baseline"])

    def test_the_report_shows_changed_scores_and_edited_answers(self):
        """Issue 32: a changed record shows the baseline's score beside its own, and an edited
        answer is listed apart from the regressions, as compare lists it."""
        where = "run_id = 2 AND seq = 0"
        [(text,)] = self.query(self.db, f"SELECT reward FROM records WHERE {where}")
        reward = json.loads(text)
        before, reward["normalized_score"] = reward["normalized_score"], 0.25
        self.change(f"UPDATE records SET input_sha256 = 'edited', weights_sha256 = 'edited', reward = ?, "
                    f"normalized_score = 0.25 WHERE {where}", json.dumps(reward))
        out, data = os.path.join(self.dir, "r.html"), os.path.join(self.dir, "r.json")
        run("report", "2", "--baseline", "1", "--db", self.db, "-o", out, "--data", data, check=0)
        with open(data, encoding="utf-8") as f:
            document = json.load(f)
        self.assertEqual(document["regressions"], [])
        [edited] = document["answers_edited"]
        self.assertEqual((edited["id"], edited["baseline_score"], edited["score"]),
                         (document["records"][0]["id"], before, 0.25))
        self.assertEqual((document["records"][0]["changed"], document["records"][0]["baseline_score"]), (True, before))
        self.assertEqual({r["baseline_score"] for r in document["records"][1:]}, {None})
        with open(out, encoding="utf-8") as f:
            page = f.read()
        self.assertIn('<section id="answers-edited"><h2>Answers edited <span class="count">(1)</span>', page)
        self.assertIn(" \u2192</span> 0.25 <span class=\"delta", page)

    def older_store(self, name, schema, run_columns, *statements):
        """A store of an older schema holding run 1 of self.db, then `statements` run on it."""
        old = os.path.join(self.dir, name)
        connection = sqlite3.connect(old)
        with connection:
            connection.executescript(schema)
            connection.execute("ATTACH DATABASE ? AS current", (self.db,))
            connection.execute(f"INSERT INTO runs SELECT {run_columns} FROM current.runs WHERE id = 1")
            connection.execute(f"INSERT INTO records SELECT {RECORD_1_COLUMNS} FROM current.records WHERE run_id = 1")
            for statement in statements:
                connection.execute(statement)
        connection.close()
        return old

    def test_a_version_1_database_is_migrated(self):
        old = self.older_store("v1.sqlite", SCHEMA_1, RUN_1_COLUMNS)
        result = run("runs", "--db", old, check=0)
        self.assertIn(f"{old}: migrating the results store from schema version 1 to 5", result.stderr)
        self.assertEqual(self.query(old, "PRAGMA user_version"), [(5,)])
        self.assertEqual(self.query(old, "PRAGMA journal_mode"), [("wal",)])
        self.assertEqual(self.query(old, "SELECT id, pinned FROM runs"), [(1, 0)])
        self.assertEqual(self.records(old, 1), self.records(self.db, 1))
        self.sweep(os.path.join(self.dir, "nightly.toml"), "--db", old)
        result = run("compare", "1", "2", "--db", old, check=0)
        self.assertIn("no regression (40 records unchanged)", result.stdout)
        self.assertIn("speed not compared: the runs have no thread count measured in both", result.stdout)
        self.assertNotIn("migrating", run("runs", "--db", old, check=0).stderr)

    def test_a_version_2_database_is_migrated_with_no_places(self):
        old = self.older_store("v2.sqlite", SCHEMA_2, f"{RUN_1_COLUMNS}, 1",
                               "INSERT INTO speed SELECT run_id, threads, records, steps, seconds FROM current.speed "
                               "WHERE run_id = 1",
                               # A failure of before: its place was never stored.
                               "UPDATE records SET error_kind = 'ValueError' WHERE seq = 3")
        result = run("runs", "--db", old, check=0)
        self.assertIn(f"{old}: migrating the results store from schema version 2 to 5", result.stderr)
        self.assertEqual(self.query(old, "PRAGMA user_version"), [(5,)])
        # Speed measured before schema 4: one timing, no workload, no instruction count.
        self.assertEqual(self.query(old, "SELECT repetitions FROM speed"), [(None,)])
        self.assertEqual(self.query(old, "SELECT speed_workload, speed_instructions FROM runs"), [(None, None)])
        self.assertEqual(self.query(old, "SELECT id, pinned FROM runs"), [(1, 1)])
        self.assertEqual(self.query(old, "SELECT COUNT(*) FROM speed"), self.query(self.db, "SELECT COUNT(*) FROM speed "
                                                                                           "WHERE run_id = 1"))
        self.assertEqual(self.query(old, "SELECT COUNT(*), COUNT(error_line), COUNT(error_column) FROM records"),
                         [(40, 0, 0)])
        columns = "seq, answer_set, id, input, game, source, episodes, reward, normalized_score, cached, steps"
        self.assertEqual(self.query(old, f"SELECT {columns} FROM records ORDER BY seq"),
                         self.query(self.db, f"SELECT {columns} FROM records WHERE run_id = 1 ORDER BY seq"))
        self.sweep(os.path.join(self.dir, "nightly.toml"), "--db", old)
        compared = run("compare", "1", "2", "--db", old, check=0)
        self.assertIn("no regression (40 records unchanged)", compared.stdout)
        self.assertIn("speed not judged: the runs timed different workloads (run 1: none recorded (timed before "
                      "schema 4); run 2: 4 records, ", compared.stdout)
        self.assertNotIn("migrating", run("runs", "--db", old, check=0).stderr)

    def test_a_version_4_database_is_migrated_with_no_refusals(self):
        old = os.path.join(self.dir, "v4.sqlite")
        shutil.copyfile(self.db, old)
        connection = sqlite3.connect(old)
        with connection:
            connection.execute("ALTER TABLE records DROP COLUMN refused")
            connection.execute("PRAGMA user_version = 4")
        connection.close()
        result = run("runs", "--db", old, check=0)
        self.assertIn(f"{old}: migrating the results store from schema version 4 to 5", result.stderr)
        self.assertEqual(self.query(old, "PRAGMA user_version"), [(5,)])
        self.assertEqual(self.query(old, "SELECT COUNT(*), SUM(refused) FROM records"),
                         self.query(self.db, "SELECT COUNT(*), 0 FROM records"))
        self.assertEqual(self.records(old, 1), self.records(self.db, 1))
        # A refusal is a 0 or a 1, as a new store's.
        with self.assertRaises(sqlite3.IntegrityError):
            with sqlite3.connect(old) as connection:
                connection.execute("UPDATE records SET refused = 2 WHERE seq = 0")

    def test_a_failed_records_place_goes_from_the_sweep_to_compare_and_the_report(self):
        fence = "```"
        self.write("placed/bad.md", f"{fence}edits\nb1[0] = 1\nx[0] = 1\n{fence}\n")
        self.write("placed/noblock.md", "no block here\n")
        config = self.config(name="placed.toml", paths=("placed/",), games=("breakout",), sources=("original",))
        db = os.path.join(self.dir, "placed.sqlite")
        self.sweep(config, "--db", db, "--no-report")
        self.assertEqual(self.query(db, "SELECT input, error_kind, error_line, error_column FROM records ORDER BY seq"),
                         [("placed/bad.md", "ValueError", 2, 1), ("placed/noblock.md", "ValueError", None, None)])
        # The store's records are the batch's lines: compare finds them the same either way round.
        lines = run("batch", "placed/", "--game", "breakout", "--episodes", "2", "--quiet", cwd=self.dir,
                    check=0).stdout
        self.assertEqual([(line["error_line"], line["error_column"]) for line in map(json.loads, lines.splitlines())],
                         [(2, 1), (None, None)])
        same = self.write("placed.jsonl", lines)
        for operands in ((same, "latest"), ("latest", same)):
            self.assertIn("no regression (2 records unchanged)",
                          run("compare", *operands, "--db", db, check=0).stdout)
        out, data = os.path.join(self.dir, "placed.html"), os.path.join(self.dir, "placed.json")
        run("report", "latest", "--db", db, "-o", out, "--data", data, check=0)
        with open(data, encoding="utf-8") as f:
            records = json.load(f)["records"]
        self.assertEqual([(r["error_kind"], r["error_line"], r["error_column"], r["error"]) for r in records],
                         [("ValueError", 2, 1, "unknown tensor 'x'"),
                          ("ValueError", None, None, "answer has no edits block")])
        with open(out, encoding="utf-8") as f:
            page = f.read()
        self.assertIn("<td>2:1<td><b>ValueError</b> unknown tensor &#39;x&#39;", page)
        self.assertIn("<td><td><b>ValueError</b> answer has no edits block", page)


if __name__ == "__main__":
    unittest.main()
