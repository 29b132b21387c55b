# SPDX-License-Identifier: GPL-3.0-or-later
"""Write errors reported only by fsync(2), syncfs(2) or close(2) (issue 34, item 5): NFS and
quota-bound file systems accept a write and report its failure there. A batch's --out, --csv
and --rewards-dir, a merge's --out and a whole file such as grade's --out must then exit 1
naming the file, and a file replaced whole must stay as it was (the temporary file is not
renamed over it). The failure is injected by an LD_PRELOAD shim (tests/apps/deferred_errors.cpp)
on the one file named.

    python3 deferred_errors_test.py WEIGHTSPACE_BINARY SHIM EXAMPLES_DIR
"""
import os
import subprocess
import sys

from apps_support import FolderCase, run_tests

BINARY, SHIM, EXAMPLES = (os.path.abspath(path) for path in sys.argv[1:4])
del sys.argv[1:4]
ANSWER = os.path.join(EXAMPLES, "answers", "breakout.md")
BATCH = [ANSWER, "--game", "breakout,freeway", "--episodes", "2", "--no-timings", "--quiet"]
QUOTA = "Disk quota exceeded"


def run(*args, fail=None, suffix=None, pattern=None):
    environment = dict(os.environ)
    if fail is not None:
        # A sanitized binary wants its runtime first; the shim only wraps two calls.
        environment.update(LD_PRELOAD=SHIM, DEFERRED_ERROR_CALL=fail, DEFERRED_ERROR_PATH=pattern or "*" + suffix,
                           ASAN_OPTIONS="verify_asan_link_order=0")
    result = subprocess.run([BINARY, *args], capture_output=True, text=True, timeout=120, env=environment)
    assert result.returncode in (0, 1, 2), f"{args}: exit {result.returncode}: {result.stderr[-2000:]}"
    return result


class DeferredErrors(FolderCase):
    def assert_failed(self, result, path):
        self.assertEqual(result.returncode, 1, result.stderr)
        self.assertIn(f"cannot write {path}", result.stderr)  # a merge's: its temporary file beside it
        self.assertIn(QUOTA, result.stderr)

    def test_batch_out_and_csv(self):
        out, csv = self.path("out.jsonl"), self.path("out.csv")
        for call in ("fsync", "close"):
            for named, suffix in ((out, "/out.jsonl"), (csv, "/out.csv")):
                with self.subTest(call=call, file=suffix):
                    self.assert_failed(run("batch", *BATCH, "--out", out, "--csv", csv, fail=call, suffix=suffix),
                                       named)
        self.assertEqual(run("batch", *BATCH, "--out", out, "--csv", csv, fail="close", suffix="/other").returncode, 0)

    def test_merge_out_keeps_the_old_file(self):
        out = self.path("r.jsonl")
        self.assertEqual(run("batch", *BATCH, "--out", out, "--shard-index", "0", "--shard-count", "1").returncode, 0)
        merged = self.path("merged.jsonl")
        with open(merged, "w") as f:
            f.write("old")
        for call in ("fsync", "close"):
            with self.subTest(call=call):
                result = run("merge", "--quiet", "--out", merged, self.path("r.shard-0-of-1.jsonl"),
                             fail=call, suffix="/merged.jsonl.merging")
                self.assert_failed(result, merged)
                with open(merged) as f:
                    self.assertEqual(f.read(), "old")
                self.assertFalse(os.path.exists(merged + ".merging"))

    def test_a_whole_file_keeps_the_old_one(self):
        """grade --out replaces its file through a temporary one, synced before the rename."""
        out = self.path("reward.json")
        grade = ["grade", "--game", "breakout", "--episodes", "2", "--answer", ANSWER, "--out", out]
        self.assertEqual(run(*grade).returncode, 0)
        with open(out) as f:
            whole = f.read()
        with open(out, "w") as f:
            f.write("old")
        for call in ("fsync", "close"):
            with self.subTest(call=call):
                self.assert_failed(run(*grade, fail=call, pattern="*/reward.json.tmp.*"), out)
                with open(out) as f:
                    self.assertEqual(f.read(), "old")
                self.assertEqual(os.listdir(self.path("")), ["reward.json"])
        self.assertEqual(run(*grade, fail="fsync", pattern="*/other").returncode, 0)
        with open(out) as f:
            self.assertEqual(f.read(), whole)

    def test_rewards_dir_is_synced_once_and_checked(self):
        rewards = self.path("rewards")
        result = run("batch", *BATCH, "--out", self.path("out.jsonl"), "--rewards-dir", rewards, fail="syncfs",
                     pattern="*/rewards")
        self.assert_failed(result, rewards)
        result = run("batch", *BATCH, "--out", self.path("again.jsonl"), "--rewards-dir", rewards, fail="fsync",
                     pattern="*/rewards/*")
        self.assertEqual(result.returncode, 0, "a reward file is not synced on its own: " + result.stderr)
        self.assertEqual(len(os.listdir(rewards)), 2)


if __name__ == "__main__":
    sys.exit(run_tests())
