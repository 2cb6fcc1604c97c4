"""`Settings`: how a `CompiledSearchAgent` searches, every field checked when the settings are made."""

from __future__ import annotations

import math
from dataclasses import dataclass, fields

import numpy as np

from ..playout import check_playout
from .evaluate import MARGIN_SOFTNESS

#: Settings that value the margin alone, squashed gently (`margin_weight`, `margin_softness`), so that the search
#: plays for the largest win it can find rather than the surest (the `csearch-margin` spec).
MARGIN_SEEKING = {"margin_weight": 1.0, "margin_softness": 100.0}
#: The share of a Full Greedy playout in leaf values where neither the settings nor the network name one.
DEFAULT_PLAYOUT_MIX = 0.5
#: Sampled worlds a search shares among the root's actions (`search.Worlds`).
SHARED_WORLDS = 256
#: How a search's move is chosen among the root's legal actions: the most visited (`visits`), or the best mean
#: utility among those with at least `agent.MEAN_CHOICE_SHARE` of the most visits (`mean`).
CHOICES = ("visits", "mean")
#: How the root's simulations are shared among its actions: PUCT's selection (`puct`), or sequential halving
#: (`halving`: every legal action gets the same simulations, then the better half by mean utility goes on, round
#: after round, and the move is the best mean of the last round).
ROOTS = ("puct", "halving")
#: The priors a search can name without a file: the hand-set weights.
HAND_PRIORS = "hand"
#: The most shared worlds and tree nodes a search may hold (each world is a copy of the game; a node a few numbers
#: per kingdom): bounds that keep a mistyped setting from exhausting memory.
MAX_WORLDS = 1 << 14
MAX_NODES = 1 << 26


@dataclass(frozen=True)
class Settings:
    """How a `CompiledSearchAgent` searches.

    c_puct: PUCT's exploration constant. margin_weight, margin_softness: a kingdom's utility is
    (1 - margin_weight) * its win share + margin_weight * (1 + tanh(margin / margin_softness)) / 2, the margin in
    points over the best other kingdom; the defaults play to win, `MARGIN_SEEKING` weighs the margin more, for the
    largest wins against weaker players. value_scale: points of the heuristic's evaluated lead (Queendomino: of the
    score lead) that make a utility of about 0.73. playout_mix: the share of a playout in leaf values; None: the one
    the network's file names (`playout_mix` in its metadata), else DEFAULT_PLAYOUT_MIX (in Queendomino and the
    Royal Wedding, `games.QUEENDOMINO_PLAYOUT_MIX`). max_nodes: the tree's room (a search stops early when it is
    full). reuse: when a player decides twice in a row with no domino drawn in between (a turn's placement, then its
    pick), the second search goes on from the subtree of the action the first chose; False starts every search
    afresh. worlds: the sampled worlds the root's actions share, the k-th simulation through each in a search
    playing the k-th world (common random numbers); 0: every simulation samples a world of its own. playout: the
    playout policy, `greedy` (Full Greedy) or `heuristic` (the heuristic agent's moves, Full Greedy's in the last
    round). choice: how the move is chosen from the root's statistics (`CHOICES`). root: how the root's
    simulations are shared among its actions (`ROOTS`). endgame: play Kingdomino's last round exactly
    (`kingdomino_endgame`), without searching; the search's playouts play it exactly too, and a leaf in it is
    valued by that exact playout alone. priors: the weights of the priors' features (`priors`): `hand`, the
    hand-set ones, or the path of a priors file (`training.csearch_priors fit` writes them).
    """

    c_puct: float = 1.5
    margin_weight: float = 0.25
    margin_softness: float = MARGIN_SOFTNESS
    value_scale: float = 8.0
    playout_mix: float | None = None
    max_nodes: int = 1 << 18
    reuse: bool = True
    worlds: int = SHARED_WORLDS
    playout: str = "greedy"
    choice: str = "visits"
    root: str = "puct"
    endgame: bool = True
    priors: str = HAND_PRIORS

    def __post_init__(self) -> None:
        for name in ("c_puct", "value_scale"):
            if not _is_number(getattr(self, name)) or not 0 < getattr(self, name) < math.inf:
                raise ValueError(f"{name} must be a positive number, not {getattr(self, name)!r}")
        if not _is_number(self.margin_weight) or not 0 <= self.margin_weight <= 1:
            raise ValueError(f"margin_weight must be a share from 0 to 1, not {self.margin_weight!r}")
        if not _is_number(self.margin_softness) or not 0 < self.margin_softness < math.inf:
            raise ValueError(f"margin_softness must be a positive number of points, not {self.margin_softness!r}")
        if self.playout_mix is not None and (not _is_number(self.playout_mix) or not 0 <= self.playout_mix <= 1):
            raise ValueError(f"playout_mix must be a share from 0 to 1 (or None: the network's or the game's "
                             f"default), not {self.playout_mix!r}")
        if not _is_whole(self.max_nodes) or not 2 <= self.max_nodes <= MAX_NODES:
            raise ValueError(f"max_nodes must be a whole number of nodes from 2 to {MAX_NODES}, not "
                             f"{self.max_nodes!r}")
        if not _is_whole(self.worlds) or not 0 <= self.worlds <= MAX_WORLDS:
            raise ValueError(f"worlds must be a whole number of shared worlds from 0 to {MAX_WORLDS} (0: a world "
                             f"per simulation), not {self.worlds!r}")
        check_playout(self.playout)
        for name, allowed in (("choice", CHOICES), ("root", ROOTS)):
            if getattr(self, name) not in allowed:
                raise ValueError(f"{name} must be one of {', '.join(allowed)}, not {getattr(self, name)!r}")
        if not isinstance(self.priors, str) or not self.priors:
            raise ValueError(f"priors must be {HAND_PRIORS!r} or the path of a priors file, not {self.priors!r}")
        for name in ("reuse", "endgame"):
            if not isinstance(getattr(self, name), bool):
                raise ValueError(f"{name} must be True or False, not {getattr(self, name)!r}")

    @classmethod
    def of(cls, base: Settings | None = None, **changes: object) -> Settings:
        """`base` (the defaults if None) with the named fields changed; an unknown name is refused, the names
        allowed listed."""
        if base is not None and not isinstance(base, Settings):
            raise TypeError(f"settings must be an agents.csearch.settings.Settings, not {type(base).__name__}")
        allowed = [f.name for f in fields(cls)]
        unknown = sorted(set(changes) - set(allowed))
        if unknown:
            raise TypeError(f"unknown csearch setting {', '.join(unknown)}; the settings are {', '.join(allowed)}")
        return cls(**{**(vars(base) if base is not None else {}), **changes})


def _is_number(value: object) -> bool:
    """Whether `value` is a real number (not a bool)."""
    return isinstance(value, (int, float, np.integer, np.floating)) and not isinstance(value, bool)


def _is_whole(value: object) -> bool:
    """Whether `value` is an integer (not a bool)."""
    return isinstance(value, (int, np.integer)) and not isinstance(value, bool)
