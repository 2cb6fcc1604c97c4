"""The observation layout: one flat float32 vector per player, egocentric, made of the named blocks its game
declares (`games.kingdomino.observation`, `games.queendomino.observation`).

`ObservationLayout(rules)` (also `rules.observation_layout`) gives each block's slice by name
(`layout.kingdoms`, `layout.counters`, ...), its shape, the index of a named feature, the bounds of the whole
vector (the envs' Box) and a signature that trained models record. Kingdomino: kingdoms, current_line, next_line,
held, unseen, counters, quests (empty without quests). Queendomino and the Royal Wedding: kingdoms,
kingdom_features, board, current_line, next_line, held, placed, unseen, pile, counters.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from .games.blocks import Block, BlockLayout
from .games.kingdomino.observation import DOMINO_FEATURE_NAMES, KINGDOM_PLANE_NAMES
from .games.queendomino.observation import Q_KINGDOM_FEATURE_NAMES, Q_KINGDOM_PLANE_NAMES, Q_TILE_FEATURE_NAMES

if TYPE_CHECKING:
    from .rules import Rules

__all__ = ["DOMINO_FEATURE_NAMES", "KINGDOM_PLANE_NAMES", "Q_KINGDOM_FEATURE_NAMES", "Q_KINGDOM_PLANE_NAMES",
           "Q_TILE_FEATURE_NAMES", "Block", "ObservationLayout", "QueendominoLayout", "layout", "observation_size"]


class ObservationLayout(BlockLayout):
    """The blocks of a variant's observation vector (any game) and their slices."""

    def __init__(self, rules: Rules):
        self.rules = rules
        super().__init__(rules.engine.observation(rules))

    @property
    def slot_size(self) -> int:
        """Features of one line slot: the domino, its king's seat one-hot (egocentric) and whether it acted."""
        return self.shape("current_line")[-1]

    def kingdom_planes(self, obs: np.ndarray) -> np.ndarray:
        """View (..., K, planes, S, S) of the kingdom planes of observations (..., size)."""
        return self.unpack(obs, "kingdoms")


#: Queendomino's layout is the same class: the blocks come from the game.
QueendominoLayout = ObservationLayout


def layout(rules: Rules) -> ObservationLayout:
    """The observation layout of a variant of any game."""
    return rules.observation_layout


def observation_size(rules: Rules) -> int:
    """The length of a variant's observation vector."""
    return rules.observation_layout.size
