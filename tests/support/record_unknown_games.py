#!/usr/bin/python3
"""Records verify.grade_answer's reward.json for games weightspace does not have.

    /usr/bin/python3 tests/support/record_unknown_games.py OUTPUT.json

MinAtar is not needed: for an unknown game the grader only imports the game's module by name,
so the script builds stand-in packages with the real ones' module names (MinAtar 1.0.15's
minatar.environments: asterix, breakout, freeway, seaquest, space_invaders, and their
__init__; minatar_synth.games with weightspace's bundled synth games) and the two lines that
matter, Environment's `import_module('minatar.environments.' + env_name)` and its `.Env`. The real
verify.py (../shared/seed) then grades a valid answer; OUTPUT holds each case with the
exception's class and the exact reward.json text verify.main would write, or, where the grader
itself dies (`__init__`'s missing `Env`), null and the exception's text in "grader_crash".
"""
import json
import sys
import tempfile
from pathlib import Path

GAMES = ("asterix", "breakout", "freeway", "seaquest", "space_invaders")
ANSWER = "```edits\nb3[0] = 1\n```"
# (source, game, episodes): names with dots, quotes, escapes and non-ASCII; 0 and negative
# counts, where the grader builds no environment and fails in score_cap instead.
CASES = [
    ("original", "pong", 3), ("synth", "pong", 3), ("original", "Pong", 1), ("original", "ASTERIX", 1),
    ("original", "space-invaders", 1), ("original", "", 1), ("original", "a.b", 1), ("original", "a..b", 1),
    ("original", "asterix.x", 1), ("original", "asterix.", 1), ("original", "asterix..x", 1),
    ("original", "x.asterix", 1), ("original", ".", 1), ("original", "..", 1), ("original", "../x", 1),
    ("original", ".asterix", 1), ("original", "a/b", 1), ("original", " asterix", 1), ("original", "asterix ", 1),
    ("original", "it's", 1), ("original", 'a"b', 1), ("original", "a'b\"c", 1), ("original", "\u00e9", 1),
    ("original", "\x01", 1), ("original", "\u4e00\u4e8c", 1), ("original", "\U0001F600", 1),
    ("original", "\u200b", 1), ("original", "environment", 1),
    ("synth", "breakout.x", 2), ("synth", "a.b", 2), ("synth", "", 2), ("synth", "it's", 2),
    ("original", "pong", 0), ("original", "pong", -5), ("original", "it's", 0), ("original", "a.b", 0),
    ("original", "", 0), ("original", "\u00e9\x01", -1), ("synth", "pong", 0), ("synth", "asterix.x", -3),
    # The packages' own __init__ imports as a module with no game in it: MinAtar's missing
    # `Env` (an AttributeError the grader does not catch: recorded as its crash), synth's class
    # check; below it, nothing is a package.
    ("original", "__init__", 1), ("original", "__init__", 0), ("synth", "__init__", 2), ("synth", "__init__", 0),
    ("synth", "__init__", -1), ("original", "__init__.x", 1), ("synth", "__init__.asterix", 1),
    ("original", "__init__.", 1),
]


def build_packages(root: Path) -> None:
    environments = root / "minatar" / "environments"
    environments.mkdir(parents=True)
    (root / "minatar" / "__init__.py").write_text("from .environment import Environment\n")
    (root / "minatar" / "environment.py").write_text(
        "from importlib import import_module\n\n\n"
        "class Environment:\n"
        "    def __init__(self, env_name, sticky_action_prob=0.1, difficulty_ramping=True):\n"
        "        env_module = import_module('minatar.environments.' + env_name)\n"
        "        self.env = env_module.Env(ramping=difficulty_ramping)\n")
    (environments / "__init__.py").write_text("")
    games = root / "minatar_synth" / "games"
    games.mkdir(parents=True)
    (root / "minatar_synth" / "__init__.py").write_text("")
    (games / "__init__.py").write_text("")
    # A game's Env (MinAtar's next step after the import) stops the recording.
    stand_in = "def Env(ramping):\n    raise RuntimeError('a stand-in cannot play ' + __name__)\n"
    for game in GAMES:
        (environments / f"{game}.py").write_text(stand_in)
        (games / f"{game}.py").write_text("")


def main() -> None:
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    sys.dont_write_bytecode = True  # no __pycache__ folders, which import as namespace packages
    with tempfile.TemporaryDirectory() as folder:
        build_packages(Path(folder))
        sys.path[:0] = [folder, str(Path(__file__).resolve().parents[3] / "shared" / "seed")]
        import verify  # noqa: E402 - needs the stand-in minatar on the path

        cases = []
        for source, game, episodes in CASES:
            try:
                score, metadata = verify.grade_answer(game, source, ANSWER, episodes)
            except RuntimeError as error:  # the stand-in Environment was reached
                sys.exit(f"{source}/{game!r}: the grader got past the import: {error}")
            except Exception as error:  # noqa: BLE001 - the grader itself dies: no reward.json
                cases.append({"source": source, "game": game, "episodes": episodes, "error_type": type(error).__name__,
                              "expected_reward_json": None, "grader_crash": str(error)})
                continue
            error_type = None
            try:
                if episodes > 0:
                    verify.make_environment(game, source)
                else:
                    verify.score_cap(game, source)
            except Exception as error:  # noqa: BLE001 - the class grade_answer caught
                error_type = type(error).__name__
            cases.append({"source": source, "game": game, "episodes": episodes, "error_type": error_type,
                          "expected_reward_json": json.dumps({"normalized_score": score, **metadata})})
    recorded = {"format": "weight-space-golden/unknown_games",
                "generator": "tests/support/record_unknown_games.py",
                "environment": {"python": sys.version.split()[0]}, "cases": cases}
    Path(sys.argv[1]).write_text(json.dumps(recorded, indent=1, ensure_ascii=True) + "\n")


if __name__ == "__main__":
    main()
