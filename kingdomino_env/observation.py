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

from .kernels import DOMINO_FEATURES, KINGDOM_PLANES
from .quests import N_QUESTS
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


@cache
def observation_size(rules: Rules) -> int:
    return ObservationLayout(rules).size
