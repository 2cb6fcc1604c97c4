"""Search budgets: seconds per move or playouts per move, and their spec grammar.

A budget is bounded above (`MAX_SECONDS`, `MAX_PLAYOUTS`): every search counts its playouts and simulations in
64-bit integers and reads the clock in floats, and a number beyond those bounds (`mc:p99999999999999999999`,
`mc:1e300`) is a typing slip, not a budget; it is refused with the allowed range before any game starts.
"""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass

#: The longest time budget per move: a day.
MAX_SECONDS = 86_400.0
#: The largest count budget per move (playouts, or an `az` network's simulations): a million, minutes to hours of
#: search per move, and far within 64 bits even summed over a tournament's moves.
MAX_PLAYOUTS = 10**6
#: What follows the colon of a search agent spec.
BUDGET_GRAMMAR = (f"SECONDS (e.g. 0.5 or 0.5s, time per move, at most {MAX_SECONDS:g}) or pN (e.g. p200, playouts per "
                  f"move, N from 1 to {MAX_PLAYOUTS:_})")


def check_seconds(seconds: object, what: str = "seconds per move") -> float:
    """`seconds` as a float if it is a number in (0, MAX_SECONDS]; ValueError naming `what` and the range if not."""
    if isinstance(seconds, bool) or not isinstance(seconds, numbers.Real) \
            or not (math.isfinite(seconds) and 0 < seconds <= MAX_SECONDS):
        raise ValueError(f"{what} must be a positive number of at most {MAX_SECONDS:g}, got {seconds!r}")
    return float(seconds)


def check_count(count: object, what: str = "playouts per move", low: int = 1) -> int:
    """`count` if it is an integer in low..MAX_PLAYOUTS; ValueError naming `what` and the range if not."""
    if isinstance(count, bool) or not isinstance(count, numbers.Integral) or not low <= count <= MAX_PLAYOUTS:
        raise ValueError(f"{what} must be an integer from {low} to {MAX_PLAYOUTS:_}, got {count!r}")
    return int(count)


def parse_count(digits: str, what: str = "playouts per move", low: int = 1) -> int:
    """The count written as decimal `digits` (ASCII), checked by `check_count` without converting a number of
    thousands of digits; ValueError naming `what` and the range otherwise."""
    if not (digits.isascii() and digits.isdigit()):
        raise ValueError(f"{what} must be an integer from {low} to {MAX_PLAYOUTS:_}, got {digits!r}")
    stripped = digits.lstrip("0") or "0"
    if len(stripped) > len(str(MAX_PLAYOUTS)):
        raise ValueError(f"{what} must be an integer from {low} to {MAX_PLAYOUTS:_}, got {stripped[:24]}"
                         f"{'...' if len(stripped) > 24 else ''} ({len(stripped)} digits)")
    return check_count(int(stripped), what, low)


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
        if self.seconds is not None:
            check_seconds(self.seconds)
        if self.playouts is not None:
            check_count(self.playouts)

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
                return cls(playouts=parse_count(raw[1:]))
            return cls(seconds=float(raw.removesuffix("s")))
        except ValueError as err:
            raise ValueError(f"bad search budget {text!r}: expected {BUDGET_GRAMMAR} ({err})") from None

    def __str__(self) -> str:
        return f"p{self.playouts}" if self.playouts is not None else f"{self.seconds:g}"
