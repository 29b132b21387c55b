# SPDX-License-Identifier: GPL-3.0-or-later
"""The CLI at the edges of the machine: outputs onto devices, links, FIFOs and folders; long
lines; requests the machine cannot serve; unbounded inputs; failed writes; misleading
messages; typos. Every attack runs under time and memory limits (setrlimit) and must end in a
clean result or a clear error, never a crash (exit 3 or a signal), a hang or a blow-up.

usage: python3 robustness_test.py WEIGHTSPACE_BINARY EXAMPLES_DIR   (as root: device nodes)
"""
import json
import os
import resource
import shutil
import stat
import subprocess
import sys
import tempfile
import threading
import time
import unittest

from apps_support import FolderCase, run_tests

BINARY, EXAMPLES = sys.argv[1:3]
del sys.argv[1:3]
ANSWER = os.path.join(EXAMPLES, "answers", "breakout.md")
MEMORY = 2 << 30  # address space of every run: far below what the attacks would take
SANITIZED = os.environ.get("WEIGHTSPACE_SANITIZED") == "1"  # ASan reserves terabytes of address space


def limits():
    if not SANITIZED:
        resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))
    resource.setrlimit(resource.RLIMIT_CPU, (120, 120))


def run(*args, stdin=None, stdout=subprocess.PIPE, user=None, timeout=120, binary=BINARY):
    """The binary with args under the limits; the result, with its wall time in .seconds."""
    def prepare():
        limits()
        if user is not None:
            os.setgid(user)
            os.setuid(user)
    start = time.monotonic()
    result = subprocess.run([binary, *args], input=stdin, stdout=stdout, stderr=subprocess.PIPE,
                            preexec_fn=prepare, timeout=timeout)
    result.seconds = time.monotonic() - start
    assert result.returncode in (0, 1, 2), f"{args}: exit {result.returncode}: {result.stderr[-2000:]!r}"
    return result


def reward(result):
    return json.loads(result.stdout)


class Outputs(FolderCase):
    """Item 1: --out, --weights-out, --episodes-out and verify --reward keep what is at the path."""

    def writers(self, target):
        return [("grade", "--game", "breakout", "--episodes", "2", ANSWER, "--out", target),
                ("grade", "--game", "breakout", "--episodes", "2", ANSWER, "--episodes-out", target),
                ("parse", ANSWER, "--weights-out", target)]

    def test_a_device_node_stays_a_device(self):
        device = self.path("null")
        os.mknod(device, 0o666 | stat.S_IFCHR, os.makedev(1, 3))
        for args in self.writers(device):
            self.assertEqual(run(*args).returncode, 0, args)
            self.assertTrue(stat.S_ISCHR(os.stat(device).st_mode), args)
        environment = dict(os.environ, WEIGHT_SPACE_GAME="breakout", WEIGHT_SPACE_SOURCE="original", WEIGHT_SPACE_EPISODES="2")
        trajectory = self.path("t.json")
        with open(trajectory, "w") as f:
            json.dump({"steps": [{"messages": [{"role": "assistant", "content": open(ANSWER).read()}]}]}, f)
        verify = subprocess.run([BINARY, "verify", "--trajectory", trajectory, "--reward", device], env=environment,
                                capture_output=True, preexec_fn=limits)
        self.assertEqual(verify.returncode, 0, verify.stderr)
        self.assertTrue(stat.S_ISCHR(os.stat(device).st_mode))

    def test_a_link_to_stdout_writes_to_stdout(self):
        link = self.path("stdout")
        os.symlink("/proc/self/fd/1", link)
        result = run("grade", "--game", "breakout", "--episodes", "2", ANSWER, "--out", link)
        self.assertEqual(reward(result)["parse_success"], 1.0)
        self.assertTrue(os.path.islink(link))

    def test_a_fifo_is_written_through(self):
        fifo = self.path("fifo")
        os.mkfifo(fifo)
        received = []
        reader = threading.Thread(target=lambda: received.append(open(fifo).read()))
        reader.start()
        run("grade", "--game", "breakout", "--episodes", "2", ANSWER, "--out", fifo)
        reader.join(timeout=60)
        self.assertEqual(json.loads(received[0])["parse_success"], 1.0)
        self.assertTrue(stat.S_ISFIFO(os.stat(fifo).st_mode))

    def test_links_to_files_are_kept_and_their_targets_replaced(self):
        target, link, dangling = self.path("real.json"), self.path("link.json"), self.path("dangling.json")
        with open(target, "w") as f:
            f.write("old")
        os.chmod(target, 0o640)
        os.symlink(target, link)
        os.symlink(self.path("created.json"), dangling)
        for path in (link, dangling):
            self.assertEqual(run("grade", "--game", "breakout", "--episodes", "2", ANSWER, "--out", path).returncode, 0)
            self.assertTrue(os.path.islink(path))
        self.assertEqual(json.load(open(target))["parse_success"], 1.0)
        self.assertEqual(stat.S_IMODE(os.stat(target).st_mode), 0o640)
        self.assertEqual(json.load(open(self.path("created.json")))["parse_success"], 1.0)
        self.assertEqual(sorted(os.listdir(self.dir)), ["created.json", "dangling.json", "link.json", "real.json"])

    def test_folders_and_unwritable_places_are_clear_errors(self):
        result = run("grade", "--game", "breakout", "--episodes", "2", ANSWER, "--out", self.dir)
        self.assertEqual(result.returncode, 1)
        self.assertIn(f"cannot write {self.dir}: Is a directory", result.stderr.decode())
        os.chmod(self.dir, 0o755)  # the unprivileged user may enter; the folder below is not writable
        binary = self.path("weightspace")  # the build may sit in a folder only root can enter
        shutil.copy(BINARY, binary)
        locked = self.path("locked")
        os.mkdir(locked)
        os.chmod(locked, 0o555)
        with open(ANSWER, "rb") as f:
            result = run("grade", "--game", "breakout", "--episodes", "2", "-", "--out", os.path.join(locked, "r.json"),
                         user=65534, stdin=f.read(), binary=binary)
        self.assertEqual(result.returncode, 1)
        self.assertIn("Permission denied", result.stderr.decode())
        same = run("grade", "--game", "breakout", ANSWER, "--out", self.path("x"), "--episodes-out", self.path("x"))
        self.assertEqual(same.returncode, 2)
        self.assertIn("same file", same.stderr.decode())


class Resources(unittest.TestCase):
    """Items 2-4: long lines, requests beyond the machine, unbounded inputs."""

    def test_long_lines_parse_in_linear_time(self):
        with tempfile.TemporaryDirectory() as folder:
            for name, body in (("statements", "b1[0] = 1; " * 90_000), ("tuple", "b1[" + "0, " * 330_000 + "0] = 1"),
                               ("padding", "b1[0] = 1" + " " * 3_000_000)):
                path = os.path.join(folder, name + ".md")
                with open(path, "w") as f:
                    f.write("```edits\n" + body + "\n```\n")
                result = run("parse", path, timeout=60)  # quadratic, these took 13 s to minutes
                print(f"{name}: {os.path.getsize(path) / 1e6:.1f} MB parsed in {result.seconds:.2f} s", file=sys.stderr)
                self.assertIn("parse_success", json.loads(result.stdout))

    def test_requests_beyond_the_machine(self):
        result = run("grade", "--game", "breakout", "--threads", "10000000", ANSWER)
        self.assertEqual(result.returncode, 2)
        self.assertIn("not in range 0 to 1024", result.stderr.decode())
        self.assertLess(len(run("grade", "--game", "breakout", "--threads", "-1", ANSWER).stderr), 200)
        self.check_refusals_are_no_scores()
        typo = run("grade", "--game", "brakeout", "--episodes", "100000000", ANSWER)
        self.assertEqual((typo.returncode, reward(typo)["parse_success"]), (0, 0.0))
        self.assertIn("did you mean 'breakout'", typo.stderr.decode())
        self.assertEqual(run("grade", "--game", "breakout", "--episodes", "4294959378", ANSWER).returncode, 2)

    def check_refusals_are_no_scores(self):
        """Issue 34 item 3: more episodes than this machine can hold the results of is no score
        (the grader would still be playing): exit 1 naming the limit, no reward.json, the old
        --out intact; in a batch, that record's error, marked as no fault of the answer."""
        limit = "not graded, a limit of this machine (not of the answer): 4294959377 episodes"
        with tempfile.TemporaryDirectory() as folder:
            out = os.path.join(folder, "reward.json")
            with open(out, "w") as f:
                f.write("old")
            huge = run("grade", "--game", "breakout", "--episodes", "4294959377", "--out", out, ANSWER)
            self.assertEqual((huge.returncode, huge.stdout), (1, b""))
            self.assertIn(limit, huge.stderr.decode())
            with open(out) as f:
                self.assertEqual(f.read(), "old")
            trajectory = os.path.join(folder, "trajectory.json")
            with open(ANSWER) as f:
                json.dump({"steps": [{"messages": [{"role": "assistant", "content": f.read()}]}]},
                          open(trajectory, "w"))
            written = os.path.join(folder, "verifier", "reward.json")
            environment = dict(os.environ, WEIGHT_SPACE_GAME="breakout", WEIGHT_SPACE_SOURCE="original",
                               WEIGHT_SPACE_EPISODES="4294959377")
            verify = subprocess.run([BINARY, "verify", "--trajectory", trajectory, "--reward", written],
                                    env=environment, capture_output=True, preexec_fn=limits, timeout=120)
            self.assertEqual(verify.returncode, 1)
            self.assertIn(limit, verify.stderr.decode())
            self.assertFalse(os.path.exists(written))
            manifest = os.path.join(folder, "m.jsonl")
            with open(manifest, "w") as f:
                f.write(json.dumps({"id": "huge", "answer_path": ANSWER, "episodes": 4294959377}) + "\n")
                # The same record again (its refusal cached), then one graded and one failed.
                f.write(json.dumps({"id": "again", "answer_path": ANSWER, "episodes": 4294959377}) + "\n")
                f.write(json.dumps({"id": "small", "answer_path": ANSWER, "episodes": 2}) + "\n")
                f.write(json.dumps({"id": "bad", "answer": "no block", "episodes": 2}) + "\n")
            out = os.path.join(folder, "out.jsonl")
            batch = run("batch", manifest, "--game", "breakout", "--no-timings", "--out", out)
            self.assertEqual(batch.returncode, 0, batch.stderr)
            with open(out, "rb") as f:
                whole = f.read()
            lines = [json.loads(text) for text in whole.splitlines()]
            for line in lines[:2]:
                self.assertEqual(line["error_kind"], "MemoryError")
                self.assertTrue(line["reward"]["error"].startswith(limit), line["reward"]["error"])
                self.assertIs(line["refused"], True)  # the machine-readable mark, outside the reward
            self.assertEqual([line["cached"] for line in lines[:2]], [False, True])
            self.assertEqual(["refused" in line for line in lines[2:]], [False, False])
            # A resumed run reads the mark back (and caches it) and writes what an uninterrupted run does.
            with open(out, "wb") as f:
                f.write(whole.splitlines(keepends=True)[0])
            resumed = run("batch", manifest, "--game", "breakout", "--no-timings", "--out", out, "--resume")
            self.assertEqual(resumed.returncode, 0, resumed.stderr)
            with open(out, "rb") as f:
                self.assertEqual(f.read(), whole)

    def test_unbounded_inputs_stop_at_the_limit(self):
        small = ("--max-input-bytes", "1MiB")
        zero = reward(run("grade", "--game", "breakout", *small, "--answer", "/dev/zero"))
        self.assertEqual(zero["error"], "/dev/zero is larger than 1048576 bytes, the most read for an answer "
                                        "(--max-input-bytes)")
        with tempfile.TemporaryDirectory() as folder:
            sparse = os.path.join(folder, "huge.json")
            with open(sparse, "w") as f:
                f.truncate(4 << 30)
            # Past the parser's 4 GiB ceiling, the default limit: refused from its size, unread.
            self.assertIn("larger than", reward(run("grade", "--game", "breakout", "--trajectory", sparse))["error"])
            if not SANITIZED:  # 3 GiB, under the ceiling but over the 2 GiB address space of the run
                with open(sparse, "w") as f:
                    f.truncate(3 << 30)
                short = reward(run("grade", "--game", "breakout", "--answer", sparse))
                self.assertEqual(short["error"], sparse + ": not enough memory to read it (--max-input-bytes bounds "
                                                          "what is read)")
            # Past the limits weightspace used to have (16 MiB answers, 4 MiB blocks): graded.
            large = os.path.join(folder, "large.txt")
            with open(large, "w") as f:
                f.write("```edits\nb1[0] = 1\n#" + "x" * (17 << 20) + "\n```")
            graded = reward(run("grade", "--game", "breakout", "--episodes", "1", "--answer", large))
            self.assertEqual((graded["parse_success"], graded["edit_count"]), (1.0, 1))
            for bad in ("0", "-1", "5GB", "lots"):
                result = run("grade", "--game", "breakout", "--max-input-bytes", bad, ANSWER)
                self.assertEqual(result.returncode, 2, bad)
                self.assertIn("--max-input-bytes", result.stderr.decode(), bad)
            fifo = os.path.join(folder, "fifo")
            os.mkfifo(fifo)
            stop = threading.Event()

            def feed():
                try:
                    with open(fifo, "wb") as f:
                        while not stop.is_set():
                            f.write(b"x" * 65536)
                except BrokenPipeError:
                    pass
            writer = threading.Thread(target=feed)
            writer.start()
            try:
                self.assertIn("larger than", reward(run("grade", "--game", "breakout", *small, "--answer", fifo))["error"])
            finally:
                stop.set()
                writer.join(timeout=10)
            answers = os.path.join(folder, "a")
            os.mkdir(answers)
            self.assertIn("Is a directory", run("grade", "--game", "breakout", "--answer", answers).stderr.decode())
            self.assertIn("Is a directory", run("grade", "--game", "breakout", "--trajectory", answers).stderr.decode())


class Messages(unittest.TestCase):
    """Items 5-7: failed writes, misleading messages, typos."""

    def test_failed_writes_exit_non_zero(self):
        with open("/dev/full", "w") as full:
            for args in (("grade", "--game", "breakout", "--episodes", "2", ANSWER), ("parse", ANSWER), ("games",),
                         ("replay", "--game", "seaquest", "--seed", "1", "--actions", "0,1")):
                result = run(*args, stdout=full)
                self.assertEqual(result.returncode, 1, args)
                self.assertIn("No space left on device", result.stderr.decode(), args)
        closed = subprocess.run(f"'{BINARY}' games >&-", shell=True, capture_output=True)
        self.assertEqual(closed.returncode, 1)
        self.assertIn("cannot write standard output", closed.stderr.decode())

    def test_episode_counts_are_read_as_python_int(self):
        self.assertEqual(reward(run("grade", "--game", "breakout", "--episodes", "010", ANSWER))["episodes"], 10)
        self.assertEqual(reward(run("grade", "--game", "breakout", "--episodes", " 1_2 ", ANSWER))["episodes"], 12)
        self.assertEqual(reward(run("grade", "--game", "breakout", "--episodes", "\uff13", ANSWER))["episodes"], 3)
        hexadecimal = run("grade", "--game", "breakout", "--episodes", "0x10", ANSWER)
        self.assertEqual(hexadecimal.returncode, 2)
        self.assertIn("invalid literal for int() with base 10: '0x10'", hexadecimal.stderr.decode())

    def test_commands_and_arguments_say_what_is_wrong(self):
        unknown = run("grde")
        self.assertEqual(unknown.returncode, 2)
        self.assertIn("unknown command 'grde' (did you mean 'grade'?)", unknown.stderr.decode())
        self.assertEqual(reward(run("grade", "--game", "breakout", "--episodes", "2", ANSWER))["parse_success"], 1.0)
        with tempfile.TemporaryDirectory() as folder:
            trajectory = os.path.join(folder, "t.json")
            with open(trajectory, "w") as f:
                json.dump({"steps": [{"messages": [{"role": "user", "content": "hi"}]}]}, f)
            result = run("grade", "--game", "breakout", "--episodes", "2", "--trajectory", trajectory)
            self.assertEqual(reward(result)["error"], "answer has no edits block")
            self.assertIn("no assistant message", result.stderr.decode())


if __name__ == "__main__":
    sys.exit(run_tests())
