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
import difflib
import json
import operator
import queue
import re
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterable, Iterator, Optional, Sequence, Sized, TypedDict, Union

from . import _native
from ._progress import Progress as _Progress

if TYPE_CHECKING:  # the annotations' types, named as the stubs (__init__.pyi) name them
    import numpy as np
    import numpy.typing as npt

__all__ = ["assistant_answer", "apply_edits", "evaluate", "grade_answer", "grade_many", "iter_grades",
           "GradeResult", "Record", "UFuncTypeError", "__version__"]
__version__ = "0.1.0"

# verify.py's pattern, used only to raise its exact TypeError on an answer that is not a str.
_EDITS_BLOCK = re.compile(r"```edits\s*\n(.*?)```", re.DOTALL | re.IGNORECASE)
_MAX_EPISODES = 0xFFFFFFFF - 7919 + 1  # numpy seeds are 32-bit: 7919 + i must fit

# A record of grade_many: a batch manifest line's dict, or an answer's text.
Record = Union[dict[str, Any], str]


class GradeResult(TypedDict):
    """One result of grade_many / iter_grades: a `weightspace batch` output line."""
    id: Any
    game: str
    source: str
    episodes: Any
    reward: dict[str, Any]
    weights_sha256: Optional[str]
    error_kind: Optional[str]
    error_line: Optional[int]
    error_column: Optional[int]
    cached: bool
    weightspace_version: str
    seconds: float
    steps: int

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


def assistant_answer(trajectory: dict[str, Any]) -> str:
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


def apply_edits(answer: str) -> tuple[dict[str, npt.NDArray[np.float32]], int]:
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


def evaluate(game: str, source: str, weights: dict[str, npt.NDArray[np.float32]], episodes: int, *,
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


def _games_of(value: Any) -> list:
    """A record's or the call's games as a list: a name, or a list of names graded in the order given
    (as a batch manifest line's "game"). Anything else is kept as one entry, which fails as that
    record's result."""
    return list(value) if isinstance(value, (list, tuple)) else [value]


def _check_call_games(game: Any) -> None:
    """The call's own games must name registered games (as `weightspace batch --game` requires): a
    typo would otherwise fail every record. A record's own "game" keeps the grader's semantics."""
    if game is None:
        return
    known = sorted({name for _, name in _native.registered_games()})
    for name in _games_of(game):
        if not isinstance(name, str):
            raise TypeError(f"game must be a str or a list of str, got {type(name).__name__}")
        if name not in known:
            close = difflib.get_close_matches(name, known, n=1)
            hint = f"; did you mean {close[0]!r}?" if close else f" (registered: {', '.join(known)})"
            raise ValueError(f"unknown game {name!r}{hint}")
    if not _games_of(game):
        raise ValueError("game must not be an empty list")


def _expand(records: Iterable[Any], game: Any, source: str, episodes: int) -> Iterator[tuple]:
    """One (id, game, source, episodes, answer text or None, error kind, error message) per result:
    a record with a list of games gives one per game. A record that cannot be read is a failed
    result, never an exception."""
    for index, record in enumerate(records):
        if isinstance(record, str):  # an answer's text, graded with the call's game, source and episodes
            record = {"answer": record}
        if not isinstance(record, dict):
            yield (index, game if isinstance(game, str) else "", source, 0, None, "TypeError",
                   f"a record must be a dict or an answer str, got {type(record).__name__}")
            continue
        rid = record.get("id", index)
        games = _games_of(record.get("game", game))
        if not games:
            yield (rid, "", record.get("source", source), 0, None, "ValueError", '"game" must not be an empty list')
            continue
        for g in games:
            s, n = record.get("source", source), record.get("episodes", episodes)
            try:
                if g is None:
                    raise ValueError('no game: give the record a "game" or call with game=...')
                if not isinstance(g, str) or not isinstance(s, str):
                    raise ValueError("a record's game and source must be str (or game a list of str)")
                count = max(min(operator.index(n), _MAX_EPISODES + 1), -1)
                text = _answer_of(record)
                if not isinstance(text, str):
                    raise TypeError(f"the answer must be a str, got {type(text).__name__}")
                yield (rid, g, s, n, text, count, None)
            except Exception as error:  # reported as the record's result, as the batch CLI does
                yield (rid, g if isinstance(g, str) else "", s if isinstance(s, str) else "", n, None,
                       type(error).__name__, str(error))


def _result_count(records: Iterable[Any], game: Any) -> int | None:
    """How many results a sized collection of records gives (for the progress line's total)."""
    if not isinstance(records, Sized):
        return None
    count = 0
    for record in records:
        games = record.get("game", game) if isinstance(record, dict) else game
        count += max(len(_games_of(games)), 1)
    return count


def iter_grades(records: Iterable[Record], *, game: str | Sequence[str] | None = None, source: str = "original",
                episodes: int = 1000, threads: int | None = None, cache: int = 4096,
                progress: bool = False) -> Iterator[GradeResult]:
    """Grades a stream of records on all cores and yields one result per record and game, in input order.

    A record is a dict like a line of `weightspace batch`'s manifest: one of "answer",
    "answer_path", "trajectory" (the dict) or "trajectory_path", and optionally "id", "game"
    (a name or a list of names: one result per game, in that order), "source", "episodes"
    (defaults: the keyword arguments; `game` may be a list too). A str record is an answer's text.
    A result is a dict: "id", "game", "source", "episodes", "reward" (json.dumps of it is
    verify.py's reward.json), "weights_sha256", "error_kind", "error_line", "error_column", "cached",
    "weightspace_version", "seconds", "steps". A record that cannot be read or graded is a result
    with parse_success 0.0, never an exception; its error's class and place (line and column in the
    edits block) are beside the reward, None on success and the place None when the error has none.
    Raises before grading only for a mistake in the call itself: a `game` keyword naming no
    registered game (ValueError with a did-you-mean), a bad `threads` or `cache`.

    `progress=True` reports on stderr as `weightspace batch` does: on a terminal one line redrawn
    ten times a second, otherwise a line every five seconds, with the total and an ETA when
    `records` is a sized collection (a list), and a summary line at the end.
    """
    _check_call_games(game)
    grader = _native.BatchGrader(_threads(threads), operator.index(cache))
    total = _result_count(records, game) if progress else None
    pending: dict[int, tuple[Any, str, str, Any]] = {}
    results: queue.Queue = queue.Queue(maxsize=1024)
    done = object()

    def feed():
        for index, (rid, g, s, n, text, count, message) in enumerate(_expand(records, game, source, episodes)):
            pending[index] = (rid, g, s, n)
            if text is None:  # count holds the error's class
                yield (index, None, g, s, 0, count, message)
            else:
                yield (index, text, g, s, count, None, None)

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
    meter = _Progress(total) if progress else None
    try:
        while True:
            item = results.get()
            if item is done:
                break
            if meter:
                meter.record(item)
            yield item
    finally:
        grader.cancel()
        while worker.is_alive():  # drain, so the worker's puts never block
            try:
                results.get(timeout=0.05)
            except queue.Empty:
                pass
        worker.join()
        if meter:
            meter.finish()
    if failure:
        raise failure[0]


def grade_many(records: Iterable[Record], *, game: str | Sequence[str] | None = None, source: str = "original",
               episodes: int = 1000, threads: int | None = None, cache: int = 4096,
               progress: bool = False) -> list[GradeResult]:
    """iter_grades as a list: every record's results (one per game), in input order."""
    return list(iter_grades(records, game=game, source=source, episodes=episodes, threads=threads, cache=cache,
                            progress=progress))
