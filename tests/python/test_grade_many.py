# SPDX-License-Identifier: GPL-3.0-or-later
"""grade_many / iter_grades as documented (issue 32, item 8): records like a batch manifest line
(a list of games, an answer's text), failures as results, a misspelt game in the call refused
before any grading, progress like the batch command's, python -m weightspace.verify's options,
and type stubs that say what the functions take."""
import ast
import inspect
import json
import os
import pty
import subprocess
import sys
from pathlib import Path

import pytest

import weightspace
import weightspace._progress
import weightspace.verify

FENCE = "```"
PACKAGE = Path(weightspace.__file__).parent


def answer(*lines):
    return FENCE + "edits\n" + "\n".join(lines) + "\n" + FENCE + "\n"


def reward_text(score, metadata):
    return json.dumps({"normalized_score": score, **metadata})


def test_a_list_of_games_gives_one_result_per_game_in_order():
    text = answer("W1[:, 0] = 0.4", "b3[2] = 1")
    results = weightspace.grade_many([{"id": "a", "answer": text, "game": ["freeway", "breakout"]},
                                      {"id": "b", "answer": text}], game=["asterix", "seaquest"], episodes=4,
                                     threads=1)
    assert [(r["id"], r["game"]) for r in results] == [("a", "freeway"), ("a", "breakout"),
                                                       ("b", "asterix"), ("b", "seaquest")]
    for result in results:
        expected = weightspace.grade_answer(result["game"], "original", text, 4)
        assert json.dumps(result["reward"]) == reward_text(*expected)


def test_answer_texts_are_records_and_bad_records_are_results_not_exceptions():
    text = answer("b3[1] = 1")
    results = weightspace.grade_many([text, 7, {"answer": text, "game": []}, {"answer": text}], game="breakout",
                                     episodes=3, threads=1)
    assert [r["id"] for r in results] == [0, 1, 2, 3]
    assert json.dumps(results[0]["reward"]) == reward_text(*weightspace.grade_answer("breakout", "original", text, 3))
    assert results[1]["error_kind"] == "TypeError" and "got int" in results[1]["reward"]["error"]
    assert results[2]["error_kind"] == "ValueError" and results[2]["reward"]["parse_success"] == 0.0
    assert results[3]["reward"]["parse_success"] == 1.0
    no_game = weightspace.grade_many([text], episodes=3)[0]
    assert no_game["error_kind"] == "ValueError" and "game=" in no_game["reward"]["error"]


def test_a_misspelt_game_in_the_call_is_refused_before_grading():
    with pytest.raises(ValueError, match="did you mean 'breakout'"):
        weightspace.grade_many([answer("b3[1] = 1")], game="brekout")
    with pytest.raises(ValueError, match="did you mean 'freeway'"):
        weightspace.grade_many([answer("b3[1] = 1")], game=["breakout", "freewya"])
    # A record's own game keeps the grader's semantics: a scored failure.
    result = weightspace.grade_many([{"answer": answer("b3[1] = 1"), "game": "brekout"}], episodes=2)[0]
    assert result["error_kind"] == "ModuleNotFoundError"


def test_progress_off_a_terminal_is_whole_lines_with_the_total_and_an_eta(capsys, monkeypatch):
    monkeypatch.setattr(weightspace._progress, "PERIOD", 0.0)  # a line per result instead of every five seconds
    weightspace.grade_many([answer("b3[1] = 1"), "no block", answer("b3[2] = 1")], game="breakout", episodes=3,
                           threads=1, progress=True)
    err = capsys.readouterr().err
    assert "\r" not in err and "\x1b" not in err and err.endswith("\n")
    lines = err.splitlines()
    assert lines[0].startswith("weightspace: 1/3 records, ") and "ETA " in lines[0]
    assert lines[-1].startswith("weightspace: 3 records graded, 1 error, ")


def test_progress_on_a_terminal_redraws_one_line(monkeypatch):
    monkeypatch.setattr(weightspace._progress, "REDRAW", 0.0)
    main, side = pty.openpty()
    with open(side, "w", closefd=True) as terminal:
        monkeypatch.setattr(sys, "stderr", terminal)
        weightspace.grade_many([answer("b3[1] = 1")] * 2, game="breakout", episodes=3, threads=1, progress=True)
    # One read returns what the terminal has passed on so far, which can be the first line
    # alone; once its other side is closed and drained, reading raises EIO.
    chunks = []
    while True:
        try:
            chunk = os.read(main, 65536)
        except OSError:
            break
        if not chunk:
            break
        chunks.append(chunk)
    os.close(main)
    written = b"".join(chunks).decode()
    assert "\r\x1b[2Kweightspace: 1/2 records, " in written
    assert "\r\x1b[2Kweightspace: 2 records graded, 0 errors, " in written


def run_verify(*args, env=None):
    environment = {key: value for key, value in os.environ.items() if not key.startswith("WEIGHT_SPACE_")}
    environment.update(env or {})
    return subprocess.run([sys.executable, "-m", "weightspace.verify", *args], env=environment,
                          capture_output=True, text=True, timeout=300)


def test_python_m_verify_has_help_and_the_clis_trajectory_and_reward(tmp_path):
    shown = run_verify("--help")
    assert shown.returncode == 0 and "Traceback" not in shown.stderr
    assert "--trajectory" in shown.stdout and "--reward" in shown.stdout and "WEIGHT_SPACE_GAME" in shown.stdout
    missing = run_verify()
    assert missing.returncode == 2 and "Traceback" not in missing.stderr
    assert "WEIGHT_SPACE_GAME is not set" in missing.stderr
    text = answer("W1[:, 1] = 0.5", "b3[3] = 1")
    (tmp_path / "t.json").write_text(json.dumps({"steps": [{"messages": [{"role": "assistant", "content": text}]}]}))
    graded = run_verify("--trajectory", str(tmp_path / "t.json"), "--reward", str(tmp_path / "out" / "r.json"),
                        "--threads", "1", env={"WEIGHT_SPACE_GAME": "asterix", "WEIGHT_SPACE_SOURCE": "synth",
                                               "WEIGHT_SPACE_EPISODES": "6"})
    assert graded.returncode == 0, graded.stderr
    expected = reward_text(*weightspace.grade_answer("asterix", "synth", text, 6))
    assert (tmp_path / "out" / "r.json").read_text() == expected


def stub_functions(path):
    tree = ast.parse(path.read_text())
    return {node.name: node for node in tree.body if isinstance(node, ast.FunctionDef)}


@pytest.mark.parametrize("module, stub", [(weightspace, "__init__.pyi"), (weightspace.verify, "verify.pyi")])
def test_the_type_stubs_say_what_the_functions_take(module, stub):
    functions = stub_functions(PACKAGE / stub)
    public = [name for name, value in vars(module).items()
              if inspect.isfunction(value) and not name.startswith("_") and value.__module__ == module.__name__]
    assert sorted(functions) == sorted(public)
    for name, node in functions.items():
        signature = inspect.signature(getattr(module, name))
        arguments = node.args
        stubbed = [(a.arg, inspect.Parameter.POSITIONAL_OR_KEYWORD, a.annotation) for a in arguments.args]
        stubbed += [(a.arg, inspect.Parameter.KEYWORD_ONLY, a.annotation) for a in arguments.kwonlyargs]
        defaults = len(arguments.defaults) + sum(d is not None for d in arguments.kw_defaults)
        assert [(p.name, p.kind) for p in signature.parameters.values()] == [(n, k) for n, k, _ in stubbed], name
        assert sum(p.default is not inspect.Parameter.empty for p in signature.parameters.values()) == defaults, name
        # the package is written with `from __future__ import annotations`: its annotations are the text
        for (parameter, (_, _, annotation)) in zip(signature.parameters.values(), stubbed):
            assert parameter.annotation == ast.unparse(annotation), (name, parameter.name)
        assert signature.return_annotation == ast.unparse(node.returns), name
