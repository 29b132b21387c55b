# SPDX-License-Identifier: GPL-3.0-or-later
"""`weightspace batch` end to end: every record equals `weightspace grade` (and the golden
reward.json), input order, thread invariance, the cache, every kind of bad input, CSV and
reward files, exit statuses, kill -9 and --resume, a 10^5-line manifest in flat memory, and
the progress line under a pseudo-terminal.

usage: python3 batch_cli_test.py WEIGHTSPACE_BINARY GOLDEN_DIR EXAMPLES_DIR
"""
import json
import os
import pty
import random
import resource
import select
import signal
import subprocess
import sys
import time

from apps_support import FolderCase, run_tests

BINARY, GOLDEN, EXAMPLES = sys.argv[1:4]
del sys.argv[1:4]

FENCE = "```"


def answer(*lines):
    return FENCE + "edits\n" + "\n".join(lines) + "\n" + FENCE + "\n"


def batch(*args, stdin=None, check=True):
    result = subprocess.run([BINARY, "batch", *args], input=stdin, capture_output=True, text=True)
    if check and result.returncode != 0:
        raise AssertionError(f"batch {args} exited {result.returncode}: {result.stderr}")
    return result


def lines(text):
    return [json.loads(line) for line in text.splitlines()]


def grade(game, path, episodes, source="original", trajectory=False):
    option = "--trajectory" if trajectory else "--answer"
    result = subprocess.run([BINARY, "grade", "--game", game, "--source", source, "--episodes", str(episodes),
                             option, path], capture_output=True, text=True, check=True)
    return result.stdout.rstrip("\n")


class Batch(FolderCase):
    def write(self, name, text):
        path = os.path.join(self.dir, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        return path

    def manifest(self, name, records):
        return self.write(name, "".join(json.dumps(record) + "\n" for record in records))

    def test_golden_grades_through_a_manifest(self):
        with open(os.path.join(GOLDEN, "grades.json"), encoding="utf-8") as f:
            cases = json.load(f)["cases"]
        records = [{"id": case["id"], "answer": case["answer"], "game": case["game"], "source": case["source"],
                    "episodes": case["episodes"]} for case in cases]
        out = lines(batch(self.manifest("golden.jsonl", records), "--threads", "2", "--quiet").stdout)
        self.assertEqual([line["id"] for line in out], [case["id"] for case in cases])
        checked = 0
        for line, case in zip(out, cases):
            if case["expected"] is None or case["expected"]["parse_success"] == 0.0:
                self.assertEqual(line["reward"]["parse_success"], 0.0, case["id"])
                continue
            self.assertEqual(json.dumps(line["reward"]), case["expected_reward_json"], case["id"])
            checked += 1
        self.assertGreater(checked, 0)

    def test_every_record_equals_grade_in_input_order_for_any_threads(self):
        answers = os.path.join(EXAMPLES, "answers")
        trajectories = os.path.join(EXAMPLES, "trajectories")
        args = [answers, trajectories, "--game", "breakout,seaquest", "--episodes", "20", "--no-timings", "--quiet"]
        one = batch(*args, "--threads", "1").stdout
        two = batch(*args, "--threads", "2", "--batch", "3").stdout
        self.assertEqual(one, two)
        for memo in ("hits", "always", "never"):  # the memo never changes a result either
            self.assertEqual(batch(*args, "--threads", "2", "--memo", memo).stdout, one, memo)
        out = lines(one)
        files = sorted(os.path.join(root, name) for root, _, names in os.walk(answers) for name in names)
        files += sorted(os.path.join(trajectories, name) for name in os.listdir(trajectories))
        self.assertEqual(len(out), 2 * len(files))
        for index, line in enumerate(out):
            path, game = files[index // 2], ["breakout", "seaquest"][index % 2]
            self.assertEqual((line["id"], line["input"], line["game"]), (path, path, game))
            source = "synth" if False else "original"
            expected = grade(game, path, 20, source, trajectory=path.endswith(".json"))
            self.assertEqual(json.dumps(line["reward"]), expected, path)
            self.assertNotIn("seconds", line)
            self.assertEqual(line["reward"]["parse_success"], 1.0)
            self.assertEqual(len(line["weights_sha256"]), 64)

    def test_identical_weights_are_cached_and_equal_fresh_grades(self):
        records = [{"id": "a", "answer": answer("W1[:, 0] = 0.5", "b3[1] = 1")},
                   {"id": "b", "answer": answer("b3[1] = 3", "W1[:, 0] = 0.5", "b3[1] = 1")},
                   {"id": "c", "answer": answer("W1[:, 0] = 0.5", "b3[1] = 1"), "episodes": 7}]
        path = self.manifest("m.jsonl", records)
        cached = lines(batch(path, "--game", "breakout", "--episodes", "9", "--quiet").stdout)
        fresh = lines(batch(path, "--game", "breakout", "--episodes", "9", "--quiet", "--cache", "0").stdout)
        self.assertEqual([line["cached"] for line in cached], [False, True, False])
        self.assertEqual([line["cached"] for line in fresh], [False, False, False])
        for a, b in zip(cached, fresh):
            self.assertEqual(json.dumps(a["reward"]), json.dumps(b["reward"]))
            self.assertEqual(a["steps"], b["steps"])
        self.assertEqual(cached[1]["reward"]["edit_count"], 3)
        self.assertEqual(cached[2]["episodes"], 7)

    def test_bad_inputs_become_failed_records_and_the_batch_goes_on(self):
        good = answer("b3[0] = 1")
        self.write("folder/a.md", good)
        os.makedirs(os.path.join(self.dir, "folder/sub.md"))
        no_assistant = self.write("no_assistant.json", json.dumps({"steps": [{"messages": [{"role": "user", "content": good}]}]}))
        bad_json = self.write("bad.json", "{\"steps\": [")
        manifest = self.write("m.jsonl", "\n".join([
            json.dumps({"id": "ok", "answer": good}),
            "{not json",
            json.dumps({"id": "noblock", "answer": "no block"}),
            json.dumps({"id": "syntax", "answer": answer("b3[0] = (")}),
            json.dumps({"id": "pong", "answer": good, "game": "pong"}),
            json.dumps({"id": "huge", "answer": good, "episodes": 10 ** 12}),
            json.dumps({"id": "float", "answer": good, "episodes": 2.5}),
            json.dumps({"id": "two", "answer": good, "answer_path": "x.md"}),
            json.dumps({"id": "none"}),
            json.dumps({"id": "missing", "answer_path": "missing.md"}),
            json.dumps({"id": "dir", "answer_path": "folder"}),
            json.dumps({"id": "source", "answer": good, "source": "atari"}),
            json.dumps([1, 2]),
            "",
            json.dumps({"id": "last", "trajectory_path": "no_assistant.json"}),
        ]) + "\n")
        result = batch(manifest, no_assistant, bad_json, os.path.join(self.dir, "nonexistent.md"),
                       "--game", "breakout", "--episodes", "3", "--quiet")
        out = lines(result.stdout)
        by_id = {line["id"]: line for line in out}
        self.assertEqual(len(out), 17)
        self.assertEqual(by_id["ok"]["reward"]["parse_success"], 1.0)
        expectations = {
            f"{manifest}:2": ("JSONDecodeError", "Expecting property name enclosed in double quotes"),
            "noblock": ("ValueError", "answer has no edits block"),
            "syntax": ("SyntaxError", ""),
            "pong": ("ModuleNotFoundError", "No module named 'minatar.environments.pong'"),
            "huge": ("ValueError", "episodes must be at most"),
            "float": ("ValueError", "\"episodes\" must be an integer"),
            "two": ("ValueError", "exactly one of"),
            "none": ("ValueError", "needs one of"),
            "missing": ("OSError", "No such file or directory"),
            "dir": ("OSError", "Is a directory"),
            "source": ("ValueError", "\"source\" must be"),
            f"{manifest}:13": ("ValueError", "must be a JSON object"),
            "last": ("ValueError", "answer has no edits block"),
            no_assistant: ("ValueError", "answer has no edits block"),
            bad_json: ("JSONDecodeError", "Expecting value"),
            os.path.join(self.dir, "nonexistent.md"): ("OSError", "No such file or directory"),
        }
        for key, (kind, text) in expectations.items():
            line = by_id[key]
            self.assertEqual(line["reward"]["normalized_score"], 0.0, key)
            self.assertEqual(line["reward"]["parse_success"], 0.0, key)
            self.assertEqual(line["error_kind"], kind, key)
            self.assertIn(text, line["reward"]["error"], key)
        # What grade says for the same answer, word for word.
        self.assertEqual(json.dumps(by_id[no_assistant]["reward"]), grade("breakout", no_assistant, 3, trajectory=True))
        self.assertIsNone(by_id["syntax"]["weights_sha256"])
        self.assertEqual(result.returncode, 0)

    def test_the_place_of_an_error_is_beside_the_reward_and_on_grades_stderr(self):
        placed = self.write("placed.md", "Here it is.\n\n" + answer("b1[0] = 1", "x[0] = 1"))
        noblock = self.write("noblock.md", "no block here\n")
        good = self.write("good.md", answer("b3[0] = 1"))
        out = lines(batch(placed, noblock, good, "--game", "breakout", "--episodes", "2", "--quiet").stdout)
        keys = [key for key in out[0] if key.startswith("error")]
        self.assertEqual(keys, ["error_kind", "error_line", "error_column"])
        # The reward holds the grader's text only; the place (in the edits block) is beside it.
        self.assertEqual(out[0]["reward"]["error"], "unknown tensor 'x'")
        self.assertEqual((out[0]["error_kind"], out[0]["error_line"], out[0]["error_column"]), ("ValueError", 2, 1))
        self.assertEqual((out[1]["error_kind"], out[1]["error_line"], out[1]["error_column"]),
                         ("ValueError", None, None))
        self.assertEqual((out[2]["error_kind"], out[2]["error_line"], out[2]["error_column"]), (None, None, None))
        # grade: the same reward on stdout, and FILE:LINE:COLUMN (a line of the answer file) on stderr.
        result = subprocess.run([BINARY, "grade", "--game", "breakout", "--episodes", "2", placed],
                                capture_output=True, text=True, check=True)
        self.assertEqual(json.loads(result.stdout), out[0]["reward"])
        self.assertEqual(result.stderr, f"{placed}:5:1: ValueError: unknown tensor 'x'\n")
        with open(placed, encoding="utf-8") as f:
            result = subprocess.run([BINARY, "grade", "--game", "breakout", "--episodes", "2", "-"], stdin=f,
                                    capture_output=True, text=True, check=True)
        self.assertEqual(result.stderr, "<stdin>:5:1: ValueError: unknown tensor 'x'\n")
        result = subprocess.run([BINARY, "grade", "--game", "breakout", "--episodes", "2", noblock],
                                capture_output=True, text=True, check=True)
        self.assertEqual(result.stderr, f"{noblock}: ValueError: answer has no edits block\n")
        result = subprocess.run([BINARY, "grade", "--game", "breakout", "--episodes", "2", good],
                                capture_output=True, text=True, check=True)
        self.assertEqual(result.stderr, "")

    def test_csv_and_reward_files(self):
        path = self.manifest("m.jsonl", [{"id": "x,\"y\"", "answer": answer("b3[2] = 1")}, {"id": 7, "answer": "none"}])
        csv_path = os.path.join(self.dir, "out.csv")
        rewards = os.path.join(self.dir, "rewards")
        out = lines(batch(path, "--game", "freeway", "--episodes", "2", "--csv", csv_path, "--rewards-dir", rewards,
                          "--quiet").stdout)
        import csv
        with open(csv_path, newline="", encoding="utf-8") as f:
            rows = list(csv.DictReader(f))
        self.assertEqual([row["id"] for row in rows], ["x,\"y\"", "7"])
        self.assertEqual(rows[0]["normalized_score"], repr(out[0]["reward"]["normalized_score"]))
        self.assertEqual(rows[1]["error"], "answer has no edits block")
        files = sorted(os.listdir(rewards))
        self.assertEqual(files, ["000001-x__y_-freeway-original-2.json", "000002-7-freeway-original-2.json"])
        for name, line in zip(files, out):
            with open(os.path.join(rewards, name), encoding="utf-8") as f:
                self.assertEqual(f.read(), json.dumps(line["reward"]))

    def test_csv_has_the_errors_place_after_its_kind(self):
        placed = self.write("placed.md", answer("b1[0] = 1", "x[0] = 1"))
        noblock = self.write("noblock.md", "no block here\n")
        good = self.write("good.md", answer("b3[0] = 1"))
        csv_path = os.path.join(self.dir, "out.csv")
        batch(placed, noblock, good, "--game", "breakout", "--episodes", "2", "--csv", csv_path, "--no-timings",
              "--quiet")
        import csv
        with open(csv_path, newline="", encoding="utf-8") as f:
            table = list(csv.reader(f))
        self.assertEqual(table[0], ["id", "input", "game", "source", "episodes", "normalized_score", "parse_success",
                                    "raw_score", "score_cap", "mean_episode_length", "edit_count", "nonzero_weights",
                                    "error_kind", "error_line", "error_column", "error", "weights_sha256", "cached"])
        rows = [dict(zip(table[0], row)) for row in table[1:]]
        # As the JSON line's error_kind, error_line, error_column, with null an empty field.
        self.assertEqual([(row["error_kind"], row["error_line"], row["error_column"]) for row in rows],
                         [("ValueError", "2", "1"), ("ValueError", "", ""), ("", "", "")])
        self.assertEqual(rows[0]["error"], "unknown tensor 'x'")

    def test_stdin_manifest_relative_paths_and_matrix(self):
        self.write("sub/a.md", answer("b3[3] = 1"))
        manifest = self.manifest("sub/m.jsonl", [{"answer_path": "a.md"}, {"answer_path": "a.md", "game": ["freeway"]}])
        out = lines(batch(manifest, "--game", "breakout", "--game", "seaquest", "--episodes", "2", "--quiet").stdout)
        self.assertEqual([(line["id"], line["game"]) for line in out],
                         [(f"{manifest}:1", "breakout"), (f"{manifest}:1", "seaquest"), (f"{manifest}:2", "freeway")])
        self.assertEqual(out[0]["input"], os.path.join(self.dir, "sub", "a.md"))
        piped = lines(batch("-", "--game", "asterix", "--episodes", "2", "--quiet",
                            stdin=json.dumps({"answer": answer("b3[0] = 1")}) + "\n").stdout)
        self.assertEqual((piped[0]["id"], piped[0]["reward"]["parse_success"]), ("-:1", 1.0))

    def test_exit_statuses(self):
        path = self.write("a.md", answer("b3[0] = 1"))
        self.assertEqual(batch("--game", "breakout", check=False).returncode, 2)
        self.assertEqual(batch(path, "--game", "breakout", "--resume", check=False).returncode, 2)
        self.assertEqual(batch(path, "--game", "breakout", "--episodes", "0x10", check=False).returncode, 2)
        self.assertEqual(batch(path, "--game", "breakout", "--threads", "100000", check=False).returncode, 2)
        refused = batch(path, "--game", "breakout", "--memo", "sometimes", check=False)
        self.assertEqual(refused.returncode, 2)
        self.assertIn("--memo", refused.stderr)
        full = batch(path, "--game", "breakout", "--episodes", "2", "--out", "/dev/full", "--quiet", check=False)
        self.assertEqual(full.returncode, 1)
        self.assertIn("No space left on device", full.stderr)
        # A reader that goes away: a clear error, not a silent exit 0.
        process = subprocess.Popen([BINARY, "batch", path, path, path, "--game", "breakout", "--episodes", "2"],
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        process.stdout.close()
        _, stderr = process.communicate()
        self.assertEqual(process.returncode, 1)
        self.assertIn(b"Broken pipe", stderr)

    def test_resume_after_kill_is_byte_identical(self):
        rng = random.Random(11)
        records = []
        for i in range(120):
            game = ["breakout", "seaquest", "asterix", "space_invaders"][i % 4]
            body = [f"W1[{rng.randrange(600)}, {rng.randrange(32)}] = {rng.uniform(-2, 2):.3f}" for _ in range(6)]
            body.append(f"b3[{rng.randrange(6)}] = {rng.uniform(-1, 1):.3f}")
            if i % 10 == 9:
                records.append({"id": i, "answer": records[i - 5]["answer"], "game": game})
            else:
                records.append({"id": i, "answer": answer(*body), "game": game})
        manifest = self.manifest("m.jsonl", records)
        reference = os.path.join(self.dir, "reference.jsonl")
        started = time.monotonic()
        batch(manifest, "--episodes", "60", "--no-timings", "--quiet", "--out", reference, "--threads", "2")
        # Kills land between 5% and 90% of a whole run's time, so that they fall mid-run on any
        # build: a fixed window shorter than a sanitized binary's start would never let it finish.
        whole_run = max(time.monotonic() - started, 0.05)
        out = os.path.join(self.dir, "out.jsonl")
        csv_path = os.path.join(self.dir, "out.csv")
        kills = 0
        runs = 0
        while True:
            runs += 1
            self.assertLess(runs, 400, "resume never finished")
            process = subprocess.Popen([BINARY, "batch", manifest, "--episodes", "60", "--no-timings", "--quiet",
                                        "--out", out, "--resume", "--csv", csv_path, "--threads", "2"],
                                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
            try:
                process.wait(timeout=rng.uniform(0.05, 0.9) * whole_run)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
                kills += 1
                continue
            self.assertEqual(process.returncode, 0, process.stderr.read())
            if kills >= 10:
                break
            os.remove(out)  # finished before 10 kills: start over, so every kill lands mid-run
        with open(reference, "rb") as a, open(out, "rb") as b:
            self.assertEqual(a.read(), b.read())
        with open(csv_path, encoding="utf-8") as f:
            self.assertEqual(len(f.read().splitlines()), len(records) + 1)
        print(f"resume: {kills} kills over {runs} runs, output identical", file=sys.stderr)

    def test_resume_refuses_other_inputs_and_drops_a_torn_line(self):
        first = self.manifest("a.jsonl", [{"id": i, "answer": answer(f"b3[0] = {i}")} for i in range(4)])
        other = self.manifest("b.jsonl", [{"id": i + 10, "answer": answer(f"b3[0] = {i}")} for i in range(4)])
        out = os.path.join(self.dir, "out.jsonl")
        args = ["--game", "breakout", "--episodes", "3", "--no-timings", "--quiet", "--out", out]
        batch(first, *args)
        with open(out, encoding="utf-8") as f:
            whole = f.read()
        with open(out, "w", encoding="utf-8") as f:
            f.write(whole[: len(whole) // 2])  # a torn line in the middle of record 2 or 3
        batch(first, *args, "--resume")
        with open(out, encoding="utf-8") as f:
            self.assertEqual(f.read(), whole)
        refused = batch(other, *args, "--resume", check=False)
        self.assertEqual(refused.returncode, 2)
        self.assertIn("not the same inputs", refused.stderr)
        timings = batch(first, "--game", "breakout", "--episodes", "3", "--quiet", "--out", out, "--resume", check=False)
        self.assertEqual(timings.returncode, 2)
        self.assertIn("--no-timings", timings.stderr)

    def test_resume_writes_a_torn_reward_file_again(self):
        """Reward files are synced once at the end, so a crash may leave one torn: --resume keeps
        a file only when it is the record's reward.json, and writes the others again."""
        first = self.manifest("a.jsonl", [{"id": i, "answer": answer(f"b3[0] = {i}")} for i in range(3)])
        out, rewards = os.path.join(self.dir, "out.jsonl"), os.path.join(self.dir, "rewards")
        args = ["--game", "breakout", "--episodes", "3", "--no-timings", "--quiet", "--out", out, "--rewards-dir", rewards]
        batch(first, *args)
        names = sorted(os.listdir(rewards))
        texts = [open(os.path.join(rewards, name), encoding="utf-8").read() for name in names]
        with open(os.path.join(rewards, names[0]), "w", encoding="utf-8") as f:
            f.write(texts[0][: len(texts[0]) // 2])  # torn
        with open(os.path.join(rewards, names[1]), "a", encoding="utf-8") as f:
            f.write(" ")  # longer than the reward.json
        os.remove(os.path.join(rewards, names[2]))
        batch(first, *args, "--resume")
        self.assertEqual(sorted(os.listdir(rewards)), names)
        self.assertEqual([open(os.path.join(rewards, name), encoding="utf-8").read() for name in names], texts)

    def test_a_large_manifest_streams_in_flat_memory(self):
        path = os.path.join(self.dir, "large.jsonl")
        with open(path, "w", encoding="utf-8") as f:
            for i in range(100_000):
                f.write(json.dumps({"id": i, "answer": answer(f"b3[{i % 6}] = {i}", f"W1[{i % 600}, :] = 0.5")}) + "\n")
        out = os.path.join(self.dir, "large.out")
        before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        batch(path, "--game", "breakout,asterix", "--episodes", "1", "--quiet", "--out", out)
        peak_kb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        self.assertGreater(peak_kb, before)
        with open(out, encoding="utf-8") as f:
            count = sum(1 for _ in f)
        self.assertEqual(count, 200_000)
        print(f"100k-line manifest (200k records): peak RSS {peak_kb / 1024:.1f} MB", file=sys.stderr)
        if os.environ.get("WEIGHTSPACE_SANITIZED") != "1":
            self.assertLess(peak_kb, 64 * 1024)

    def test_progress_on_a_terminal_and_quiet(self):
        path = self.manifest("m.jsonl", [{"id": i, "answer": answer(f"b3[0] = {i}"), "game": "freeway"} for i in range(6)]
                             + [{"id": "unknown-key", "answer": answer("b3[0] = 1"), "epsiodes": 3}])
        pid, fd = pty.fork()
        if pid == 0:
            os.execv(BINARY, [BINARY, "batch", path, "--game", "freeway", "--episodes", "600", "--threads", "1",
                              "--out", os.path.join(self.dir, "o.jsonl")])
        screen = b""
        while True:
            ready, _, _ = select.select([fd], [], [], 60)
            if not ready:
                os.kill(pid, signal.SIGKILL)
                self.fail("no output from the batch under a terminal")
            try:
                chunk = os.read(fd, 4096)
            except OSError:
                break
            if not chunk:
                break
            screen += chunk
        _, status = os.waitpid(pid, 0)
        self.assertEqual(os.waitstatus_to_exitcode(status), 0, screen)
        text = screen.decode()
        self.assertIn("\r\x1b[2K", text)
        self.assertRegex(text, r"\d+/7 records")
        # The warning and the summary each start on a cleared line, never after a progress line.
        import re
        for needle in (r"weightspace: (\x1b\[\d+m)?warning(\x1b\[m)?: manifest key \"epsiodes\"",
                       r"weightspace: (\x1b\[\d+m)?info(\x1b\[m)?: batch: 7 records graded"):
            at = re.search(needle, text).start()
            self.assertTrue(text[:at].endswith("\r\x1b[2K") or text[:at].endswith("\n") or at == 0, repr(text[at - 20:at]))
        self.assertTrue(text.rstrip().endswith("cached"), repr(text[-200:]))
        quiet = batch(path, "--game", "freeway", "--episodes", "2", "--quiet")
        self.assertNotIn("records", quiet.stderr)


if __name__ == "__main__":
    sys.exit(run_tests())
