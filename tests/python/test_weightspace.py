# SPDX-License-Identifier: GPL-3.0-or-later
"""The Python module against the golden data: grade_answer's reward.json text, apply_edits'
tensors and exceptions, evaluate, threads, the GIL, Ctrl-C, bad arguments, grade_many and
python -m weightspace.verify. Run by ctest with PYTHONPATH at the build's python/ folder."""
import builtins
import hashlib
import json
import math
import os
import re
import signal
import threading
import time
from pathlib import Path

import numpy as np
import pytest

import weightspace
import weightspace.verify

GOLDEN = Path(os.environ["WEIGHTSPACE_GOLDEN_DIR"])
GRADES = json.loads((GOLDEN / "grades.json").read_text())["cases"]
PARSER_CASES = json.loads((GOLDEN / "parser_cases.json").read_text())["cases"]
FENCE = "```"


def answer(*lines):
    return FENCE + "edits\n" + "\n".join(lines) + "\n" + FENCE + "\n"


def reward_text(score, metadata):
    return json.dumps({"normalized_score": score, **metadata})


@pytest.mark.parametrize("case", GRADES, ids=[case["id"] for case in GRADES])
def test_grade_answer_gives_the_golden_reward_json(case):
    score, metadata = weightspace.grade_answer(case["game"], case["source"], case["answer"], case["episodes"])
    if case["expected"] is None:  # the Python grader crashed; weightspace scores 0
        assert metadata["parse_success"] == 0.0
        return
    expected = case["expected_reward_json"]
    if case["expected"]["parse_success"] == 0.0:  # the grader's text exactly, its ast addresses made stable
        assert reward_text(score, metadata) == re.sub(r" object at 0x[0-9a-f]+>", " object at 0x?>", expected)
        return
    assert reward_text(score, metadata) == expected
    assert [type(value) for value in metadata.values()] == [str, str, int, float, float, float, float, int, int]


def tensor_sha256(tensors):
    return hashlib.sha256(np.concatenate([tensors[name].ravel() for name in ("W1", "b1", "W2", "b2", "W3", "b3")])
                          .tobytes()).hexdigest()


def test_apply_edits_matches_every_golden_parser_case():
    checked_messages = 0
    for case in PARSER_CASES:
        outcome = case["outcome"]
        if outcome["parse_success"]:
            tensors, count = weightspace.apply_edits(case["answer"])
            assert list(tensors) == ["W1", "b1", "W2", "b2", "W3", "b3"], case["id"]
            assert all(array.dtype == np.float32 for array in tensors.values()), case["id"]
            assert tensors["W1"].shape == (600, 32) and tensors["b3"].shape == (6,), case["id"]
            assert tensor_sha256(tensors) == outcome["sha256"], case["id"]
            assert count == outcome["edit_count"], case["id"]
            continue
        with pytest.raises(Exception) as raised:
            weightspace.apply_edits(case["answer"])
        error = raised.value
        expected_class = outcome["error_builtin"]
        assert isinstance(error, getattr(builtins, expected_class)), (case["id"], type(error), expected_class)
        if outcome["error_type"] == "UFuncTypeError":
            assert isinstance(error, np.core._exceptions.UFuncTypeError), case["id"]
        else:
            assert type(error).__name__ == outcome["error_type"], case["id"]
        if outcome.get("caught") and "message" in outcome:
            assert str(error).startswith(outcome["message"]), (case["id"], str(error), outcome["message"])
            checked_messages += 1
    assert checked_messages > 500


def test_apply_edits_raises_the_graders_exact_exception_on_every_edge_case():
    """tests/golden/edge_cases: recorded from the grader, exact messages (a place may follow)."""
    checked = 0
    for path in sorted((GOLDEN / "edge_cases").glob("*.json")):
        for case in json.loads(path.read_text(encoding="utf-8", errors="surrogatepass"))["cases"]:
            outcome = case["outcome"]
            if outcome["parse_success"]:
                tensors, count = weightspace.apply_edits(case["answer"])
                assert (tensor_sha256(tensors), count) == (outcome["sha256"], outcome["edit_count"]), case["id"]
                continue
            with pytest.raises(Exception) as raised:
                weightspace.apply_edits(case["answer"])
            error = raised.value
            assert type(error).__name__ == outcome["error_type"], (case["id"], type(error), outcome["error_type"])
            assert isinstance(error, getattr(builtins, outcome["error_type"], TypeError)), case["id"]
            message = str(error)
            # the grader's str() exactly (a SyntaxError's holds its own "(<unknown>, line N)")
            assert message == outcome["message"], (case["id"], message, outcome["message"])
            checked += 1
    assert checked > 2500  # rejections among the ~3600 cases


def test_syntax_errors_carry_line_and_offset():
    with pytest.raises(SyntaxError) as raised:
        weightspace.apply_edits(answer("b1[0] = 1", "b1[1] = ("))
    assert raised.value.lineno == 2
    assert str(raised.value).endswith("(<unknown>, line 2)")


def test_evaluate_equals_the_grade():
    case = next(c for c in GRADES if c["expected"] and c["expected"]["parse_success"] == 1.0)
    tensors, _ = weightspace.apply_edits(case["answer"])
    raw, length = weightspace.evaluate(case["game"], case["source"], tensors, case["episodes"])
    assert (raw, length) == (case["expected"]["raw_score"], case["expected"]["mean_episode_length"])
    with pytest.raises(TypeError):
        weightspace.evaluate(case["game"], case["source"], {k: v.astype(np.float64) for k, v in tensors.items()}, 3)
    with pytest.raises(ModuleNotFoundError):
        weightspace.evaluate("pong", "original", tensors, 3)


def test_threads_never_change_the_result_and_calls_from_threads_are_safe():
    text = answer("W1[:, 0] = 0.3", "W3[0, 2] = 2", "b3[1] = 0.5")
    reference = weightspace.grade_answer("breakout", "original", text, 50, threads=1)
    assert weightspace.grade_answer("breakout", "original", text, 50, threads=2) == reference
    results = [None] * 4

    def grade(slot):
        results[slot] = weightspace.grade_answer("breakout", "original", text, 50)

    workers = [threading.Thread(target=grade, args=(slot,)) for slot in range(4)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    assert results == [reference] * 4


def test_the_gil_is_released_while_grading():
    # Another Python thread keeps running during a grade only if the grade lets go of the GIL.
    ticks = [0]
    stop = threading.Event()

    def count():
        while not stop.is_set():
            ticks[0] += 1

    counter = threading.Thread(target=count)
    counter.start()
    try:
        before = ticks[0]
        weightspace.grade_answer("freeway", "original", answer("b3[1] = 1"), 300, threads=1)
        during = ticks[0] - before
    finally:
        stop.set()
        counter.join()
    assert during > 1000, during


def test_ctrl_c_interrupts_a_long_grade():
    timer = threading.Timer(0.3, lambda: os.kill(os.getpid(), signal.SIGINT))
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            weightspace.grade_answer("freeway", "original", answer("b3[1] = 1"), 100_000)
    finally:
        timer.cancel()
    # The module works normally afterwards.
    assert weightspace.grade_answer("breakout", "original", answer("b3[1] = 1"), 2)[1]["parse_success"] == 1.0


def interrupt_after(seconds):
    """A timer that sends this process SIGINT; .sent holds the monotonic time it did."""
    timer = threading.Timer(seconds, lambda: (setattr(timer, "sent", time.monotonic()),
                                              os.kill(os.getpid(), signal.SIGINT)))
    timer.start()
    return timer


@pytest.mark.parametrize("call", ["grade_answer", "evaluate", "grade_many"])
def test_ctrl_c_stops_a_one_thread_grade_promptly(call):
    # Issue 34: one thread's first run of the guided schedule was half of the 100,000 episodes,
    # and the engine looked at the cancel flag only between runs (KeyboardInterrupt 7.6 s after
    # Ctrl-C). The issue asks 0.5 s; 2 s leaves room for a loaded machine.
    text = answer("b3[0] = 1")
    work = {
        "grade_answer": lambda: weightspace.grade_answer("freeway", "original", text, 100_000, threads=1),
        "evaluate": lambda: weightspace.evaluate("freeway", "original", weightspace.apply_edits(text)[0], 100_000,
                                                 threads=1),
        "grade_many": lambda: weightspace.grade_many([{"answer": text}], game="freeway", episodes=100_000, threads=1),
    }[call]
    timer = interrupt_after(1.0)
    try:
        with pytest.raises(KeyboardInterrupt):
            work()
        latency = time.monotonic() - timer.sent
    finally:
        timer.cancel()
    print(f"{call}: KeyboardInterrupt {latency:.3f} s after SIGINT")
    assert latency < 2.0


def test_counts_past_the_machines_memory_raise_memory_error():
    # Issue 34: no score for a request this machine cannot hold (the grader would still be
    # playing); the MemoryError names the limit.
    with pytest.raises(MemoryError, match="a limit of this machine"):
        weightspace.grade_answer("breakout", "original", answer("b3[0] = 1"), 0xFFFFFFFF - 7919 + 1)


def test_bad_arguments_fail_as_verify_py_does():
    good = answer("b3[0] = 1")
    score, metadata = weightspace.grade_answer("pong", "original", good, 3)
    assert (score, metadata["parse_success"]) == (0.0, 0.0)
    assert metadata["error"] == "No module named 'minatar.environments.pong'"
    # No episode to play: verify.evaluate builds no environment, score_cap fails instead.
    assert weightspace.grade_answer("pong", "original", good, -10**30)[1]["error"] == "'pong'"
    assert weightspace.grade_answer("pong", "synth", good, 0)[1]["error"] == "No module named 'minatar_synth.games.pong'"
    raw, length = weightspace.evaluate("pong", "original", weightspace.apply_edits(good)[0], 0)
    assert math.isnan(raw) and math.isnan(length)
    score, metadata = weightspace.grade_answer("breakout", "original", good, -4)
    assert math.isnan(score) and metadata["episodes"] == -4
    score, metadata = weightspace.grade_answer("breakout", "original", good, "10")
    assert metadata["error"] == "'str' object cannot be interpreted as an integer" and metadata["episodes"] == "10"
    score, metadata = weightspace.grade_answer("breakout", "original", 5, 3)
    assert metadata["error"] == "expected string or bytes-like object, got 'int'"
    score, metadata = weightspace.grade_answer("breakout", "original", good, True)
    assert json.dumps(metadata["episodes"]) == "true" and metadata["parse_success"] == 1.0
    with pytest.raises(ValueError):
        weightspace.grade_answer("breakout", "original", good, 3, threads=-1)
    with pytest.raises(TypeError):
        weightspace.apply_edits(b"```edits\nb3[0] = 1\n```")


def test_grade_many_is_grade_answer_in_input_order(tmp_path):
    records = [{"id": case["id"], "answer": case["answer"], "game": case["game"], "source": case["source"],
                "episodes": case["episodes"]} for case in GRADES[:20]]
    records.append(dict(records[0], id="again"))
    (tmp_path / "t.json").write_text(json.dumps({"steps": [{"messages": [{"role": "user", "content": "hi"}]}]}))
    records.append({"id": "no-assistant", "trajectory_path": str(tmp_path / "t.json"), "game": "breakout"})
    records.append({"id": "missing", "answer_path": str(tmp_path / "missing.md"), "game": "breakout"})
    records.append({"id": "inline", "trajectory": {"steps": [{"messages": [{"role": "assistant", "content": answer("b3[2] = 1")}]}]},
                    "game": "seaquest", "episodes": 5})
    results = weightspace.grade_many(records, threads=2)
    assert [result["id"] for result in results] == [record["id"] for record in records]
    for record, result in zip(records[:21], results):
        score, metadata = weightspace.grade_answer(record["game"], record["source"], record["answer"], record["episodes"])
        assert json.dumps(result["reward"]) == reward_text(score, metadata), record["id"]
    assert results[20]["cached"] and not results[0]["cached"]
    assert results[21]["reward"]["error"] == "answer has no edits block"
    assert results[22]["error_kind"] == "FileNotFoundError"
    assert results[23]["reward"]["parse_success"] == 1.0 and results[23]["episodes"] == 5
    # An iterator can be left early without hanging.
    stream = weightspace.iter_grades(iter(records), threads=2)
    assert next(stream)["id"] == records[0]["id"]
    stream.close()


def test_grade_many_keeps_the_place_beside_the_reward():
    results = weightspace.grade_many([{"answer": answer("b1[0] = 1", "x[0] = 1")}, {"answer": "no block"},
                                      {"answer": answer("b3[0] = 1")}], game="breakout", episodes=2, threads=1)
    places = [(result["error_kind"], result["error_line"], result["error_column"]) for result in results]
    assert places == [("ValueError", 2, 1), ("ValueError", None, None), (None, None, None)]
    assert results[0]["reward"]["error"] == "unknown tensor 'x'"  # the grader's text, no place in it
    keys = list(results[0])
    assert keys[keys.index("weights_sha256") + 1:keys.index("cached")] == ["error_kind", "error_line", "error_column"]


def test_python_m_weightspace_verify_is_verify_main(tmp_path, monkeypatch):
    text = answer("W1[:, 1] = 0.5", "b3[3] = 1")
    logs = tmp_path / "logs"
    logs.mkdir()
    (logs / "trajectory.json").write_text(json.dumps({"steps": [{"messages": [{"role": "assistant", "content": text}]}]}))
    monkeypatch.setattr(weightspace.verify, "Path", lambda path: Path(str(tmp_path) + path))
    monkeypatch.setenv("WEIGHT_SPACE_GAME", "space_invaders")
    monkeypatch.setenv("WEIGHT_SPACE_SOURCE", "original")
    monkeypatch.setenv("WEIGHT_SPACE_EPISODES", " 3_0 ")  # int() rules
    weightspace.verify.main([])
    written = (logs / "verifier" / "reward.json").read_text()
    assert written == reward_text(*weightspace.grade_answer("space_invaders", "original", text, 30))


def test_ctrl_c_interrupts_grade_many():
    records = [{"id": i, "answer": answer(f"b3[1] = {i}"), "game": "freeway", "episodes": 20_000} for i in range(8)]
    timer = threading.Timer(0.3, lambda: os.kill(os.getpid(), signal.SIGINT))
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            weightspace.grade_many(records, threads=2)
    finally:
        timer.cancel()
    assert threading.active_count() == 1  # the grading thread is gone
