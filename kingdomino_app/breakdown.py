"""A display breakdown of a kingdom's score for the Scores screen: `core.score_breakdown` as small records.

No pygame. The territories and bonuses are counted by the core's scoring kernel; this module only names them.
"""

from __future__ import annotations

from dataclasses import dataclass

from kingdomino_env import core
from kingdomino_env.core import State


@dataclass(frozen=True)
class Territory:
    terrain: str
    squares: int
    crowns: int

    @property
    def points(self) -> int:
        return self.squares * self.crowns


@dataclass(frozen=True)
class Breakdown:
    """A kingdom's territories (largest points first), its bonus points and their names, the points of each
    active quest (name, points) and the total."""

    territories: tuple[Territory, ...]
    bonus: int
    bonus_names: tuple[str, ...]
    total: int
    quests: tuple[tuple[str, int], ...] = ()

    @property
    def territory_points(self) -> int:
        return sum(t.points for t in self.territories)

    @property
    def quest_points(self) -> int:
        return sum(points for _, points in self.quests)


def breakdown(state: State, game: int, player: int) -> Breakdown:
    """The breakdown of `player`'s score in game `game`."""
    items = core.score_breakdown(state, game, player)
    territories = tuple(Territory(t["terrain"], t["squares"], t["crowns"]) for t in items["territories"])
    bonuses = [(name, items[key]) for name, key in (("Harmony", "harmony"), ("Middle Kingdom", "middle_kingdom"))
               if items[key]]
    return Breakdown(territories, sum(points for _, points in bonuses), tuple(name for name, _ in bonuses),
                     items["total"], tuple(items.get("quests", {}).items()))


__all__ = ["Breakdown", "Territory", "breakdown"]
