#!/usr/bin/python3
"""Records what the real grader does with answers: verify.apply_edits under CPython 3.11 and
numpy 1.24 (Debian 12's python3 and python3-numpy, the golden data's stack).

    /usr/bin/python3 tests/support/record_parser_cases.py INPUT.json OUTPUT.json

INPUT holds {"cases": [{"id", "category", "answer"}, ...]}; OUTPUT gets the same cases with
"answer_sha256" and "outcome", in the format of tests/golden/parser_cases.json (its README):
success -> edit_count, nonzero_weights, sha256 of the six tensors' float32 bytes; failure ->
error_type (the exception's class name), message (str() of it, what reward.json's "error"
holds) and caught (whether grade_answer's except clause catches it or the grader crashes).
Answers may hold lone surrogates (JSON \\udXXX escapes); the output keeps them escaped.
"""
import hashlib
import json
import re
import sys
import types
from pathlib import Path

# verify.py imports minatar at the top; apply_edits never touches it.
sys.modules["minatar"] = types.ModuleType("minatar")
sys.modules["minatar"].Environment = None
sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "shared" / "seed"))
import numpy as np  # noqa: E402
import verify  # noqa: E402

CAUGHT = (ImportError, IndexError, KeyError, SyntaxError, TypeError, ValueError)


def utf8_sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def outcome(answer: str) -> dict:
    try:
        tensors, applied = verify.apply_edits(answer)
    except BaseException as error:  # noqa: BLE001 - the grader's crashes are outcomes too
        if isinstance(error, (KeyboardInterrupt, SystemExit)):
            raise
        return {
            "parse_success": False,
            "error_type": type(error).__name__,
            "caught": isinstance(error, CAUGHT),
            # literal_eval's "malformed node" names an ast object by its address; weightspace
            # writes 0x? there, as tests/golden/parser_cases.json does.
            "message": re.sub(r" object at 0x[0-9a-f]+>", " object at 0x?>", str(error)),
        }
    data = b"".join(tensor.tobytes() for tensor in tensors.values())
    return {
        "parse_success": True,
        "edit_count": applied,
        "nonzero_weights": sum(int(np.count_nonzero(value)) for value in tensors.values()),
        "sha256": hashlib.sha256(data).hexdigest(),
    }


def main() -> None:
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    if sys.version_info[:2] != (3, 11) or not np.__version__.startswith("1.24"):
        sys.exit(f"needs CPython 3.11 and numpy 1.24, not {sys.version.split()[0]} / {np.__version__}")
    document = json.loads(Path(sys.argv[1]).read_text(encoding="utf-8", errors="surrogatepass"))
    cases = []
    for case in document["cases"]:
        answer = case["answer"]
        cases.append({**case, "answer_sha256": utf8_sha256(answer), "outcome": outcome(answer)})
    recorded = {
        "format": "weight-space-golden/parser_cases",
        "generator": "tests/support/record_parser_cases.py",
        "environment": {"python": sys.version.split()[0], "numpy": np.__version__},
        "cases": cases,
    }
    Path(sys.argv[2]).write_text(json.dumps(recorded, indent=1, ensure_ascii=True) + "\n")


if __name__ == "__main__":
    main()
