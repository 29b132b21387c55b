# SPDX-License-Identifier: GPL-3.0-or-later
"""weightspace: verify.py's grading of hand-written MinAtar policy weights, byte for byte, a few
hundred times faster, in-process.

Swap ``verify.grade_answer`` for ``weightspace.grade_answer``: same arguments, same
``(normalized_score, metadata)`` tuple, same dict keys in the same order and the same Python
types, so ``json.dumps({"normalized_score": s, **metadata})`` is verify.py's reward.json text.
``apply_edits`` and ``evaluate`` raise the exception classes verify.py raises, with its
messages. ``grade_many`` and ``iter_grades`` grade many answers on all cores in input order.
The GIL is released while grading; Ctrl-C interrupts a long grade (KeyboardInterrupt).
"""
from __future__ import annotations

import builtins
import json
import operator
import queue
import re
import sys
import threading
import time
from pathlib import Path
from typing import Any, Iterable, Iterator

from . import _native

__all__ = ["assistant_answer", "apply_edits", "evaluate", "grade_answer", "grade_many", "iter_grades",
           "UFuncTypeError", "__version__"]
__version__ = "0.1.0"

# verify.py's pattern, used only to raise its exact TypeError on an answer that is not a str.
_EDITS_BLOCK = re.compile(r"```edits\s*\n(.*?)```", re.DOTALL | re.IGNORECASE)
_MAX_EPISODES = 0xFFFFFFFF - 7919 + 1  # numpy seeds are 32-bit: 7919 + i must fit

try:
    from numpy.core._exceptions import UFuncTypeError as _NumpyUFuncTypeError
except ImportError:  # numpy moved it; the class verify.py raises is still a TypeError
    _NumpyUFuncTypeError = TypeError


class UFuncTypeError(_NumpyUFuncTypeError):
    """numpy's UFuncTypeError (a TypeError) carrying numpy's message for an edit numpy rejects."""

    def __init__(self, message: str) -> None:  # numpy's own takes the ufunc, not the message
        Exception.__init__(self, message)

    def __str__(self) -> str:
        return str(self.args[0])


class _KeyError(KeyError):
    def __str__(self) -> str:  # KeyError's own str() would quote the message again
        return str(self.args[0])


class _UnicodeDecodeError(UnicodeDecodeError):
    """The grader's UnicodeDecodeError with its message; the codec's fields (encoding, object,
    start, end) are not set, since weightspace reports the message only."""

    def __init__(self, message: str) -> None:  # the builtin's own takes the five codec fields
        Exception.__init__(self, message)

    def __str__(self) -> str:
        return str(self.args[0])


_UnicodeDecodeError.__name__ = _UnicodeDecodeError.__qualname__ = "UnicodeDecodeError"


class _UnicodeEncodeError(UnicodeEncodeError):
    """As _UnicodeDecodeError, for lone surrogates that cannot be encoded."""

    def __init__(self, message: str) -> None:
        Exception.__init__(self, message)

    def __str__(self) -> str:
        return str(self.args[0])


_UnicodeEncodeError.__name__ = _UnicodeEncodeError.__qualname__ = "UnicodeEncodeError"


def _exception(kind: str, message: str, line: int, column: int) -> BaseException:
    """The exception verify.py raises for an answer weightspace rejected as `kind`."""
    if kind in ("SyntaxError", "IndentationError", "TabError"):
        cls = getattr(builtins, kind)
        suffix = f" (<unknown>, line {line})"
        if line and message.endswith(suffix):
            return cls(message[: -len(suffix)], ("<unknown>", line, column or None, None, line, column or None))
        return cls(message)
    if kind == "UFuncTypeError":
        return UFuncTypeError(message)
    if kind == "KeyError":
        return _KeyError(message)
    if kind == "UnicodeDecodeError":
        return _UnicodeDecodeError(message)
    if kind == "UnicodeEncodeError":
        return _UnicodeEncodeError(message)
    cls = getattr(builtins, kind, None)
    if isinstance(cls, type) and issubclass(cls, Exception):
        return cls(message)
    return RuntimeError(f"{kind}: {message}")


def _threads(threads: int | None) -> int:
    if threads is None:
        return 0
    threads = operator.index(threads)
    if not 0 <= threads <= 1024:
        raise ValueError(f"threads must be between 0 (all cores) and 1024, got {threads}")
    return threads


def assistant_answer(trajectory: dict) -> str:
    """verify.assistant_answer: the last assistant message's text ("" when there is none)."""
    for step in reversed(trajectory.get("steps") or []):
        for message in reversed(step.get("messages") or []):
            if message.get("role") != "assistant":
                continue
            content = message.get("content")
            if isinstance(content, str):
                return content
            if isinstance(content, list):
                return "\n".join([item.get("text", "") for item in content if isinstance(item, dict)])
    return ""


def apply_edits(answer: str) -> tuple[dict[str, Any], int]:
    """verify.apply_edits: the six float32 tensors (numpy arrays) and the number of edits.

    Raises what verify.py raises: SyntaxError, ValueError, IndexError, TypeError, KeyError,
    UFuncTypeError, OverflowError, ... with the same messages.
    """
    if not isinstance(answer, str):
        _EDITS_BLOCK.findall(answer)  # raises verify.py's TypeError for what is not text
        raise TypeError(f"expected string or bytes-like object, got {type(answer).__name__!r}")
    try:
        return _native.apply_edits(answer)
    except _native.AnswerError as error:
        raise _exception(*error.args) from None


def evaluate(game: str, source: str, weights: dict[str, Any], episodes: int, *,
             threads: int | None = None) -> tuple[float, float]:
    """verify.evaluate: (mean score, mean episode length) over `episodes` seeded episodes.

    `weights` holds the six float32 numpy arrays of apply_edits' shapes.
    """
    count = operator.index(episodes)  # range(episodes)'s TypeError
    try:
        return _native.evaluate(game, source, weights, max(min(count, _MAX_EPISODES + 1), -1), _threads(threads))
    except _native.AnswerError as error:
        raise _exception(*error.args) from None


def grade_answer(game: str, source: str, answer: str, episodes: int = 1000, *,
                 threads: int | None = None) -> tuple[float, dict[str, object]]:
    """verify.grade_answer: (normalized_score, metadata), the reward.json verify.py writes.

    `threads` (default: all cores) never changes the result.
    """
    workers = _threads(threads)
    if type(game) is str and type(source) is str and type(answer) is str and isinstance(episodes, int):
        # Beyond the seeds numpy accepts the count only decides the error; the metadata keeps
        # the caller's object (True stays True, as json.dumps writes it).
        try:
            score, metadata = _native.grade_answer(game, source, answer,
                                                   max(min(int(episodes), _MAX_EPISODES + 1), -1), workers)
        except _native.AnswerError as error:  # a count past this machine's memory: MemoryError, no score
            raise _exception(*error.args) from None
        metadata["episodes"] = episodes
        return score, metadata
    # Arguments of other types fail where verify.py's would, with its exception.
    metadata: dict[str, object] = {"game": game, "source": source, "episodes": episodes, "parse_success": 0.0}
    try:
        apply_edits(answer)
        operator.index(episodes)  # range(episodes)
        raise TypeError(f"game and source must be str, got {type(game).__name__} and {type(source).__name__}")
    except (ImportError, IndexError, KeyError, SyntaxError, TypeError, ValueError) as error:
        metadata["error"] = str(error)
        return 0.0, metadata


def _answer_of(record: dict) -> str:
    """The answer a record names, read as verify.main reads a trajectory file."""
    if "answer" in record:
        return record["answer"]
    if "answer_path" in record:
        return Path(record["answer_path"]).read_text()
    if "trajectory" in record:
        return assistant_answer(record["trajectory"])
    if "trajectory_path" in record:
        return assistant_answer(json.loads(Path(record["trajectory_path"]).read_text()))
    raise ValueError('a record needs one of "answer", "answer_path", "trajectory", "trajectory_path"')


def iter_grades(records: Iterable[dict], *, game: str | None = None, source: str = "original",
                episodes: int = 1000, threads: int | None = None, cache: int = 4096,
                progress: bool = False) -> Iterator[dict]:
    """Grades a stream of records on all cores and yields one result per record, in input order.

    A record is a dict like a line of `weightspace batch`'s manifest: one of "answer",
    "answer_path", "trajectory" (the dict) or "trajectory_path", and optionally "id", "game",
    "source", "episodes" (defaults: the keyword arguments). A result is a dict: "id", "game",
    "source", "episodes", "reward" (json.dumps of it is verify.py's reward.json),
    "weights_sha256", "error_kind", "error_line", "error_column", "cached", "weightspace_version", "seconds",
    "steps". A record that cannot be read or graded is a result with parse_success 0.0, never an exception; its
    error's class and place (line and column in the edits block) are beside the reward, None on success and the
    place None when the error has none.
    """
    grader = _native.BatchGrader(_threads(threads), operator.index(cache))
    pending: dict[int, tuple[Any, str, str, int]] = {}
    results: queue.Queue = queue.Queue(maxsize=1024)
    done = object()

    def feed():
        for index, record in enumerate(records):
            rid = record.get("id", index)
            g, s, n = record.get("game", game), record.get("source", source), record.get("episodes", episodes)
            pending[index] = (rid, g, s, n)
            try:
                if not isinstance(g, str) or not isinstance(s, str):
                    raise ValueError("a record needs a game and a source (str)")
                count = max(min(operator.index(n), _MAX_EPISODES + 1), -1)
                text = _answer_of(record)
                if not isinstance(text, str):
                    raise TypeError(f"the answer must be a str, got {type(text).__name__}")
                yield (index, text, g, s, count, None, None)
            except Exception as error:  # reported as the record's result, as the batch CLI does
                yield (index, None, g if isinstance(g, str) else "", s if isinstance(s, str) else "", 0,
                       type(error).__name__, str(error))

    def sink(index, reward, sha, error_kind, error_line, error_column, cached, seconds, steps):
        rid, g, s, n = pending.pop(index)
        score, metadata = reward
        metadata.update(game=g, source=s, episodes=n)
        results.put({"id": rid, "game": g, "source": s, "episodes": n,
                     "reward": {"normalized_score": score, **metadata}, "weights_sha256": sha,
                     "error_kind": error_kind, "error_line": error_line, "error_column": error_column,
                     "cached": cached, "weightspace_version": __version__,
                     "seconds": seconds, "steps": steps})

    failure: list[BaseException] = []

    def work():
        try:
            grader.run(feed(), sink)
        except BaseException as error:  # handed to the consumer
            failure.append(error)
        finally:
            results.put(done)

    worker = threading.Thread(target=work, name="weightspace-grades", daemon=True)
    worker.start()
    count, errors, last_draw, start = 0, 0, 0.0, time.monotonic()
    try:
        while True:
            item = results.get()
            if item is done:
                break
            count += 1
            errors += item["reward"]["parse_success"] == 0.0
            if progress and time.monotonic() - last_draw >= 0.1:
                last_draw = time.monotonic()
                rate = count / max(last_draw - start, 1e-9)
                print(f"\rweightspace: {count} records, {rate:.1f} grades/s, {errors} errors", end="",
                      file=sys.stderr, flush=True)
            yield item
    finally:
        grader.cancel()
        while worker.is_alive():  # drain, so the worker's puts never block
            try:
                results.get(timeout=0.05)
            except queue.Empty:
                pass
        worker.join()
        if progress:
            print(f"\rweightspace: {count} records graded, {errors} errors", file=sys.stderr, flush=True)
    if failure:
        raise failure[0]


def grade_many(records: Iterable[dict], *, game: str | None = None, source: str = "original",
               episodes: int = 1000, threads: int | None = None, cache: int = 4096,
               progress: bool = False) -> list[dict]:
    """iter_grades as a list: every record's result, in input order."""
    return list(iter_grades(records, game=game, source=source, episodes=episodes, threads=threads, cache=cache,
                            progress=progress))
