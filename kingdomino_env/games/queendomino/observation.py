"""Queendomino's and the Royal Wedding's observation, declared once as named blocks (see `games.blocks`).

All public information, egocentric: the observer's kingdom first, then the others in order. K = `rules.kingdoms`
kingdom blocks (one per team in team games); line slots mark their king's seat among the P seats, the observer
first, then (in team games) its teammate, then the other seats in seat order. `kernels.q_observe` writes it in
this order.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ..blocks import Block
from .kernels import N_TILES, Q_PLACED_FEATURES, SLOTS

if TYPE_CHECKING:
    from ...rules import Rules

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
_SQUARE = ("wheat", "forest", "lake", "grassland", "swamp", "mine", "town", "crowns")
#: Features of one domino: present, each square's terrain one-hot (of 7, town included) and crowns, (id + 1) / ids.
Q_DOMINO_FEATURE_NAMES = (("present",) + tuple(f"first_{n}" for n in _SQUARE) + tuple(f"second_{n}" for n in _SQUARE)
                          + ("number_over_ids",))
Q_PLACED_FEATURE_NAMES = ("present", "row", "col", "row2", "col2", "knight_first", "knight_second")
COUNTER_NAMES = ("round", "phase_pick", "phase_place", "phase_knights", "phase_build", "phase_dragon",
                 "dragon_in_cave", "deck_left", "pile_left", "knights_supply", "towers_supply")
_CROWNS = {"first_crowns": 3.0, "second_crowns": 3.0}


def blocks(rules: Rules) -> tuple[Block, ...]:
    """The blocks of a Queendomino or Royal Wedding variant's observation, in order."""
    k, p, s, line = rules.kingdoms, rules.players, rules.frame, rules.line_size
    seats = tuple(f"seat_{i}" for i in range(p))
    slot_names = Q_DOMINO_FEATURE_NAMES + seats + ("acted",)
    scores = tuple(f"score_{i}" for i in range(k))
    return (
        Block("kingdoms", (k, len(Q_KINGDOM_PLANE_NAMES), s, s), Q_KINGDOM_PLANE_NAMES, axis=1,
              highs={"crowns": np.inf, "knights": np.inf},
              doc="K x 11 planes of S x S (the castle always at (N - 1, N - 1)), observer's kingdom first"),
        Block("kingdom_features", (k, len(Q_KINGDOM_FEATURE_NAMES)), Q_KINGDOM_FEATURE_NAMES, high=np.inf,
              highs={"hosts_queen": 1.0},
              doc="coins, knights, towers, the Queen and the owned buildings' effects of each kingdom"),
        Block("board", (SLOTS, len(Q_TILE_FEATURE_NAMES)), Q_TILE_FEATURE_NAMES,
              highs=dict.fromkeys(("crowns", "points", "knights", "towers", "cost_for_observer"), np.inf),
              doc="the 6 Builders' Board slots' tiles, zeros for an empty slot"),
        Block("current_line", (line, len(slot_names)), slot_names, highs=_CROWNS,
              doc="the line being placed: each slot's domino, its king's seat (one-hot, egocentric: seat_0 the "
                  "observer, seat_1 its teammate in team games) and whether that king has acted"),
        Block("next_line", (line, len(slot_names)), slot_names, highs=_CROWNS,
              doc="the line being picked from, as the current line"),
        Block("held", (len(Q_DOMINO_FEATURE_NAMES),), Q_DOMINO_FEATURE_NAMES, highs=_CROWNS,
              doc="the domino the observer must place now (zeros when not placing)"),
        Block("placed", (Q_PLACED_FEATURES,), Q_PLACED_FEATURE_NAMES,
              doc="the domino placed this turn, during the optional steps: present, its squares' rows and columns "
                  "over S - 1, a knight on its first / second square this turn"),
        Block("unseen", (rules.n_domino_ids,),
              doc="domino id i not yet drawn into a line (48 ids; 96 in the Royal Wedding)"),
        Block("pile", (N_TILES,), doc="building tile i + 1 still in the draw pile (its order is hidden)"),
        Block("counters", (len(COUNTER_NAMES) + k,), COUNTER_NAMES + scores,
              highs=dict.fromkeys(("knights_supply", "towers_supply") + scores, np.inf),
              doc="round / rounds; the step (one-hot); the Dragon in its cave; dominoes left / deck size; tiles "
                  "left in the pile / 32; knights and towers left in the supply; the K kingdoms' scores "
                  "(egocentric)"),
    )
