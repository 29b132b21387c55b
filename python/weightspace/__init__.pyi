# SPDX-License-Identifier: GPL-3.0-or-later
from typing import Any, Iterable, Iterator, Optional, Sequence, TypedDict, Union

import numpy as np
import numpy.typing as npt

__version__: str

# A record of grade_many / iter_grades: a dict like a `weightspace batch` manifest line (one of
# "answer", "answer_path", "trajectory", "trajectory_path"; optional "id", "game" (a name or a
# list of names), "source", "episodes"), or an answer's text.
Record = Union[dict[str, Any], str]

class GradeResult(TypedDict):
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

class UFuncTypeError(TypeError):
    def __init__(self, message: str) -> None: ...

def assistant_answer(trajectory: dict[str, Any]) -> str: ...
def apply_edits(answer: str) -> tuple[dict[str, npt.NDArray[np.float32]], int]: ...
def evaluate(game: str, source: str, weights: dict[str, npt.NDArray[np.float32]], episodes: int, *,
             threads: int | None = ...) -> tuple[float, float]: ...
def grade_answer(game: str, source: str, answer: str, episodes: int = ..., *,
                 threads: int | None = ...) -> tuple[float, dict[str, object]]: ...
def iter_grades(records: Iterable[Record], *, game: str | Sequence[str] | None = ..., source: str = ...,
                episodes: int = ..., threads: int | None = ..., cache: int = ...,
                progress: bool = ...) -> Iterator[GradeResult]: ...
def grade_many(records: Iterable[Record], *, game: str | Sequence[str] | None = ..., source: str = ...,
               episodes: int = ..., threads: int | None = ..., cache: int = ...,
               progress: bool = ...) -> list[GradeResult]: ...
