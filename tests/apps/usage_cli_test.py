# SPDX-License-Identifier: GPL-3.0-or-later
"""The command line as a new user meets it (issue 32): options placed before the inputs,
`batch --game` checked before any work, parser errors with did-you-mean, `help`, counts in
words, Ctrl-C on batch, the folder walk through symbolic links, and --resume refusals that
name what differs and change nothing.

usage: python3 usage_cli_test.py WEIGHTSPACE_BINARY EXAMPLES_DIR
"""
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
import unittest

BINARY, EXAMPLES = sys.argv[1:3]
del sys.argv[1:3]
ANSWER = os.path.join(EXAMPLES, "answers", "breakout.md")
ERROR = "weightspace: error: "


def run(*args, stdin=None, expect=None):
    result = subprocess.run([BINARY, *args], input=stdin, capture_output=True, text=True, timeout=120)
    if expect is not None and result.returncode != expect:
        raise AssertionError(f"{args} exited {result.returncode}, not {expect}: {result.stderr}")
    return result


def records(text):
    return [json.loads(line) for line in text.splitlines()]


def original_games():
    lines = records(run("games", "--json", expect=0).stdout)
    return [line["name"] for line in lines if line["source"] == "original"]


class OptionsBeforeInputs(unittest.TestCase):
    def test_batch_game_first_leaves_the_input(self):
        for game in (["--game", "breakout"], ["--game=breakout"]):
            result = run("batch", *game, ANSWER, "--episodes", "2", "--quiet", expect=0)
            self.assertEqual([(r["game"], r["input"]) for r in records(result.stdout)], [("breakout", ANSWER)])

    def test_repeated_and_comma_separated_games(self):
        result = run("batch", "--game", "breakout", "--game", "freeway", ANSWER, "--episodes", "1", "--quiet", expect=0)
        self.assertEqual([r["game"] for r in records(result.stdout)], ["breakout", "freeway"])

    def test_bench_thread_list_first(self):
        result = run("bench", "--game", "breakout", "--threads", "1,2", ANSWER, "--episodes", "1",
                     "--repetitions", "1", "--json", "-", expect=0)
        threads = {b["threads"] for b in json.loads(result.stdout)["benchmarks"]}
        self.assertEqual(threads, {1, 2})


class BatchGameFlag(unittest.TestCase):
    def test_typo_is_a_usage_error_before_any_work(self):
        result = run("batch", ANSWER, "--game", "brekout", expect=2)
        self.assertEqual(result.stdout, "")
        self.assertTrue(result.stderr.startswith(ERROR), result.stderr)
        self.assertIn("did you mean 'breakout'", result.stderr)

    def test_missing_game_is_a_usage_error(self):
        result = run("batch", ANSWER, expect=2)
        self.assertEqual(result.stdout, "")
        self.assertIn("--game", result.stderr)

    def test_spaces_after_commas_and_all(self):
        result = run("batch", ANSWER, "--game", "breakout, freeway", "--episodes", "1", "--quiet", expect=0)
        self.assertEqual([r["game"] for r in records(result.stdout)], ["breakout", "freeway"])
        result = run("batch", ANSWER, "--game", "all", "--episodes", "1", "--quiet", expect=0)
        self.assertEqual([r["game"] for r in records(result.stdout)], original_games())

    def test_manifest_games_keep_the_graders_semantics(self):
        manifest = json.dumps({"id": "x", "answer_path": ANSWER, "game": "pong", "episodes": 1}) + "\n"
        result = run("batch", "-", "--quiet", stdin=manifest, expect=0)
        self.assertEqual(records(result.stdout)[0]["error_kind"], "ModuleNotFoundError")


class ParserErrors(unittest.TestCase):
    def test_unknown_option_names_the_nearest(self):
        result = run("grade", "--game", "breakout", "--answer", ANSWER, "--thread", "2", expect=2)
        self.assertTrue(result.stderr.startswith(ERROR), result.stderr)
        self.assertIn("unknown option '--thread'", result.stderr)
        self.assertIn("did you mean '--threads'", result.stderr)
        self.assertNotIn("excludes", result.stderr)
        result = run("grade", "--bogus", "3", expect=2)
        self.assertIn("unknown option '--bogus'", result.stderr)

    def test_cli11_errors_carry_the_prefix(self):
        result = run("grade", "--answer", ANSWER, expect=2)  # no --game
        self.assertTrue(result.stderr.startswith(ERROR + "--game is required"), result.stderr)
        self.assertIn("weightspace grade --help", result.stderr)
        result = run("grade", "--game", "breakout", "--answer", ANSWER, "--threads", "x", expect=2)
        self.assertTrue(result.stderr.startswith(ERROR), result.stderr)

    def test_no_command_lists_the_commands(self):
        for args in ([], ["-v"]):
            result = run(*args, expect=2)
            self.assertTrue(result.stderr.startswith(ERROR), result.stderr)
            for command in ("grade", "batch", "sweep", "compare"):
                self.assertIn(command, result.stderr)
        self.assertIn("did you mean '--version'", run("-v", expect=2).stderr)

    def test_help_command(self):
        result = run("help", expect=0)
        for command in ("grade", "batch", "sweep", "report"):
            self.assertIn(f"\n  {command} ", result.stdout)
        self.assertIn("--resume", run("help", "batch", expect=0).stdout)
        self.assertEqual(run("help", "batch", expect=0).stdout, run("batch", "--help", expect=0).stdout)
        self.assertIn("did you mean 'batch'", run("help", "bach", expect=2).stderr)


class SmallThings(unittest.TestCase):
    def test_help_shows_defaults(self):
        text = run("grade", "--help", expect=0).stdout
        self.assertIn("--source TEXT:{original,synth}=original", text)
        self.assertIn("--episodes TEXT=1000", text)
        self.assertNotIn("=[]", run("batch", "--help", expect=0).stdout)  # an empty list says nothing

    def test_counts_in_words(self):
        result = run("batch", ANSWER, "--game", "breakout", "--episodes", "1", expect=0)
        self.assertIn("batch: 1 record graded", result.stderr)
        self.assertIn("0 errors", result.stderr)
        self.assertNotIn("1 records", result.stderr)

    def test_threads_past_the_cores_said_once_in_our_words(self):
        cores = os.cpu_count()
        result = run("grade", "--game", "breakout", ANSWER, "--episodes", "3", "--threads", "1024", expect=0)
        self.assertNotIn("TBB", result.stderr)
        self.assertEqual(result.stderr.count("this machine runs"), 1 if cores < 1024 else 0, result.stderr)
        result = run("batch", ANSWER, "--game", "breakout", "--episodes", "3", "--threads", "1024", "--quiet", expect=0)
        self.assertEqual(result.stderr, "")

    def test_sweep_help_names_its_own_output(self):
        text = run("sweep", "--help", expect=0).stdout
        self.assertNotIn("--out", text)
        self.assertIn("--db with .shard-I-of-N", text)


class Interrupt(unittest.TestCase):
    def test_ctrl_c_ends_the_line_and_says_how_to_resume(self):
        # A manifest on a pipe kept open: the batch waits for more, so Ctrl-C comes mid-run.
        with tempfile.TemporaryDirectory() as folder:
            out, log = os.path.join(folder, "out.jsonl"), os.path.join(folder, "stderr")
            lines = [json.dumps({"id": i, "answer_path": ANSWER, "episodes": 2}) + "\n" for i in range(8)]
            args = [BINARY, "batch", "-", "--game", "breakout", "--out", out]
            with open(log, "w") as stderr:
                process = subprocess.Popen(args, stdin=subprocess.PIPE, stderr=stderr, text=True)
                process.stdin.write("".join(lines[:5]))
                process.stdin.flush()
                deadline = time.monotonic() + 60
                while time.monotonic() < deadline and (not os.path.exists(out) or open(out).read().count("\n") < 5):
                    time.sleep(0.05)
                process.send_signal(signal.SIGINT)
                self.assertEqual(process.wait(timeout=60), -signal.SIGINT)  # dies of it, as before: 130 in a shell
                process.stdin.close()
            with open(log) as f:
                stderr = f.read()
            self.assertTrue(stderr.endswith("\n"))
            self.assertIn("batch interrupted: 5 records written to " + out +
                          "; rerun the same command with --resume to continue", stderr)
            self.assertIn("batch: 5 records, ", stderr.splitlines()[-2])  # the progress line as it stood
            run(*args[1:], "--resume", "--quiet", stdin="".join(lines), expect=0)
            with open(out) as f:
                self.assertEqual([json.loads(line)["id"] for line in f], list(range(8)))


class FolderWalk(unittest.TestCase):
    def test_links_are_followed_and_dangling_ones_reported(self):
        with tempfile.TemporaryDirectory() as folder:
            inputs, elsewhere = os.path.join(folder, "in"), os.path.join(folder, "elsewhere")
            os.makedirs(inputs)
            os.makedirs(elsewhere)
            with open(ANSWER) as f, open(os.path.join(elsewhere, "b.md"), "w") as g:
                g.write(f.read())
            os.symlink(elsewhere, os.path.join(inputs, "linked"))
            os.symlink(os.path.join(folder, "gone.md"), os.path.join(inputs, "dangling.md"))
            os.symlink(inputs, os.path.join(inputs, "loop"))
            result = run("batch", inputs, "--game", "breakout", "--episodes", "1", expect=0)
            by_input = {r["input"]: r for r in records(result.stdout)}
            self.assertEqual(set(by_input), {os.path.join(inputs, "dangling.md"),
                                             os.path.join(inputs, "linked", "b.md")})
            self.assertEqual(by_input[os.path.join(inputs, "linked", "b.md")]["reward"]["parse_success"], 1.0)
            dangling = by_input[os.path.join(inputs, "dangling.md")]
            self.assertEqual(dangling["error_kind"], "OSError")
            given = records(run("batch", os.path.join(inputs, "dangling.md"), "--game", "breakout",
                                "--episodes", "1", "--quiet", expect=0).stdout)[0]
            self.assertEqual(dangling["reward"], given["reward"])  # as if given by name
            self.assertIn("loop: a symbolic link back to a folder", result.stderr)


class ResumeRefusals(unittest.TestCase):
    def test_names_the_field_and_changes_nothing(self):
        with tempfile.TemporaryDirectory() as folder:
            out = os.path.join(folder, "out.jsonl")
            run("batch", ANSWER, "--game", "breakout", "--episodes", "2", "--out", out, "--quiet", expect=0)
            with open(out, "a") as f:
                f.write('{"id": "torn')  # a run killed mid-line
            with open(out, "rb") as f:
                before = f.read()
            result = run("batch", ANSWER, "--game", "breakout", "--episodes", "3", "--out", out, "--resume", expect=2)
            self.assertIn("episodes is 2 there, 3 now", result.stderr)
            with open(out, "rb") as f:
                self.assertEqual(f.read(), before)
            # The same command resumes: the torn line goes, nothing is graded again.
            run("batch", ANSWER, "--game", "breakout", "--episodes", "2", "--out", out, "--resume", "--quiet", expect=0)
            with open(out) as f:
                self.assertEqual(len(f.read().splitlines()), 1)


if __name__ == "__main__":
    unittest.main()
