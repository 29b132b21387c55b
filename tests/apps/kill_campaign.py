# SPDX-License-Identifier: GPL-3.0-or-later
"""kill -9 anywhere (issue 34, item 4): each stateful command is killed at random points and
resumed; every finished result must be byte for byte an uninterrupted run's (timings aside).

    python3 kill_campaign.py WEIGHTSPACE_BINARY EXAMPLES_DIR [--points N] [--seed S] [--only NAME]

For each of `batch --resume`, `sweep --resume`, a sharded batch + `merge` and `grade --out`,
N times: a run is started, SIGKILLed after a random delay within the uninterrupted run's
time, its leftovers checked (a batch output holds only whole records, each the uninterrupted
run's line at its place, but perhaps a torn last one; `grade --out` leaves the old file or the
new one, never a part), then resumed (or rerun) to the end and compared with the uninterrupted
run. Every run has a timeout. ctest runs a short variant (`--points 3`, label `campaign`); the
full one (`--points 50`) is in docs/compatibility.md with its figures. Exit 1 on a defect.
"""
import argparse
import json
import os
import random
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time

parser = argparse.ArgumentParser()
parser.add_argument("binary")
parser.add_argument("examples")
parser.add_argument("--points", type=int, default=3)
parser.add_argument("--seed", type=int, default=34)
parser.add_argument("--only", choices=["batch", "sweep", "shards", "grade"])
OPTIONS = parser.parse_args()
if not 1 <= OPTIONS.points <= 1000:
    sys.exit("--points must be 1..1000")
BINARY = OPTIONS.binary
ANSWERS = os.path.join(OPTIONS.examples, "answers")
GAMES = "breakout,seaquest,freeway"
COMMON = [os.path.join(ANSWERS, name) for name in sorted(os.listdir(ANSWERS)) if name.endswith(".md")]
BATCH = ["--game", GAMES, "--episodes", "40", "--threads", "2", "--no-timings", "--quiet"]
TIMEOUT = 300
rng = random.Random(OPTIONS.seed)
defects = []


def run(args, cwd=None, check=True):
    result = subprocess.run([BINARY, *args], capture_output=True, cwd=cwd, timeout=TIMEOUT)
    if check and result.returncode != 0:
        raise AssertionError(f"{args}: exit {result.returncode}: {result.stderr[-1000:]!r}")
    return result


def timed(args, cwd=None):
    start = time.monotonic()
    run(args, cwd=cwd)
    return time.monotonic() - start


def killed(args, delay, cwd=None):
    """Starts the command and SIGKILLs it after `delay` seconds (unless it finished first)."""
    process = subprocess.Popen([BINARY, *args], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=cwd)
    try:
        process.wait(timeout=delay)
        return False
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(timeout=TIMEOUT)
        return True


def read(path, mode="rb"):
    with open(path, mode) as f:
        return f.read()


def defect(name, point, text):
    defects.append(f"{name} point {point}: {text}")
    print(f"DEFECT {name} point {point}: {text}", file=sys.stderr)


def check_prefix(name, point, written, reference):
    """Whole lines, each the reference's line at its place, then perhaps one torn line."""
    lines = written.split(b"\n")
    whole, torn = lines[:-1], lines[-1]
    expected = reference.split(b"\n")
    if whole != expected[:len(whole)]:
        defect(name, point, "a whole line differs from the uninterrupted run's (duplicated or out of place)")
    if torn and not expected[len(whole)].startswith(torn):
        defect(name, point, "the torn last line is not the start of the uninterrupted run's line")


def campaign(name, body):
    if OPTIONS.only not in (None, name):
        return
    start = time.monotonic()
    kills = body()
    print(f"{name}: {OPTIONS.points} points ({kills} killed mid-run), {time.monotonic() - start:.1f} s",
          file=sys.stderr)


def batch_campaign(folder):
    reference = os.path.join(folder, "reference.jsonl")
    seconds = timed(["batch", *COMMON, *BATCH, "--out", reference])
    expected = read(reference)
    out = os.path.join(folder, "out.jsonl")
    kills = 0
    for point in range(OPTIONS.points):
        if os.path.exists(out):
            os.remove(out)
        kills += killed(["batch", *COMMON, *BATCH, "--out", out, "--resume"], rng.uniform(0, seconds))
        check_prefix("batch", point, read(out) if os.path.exists(out) else b"", expected)
        run(["batch", *COMMON, *BATCH, "--out", out, "--resume"])
        if read(out) != expected:
            defect("batch", point, "the resumed output differs from the uninterrupted run's")
    return kills


def sweep_records(database):
    """The newest finished run's records, timings aside."""
    with sqlite3.connect(database) as connection:
        run_id = connection.execute("SELECT max(id) FROM runs WHERE status = 'finished'").fetchone()[0]
        if run_id is None:
            return None
        columns = ("seq, answer_set, id, input, game, source, episodes, weights_sha256, input_sha256, reward, "
                   "normalized_score, error_kind, error_line, error_column, cached, steps")
        return connection.execute(f"SELECT {columns} FROM records WHERE run_id = ? ORDER BY seq", (run_id,)).fetchall()


def sweep_campaign(folder):
    config = os.path.join(folder, "campaign.toml")
    with open(config, "w") as f:
        f.write(f'[[answers]]\nname = "examples"\npaths = ["{ANSWERS}"]\n\n'
                f'[grade]\ngames = {json.dumps(GAMES.split(","))}\nepisodes = [40]\nthreads = 2\n')
    sweep = ["sweep", "campaign.toml", "--quiet", "--no-report"]
    seconds = timed([*sweep, "--db", "reference.sqlite"], cwd=folder)
    expected = sweep_records(os.path.join(folder, "reference.sqlite"))
    kills = 0
    for point in range(OPTIONS.points):
        database = os.path.join(folder, f"point-{point}.sqlite")
        kills += killed([*sweep, "--db", database, "--resume"], rng.uniform(0, seconds), cwd=folder)
        run([*sweep, "--db", database, "--resume"], cwd=folder)
        if sweep_records(database) != expected:
            defect("sweep", point, "the resumed run's records differ from the uninterrupted run's")
        for leftover in (database, database + "-wal", database + "-shm", database + "-lock"):
            if os.path.exists(leftover):
                os.remove(leftover)
    return kills


def shards_campaign(folder):
    reference = os.path.join(folder, "one.jsonl")
    run(["batch", *COMMON, *BATCH, "--out", reference])
    expected = read(reference)
    count = 3
    out = os.path.join(folder, "r.jsonl")
    shards = [os.path.join(folder, f"r.shard-{index}-of-{count}.jsonl") for index in range(count)]
    shard_args = [["batch", *COMMON, *BATCH, "--out", out, "--shard-index", str(index), "--shard-count", str(count)]
                  for index in range(count)]
    seconds = max(timed(args) for args in shard_args)
    kills = 0
    for point in range(OPTIONS.points):
        for path in shards:
            os.remove(path)
        victim = rng.randrange(count)
        was_killed = False
        for index, args in enumerate(shard_args):
            if index == victim:
                was_killed = killed([*args, "--resume"], rng.uniform(0, seconds))
            else:
                run(args)
        kills += was_killed
        merged = os.path.join(folder, "merged.jsonl")
        # A kill can land after the shard wrote its last record and was marked complete (the
        # process was only exiting, a window that grows on a loaded machine): merge may accept
        # such a shard, and must then give the one-process run's output. Anything else it must
        # refuse.
        if was_killed and run(["merge", "--quiet", "--out", merged, *shards], check=False).returncode == 0:
            if read(merged) != expected:
                defect("shards", point, "merge accepted a killed shard that was not complete")
        run([*shard_args[victim], "--resume"])
        run(["merge", "--quiet", "--out", merged, *shards])
        if read(merged) != expected:
            defect("shards", point, "the merged output differs from the one-process run's")
        os.remove(merged)
    return kills


def grade_campaign(folder):
    out = os.path.join(folder, "reward.json")
    args = ["grade", "--game", "seaquest", "--episodes", "2000", "--threads", "2", "--out", out,
            os.path.join(ANSWERS, "seaquest.md")]
    seconds = timed(args)
    expected = read(out)
    kills = 0
    for point in range(OPTIONS.points):
        with open(out, "w") as f:
            f.write("old")
        kills += killed(args, rng.uniform(0, seconds))
        if read(out) not in (b"old", expected):
            defect("grade", point, "--out holds neither the old file nor the new reward")
        run(args)
        if read(out) != expected:
            defect("grade", point, "the rerun's reward differs")
    leftovers = [name for name in os.listdir(folder) if name.startswith("reward.json.tmp.")]
    print(f"grade: {len(leftovers)} temporary files left by killed runs beside --out", file=sys.stderr)
    return kills


def main():
    folder = tempfile.mkdtemp(prefix="kill-campaign-")
    try:
        for name, body in (("batch", batch_campaign), ("sweep", sweep_campaign), ("shards", shards_campaign),
                           ("grade", grade_campaign)):
            place = os.path.join(folder, name)
            os.makedirs(place)
            campaign(name, lambda body=body, place=place: body(place))
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    print(f"{len(defects)} defects", file=sys.stderr)
    sys.exit(1 if defects else 0)


if __name__ == "__main__":
    main()
