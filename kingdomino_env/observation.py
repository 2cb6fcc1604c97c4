"""The observation layout: one flat float32 vector per player, egocentric.

Kingdoms come first, the observer's own, then the others in seat order (observer + 1, + 2, ...). Then both
lines, the domino to place, the dominoes not yet seen, counters and, only in variants with quests, the 17 flags
of the game's active quests (so variants without quests keep their size). `ObservationLayout` gives each block's
slice and shape, so a network can cut the vector back into planes (see `kingdom_planes`).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np

from .games.kingdomino.kernels import DOMINO_FEATURES, KINGDOM_PLANES
from .games.kingdomino.quests import N_QUESTS
from .games.queendomino.kernels import (
    N_TILES,
    Q_DOMINO_FEATURES,
    Q_KINGDOM_FEATURES,
    Q_KINGDOM_PLANES,
    Q_PLACED_FEATURES,
    Q_TILE_FEATURES,
    SLOTS,
)
from .rules import Rules

#: Names of the planes of each kingdom block, in order.
KINGDOM_PLANE_NAMES = ("wheat", "forest", "lake", "grassland", "swamp", "mine", "castle", "crowns", "open")
#: Names of the features of one domino, in order.
DOMINO_FEATURE_NAMES = (
    "present", "first_wheat", "first_forest", "first_lake", "first_grassland", "first_swamp", "first_mine",
    "first_crowns", "second_wheat", "second_forest", "second_lake", "second_grassland", "second_swamp",
    "second_mine", "second_crowns", "number_over_48",
)


@dataclass(frozen=True)
class ObservationLayout:
    """Slices of the observation vector for one variant."""

    rules: Rules

    @property
    def kingdoms(self) -> slice:
        """P x 9 x S x S planes (see KINGDOM_PLANE_NAMES), observer first."""
        r = self.rules
        return slice(0, r.players * KINGDOM_PLANES * r.frame * r.frame)

    @property
    def slot_size(self) -> int:
        """Features of one line slot: the domino (16), its king's owner one-hot (P, egocentric), acted (1)."""
        return DOMINO_FEATURES + self.rules.players + 1

    @property
    def current_line(self) -> slice:
        start = self.kingdoms.stop
        return slice(start, start + self.rules.line_size * self.slot_size)

    @property
    def next_line(self) -> slice:
        start = self.current_line.stop
        return slice(start, start + self.rules.line_size * self.slot_size)

    @property
    def held(self) -> slice:
        """The domino the observer must place now (zeros outside its PLACE phase)."""
        return slice(self.next_line.stop, self.next_line.stop + DOMINO_FEATURES)

    @property
    def unseen(self) -> slice:
        """48 flags, domino number i + 1 not yet drawn into a line (in 2-player and 36-domino games this includes
        the dominoes left in the box, which no player can tell apart from those still to come)."""
        return slice(self.held.stop, self.held.stop + 48)

    @property
    def counters(self) -> slice:
        """round / rounds, phase pick, phase place, dominoes left in the deck / D, then P scores (egocentric)."""
        return slice(self.unseen.stop, self.unseen.stop + 4 + self.rules.players)

    @property
    def quests(self) -> slice:
        """17 flags, quest i of `quests.QUESTS` active in this game; an empty slice (at the end) in variants
        without quests, whose observations end with the counters."""
        start = self.counters.stop
        return slice(start, start + (N_QUESTS if self.rules.has_quests else 0))

    @property
    def size(self) -> int:
        return self.quests.stop

    def kingdom_planes(self, obs: np.ndarray) -> np.ndarray:
        """View (..., P, 9, S, S) of the kingdom planes of observations (..., size)."""
        r = self.rules
        return obs[..., self.kingdoms].reshape(*obs.shape[:-1], r.players, KINGDOM_PLANES, r.frame, r.frame)


@dataclass(frozen=True)
class QueendominoLayout:
    """Slices of Queendomino's and the Royal Wedding's observation vector (all public information, egocentric: the
    observer's kingdom first, then the others in order). K = `rules.kingdoms` kingdom blocks (one per team in team
    games); line slots mark their king's seat among the P seats, the observer first, then (in team games) its
    teammate, then the other seats in seat order."""

    rules: Rules

    @property
    def kingdoms(self) -> slice:
        """K x 11 planes of S x S (see Q_KINGDOM_PLANE_NAMES); the castle is always at (N - 1, N - 1)."""
        r = self.rules
        return slice(0, r.kingdoms * Q_KINGDOM_PLANES * r.frame * r.frame)

    @property
    def kingdom_features(self) -> slice:
        """K x 17 (see Q_KINGDOM_FEATURE_NAMES): coins, knights, towers, the Queen, the owned buildings' effects."""
        start = self.kingdoms.stop
        return slice(start, start + self.rules.kingdoms * Q_KINGDOM_FEATURES)

    @property
    def board(self) -> slice:
        """6 Builders' Board slots x 18 (see Q_TILE_FEATURE_NAMES), zeros for an empty slot."""
        start = self.kingdom_features.stop
        return slice(start, start + SLOTS * Q_TILE_FEATURES)

    @property
    def slot_size(self) -> int:
        """Features of one line slot: the domino (18), its king's seat one-hot (P, egocentric: 0 the observer, 1 its
        teammate in team games), acted (1)."""
        return Q_DOMINO_FEATURES + self.rules.players + 1

    @property
    def current_line(self) -> slice:
        start = self.board.stop
        return slice(start, start + self.rules.line_size * self.slot_size)

    @property
    def next_line(self) -> slice:
        start = self.current_line.stop
        return slice(start, start + self.rules.line_size * self.slot_size)

    @property
    def held(self) -> slice:
        """The domino the observer must place now (18 features; zeros when not placing)."""
        return slice(self.next_line.stop, self.next_line.stop + Q_DOMINO_FEATURES)

    @property
    def placed(self) -> slice:
        """The domino placed this turn, during the optional steps: present, r, c, r2, c2 (over S - 1), knight on
        the first / second square this turn."""
        return slice(self.held.stop, self.held.stop + Q_PLACED_FEATURES)

    @property
    def unseen(self) -> slice:
        """`rules.n_domino_ids` flags (48; 96 in the Royal Wedding), domino id i not yet drawn into a line."""
        return slice(self.placed.stop, self.placed.stop + self.rules.n_domino_ids)

    @property
    def pile(self) -> slice:
        """32 flags, building tile i + 1 still in the draw pile (its order is hidden)."""
        return slice(self.unseen.stop, self.unseen.stop + N_TILES)

    @property
    def counters(self) -> slice:
        """round / rounds; phase pick, place, knights, build, dragon (one-hot); the Dragon in its cave; dominoes
        left / deck size; tiles left in the pile / 32; knights and towers left in the supply; the K kingdoms' scores
        (egocentric)."""
        return slice(self.pile.stop, self.pile.stop + 11 + self.rules.kingdoms)

    @property
    def size(self) -> int:
        return self.counters.stop

    def kingdom_planes(self, obs: np.ndarray) -> np.ndarray:
        """View (..., K, 11, S, S) of the kingdom planes of observations (..., size)."""
        r = self.rules
        return obs[..., self.kingdoms].reshape(*obs.shape[:-1], r.kingdoms, Q_KINGDOM_PLANES, r.frame, r.frame)


#: crowns: those of the domino square plus those of the building on it (what scoring counts); knights: how many
#: stand on the square (they have no further effect; the counts are in the kingdom features).
Q_KINGDOM_PLANE_NAMES = ("wheat", "forest", "lake", "grassland", "swamp", "mine", "town", "crowns", "open",
                         "building", "knights")
Q_KINGDOM_FEATURE_NAMES = (
    "coins", "knights_unplaced", "knights_owned", "towers", "hosts_queen", "fixed_points",
    "points_per_wheat_territory", "points_per_forest_territory", "points_per_lake_territory",
    "points_per_grassland_territory", "points_per_swamp_territory", "points_per_mine_territory",
    "points_per_town_territory", "points_per_knight", "points_per_tower", "tax_bonus_knight_buildings",
    "tax_bonus_tower_buildings",
)
Q_TILE_FEATURE_NAMES = (
    "present", "crowns", "points", "per_fixed", "per_wheat_territory", "per_forest_territory", "per_lake_territory",
    "per_grassland_territory", "per_swamp_territory", "per_mine_territory", "per_town_territory", "per_knight",
    "per_tower", "knights", "towers", "tax_bonus_knight", "tax_bonus_tower", "cost_for_observer",
)


def layout(rules: Rules) -> ObservationLayout | QueendominoLayout:
    """The observation layout of a variant of either game."""
    return QueendominoLayout(rules) if rules.is_queendomino else ObservationLayout(rules)


@cache
def observation_size(rules: Rules) -> int:
    return layout(rules).size
