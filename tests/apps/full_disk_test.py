# SPDX-License-Identifier: GPL-3.0-or-later
"""Full disks and read-only places (issue 34, item 5). Each output is put on a small tmpfs that
fills up before the run starts or in its middle (a filler file leaves room for a few records),
or on a read-only mount. Every run must end with a clear error naming the file and exit 1,
never a crash or a hang; after the space is freed, `--resume` (batch, sweep) must finish with
the outputs byte for byte those of an uninterrupted run (`--no-timings`; the sweep record for
record, timings aside, as tests/apps/kill_campaign.py compares). Read-only outputs leave the
inputs and the old outputs as they were.

    python3 full_disk_test.py WEIGHTSPACE_BINARY EXAMPLES_DIR

Needs `mount -t tmpfs` (root): where mounting is not permitted the test prints why and exits 77,
which CTest reports as skipped (SKIP_RETURN_CODE). Every mount is unmounted in a finally
block; every run has a timeout.
"""
import contextlib
import filecmp
import json
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import unittest

from apps_support import run_tests

BINARY, EXAMPLES = (os.path.abspath(path) for path in sys.argv[1:3])
del sys.argv[1:3]
ANSWERS = os.path.join(EXAMPLES, "answers")
GAMES = ["breakout", "seaquest", "freeway"]
RECORDS = 45  # about 30 KB of JSONL: a 8 KiB room runs out after a few records
TIMEOUT = 120
SKIP = 77
NO_SPACE = "No space left on device"
READ_ONLY = "Read-only file system"


def run(*args, cwd=None):
    result = subprocess.run([BINARY, *args], capture_output=True, text=True, timeout=TIMEOUT, cwd=cwd)
    assert result.returncode in (0, 1, 2), f"{args}: exit {result.returncode} (a crash): {result.stderr[-2000:]}"
    return result


def mount(folder, kilobytes, read_only=False):
    options = f"size={kilobytes}k" + (",ro" if read_only else "")
    return subprocess.run(["mount", "-t", "tmpfs", "-o", options, "tmpfs", folder], capture_output=True, text=True)


def read(path):
    with open(path, "rb") as f:
        return f.read()


def write_manifest(path, games=True):
    """RECORDS one-episode records of distinct weights (a unique last edit), games in turn (or
    without game and episodes: the sweep config's matrix)."""
    with open(path, "w") as manifest:
        for index in range(RECORDS):
            game = GAMES[index % len(GAMES)]
            with open(os.path.join(ANSWERS, game + ".md")) as f:
                text = f.read()
            cut = text.index("```", text.rindex("```edits\n") + 9)
            answer = f"{text[:cut]}b3[{index % 6}] = {index + 1}e-6\n{text[cut:]}"
            record = {"id": index, "answer": answer, "game": game, "episodes": 1} if games else {"answer": answer}
            manifest.write(json.dumps(record) + "\n")


class Disk(unittest.TestCase):
    """A tmpfs per test, unmounted whatever happens; the reference outputs on the real disk."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory(prefix="full-disk-")
        self.dir = self.tmp.name
        self.small = os.path.join(self.dir, "small")
        os.mkdir(self.small)
        self.manifest = os.path.join(self.dir, "records.jsonl")
        write_manifest(self.manifest)
        self.mounted = False

    def tearDown(self):
        if self.mounted:
            subprocess.run(["umount", self.small], check=True, timeout=TIMEOUT)
        self.tmp.cleanup()

    def mount(self, kilobytes, read_only=False):
        result = mount(self.small, kilobytes, read_only)
        self.assertEqual(result.returncode, 0, result.stderr)
        self.mounted = True

    def remount(self, options):
        subprocess.run(["mount", "-o", "remount," + options, self.small], check=True, timeout=TIMEOUT)

    def fill(self, room):
        """A filler file that leaves about `room` bytes free (0: none)."""
        filler = os.path.join(self.small, "filler")
        stats = os.statvfs(self.small)
        size = max(stats.f_bavail * stats.f_frsize - room, 0) + (1 << 16 if room == 0 else 0)
        descriptor = os.open(filler, os.O_WRONLY | os.O_CREAT)
        try:
            while size > 0:
                size -= os.write(descriptor, b"\0" * min(size, 1 << 16))
        except OSError:
            pass  # full: what room == 0 asks for
        finally:
            os.close(descriptor)
        return filler

    def batch(self, *outputs):
        return run("batch", self.manifest, "--no-timings", "--quiet", "--threads", "2", *outputs)

    def reference(self):
        """The uninterrupted run's JSONL, CSV and reward files, on the real disk."""
        out, csv, rewards = (os.path.join(self.dir, name) for name in ("ref.jsonl", "ref.csv", "ref-rewards"))
        result = self.batch("--out", out, "--csv", csv, "--rewards-dir", rewards)
        self.assertEqual(result.returncode, 0, result.stderr)
        return out, csv, rewards

    def assert_failed(self, result, path, reason):
        print(f"\n  {result.stderr.strip()}", file=sys.stderr)
        self.assertEqual(result.returncode, 1, result.stderr)
        self.assertIn(path, result.stderr)
        self.assertIn(reason, result.stderr)

    def assert_same_folder(self, a, b):
        comparison = filecmp.dircmp(a, b)
        self.assertEqual((comparison.left_only, comparison.right_only), ([], []))
        for name in os.listdir(a):
            self.assertEqual(read(os.path.join(a, name)), read(os.path.join(b, name)), name)


class BatchOnFullDisk(Disk):
    """batch --out, --csv and --rewards-dir on a disk full before the start or mid-run."""

    def outputs(self, where):
        """--out, --csv and --rewards-dir: the one named by `where` on the small disk."""
        paths = {"out": os.path.join(self.dir, "out.jsonl"), "csv": os.path.join(self.dir, "out.csv"),
                 "rewards": os.path.join(self.dir, "rewards")}
        paths[where] = os.path.join(self.small, os.path.basename(paths[where]))
        return paths

    def full_then_resume(self, where, room):
        ref_out, ref_csv, ref_rewards = self.reference()
        self.mount(256)
        filler = self.fill(room)
        paths = self.outputs(where)
        arguments = ["--out", paths["out"], "--csv", paths["csv"], "--rewards-dir", paths["rewards"], "--resume"]
        failed = self.batch(*arguments)
        self.assert_failed(failed, paths[where], NO_SPACE)
        if where == "out" and os.path.exists(paths["out"]):
            lines = read(paths["out"]).split(b"\n")
            self.assertEqual(lines[:-1], read(ref_out).split(b"\n")[:len(lines) - 1])  # whole records only
        os.remove(filler)
        resumed = self.batch(*arguments)
        self.assertEqual(resumed.returncode, 0, resumed.stderr)
        self.assertEqual(read(paths["out"]), read(ref_out))
        self.assertEqual(read(paths["csv"]), read(ref_csv))
        self.assert_same_folder(paths["rewards"], ref_rewards)

    def test_out_full_before_the_start(self):
        self.full_then_resume("out", 0)

    def test_out_full_mid_run(self):
        self.full_then_resume("out", 8 << 10)

    def test_csv_full_before_the_start(self):
        self.full_then_resume("csv", 0)

    def test_csv_full_mid_run(self):
        self.full_then_resume("csv", 4 << 10)  # the whole table is 7.4 KB

    def test_rewards_dir_full_before_the_start(self):
        self.full_then_resume("rewards", 0)

    def test_rewards_dir_full_mid_run(self):
        self.full_then_resume("rewards", 12 << 10)


def sweep_records(database):
    """The newest finished run's records, timings aside (as kill_campaign.py reads them)."""
    with contextlib.closing(sqlite3.connect(database)) as connection:  # closed: the mount must unmount
        run_id = connection.execute("SELECT max(id) FROM runs WHERE status = 'finished'").fetchone()[0]
        columns = ("seq, answer_set, id, input, game, source, episodes, weights_sha256, input_sha256, reward, "
                   "normalized_score, error_kind, error_line, error_column, cached, steps")
        return connection.execute(f"SELECT {columns} FROM records WHERE run_id = ? ORDER BY seq", (run_id,)).fetchall()


class SweepOnFullDisk(Disk):
    """The sweep store (SQLite in WAL mode) and report -o on a full disk."""

    def setUp(self):
        super().setUp()
        # 540 records: three transactions of at most 256 (apps/sweep/store_sink.cpp).
        manifest = os.path.join(self.dir, "answers.jsonl")
        write_manifest(manifest, games=False)
        self.config = os.path.join(self.dir, "sweep.toml")
        with open(self.config, "w") as f:
            f.write(f'[[answers]]\nname = "records"\npaths = ["{manifest}"]\n\n'
                    '[grade]\ngames = ["breakout", "seaquest", "freeway"]\nepisodes = [1, 2, 3, 4]\nthreads = 2\n')

    def sweep(self, database, *more):
        return run("sweep", self.config, "--db", database, "--quiet", "--no-report", *more)

    def reference(self):
        database = os.path.join(self.dir, "ref.sqlite")
        result = self.sweep(database)
        self.assertEqual(result.returncode, 0, result.stderr)
        return sweep_records(database)

    def full_then_resume(self, room):
        expected = self.reference()
        self.mount(4096)
        filler = self.fill(room)
        database = os.path.join(self.small, "store.sqlite")
        failed = self.sweep(database, "--resume")
        self.assert_failed(failed, database, "the disk or the database is full")
        stored = 0
        with contextlib.closing(sqlite3.connect(database)) as connection:
            if connection.execute("SELECT COUNT(*) FROM sqlite_schema WHERE name = 'records'").fetchone()[0]:
                stored = connection.execute("SELECT COUNT(*) FROM records").fetchone()[0]
        self.assertTrue(0 < stored < len(expected) if room else stored == 0, stored)
        os.remove(filler)
        resumed = self.sweep(database, "--resume")
        self.assertEqual(resumed.returncode, 0, resumed.stderr)
        self.assertEqual(sweep_records(database), expected)

    def test_store_full_before_the_start(self):
        self.full_then_resume(0)

    def test_store_full_mid_run(self):
        # Room in the WAL for the first transaction (about 250 records), not for the second.
        self.full_then_resume(300 << 10)

    def test_report_out_on_a_full_disk(self):
        database = os.path.join(self.dir, "ref.sqlite")
        self.assertEqual(self.sweep(database).returncode, 0)
        self.mount(2048)  # the report is about 300 KB
        out = os.path.join(self.small, "report.html")
        with open(out, "w") as f:
            f.write("old report")
        self.fill(4 << 10)
        failed = run("report", "--db", database, "-o", out)
        self.assert_failed(failed, out, NO_SPACE)
        self.assertEqual(read(out), b"old report")
        self.assertEqual(sorted(os.listdir(self.small)), ["filler", "report.html"])  # no temporary file left
        os.remove(os.path.join(self.small, "filler"))
        self.assertEqual(run("report", "--db", database, "-o", out).returncode, 0)
        self.assertIn(b"<html", read(out))


class ReadOnly(Disk):
    """Outputs in a read-only folder, and read-only old outputs: refused naming the file, exit 1,
    nothing changed."""

    def setUp(self):
        super().setUp()
        self.mount(1024)

    def snapshot(self):
        return {name: read(os.path.join(root, name)) for root, _, names in os.walk(self.small) for name in names}

    def read_only(self):
        self.remount("ro")
        return self.snapshot()

    def test_batch_outputs_in_a_read_only_folder(self):
        old = os.path.join(self.small, "old.jsonl")
        self.assertEqual(self.batch("--out", old).returncode, 0)
        self.assertEqual(self.batch("--out", os.path.join(self.small, "old.csv.jsonl"),
                                    "--csv", os.path.join(self.small, "old.csv")).returncode, 0)
        before = self.read_only()
        manifest = read(self.manifest)
        for outputs, named in ((["--out", old], old), (["--out", old, "--resume"], old),
                               (["--out", os.path.join(self.small, "new.jsonl")], "new.jsonl"),
                               (["--csv", os.path.join(self.small, "old.csv")], "old.csv"),
                               (["--rewards-dir", os.path.join(self.small, "rewards")], "rewards")):
            with self.subTest(outputs=outputs):
                self.assert_failed(self.batch(*outputs), named, READ_ONLY)
        self.assertEqual(self.snapshot(), before)
        self.assertEqual(read(self.manifest), manifest)

    def test_sweep_store_and_report_on_a_read_only_disk(self):
        database = os.path.join(self.small, "store.sqlite")
        config = os.path.join(self.dir, "sweep.toml")
        with open(config, "w") as f:
            f.write(f'[[answers]]\nname = "records"\npaths = ["{self.manifest}"]\n\n'
                    '[grade]\ngames = ["breakout"]\nepisodes = [1]\nthreads = 2\n')
        self.assertEqual(run("sweep", config, "--db", database, "--quiet", "--no-report").returncode, 0)
        with open(os.path.join(self.small, "report.html"), "w") as f:
            f.write("old report")
        before = self.read_only()
        for args, named in ((["sweep", config, "--db", database, "--quiet", "--no-report"], database),
                            (["sweep", config, "--db", database, "--quiet", "--no-report", "--resume"], database),
                            (["runs", "--db", database, "--pin", "1"], database),
                            (["report", "--db", database, "-o", os.path.join(self.small, "report.html")],
                             "report.html")):
            with self.subTest(args=args[0]):
                result = run(*args)
                self.assertEqual(result.returncode, 1, result.stderr)
                self.assertIn(named, result.stderr)
                self.assertTrue(READ_ONLY in result.stderr or "read-only" in result.stderr, result.stderr)
        self.assertEqual(self.snapshot(), before)

    def test_a_store_on_a_read_only_disk_is_read(self):
        # SQLite's WAL mode creates DATABASE-shm even to read: without the immutable open
        # (apps/sweep/sqlite.cpp) runs, report and compare failed with "No such file or directory".
        database = os.path.join(self.small, "store.sqlite")
        with open(os.path.join(self.dir, "sweep.toml"), "w") as f:
            f.write(f'[[answers]]\nname = "records"\npaths = ["{self.manifest}"]\n\n'
                    '[grade]\ngames = ["breakout"]\nepisodes = [1]\nthreads = 2\n')
        for _ in range(2):
            self.assertEqual(run("sweep", "sweep.toml", "--db", database, "--quiet", "--no-report",
                                 cwd=self.dir).returncode, 0)
        before = self.read_only()
        runs = run("runs", "--db", database, "--json")
        self.assertEqual(runs.returncode, 0, runs.stderr)
        self.assertEqual(len(json.loads(runs.stdout)), 2)
        report = run("report", "--db", database, "-o", os.path.join(self.dir, "report.html"))
        self.assertEqual(report.returncode, 0, report.stderr)
        compare = run("compare", "--db", database, "previous", "latest")
        self.assertEqual(compare.returncode, 0, compare.stderr)
        self.assertEqual(self.snapshot(), before)


def mount_permitted():
    """None when a tmpfs can be mounted here, else the reason."""
    folder = tempfile.mkdtemp(prefix="full-disk-probe-")
    try:
        result = mount(folder, 16)
        if result.returncode != 0:
            return result.stderr.strip() or f"mount exited {result.returncode}"
        subprocess.run(["umount", folder], check=True, timeout=TIMEOUT)
        return None
    except FileNotFoundError as error:
        return str(error)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    reason = mount_permitted()
    if reason is not None:
        print(f"SKIP: cannot mount a tmpfs here ({reason}); the full-disk cases need it", file=sys.stderr)
        sys.exit(SKIP)
    sys.exit(run_tests())
