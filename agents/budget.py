"""Search budgets: seconds per move or playouts per move, and their spec grammar."""

from __future__ import annotations

import math
from dataclasses import dataclass

#: What follows the colon of a search agent spec.
BUDGET_GRAMMAR = "SECONDS (e.g. 0.5 or 0.5s, time per move) or pN (e.g. p200, playouts per move)"


@dataclass(frozen=True)
class Budget:
    """A search's budget per move: exactly one of seconds or playouts.

    A playout budget makes a seeded search reproducible; a time budget depends on the machine.

    Args:
        seconds: Wall-clock time per move, a positive number.
        playouts: Playouts per move, at least 1.

    Raises:
        ValueError: Both or neither are given, or the one given is out of range.
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
        """A budget from its spec text.

        Args:
            text: `"0.5"` or `"0.5s"` for 0.5 seconds per move; `"p200"` for 200 playouts per move.

        Raises:
            ValueError: `text` follows neither form, naming the grammar.
        """
        raw = text.strip().lower()
        try:
            if raw.startswith("p"):
                return cls(playouts=int(raw[1:]))
            return cls(seconds=float(raw.removesuffix("s")))
        except ValueError as err:
            raise ValueError(f"bad search budget {text!r}: expected {BUDGET_GRAMMAR} ({err})") from None

    def __str__(self) -> str:
        return f"p{self.playouts}" if self.playouts is not None else f"{self.seconds:g}"
