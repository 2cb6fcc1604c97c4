"""Match results over several games (the Dynasty variant: three games in a row, totals decide).

The play app's Dynasty option and `kingdomino tournament --dynasty` both rank matches with this module.

Ranking follows the base rules, applied to the match: highest total score, then the largest territory (summed
over the games), then crowns (summed); players still tied share the victory. `tie_break` names what decided a
ranking, for one game (with the core's scores, largest territories and crowns) as for a match.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from .core import State, rank_by, rank_keys

#: Games in a Dynasty match.
DYNASTY_GAMES = 3


@dataclass(frozen=True)
class GameResult:
    """One finished game: each kingdom's score, largest territory and crowns (the core's `rank_keys`: no crowns in
    Queendomino and the Royal Wedding, whose ties go to the largest territory only)."""

    scores: tuple[int, ...]
    largest: tuple[int, ...]
    crowns: tuple[int, ...]

    @classmethod
    def from_state(cls, state: State, game: int = 0) -> GameResult:
        scores, largest, crowns = rank_keys(state)
        return cls(tuple(int(v) for v in scores[game]), tuple(int(v) for v in largest[game]),
                   tuple(int(v) for v in crowns[game]))


@dataclass(frozen=True)
class Standing:
    """Totals over the games so far, the competition ranks (0 = winner) and what decided first place."""

    scores: tuple[int, ...]
    largest: tuple[int, ...]
    crowns: tuple[int, ...]
    ranks: tuple[int, ...]
    decided_by: str

    @property
    def winners(self) -> list[int]:
        return [p for p, r in enumerate(self.ranks) if r == 0]


def rank(scores: Sequence[int], largest: Sequence[int], crowns: Sequence[int]) -> tuple[int, ...]:
    """Competition ranks (0 = winner) by score, then largest territory, then crowns (`core.rank_by`)."""
    return tuple(int(r) for r in rank_by(np.asarray(scores), np.asarray(largest), np.asarray(crowns)))


def tie_break(scores: Sequence[int], largest: Sequence[int], crowns: Sequence[int]) -> str:
    """What decided first place: "score", "largest territory", "crowns", or "shared" (a shared victory)."""
    top = [p for p in range(len(scores)) if scores[p] == max(scores)]
    if len(top) == 1:
        return "score"
    best = max(largest[p] for p in top)
    top = [p for p in top if largest[p] == best]
    if len(top) == 1:
        return "largest territory"
    most = max(crowns[p] for p in top)
    top = [p for p in top if crowns[p] == most]
    return "crowns" if len(top) == 1 else "shared"


def standing(results: Sequence[GameResult]) -> Standing:
    """The standing after `results` (at least one game, all with the same players)."""
    if not results:
        raise ValueError("a standing needs at least one finished game")
    scores = tuple(int(v) for v in np.sum([r.scores for r in results], axis=0))
    largest = tuple(int(v) for v in np.sum([r.largest for r in results], axis=0))
    crowns = tuple(int(v) for v in np.sum([r.crowns for r in results], axis=0))
    return Standing(scores, largest, crowns, rank(scores, largest, crowns), tie_break(scores, largest, crowns))


__all__ = ["DYNASTY_GAMES", "GameResult", "Standing", "rank", "standing", "tie_break"]
