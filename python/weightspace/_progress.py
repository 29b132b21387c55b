# SPDX-License-Identifier: GPL-3.0-or-later
"""grade_many's progress on stderr, in the form `weightspace batch` writes it."""
from __future__ import annotations

import sys
import time

PERIOD = 5.0  # seconds between progress lines when stderr is not a terminal, as the batch command
REDRAW = 0.1  # seconds between redraws on a terminal


def _duration(seconds: float) -> str:
    """m:ss or h:mm:ss, as the batch command's progress line writes it."""
    total = int(seconds + 0.5)
    if total >= 3600:
        return f"{total // 3600}:{total // 60 % 60:02d}:{total % 60:02d}"
    return f"{total // 60}:{total % 60:02d}"


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}{'' if count == 1 else 's'}"


class Progress:
    """The batch command's progress on stderr: on a terminal one line redrawn ten times a second,
    otherwise a log line every PERIOD seconds; the total and an ETA when the records are
    a sized collection, and a summary line at the end."""

    def __init__(self, total: int | None) -> None:
        self.stream = sys.stderr
        self.terminal = self.stream is not None and self.stream.isatty()
        self.total, self.done, self.errors = total, 0, 0
        self.start = self.last = time.monotonic()

    def line(self) -> str:
        elapsed = time.monotonic() - self.start
        rate = self.done / elapsed if elapsed > 0 else 0.0
        total = "" if self.total is None else f"/{self.total}"
        text = f"{self.done}{total} records, {rate:.1f} grades/s, {_plural(self.errors, 'error')}"
        if self.total is not None and self.done and rate > 0 and self.total >= self.done:
            text += f", ETA {_duration((self.total - self.done) / rate)}"
        return text

    def record(self, result: dict) -> None:
        self.done += 1
        self.errors += result["reward"]["parse_success"] == 0.0
        now = time.monotonic()
        if self.stream is None or now - self.last < (REDRAW if self.terminal else PERIOD):
            return
        self.last = now
        if self.terminal:
            print(f"\r\x1b[2Kweightspace: {self.line()}", end="", file=self.stream, flush=True)
        else:
            print(f"weightspace: {self.line()}", file=self.stream, flush=True)

    def finish(self) -> None:
        if self.stream is None:
            return
        seconds = time.monotonic() - self.start
        clear = "\r\x1b[2K" if self.terminal else ""
        print(f"{clear}weightspace: {_plural(self.done, 'record')} graded, {_plural(self.errors, 'error')}, "
              f"{_duration(seconds)}", file=self.stream, flush=True)
