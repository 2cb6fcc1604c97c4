"""A finished or saved game looked at again: the position before each move, what each move did, and the advisor's
analysis of every decision (`agents.analysis`), computed in a worker with its progress. No pygame.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Any

from agents.analysis import Decision, GameAnalysis, analyse_record
from kingdomino_env.record import replay

from .hints import action_text
from .match import Match
from .seats import Seat
from .thinking import Job


class Cancelled(Exception):
    """The analysis was stopped because its screen was left."""


class Review:
    """The game of `record` between `seats` (their names; nobody plays): `positions` moves, each viewable."""

    def __init__(self, record: dict[str, Any], seats: Sequence[Seat]):
        state, self.actions = replay(record)
        self.record = {key: value for key, value in record.items() if key != "scores"}
        self.rules = state.rules
        self.seats = [Seat(seat.name) for seat in seats]
        #: The last position asked for (stepping asks for the same one every frame).
        self._last: tuple[int, Match] | None = None

    @property
    def moves(self) -> int:
        return len(self.actions)

    def match_at(self, step: int) -> Match:
        """The game before move `step` (0..moves; `moves`: the end), as a match nobody plays."""
        if not 0 <= step <= self.moves:
            raise ValueError(f"step must be 0..{self.moves}, got {step}")
        if self._last is None or self._last[0] != step:
            self._last = step, Match(self.seats, self.rules, seed=0,
                                     record={**self.record, "actions": list(self.actions[:step])})
        return self._last[1]

    def move_text(self, step: int) -> str:
        """"Ann placed #12 (move 5 of 48)"; "End of the game" after the last move."""
        if step >= self.moves:
            return f"End of the game ({self.moves} moves)"
        match = self.match_at(step)
        move = match.describe_action(self.actions[step]).describe(match.names)
        return f"Move {step + 1} of {self.moves}: {move}"

    def best_text(self, decision: Decision) -> str:
        """What the advisor would have played at `decision`."""
        return action_text(self.match_at(decision.index), decision.best)


class AnalysisRun:
    """`analyse_record` of a review's game in a worker: `done` of `total` decisions so far; `cancel()` stops it at
    the next decision. The job's result is the GameAnalysis."""

    def __init__(self, review: Review, spec: str | None, seconds: float | None, seed: int = 0):
        self.done = 0
        self.total = 0
        self._cancelled = threading.Event()
        record = dict(review.record, actions=list(review.actions))
        self.job: Job[GameAnalysis] = Job(("analysis", review.moves), lambda: analyse_record(
            record, spec, seconds=seconds, seed=seed, progress=self._progress), "analysis")

    def _progress(self, done: int, total: int) -> None:
        self.done, self.total = done, total
        if self._cancelled.is_set():
            raise Cancelled

    def cancel(self) -> None:
        self._cancelled.set()

    @property
    def result(self) -> GameAnalysis | None:
        return self.job.result if self.job.done else None

    @property
    def error(self) -> str:
        """Why the analysis failed ("" while it runs or when it worked)."""
        err = self.job.error if self.job.done else None
        return "" if err is None or isinstance(err, Cancelled) else f"The analysis failed: {err}"


__all__ = ["AnalysisRun", "Cancelled", "Review"]
