"""Hints for the player to move: the advisor's best actions (`agents.advice`) with the mover's estimated chance of
winning and expected final margin, and how each action reads in the app. No pygame.

The advisor is made once per game variant and kept (the `az` network loads once); `HintAdvisor.advise` runs in a
worker thread on a copy of the state, so the window keeps drawing while it thinks.
"""

from __future__ import annotations

import math
import threading
from dataclasses import dataclass

from agents.advice import ActionEstimate, Advisor
from kingdomino_env.core import State
from kingdomino_env.rules import Rules, square_name

from .match import Match

#: Seconds the advisor thinks for a hint.
HINT_SECONDS = 1.0
#: Actions a hint lists.
HINT_TOP = 3
#: Seconds of the search that warms a newly made advisor up: the first search of a process loads the compiled
#: kernels (and runs the network's first inference), which would otherwise eat the first hint's own time.
WARM_UP_SECONDS = 0.01
#: The normal quantile of the win chance's interval shown with a hint (95%).
INTERVAL_Z = 1.96


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

    @property
    def visits(self) -> int | None:
        """The visits behind every listed action when they all have as many (a flat search's), else None."""
        counts = {e.visits for e in self.estimates}
        return counts.pop() if len(counts) == 1 else None

    @property
    def unit(self) -> str:
        """What the advisor's visits count: "simulations" for `az`, "playouts" for `mc` and `azmc`."""
        return "simulations" if self.spec.partition(":")[0] == "az" else "playouts"


class HintAdvisor:
    """The advisor of a match's variant (`spec`, None: `agents.advice.default_spec`), made on first use, thinking
    `seconds` per hint (None: the spec's own budget, which with playouts or simulations gives the same hint on
    every machine). Workers take turns (a lock), so a hint still running for an old position only delays the
    next one. `prepare` makes the advisor ahead of the first hint (the play screen runs it in a worker while the
    player reads the board): it loads the network and, when the budget is in seconds, runs a short untimed search
    (`WARM_UP_SECONDS`) that loads the compiled kernels, so that every hint gets its whole time to think."""

    def __init__(self, spec: str | None = None, seconds: float | None = HINT_SECONDS, seed: int | None = 0):
        self.spec = spec
        self.seconds = seconds
        self.seed = seed
        self._advisor: Advisor | None = None
        self._lock = threading.Lock()

    def ready(self, rules: Rules) -> bool:
        """Whether the advisor of `rules` is made and warmed up (a hint then needs only its own time)."""
        advisor = self._advisor
        return advisor is not None and advisor.rules == rules

    def prepare(self, state: State) -> None:
        """Make and warm up the advisor of game 0 of `state`'s variant, unless it is ready (`state` is not changed;
        a game that is over is not searched)."""
        with self._lock:
            self._prepare(state)

    def _prepare(self, state: State) -> Advisor:
        if self._advisor is None or self._advisor.rules != state.rules:
            advisor = Advisor(state.rules, self.spec, self.seed)
            if self.seconds is not None and not state.is_over[0]:
                advisor.advise(state.copy(), 0, seconds=WARM_UP_SECONDS)
            self._advisor = advisor
        return self._advisor

    def advise(self, state: State, position: tuple[int, int]) -> Hint:
        """The hint for game 0 of `state` (a copy the caller no longer changes), at the match's `position`."""
        with self._lock:
            advisor = self._prepare(state)
            estimates = advisor.advise(state, 0, seconds=self.seconds)
            return Hint(position, tuple(estimates[:HINT_TOP]), advisor.spec)


def action_text(match: Match, action: int) -> str:
    """What a legal `action` of the player to move does, as every move text names it (`Rules.describe_action`,
    squares as "row 2, column 4" like the boards' labels), with the app's domino names and costs: e.g. "Place #K12
    at row 2, column 4, second half east", "Pick #Q7 (line position 2)", "Build Tavern (3 coins) at row 3, column
    5", "Pass (building)"."""
    rules = match.rules
    move = match.describe_action(action)
    if action <= rules.discard_action or rules.first_pick_action <= action < rules.first_pick_action + rules.line_size:
        text = rules.describe_action(action, match.domino_name(move.domino))
    else:
        text = move.text
        for past, now in (("passed", "pass"), ("sent", "send"), ("built", "build")):
            if text.startswith(past):
                text = now + text[len(past):]
                break
        if move.verb == "built":
            text += f" at {square_name(*move.cells[0])}"
    return text[:1].upper() + text[1:]


def win_interval(probability: float, visits: int, z: float = INTERVAL_Z) -> tuple[float, float]:
    """The Wilson score interval of a win chance estimated over `visits` playouts (0 visits: (0, 1)): honest at
    the few playouts a short search gives each action in a large game, where the estimate alone reads 0% or
    100%."""
    if visits <= 0:
        return 0.0, 1.0
    p = min(1.0, max(0.0, probability))
    z2 = z * z / visits
    centre = (p + z2 / 2) / (1 + z2)
    half = z * math.sqrt(p * (1 - p) / visits + z * z / (4 * visits * visits)) / (1 + z2)
    return max(0.0, centre - half), min(1.0, centre + half)


def count_text(visits: int, unit: str = "playouts") -> str:
    """"40 playouts", "1 playout", "no playouts"."""
    if visits <= 0:
        return f"no {unit}"
    return f"{visits} {unit if visits != 1 else unit[:-1]}"


def estimate_text(estimate: ActionEstimate, unit: str = "playouts", count: bool = True) -> str:
    """"62% to win (47-75% over 40 playouts), margin +4.1": the mover's estimated chance of winning with its 95%
    interval (`win_interval`) and, unless not `count` (a hint whose actions all rest on as many says it once),
    what it rests on; then the expected final margin. An action the search valued without visiting it says so."""
    p = estimate.win_probability
    if estimate.visits <= 0:
        return f"{p:.0%} to win (a guess: no {unit}), margin {estimate.margin:+.1f}"
    low, high = win_interval(p, estimate.visits)
    over = f" over {count_text(estimate.visits, unit)}" if count else ""
    return f"{p:.0%} to win ({low:.0%}-{high:.0%}{over}), margin {estimate.margin:+.1f}"

__all__ = ["HINT_SECONDS", "HINT_TOP", "INTERVAL_Z", "WARM_UP_SECONDS", "Hint", "HintAdvisor", "action_text",
           "count_text", "estimate_text", "win_interval"]
