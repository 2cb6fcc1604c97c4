"""A display breakdown of a kingdom's score for the Scores screen: `core.score_breakdown` as small records.

No pygame. The territories, bonuses, wealth, buildings and the Queen are counted by the core; this module only
names them (`breakdown` for Kingdomino, `queen_breakdown` for Queendomino and the Royal Wedding).
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


@dataclass(frozen=True)
class QueenBreakdown:
    """A Queendomino kingdom's score: wealth (coins and their points), territories (largest points first, crowns
    of dominoes and buildings), where the Queen sits and her points, each building (name, points) and the
    total."""

    coins: int
    wealth: int
    territories: tuple[Territory, ...]
    queen_terrain: str | None
    queen: int
    buildings: tuple[tuple[str, int], ...]
    total: int

    @property
    def territory_points(self) -> int:
        return sum(t.points for t in self.territories)

    @property
    def building_points(self) -> int:
        return sum(points for _, points in self.buildings)


def queen_breakdown(state: State, game: int, kingdom: int) -> QueenBreakdown:
    """The breakdown of kingdom `kingdom`'s score in a Queendomino or Royal Wedding game."""
    items = core.score_breakdown(state, game, kingdom)
    territories = tuple(Territory(t["terrain"], t["squares"], t["crowns"]) for t in items["territories"])
    seat = next((t["terrain"] for t in items["territories"] if t["queen"]), None)
    buildings = tuple((b["name"], b["points"]) for b in items["buildings"])
    return QueenBreakdown(int(state.coins[game, kingdom]), items["wealth"], territories, seat, items["queen"],
                          buildings, items["total"])


__all__ = ["Breakdown", "QueenBreakdown", "Territory", "breakdown", "queen_breakdown"]
