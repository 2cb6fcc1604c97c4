"""Kingdomino's observation, declared once as named blocks (see `games.blocks`).

One flat float32 vector per player, egocentric: the kingdoms first, the observer's own, then the others in seat
order (observer + 1, + 2, ...); then both lines, the domino to place, the dominoes not yet seen, counters and, only
in variants with quests, the 17 flags of the game's active quests (so variants without quests keep their size).
`kernels.observe` writes it in this order.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ..blocks import Block
from .quests import QUESTS

if TYPE_CHECKING:
    from ...rules import Rules

#: Names of the planes of each kingdom block, in order.
KINGDOM_PLANE_NAMES = ("wheat", "forest", "lake", "grassland", "swamp", "mine", "castle", "crowns", "open")
#: Names of the features of one domino, in order.
DOMINO_FEATURE_NAMES = (
    "present", "first_wheat", "first_forest", "first_lake", "first_grassland", "first_swamp", "first_mine",
    "first_crowns", "second_wheat", "second_forest", "second_lake", "second_grassland", "second_swamp",
    "second_mine", "second_crowns", "number_over_48",
)
_CROWNS = {"first_crowns": 3.0, "second_crowns": 3.0}


def blocks(rules: Rules) -> tuple[Block, ...]:
    """The blocks of a Kingdomino variant's observation, in order."""
    p, s, line = rules.players, rules.frame, rules.line_size
    owners = tuple(f"owner_{k}" for k in range(p))
    slot_names = DOMINO_FEATURE_NAMES + owners + ("acted",)
    scores = tuple(f"score_{k}" for k in range(p))
    quests = QUESTS if rules.has_quests else ()
    return (
        Block("kingdoms", (p, len(KINGDOM_PLANE_NAMES), s, s), KINGDOM_PLANE_NAMES, axis=1, highs={"crowns": 3.0},
              doc="P x 9 planes of S x S, observer first: the six terrains (one-hot), castle, crowns (count), open "
                  "(empty and still inside the N x N bound)"),
        Block("current_line", (line, len(slot_names)), slot_names, highs=_CROWNS,
              doc="the line being placed: each slot's domino, the owner of the king on it (one-hot, owner_k is k "
                  "seats after the observer) and whether that king has acted"),
        Block("next_line", (line, len(slot_names)), slot_names, highs=_CROWNS,
              doc="the line being picked from, as the current line"),
        Block("held", (len(DOMINO_FEATURE_NAMES),), DOMINO_FEATURE_NAMES, highs=_CROWNS,
              doc="the domino the observer must place now (zeros outside its PLACE phase)"),
        Block("unseen", (48,),
              doc="domino number i + 1 not yet drawn into a line (in 2-player and 36-domino games this includes the "
                  "dominoes left in the box, which no player can tell apart from those still to come)"),
        Block("counters", (4 + p,), ("round", "phase_pick", "phase_place", "deck_left") + scores,
              highs=dict.fromkeys(scores, np.inf),
              doc="round / rounds, phase pick, phase place, dominoes left in the deck / D, then the P scores "
                  "(egocentric)"),
        Block("quests", (len(quests),), quests,
              doc="quest i of `quests.QUESTS` active in this game; empty in variants without quests"),
    )
