"""Progress lines for tournaments run from scripts (calibration, ladders, benchmark matches): the games played of
all, and the seconds since the start, about every tenth of the way, on stderr."""

from __future__ import annotations

import sys
import time
from typing import TextIO

#: About how many lines a whole tournament prints.
LINES = 10


class GamesProgress:
    """A `run_tournament` progress callback: it counts the games each finished work unit played (a resumed
    tournament's first call counts those already on disk) and prints `label: played/total games, S s` whenever
    another tenth of `total` is done, and at the end."""

    def __init__(self, total: int, label: str, stream: TextIO | None = None, lines: int = LINES) -> None:
        for name, value in (("total", total), ("lines", lines)):
            if not isinstance(value, int) or isinstance(value, bool) or value < 1:
                raise ValueError(f"{name} must be a whole number of at least 1, got {value!r}")
        self.total, self.label, self.stream = total, label, stream
        self.step = max(1, -(-total // lines))
        self.played = 0
        self.began = time.perf_counter()

    def __call__(self, games: int) -> None:
        before, self.played = self.played, self.played + games
        if self.played // self.step > before // self.step or self.played >= self.total:
            print(f"{self.label}: {self.played}/{self.total} games, {time.perf_counter() - self.began:.0f} s",
                  file=self.stream or sys.stderr, flush=True)
