#!/usr/bin/python3
"""Records what the grader's main() makes of trajectory files: verify.assistant_answer(
json.loads(Path(FILE).read_text())) under CPython 3.11 (Debian 12's python3).

    /usr/bin/python3 tests/support/record_trajectory_files.py INPUT.json OUTPUT.json

INPUT holds {"cases": [{"id", "file"}, ...]}, where "file" is the file's content as a str;
its bytes are the str encoded as UTF-8 with 'surrogateescape' (so "\\udcff" is the byte 0xff).
A case may give "file_hex" (the bytes in hex) instead, so OUTPUT can be re-recorded from itself.
OUTPUT gets the same cases with "file_hex" (those bytes) in place of "file", and "expected":
{"raises": false, "answer"} or {"raises": true, "stage" ("read_text", "json.loads" or
"assistant_answer"), "error_type", "message" (str() of the exception)}.
"""
import json
import locale
import sys
import tempfile
import types
from pathlib import Path

# verify.py imports minatar at the top; assistant_answer never touches it.
sys.modules["minatar"] = types.ModuleType("minatar")
sys.modules["minatar"].Environment = None
sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "shared" / "seed"))
import verify  # noqa: E402


def raised(stage: str, error: BaseException) -> dict:
    return {"raises": True, "stage": stage, "error_type": type(error).__name__, "message": str(error)}


def expected(data: bytes) -> dict:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "trajectory.json"
        path.write_bytes(data)
        try:
            text = path.read_text()  # what verify.main does: locale encoding, universal newlines
        except (UnicodeDecodeError, OSError) as error:
            return raised("read_text", error)
    try:
        trajectory = json.loads(text)
    except (ValueError, RecursionError) as error:
        return raised("json.loads", error)
    try:
        return {"raises": False, "answer": verify.assistant_answer(trajectory)}
    except Exception as error:  # noqa: BLE001 - whatever the grader's code raises is the outcome
        return raised("assistant_answer", error)


def main() -> None:
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    if sys.version_info[:2] != (3, 11):
        sys.exit(f"needs CPython 3.11, not {sys.version.split()[0]}")
    if locale.getpreferredencoding(False).lower().replace("-", "") != "utf8":
        sys.exit("needs a UTF-8 locale (read_text() decodes with the locale's encoding)")
    document = json.loads(Path(sys.argv[1]).read_text(encoding="utf-8"))
    cases = []
    for case in document["cases"]:
        if "file_hex" in case:
            data = bytes.fromhex(case["file_hex"])
        else:
            data = case["file"].encode("utf-8", "surrogateescape")
        cases.append({"id": case["id"], "file_hex": data.hex(), "expected": expected(data)})
    recorded = {
        "format": "weight-space-golden/trajectory_files",
        "generator": "tests/support/record_trajectory_files.py",
        "environment": {"python": sys.version.split()[0]},
        "cases": cases,
    }
    Path(sys.argv[2]).write_text(json.dumps(recorded, indent=1, ensure_ascii=True) + "\n")


if __name__ == "__main__":
    main()
