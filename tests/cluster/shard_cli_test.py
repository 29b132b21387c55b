# SPDX-License-Identifier: GPL-3.0-or-later
"""Sharded `weightspace batch` and `weightspace merge` end to end: the merge of any number of
shards is byte for byte the one-process output (with and without timings, with a small cache
that evicts, with its CSV and reward files); shards come from the flags or the schedulers'
environment; a shard opens only its own records' files; merge refuses a missing, duplicated,
foreign, unfinished or edited shard, naming the shard to rerun; a killed shard rerun alone
with --resume completes the merge.

usage: python3 shard_cli_test.py WEIGHTSPACE_BINARY SOURCE_DIR
"""
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import unittest

BINARY, SOURCE = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
del sys.argv[1:3]
CLEAN_ENV = {k: v for k, v in os.environ.items()
             if not k.startswith(("SLURM_", "JOB_COMPLETION_INDEX", "WEIGHTSPACE_SHARD"))}


def run(*args, env=None, check=True, timeout=300):
    environment = dict(CLEAN_ENV, **(env or {}))
    result = subprocess.run([BINARY, *args], capture_output=True, text=True, env=environment, timeout=timeout)
    if check and result.returncode != 0:
        raise AssertionError(f"{args} exited {result.returncode}: {result.stderr}")
    return result


def read(path, mode="r"):
    with open(path, mode) as f:
        return f.read()


def without_seconds(text):
    return re.sub(r', "seconds": [0-9.]+', "", text)


class Shards(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.dir = cls.tmp.name
        # 60 hand-written-like answers over the five games and both sources, bad answers and
        # duplicates (bench/batch_set.py), a manifest of inline answers with game lists, and a
        # folder graded on two games.
        subprocess.run([sys.executable, os.path.join(SOURCE, "bench", "batch_set.py"), os.path.join(cls.dir, "set"),
                        "60", "3"], check=True)
        answer = "```edits\nW3[0, 1] = 2.5\n```\n"
        extra = [{"id": i, "answer": answer if i % 3 else "no block", "game": ["freeway", "asterix"][: 1 + i % 2]}
                 for i in range(12)]
        extra.append({"id": "missing", "answer_path": "nowhere.md", "game": "breakout"})
        with open(os.path.join(cls.dir, "extra.jsonl"), "w", encoding="utf-8") as f:
            f.writelines(json.dumps(record) + "\n" for record in extra)
        os.makedirs(os.path.join(cls.dir, "folder", "sub"))
        for name in ("a.md", "sub/b.md", "sub/c.txt"):
            with open(os.path.join(cls.dir, "folder", name), "w", encoding="utf-8") as f:
                f.write(answer)
        cls.inputs = [os.path.join(cls.dir, "set", "manifest.jsonl"), os.path.join(cls.dir, "extra.jsonl"),
                      os.path.join(cls.dir, "folder")]
        cls.common = [*cls.inputs, "--game", "breakout,seaquest", "--episodes", "2", "--quiet"]

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def setUp(self):
        self.work = tempfile.mkdtemp(dir=self.dir)

    def path(self, name):
        return os.path.join(self.work, name)

    def one_process(self, *options):
        out = self.path("one.jsonl")
        run("batch", *self.common, *options, "--out", out, "--csv", self.path("one.csv"),
            "--rewards-dir", self.path("one-rewards"))
        return out

    def shards(self, count, *options, out="r.jsonl"):
        for index in range(count):
            run("batch", *self.common, *options, "--out", self.path(out), "--shard-index", str(index),
                "--shard-count", str(count), "--threads", str(1 + index % 2))
        width = len(str(count - 1))
        stem, extension = os.path.splitext(out)
        return [self.path(f"{stem}.shard-{index:0{width}d}-of-{count}{extension}") for index in range(count)]

    def merge(self, shards, *options, check=True):
        return run("merge", "--out", self.path("merged.jsonl"), *options, *shards, check=check)

    def test_merge_is_the_one_process_output_byte_for_byte(self):
        one = self.one_process("--no-timings")
        for count in (1, 3, 4, 7):
            with self.subTest(count=count):
                shards = self.shards(count, "--no-timings", out=f"r{count}.jsonl")
                self.merge(shards, "--csv", self.path("merged.csv"), "--rewards-dir", self.path(f"rewards{count}"))
                self.assertEqual(read(self.path("merged.jsonl"), "rb"), read(one, "rb"))
                self.assertEqual(read(self.path("merged.csv"), "rb"), read(self.path("one.csv"), "rb"))
                names = sorted(os.listdir(self.path("one-rewards")))
                self.assertEqual(sorted(os.listdir(self.path(f"rewards{count}"))), names)
                for name in names:
                    self.assertEqual(read(self.path(f"rewards{count}/{name}"), "rb"),
                                     read(self.path(f"one-rewards/{name}"), "rb"))
        lines = read(one).splitlines()
        self.assertGreater(len(lines), 90)
        self.assertTrue(any('"cached": true' in line for line in lines), "the set has duplicates")

    def test_merge_with_timings_differs_only_in_seconds(self):
        one = self.one_process()
        shards = self.shards(3)
        self.merge(shards)
        merged = read(self.path("merged.jsonl"))
        self.assertEqual(without_seconds(merged), without_seconds(read(one)))
        self.assertIn('"steps": ', merged)
        self.merge(shards, "--no-timings")
        one_whole = self.path("one-whole.jsonl")
        run("batch", *self.common, "--no-timings", "--out", one_whole)
        self.assertEqual(read(self.path("merged.jsonl"), "rb"), read(one_whole, "rb"))

    def test_a_small_cache_is_replayed_as_one_process_evicts(self):
        for cache in ("0", "1", "3"):
            with self.subTest(cache=cache):
                one = self.one_process("--no-timings", "--cache", cache)
                self.merge(self.shards(4, "--no-timings", "--cache", cache, out=f"c{cache}.jsonl"))
                self.assertEqual(read(self.path("merged.jsonl"), "rb"), read(one, "rb"))

    def dry_run(self, *options, env=None):
        lines = [json.loads(line) for line in run("batch", *self.common, *options, "--dry-run", env=env).stdout.splitlines()]
        return lines[0], lines[1:-1], lines[-1]["summary"]

    def test_dry_run_lists_a_partition_of_the_records(self):
        _, everything, summary = self.dry_run()
        total = summary["total_records"]
        self.assertEqual([r["position"] for r in everything], list(range(total)))
        seen = []
        work = []
        for index in range(5):
            header, records, summary = self.dry_run(env={"JOB_COMPLETION_INDEX": str(index),
                                                         "WEIGHTSPACE_SHARD_COUNT": "5"})
            self.assertEqual(header["shard"], {"index": index, "count": 5,
                                               "from": f"JOB_COMPLETION_INDEX={index}, WEIGHTSPACE_SHARD_COUNT=5"})
            self.assertEqual(summary["records"], len(records))
            self.assertEqual(summary["total_records"], total)
            self.assertEqual(summary["work"], sum(r["work"] for r in records))
            seen += [r["position"] for r in records]
            work.append(summary["work"])
            for record in records:
                self.assertEqual(record, everything[record["position"]] | {"position": record["position"]})
        self.assertEqual(sorted(seen), list(range(total)))
        largest = max(r["work"] for r in everything)
        self.assertLessEqual(max(work) - min(work), largest, "dealt within one record of even")
        self.assertEqual(max(work), summary["max_shard_work"])

    def test_the_environment_names_the_shard(self):
        slurm = {"SLURM_ARRAY_TASK_ID": "2", "SLURM_ARRAY_TASK_COUNT": "4", "SLURM_ARRAY_TASK_MIN": "0",
                 "SLURM_ARRAY_TASK_MAX": "3", "SLURM_ARRAY_TASK_STEP": "1"}
        run("batch", *self.common, "--out", self.path("env.jsonl"), env=slurm)
        self.assertEqual(sorted(os.listdir(self.work)), ["env.shard-2-of-4.jsonl", "env.shard-2-of-4.jsonl.shard.json"])
        run("batch", *self.common, "--out", self.path("plain.jsonl"), "--no-shard", env=slurm)
        self.assertTrue(os.path.exists(self.path("plain.jsonl")))
        rerun = dict(slurm, SLURM_ARRAY_TASK_COUNT="1", SLURM_ARRAY_TASK_MIN="2", SLURM_ARRAY_TASK_MAX="2")
        result = run("batch", *self.common, "--out", self.path("x.jsonl"), env=rerun, check=False)
        self.assertEqual(result.returncode, 2)
        self.assertIn("SLURM_ARRAY_TASK_MIN=2, not 0", result.stderr)
        header, _, _ = self.dry_run(env=dict(rerun, WEIGHTSPACE_SHARD_COUNT="4"))
        self.assertEqual((header["shard"]["index"], header["shard"]["count"]), (2, 4))
        for env, message in (({"SLURM_ARRAY_TASK_ID": "x1", "SLURM_ARRAY_TASK_COUNT": "4"}, 'SLURM_ARRAY_TASK_ID="x1"'),
                             ({"JOB_COMPLETION_INDEX": "4", "WEIGHTSPACE_SHARD_COUNT": "4"}, "must be below"),
                             ({"JOB_COMPLETION_INDEX": "1"}, "no shard count")):
            result = run("batch", *self.common, "--out", self.path("x.jsonl"), env=env, check=False)
            self.assertEqual(result.returncode, 2, env)
            self.assertIn(message, result.stderr)
        result = run("batch", *self.common, "--shard-index", "1", "--shard-count", "3", "--out", self.path("f.jsonl"),
                     env=slurm)
        self.assertIn("--shard-index 1 overrides SLURM_ARRAY_TASK_ID=2", result.stderr)
        self.assertTrue(os.path.exists(self.path("f.shard-1-of-3.jsonl")))

    def test_a_shard_refuses_what_it_cannot_do(self):
        shard = ["--shard-index", "0", "--shard-count", "2"]
        for options, message in (([], "give --out FILE"),
                                 (["--out", self.path("o.jsonl"), "--csv", self.path("o.csv")], "written by `weightspace merge`"),
                                 (["--out", self.path("o.jsonl"), "-"], "standard input reaches one process only")):
            result = run("batch", *self.common, *shard, *options, check=False)
            self.assertEqual(result.returncode, 2, options)
            self.assertIn(message, result.stderr)

    def test_a_shard_opens_only_its_own_files(self):
        # A FIFO blocks whoever opens it: the shards that do not own it must never touch it.
        fifo = self.path("blocking.md")
        os.mkfifo(fifo)
        manifest = self.path("fifo.jsonl")
        with open(manifest, "w", encoding="utf-8") as f:
            for i in range(8):
                f.write(json.dumps({"id": i, "answer_path": "blocking.md" if i == 5 else os.path.join(
                    self.dir, "folder", "a.md"), "game": "breakout"}) + "\n")
        owners = []
        for index in range(3):
            records = run("batch", manifest, "--episodes", "1", "--shard-index", str(index), "--shard-count", "3",
                          "--dry-run").stdout.splitlines()[1:-1]
            owners += [index] if any(json.loads(r)["id"] == 5 for r in records) else []
        self.assertEqual(len(owners), 1)
        for index in set(range(3)) - set(owners):
            run("batch", manifest, "--episodes", "1", "--quiet", "--shard-index", str(index), "--shard-count", "3",
                "--out", self.path("fifo-out.jsonl"), timeout=120)

    def test_merge_refuses_a_mixture_and_names_the_shard(self):
        shards = self.shards(4, "--no-timings")

        def refused(shard_list, *fragments):
            result = self.merge(shard_list, check=False)
            self.assertEqual(result.returncode, 1, result.stderr)
            for fragment in fragments:
                self.assertIn(fragment, result.stderr)
            self.assertFalse(os.path.exists(self.path("merged.jsonl")))

        refused(shards[:2] + shards[3:], "shard 2 of 4 is missing", "r.shard-2-of-4.jsonl")
        refused(shards + [shards[1]], "are both shard 1 of 4")
        run("batch", *self.common, "--no-timings", "--out", self.path("wide.jsonl"), "--shard-index", "0",
            "--shard-count", "13")
        refused([self.path("wide.shard-00-of-13.jsonl")], "shard 10 of 13 is missing", "; and 2 more")
        copy = self.path("copy.jsonl")
        shutil.copy(shards[1], copy)
        shutil.copy(shards[1] + ".shard.json", copy + ".shard.json")
        refused(shards + [copy], "are both shard 1 of 4")
        refused([self.path("nothing.jsonl")], "nothing.jsonl.shard.json", "not the output of a shard")
        result = self.merge(shards + [shards[0] + ".shard.json"], check=False)
        self.assertEqual(result.returncode, 2)
        self.assertIn("is a shard's description: give the shard's output, " + shards[0], result.stderr)
        # Other options, other inputs.
        other = self.shards(4, "--no-timings", "--cache", "7", out="other.jsonl")
        refused(shards[:3] + other[3:], "other options (cache: 4096 vs 7)")
        changed = self.path("changed.jsonl")
        with open(changed, "w", encoding="utf-8") as f:
            f.write(read(self.inputs[1]).replace('"id": 7', '"id": 77'))
        run("batch", self.inputs[0], changed, self.inputs[2], *self.common[3:], "--no-timings", "--out",
            self.path("mixed.jsonl"), "--shard-index", "3", "--shard-count", "4")
        # Same options but the inputs as given differ: the options say so first.
        refused(shards[:3] + [self.path("mixed.shard-3-of-4.jsonl")], "other options (inputs:")
        # A shard description edited to claim the run's inputs is caught by its fingerprint.
        meta = json.loads(read(self.path("mixed.shard-3-of-4.jsonl.shard.json")))
        meta["options"] = json.loads(read(shards[0] + ".shard.json"))["options"]
        with open(self.path("mixed.shard-3-of-4.jsonl.shard.json"), "w", encoding="utf-8") as f:
            json.dump(meta, f)
        refused(shards[:3] + [self.path("mixed.shard-3-of-4.jsonl")],
                "enumerated different records", "shards 3: inputs")
        # An edited line, a lost line.
        edited = self.path("edited.shard-1-of-4.jsonl")
        shutil.copy(shards[1] + ".shard.json", edited + ".shard.json")
        with open(edited, "w", encoding="utf-8") as f:
            f.write(read(shards[1]).replace('"cached": ', '"cached":', 1))
        refused([shards[0], edited, shards[2], shards[3]], "edited.shard-1-of-4.jsonl line 1 is not as this shard wrote it",
                "--shard-index 1 --shard-count 4 --resume")
        with open(edited, "w", encoding="utf-8") as f:
            f.write("".join(read(shards[1]).splitlines(keepends=True)[:-1]))
        refused([shards[0], edited, shards[2], shards[3]], "edited.shard-1-of-4.jsonl ends after")
        # Another version.
        meta = json.loads(read(shards[2] + ".shard.json"))
        meta["weightspace_version"] = "0.0.1"
        with open(shards[2] + ".shard.json", "w", encoding="utf-8") as f:
            json.dump(meta, f)
        refused(shards, "was written by weightspace 0.0.1")

    def test_a_killed_shard_is_rerun_alone_with_resume(self):
        # Long freeway grades (distinct episode counts: no cache hits), so that a shard is still
        # grading well after its first lines: about 1 s a shard here.
        answer = os.path.join(SOURCE, "examples", "answers", "freeway.md")
        manifest = self.path("slow.jsonl")
        with open(manifest, "w", encoding="utf-8") as f:
            for i in range(60):
                f.write(json.dumps({"id": i, "answer_path": answer, "game": "freeway", "episodes": 120 + i}) + "\n")
        one = self.path("one-slow.jsonl")
        slow = [manifest, "--quiet", "--no-timings", "--threads", "1"]
        for index in (0, 2):
            run("batch", *slow, "--out", self.path("k.jsonl"), "--shard-index", str(index), "--shard-count", "3")
        out = self.path("k.shard-1-of-3.jsonl")
        process = subprocess.Popen([BINARY, "batch", *slow, "--out", self.path("k.jsonl"), "--shard-index", "1",
                                    "--shard-count", "3"], env=CLEAN_ENV, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and (not os.path.exists(out) or read(out).count("\n") < 3):
            time.sleep(0.01)
        process.send_signal(signal.SIGKILL)
        process.wait()
        meta = json.loads(read(out + ".shard.json"))
        self.assertFalse(meta["complete"], "the shard finished before it could be killed: give it more work")
        shards = [self.path(f"k.shard-{index}-of-3.jsonl") for index in range(3)]
        result = self.merge(shards, check=False)
        self.assertEqual(result.returncode, 1)
        self.assertIn("shard 1 of 3 (" + out + ") did not finish", result.stderr)
        self.assertIn("--shard-index 1 --shard-count 3 --resume", result.stderr)
        run("batch", *slow, "--out", self.path("k.jsonl"), "--shard-index", "1", "--shard-count", "3", "--resume")
        self.merge(shards)
        run("batch", *slow, "--out", one)
        self.assertEqual(read(self.path("merged.jsonl"), "rb"), read(one, "rb"))


if __name__ == "__main__":
    unittest.main()
