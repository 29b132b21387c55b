#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Writes the libFuzzer seed corpora under fuzz/corpus/ from the golden cases.

fuzz/corpus/fuzz_parse_answer/: raw answer texts (UTF-8, lone surrogates as WTF-8), a few
per category of parser_cases.json plus the surrogate cases. fuzz/corpus/fuzz_trajectory/:
trajectory documents of trajectories.json as json.loads reads them. The selection is
deterministic (the first cases of each category below a size bound), so re-running the
script reproduces the same files. Standard library only: python3 fuzz/make_corpus.py

With --weightspace BINARY it also writes the corpora of the command line's own files, made by
that binary (a release build of this tree) from the examples: fuzz_manifest_line (the lines of
the batch tests' manifests), fuzz_batch_line (batch output lines, with and without timings,
graded and failed), fuzz_shard_meta (a batch and a sweep shard's descriptions), fuzz_sweep_config
(the sweep tests' configs) and fuzz_store (results stores of real sweeps, compacted to 512-byte
pages so that each is a few KB). Batch lines and stores hold timings and the machine, so those
files differ from run to run; the others are reproduced exactly.
"""
import argparse
import hashlib
import json
import pathlib
import shutil
import sqlite3
import subprocess
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "tests" / "golden"
CORPUS = ROOT / "fuzz" / "corpus"
PER_CATEGORY = 2          # answers taken from each parser_cases.json category
MAX_BYTES = 4096          # small seeds keep libFuzzer's mutations cheap


def file_name(case_id: str, data: bytes) -> str:
    # ids contain '/' and non-ASCII characters; the digest keeps names unique.
    readable = "".join(c if c.isascii() and (c.isalnum() or c in "-_") else "_" for c in case_id)
    return f"{readable[:60]}-{hashlib.sha256(data).hexdigest()[:8]}"


def write_corpus(target: str, seeds: list[tuple[str, bytes]]) -> None:
    directory = CORPUS / target
    shutil.rmtree(directory, ignore_errors=True)
    directory.mkdir(parents=True)
    for case_id, data in seeds:
        (directory / file_name(case_id, data)).write_bytes(data)
    print(f"{directory.relative_to(ROOT)}: {len(seeds)} files")


def answer_seeds() -> list[tuple[str, bytes]]:
    seeds = []
    taken: dict[str, int] = {}
    cases = json.loads((GOLDEN / "parser_cases.json").read_text())["cases"]
    surrogates = json.loads((GOLDEN / "parser_cases_surrogates.json").read_text())["cases"]
    for case in cases + surrogates:
        data = case["answer"].encode("utf-8", "surrogatepass")
        if len(data) > MAX_BYTES or taken.get(case["category"], 0) >= PER_CATEGORY:
            continue
        taken[case["category"]] = taken.get(case["category"], 0) + 1
        seeds.append((case["id"], data))
    return seeds


def trajectory_seeds() -> list[tuple[str, bytes]]:
    # Every raw-text document (BOM, NaN, duplicate keys, ...) and every third structured one.
    seeds = []
    for index, case in enumerate(json.loads((GOLDEN / "trajectories.json").read_text())["cases"]):
        text = case.get("trajectory_text")
        if text is None:
            if index % 3 != 0:
                continue
            text = json.dumps(case["trajectory"])
        data = text.encode("utf-8", "surrogatepass")
        if len(data) <= MAX_BYTES:
            seeds.append((case["id"], data))
    return seeds


EXAMPLES = ROOT / "examples" / "answers"


def answer(edits: str) -> str:
    return "Here are my edits.\n```edits\n" + edits + "\n```\n"


def manifest_seeds() -> list[tuple[str, bytes]]:
    # The lines of tests/apps/batch_cli_test.py's manifests: records and what is wrong with one.
    good = answer("b3[0] = 1")
    trajectory = {"steps": [{"messages": [{"role": "assistant", "content": good}]}]}
    records = [
        {"id": "ok", "answer": good}, {"id": "noblock", "answer": "no block"},
        {"id": "pong", "answer": good, "game": "pong"}, {"id": "huge", "answer": good, "episodes": 10 ** 12},
        {"id": "float", "answer": good, "episodes": 2.5}, {"id": "two", "answer": good, "answer_path": "x.md"},
        {"id": "none"}, {"id": "missing", "answer_path": "missing.md"}, {"id": 7, "answer": "none"},
        {"id": "source", "answer": good, "source": "atari"}, [1, 2],
        {"id": "last", "trajectory_path": "no_assistant.json"},
        {"answer_path": "a.md", "game": ["freeway", "breakout"], "source": "synth"},
        {"id": "t", "trajectory": trajectory, "episodes": 3}, {"id": "s", "trajectory": "text"},
        {"id": "x,\"y\"", "answer": answer("b3[2] = 1"), "epsiodes": 2},
    ]
    seeds = [(f"record_{i:02d}", json.dumps(record).encode()) for i, record in enumerate(records)]
    seeds += [("not_json", b"{not json"), ("nan_id", b'{"id": NaN, "answer": "a"}'),
              ("surrogate", b'{"id": "\\ud800", "answer": "\\udc00"}')]
    return seeds


def sweep_config_seeds() -> list[tuple[str, bytes]]:
    # tests/sweep/: the configs the sweeps run, and those whose mistakes they check.
    full = ('name = "nightly"\nbaseline = "previous"\n[[answers]]\nname = "examples"\npaths = ["answers/"]\n'
            '[grade]\ngames = ["breakout", "freeway"]\nsources = ["original", "synth"]\nepisodes = [2]\n'
            'threads = 2\nbatch = 8\ncache = 16\n'
            '[speed]\nthreads = [1, 2]\nrecords = 4\nrepeat = 1\nmin_time = 0\ninstructions = true\n')
    texts = [
        full,
        'baseline = 3\n[[answers]]\nname = "a"\npaths = ["answers/", "extra.jsonl"]\n'
        '[[answers]]\nname = "b"\npaths = ["/abs/b.md"]\n[grade]\ngames = "all"\n',
        'name = "x"\n[[answers]\nname = "a"\n',
        '[[answers]]\nname = "a"\npaths = ["answers/"]\n[grade]\nepsiodes = [2]\n',
        '[[answers]]\nname = "a"\npaths = ["answers/"]\n[grade]\ngames = ["brakeout"]\n',
        '[[answers]]\nname = "a"\npaths = ["answers/"]\n[grade]\nepisodes = [-1]\n',
        '[[answers]]\nname = "a"\npaths = ["answers/"]\n[[answers]]\nname = "a"\npaths = ["answers/"]\n',
        'baseline = "pined"\n[[answers]]\nname = "a"\npaths = ["answers/"]\n',
        '[[answers]]\nname = "a"\npaths = ["answers/"]\n[speed]\nthreads = [1, 1]\nmin_time = 1e400\n',
    ]
    return [(f"config_{i:02d}", text.encode()) for i, text in enumerate(texts)]


def run(binary: str, *args: str, cwd: pathlib.Path) -> None:
    subprocess.run([binary, *args], cwd=cwd, check=True, stdout=subprocess.DEVNULL)


def copy_examples(work: pathlib.Path, *names: str) -> None:
    for name in names:
        shutil.copy(EXAMPLES / name, work / name)


def batch_line_seeds(binary: str, work: pathlib.Path) -> list[tuple[str, bytes]]:
    (work / "bad.md").write_text(answer("b3[0] = ("))
    (work / "nan.md").write_text(answer("W1[0, 0] = float('nan')"))
    copy_examples(work, "breakout.md", "seaquest.md", "freeway.md")  # relative paths: the same files anywhere
    inputs = ["breakout.md", "seaquest.md", "bad.md", "nan.md", "missing.md"]
    seeds = []
    for name, extra in (("timings", []), ("no_timings", ["--no-timings"])):
        run(binary, "batch", *inputs, "--game", "breakout", "--episodes", "2", "--quiet", "--out", f"{name}.jsonl",
            *extra, cwd=work)
        for i, line in enumerate((work / f"{name}.jsonl").read_bytes().splitlines()):
            seeds.append((f"{name}_{i}", line))
    return seeds


def shard_meta_seeds(binary: str, work: pathlib.Path) -> list[tuple[str, bytes]]:
    run(binary, "batch", "breakout.md", "freeway.md", "--game", "breakout",
        "--episodes", "1", "--quiet", "--shard-index", "1", "--shard-count", "2", "--out", "grades.jsonl", cwd=work)
    batch_meta = next(work.glob("grades*.shard-1-of-2*.shard.json")).read_bytes()
    started = json.loads(batch_meta)
    started["complete"] = False
    for key in ("inputs_sha256", "records", "total_records", "work", "total_work"):
        started.pop(key)
    sweep_config(work, "sharded")
    run(binary, "sweep", "sharded.toml", "--quiet", "--no-report", "--shard-index", "0", "--shard-count", "1",
        cwd=work)
    sweep_meta = next(work.glob("*.shard-0-of-1.sqlite.shard.json")).read_bytes()
    return [("batch_complete", batch_meta), ("batch_started", json.dumps(started, indent=2).encode() + b"\n"),
            ("sweep_complete", sweep_meta)]


def sweep_config(work: pathlib.Path, name: str, speed: bool = False) -> None:
    (work / "answers").mkdir(exist_ok=True)
    shutil.copy(EXAMPLES / "breakout.md", work / "answers" / "breakout.md")
    (work / "answers" / "bad.md").write_text(answer("b3[0] = ("))
    text = (f'name = "{name}"\n[[answers]]\nname = "examples"\npaths = ["answers/"]\n'
            '[grade]\ngames = ["breakout"]\nepisodes = [1]\n')
    if speed:
        text += "[speed]\nthreads = [1]\nrecords = 1\nrepeat = 1\nmin_time = 0\n"
    (work / f"{name}.toml").write_text(text)


def compact(database: pathlib.Path) -> bytes:
    # 512-byte pages and no free pages: a store of a few KB that is still the sweep's own.
    connection = sqlite3.connect(database)
    connection.execute("PRAGMA journal_mode = DELETE")
    connection.execute("PRAGMA page_size = 512")
    connection.execute("VACUUM")
    connection.close()
    return database.read_bytes()


def store_seeds(binary: str, work: pathlib.Path) -> list[tuple[str, bytes]]:
    sweep_config(work, "nightly")
    sweep_config(work, "timed", speed=True)
    run(binary, "sweep", "nightly.toml", "--quiet", "--no-report", "--db", "one.sqlite", cwd=work)
    seeds = [("one_run", compact(work / "one.sqlite"))]
    run(binary, "sweep", "nightly.toml", "--quiet", "--no-report", "--db", "two.sqlite", cwd=work)
    run(binary, "sweep", "timed.toml", "--quiet", "--no-report", "--db", "two.sqlite", cwd=work)
    run(binary, "runs", "--db", "two.sqlite", "--pin", "1", cwd=work)
    seeds.append(("two_runs_speed_pinned", compact(work / "two.sqlite")))
    return seeds


def app_seeds(binary: str) -> None:
    write_corpus("fuzz_manifest_line", manifest_seeds())
    write_corpus("fuzz_sweep_config", sweep_config_seeds())
    with tempfile.TemporaryDirectory() as folder:
        work = pathlib.Path(folder)
        write_corpus("fuzz_batch_line", batch_line_seeds(binary, work))
        write_corpus("fuzz_shard_meta", shard_meta_seeds(binary, work))
        write_corpus("fuzz_store", store_seeds(binary, work))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--weightspace", help="a weightspace binary: also write the command line files' corpora")
    arguments = parser.parse_args()
    write_corpus("fuzz_parse_answer", answer_seeds())
    write_corpus("fuzz_trajectory", trajectory_seeds())
    if arguments.weightspace:
        app_seeds(str(pathlib.Path(arguments.weightspace).resolve()))
