#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Writes the libFuzzer seed corpora under fuzz/corpus/ from the golden cases.

fuzz/corpus/fuzz_parse_answer/: raw answer texts (UTF-8, lone surrogates as WTF-8), a few
per category of parser_cases.json plus the surrogate cases. fuzz/corpus/fuzz_trajectory/:
trajectory documents of trajectories.json as json.loads reads them. The selection is
deterministic (the first cases of each category below a size bound), so re-running the
script reproduces the same files. Standard library only: python3 fuzz/make_corpus.py
"""
import hashlib
import json
import pathlib
import shutil

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


if __name__ == "__main__":
    write_corpus("fuzz_parse_answer", answer_seeds())
    write_corpus("fuzz_trajectory", trajectory_seeds())
