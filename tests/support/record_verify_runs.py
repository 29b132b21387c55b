#!/usr/bin/python3
"""Records what verify.main writes (or how it dies) for the environment variables it reads, on
runs where the grader plays no episode: counts of zero or less, and unknown games.

    /usr/bin/python3 tests/support/record_verify_runs.py OUTPUT.json

verify.py (../shared/seed) runs in this process with /logs redirected to a temporary folder
and the stand-in MinAtar of record_unknown_games.py (it stops the run if an episode would be
played). Each case of OUTPUT: "environment" (the WEIGHT_SPACE_* variables set), "trajectory"
(the file's text), and either "reward_json" (the file verify.main wrote) or "crash" (the class
of the exception that escaped it; no file is written then).
"""
import json
import os
import sys
import tempfile
from pathlib import Path

from record_unknown_games import build_packages

GOOD = '{"steps": [{"messages": [{"role": "assistant", "content": "```edits\\nb3[0] = 1\\n```"}]}]}'
BAD = '{"steps": [{"messages": [{"role": "assistant", "content": "```edits\\nb3[0] = (1 2)\\n```"}]}]}'
BREAKOUT = {"WEIGHT_SPACE_GAME": "breakout", "WEIGHT_SPACE_SOURCE": "original"}
EPISODES = ["0", "-5", "-0", "+0", "000", " -99999999999999999999999 ", "\t-7\n", "-1_000", "-\uff11\uff12",
            "-\u0663", "\u00a0-3\u2003", "\u3000-\U0001D7DC\n", "-" + "9" * 4300, "-" + "9" * 4301, "abc", "", " ",
            "1__0", "-_1", "\u0663x", "\x1c-1", "-0x10", "-1.0", "--1", "\u2212" + "1", "-1e3", "-\u00b2"]
CASES = [({**BREAKOUT, "WEIGHT_SPACE_EPISODES": value}, GOOD) for value in EPISODES]
CASES += [
    ({**BREAKOUT, "WEIGHT_SPACE_EPISODES": "-10"}, BAD),
    ({**BREAKOUT, "WEIGHT_SPACE_EPISODES": "-" + "1" * 40}, BAD),
    ({"WEIGHT_SPACE_GAME": "pong", "WEIGHT_SPACE_SOURCE": "original", "WEIGHT_SPACE_EPISODES": "3"}, GOOD),
    ({"WEIGHT_SPACE_GAME": "pong", "WEIGHT_SPACE_SOURCE": "original", "WEIGHT_SPACE_EPISODES": "-" + "4" * 30}, GOOD),
    ({"WEIGHT_SPACE_GAME": "pong", "WEIGHT_SPACE_SOURCE": "synth", "WEIGHT_SPACE_EPISODES": "0"}, GOOD),
    ({"WEIGHT_SPACE_GAME": "pong", "WEIGHT_SPACE_SOURCE": "original", "WEIGHT_SPACE_EPISODES": "9" * 30}, GOOD),
    ({"WEIGHT_SPACE_GAME": "a.b", "WEIGHT_SPACE_SOURCE": "original", "WEIGHT_SPACE_EPISODES": "1"}, GOOD),
    ({"WEIGHT_SPACE_GAME": "breakout", "WEIGHT_SPACE_EPISODES": "0"}, GOOD),
    ({"WEIGHT_SPACE_SOURCE": "original", "WEIGHT_SPACE_EPISODES": "0"}, GOOD),
]


def run(verify, folder: Path, environment: dict, trajectory: str) -> dict:
    logs = folder / "logs"
    (logs / "verifier").mkdir(parents=True, exist_ok=True)
    (logs / "trajectory.json").write_text(trajectory)
    reward = logs / "verifier" / "reward.json"
    reward.unlink(missing_ok=True)
    for name in ("WEIGHT_SPACE_GAME", "WEIGHT_SPACE_SOURCE", "WEIGHT_SPACE_EPISODES"):
        os.environ.pop(name, None)
    os.environ.update(environment)
    try:
        verify.main()
    except RuntimeError as error:  # the stand-in Environment was reached
        sys.exit(f"{environment}: the grader would play an episode: {error}")
    except Exception as error:  # noqa: BLE001 - the grader dies; that is the outcome
        assert not reward.exists()
        return {"crash": type(error).__name__}
    return {"reward_json": reward.read_text()}


def main() -> None:
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    sys.dont_write_bytecode = True
    with tempfile.TemporaryDirectory() as folder:
        build_packages(Path(folder))
        sys.path[:0] = [folder, str(Path(__file__).resolve().parents[3] / "shared" / "seed")]
        import verify  # noqa: E402 - needs the stand-in minatar on the path

        # verify.main reads and writes fixed paths under /logs; here they are under `folder`.
        verify.Path = lambda path: Path(folder + str(path)) if str(path).startswith("/logs/") else Path(path)
        cases = [{"environment": environment, "trajectory": trajectory,
                  **run(verify, Path(folder), environment, trajectory)} for environment, trajectory in CASES]
    recorded = {"format": "weight-space-golden/verify_runs", "generator": "tests/support/record_verify_runs.py",
                "environment": {"python": sys.version.split()[0]}, "cases": cases}
    Path(sys.argv[1]).write_text(json.dumps(recorded, indent=1, ensure_ascii=True) + "\n")


if __name__ == "__main__":
    main()
