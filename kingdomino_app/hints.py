"""Hints for the player to move: the advisor's best actions (`agents.advice`) with the mover's estimated chance of
winning and expected final margin, and how each action reads in the app. No pygame.

The advisor is made once per game variant and kept (the `az` network loads once); `HintAdvisor.advise` runs in a
worker thread on a copy of the state, so the window keeps drawing while it thinks.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass

from agents.advice import ActionEstimate, Advisor
from kingdomino_env.core import State
from kingdomino_env.rules import DIRECTION_NAMES

from .match import Match

#: Seconds the advisor thinks for a hint.
HINT_SECONDS = 1.0
#: Actions a hint lists.
HINT_TOP = 3
#: Seconds of the search that warms a newly made advisor up before its first hint with a budget in seconds: the first
#: search of a process loads the compiled kernels (and runs the network's first inference), which would otherwise eat
#: that hint's own time (in the window, the first Queendomino hint read 100% / 0% to win: one playout per action).
WARM_UP_SECONDS = 0.01


@dataclass(frozen=True)
class Hint:
    """The advisor's best actions (at most `HINT_TOP`, best first) for the position `position` of a match, and the
    advisor's spec."""

    position: tuple[int, int]
    estimates: tuple[ActionEstimate, ...]
    spec: str

    @property
    def best(self) -> int:
        return self.estimates[0].action


class HintAdvisor:
    """The advisor of a match's variant (`spec`, None: `agents.advice.default_spec`), made on first use, thinking
    `seconds` per hint (None: the spec's own budget, which with playouts or simulations gives the same hint on
    every machine). Workers take turns (a lock), so a hint still running for an old position only delays the
    next one. A newly made advisor first runs a short untimed search (`WARM_UP_SECONDS`) when the budget is in
    seconds, so that every hint gets its whole time to think."""

    def __init__(self, spec: str | None = None, seconds: float | None = HINT_SECONDS, seed: int | None = 0):
        self.spec = spec
        self.seconds = seconds
        self.seed = seed
        self._advisor: Advisor | None = None
        self._lock = threading.Lock()

    def advise(self, state: State, position: tuple[int, int]) -> Hint:
        """The hint for game 0 of `state` (a copy the caller no longer changes), at the match's `position`."""
        with self._lock:
            if self._advisor is None or self._advisor.rules != state.rules:
                self._advisor = Advisor(state.rules, self.spec, self.seed)
                if self.seconds is not None:
                    self._advisor.advise(state, 0, seconds=WARM_UP_SECONDS)
            estimates = self._advisor.advise(state, 0, seconds=self.seconds)
            return Hint(position, tuple(estimates[:HINT_TOP]), self._advisor.spec)


def action_text(match: Match, action: int) -> str:
    """What a legal `action` of the player to move does, e.g. "Place K12 at row 2, column 4, facing east",
    "Pick Q7", "Build Tavern (3 coins)", "Pass (building)"."""
    rules = match.rules
    move = match.describe_action(action)
    if action < rules.n_place_actions:
        cell, direction = divmod(action, 4)
        row, col = divmod(cell, rules.frame)
        return (f"Place {match.domino_name(move.domino)} at row {row + 1}, column {col + 1}, facing "
                f"{DIRECTION_NAMES[direction]}")
    text = move.text
    for past, now in (("placed", "place"), ("discarded", "discard"), ("picked", "pick"), ("passed", "pass"),
                      ("sent", "send"), ("built", "build")):
        if text.startswith(past):
            text = now + text[len(past):]
            break
    return text[:1].upper() + text[1:]


def estimate_text(estimate: ActionEstimate) -> str:
    """"62% to win, margin +4.1" (the mover's estimated chance of winning and expected final margin)."""
    return f"{estimate.win_probability:.0%} to win, margin {estimate.margin:+.1f}"


__all__ = ["HINT_SECONDS", "HINT_TOP", "WARM_UP_SECONDS", "Hint", "HintAdvisor", "action_text", "estimate_text"]
