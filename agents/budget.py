"""Search budgets: seconds per move or playouts per move, and their spec grammar."""

from __future__ import annotations

import math
from dataclasses import dataclass

#: What follows the colon of a search agent spec.
BUDGET_GRAMMAR = "SECONDS (e.g. 0.5 or 0.5s, time per move) or pN (e.g. p200, playouts per move)"


@dataclass(frozen=True)
class Budget:
    """Exactly one of `seconds` (wall-clock time per move) or `playouts` (playouts per move).

    A playout budget makes a seeded search reproducible; a time budget depends on the machine.
    """

    seconds: float | None = None
    playouts: int | None = None

    def __post_init__(self) -> None:
        if (self.seconds is None) == (self.playouts is None):
            raise ValueError("a budget is either seconds or playouts per move")
        if self.seconds is not None and not (math.isfinite(self.seconds) and self.seconds > 0):
            raise ValueError(f"seconds per move must be a positive number, got {self.seconds}")
        if self.playouts is not None and self.playouts < 1:
            raise ValueError(f"playouts per move must be at least 1, got {self.playouts}")

    @classmethod
    def parse(cls, text: str) -> Budget:
        """`"0.5"`, `"0.5s"` -> 0.5 seconds per move; `"p200"` -> 200 playouts per move."""
        raw = text.strip().lower()
        try:
            if raw.startswith("p"):
                return cls(playouts=int(raw[1:]))
            return cls(seconds=float(raw.removesuffix("s")))
        except ValueError as err:
            raise ValueError(f"bad search budget {text!r}: expected {BUDGET_GRAMMAR} ({err})") from None

    def __str__(self) -> str:
        return f"p{self.playouts}" if self.playouts is not None else f"{self.seconds:g}"
