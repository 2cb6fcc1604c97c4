"""Quests: the 17 bonus cards of the Tabletop Simulator Kingdomino mod, 2 of which it deals per game.

A variant turns quests on with ``Rules(quests=(name, ...))`` (the same quests in every game) or
``Rules(random_quests=k)`` (k distinct quests drawn per game at deal time). Each game's active quests are the
(B, 17) bool ``State.quests``, in the order of `QUESTS`; their points are part of ``State.scores``. The scoring
runs in the numba kernels (`kernels.quest_scores`); this module holds the names, their meaning and the indices.

Quests (points per kingdom, scored like the base rules at the end, and as "points so far" during the game):

* ``local_business_<terrain>`` (6, one per terrain): +5 per square of that terrain among the 8 squares around
  the castle (sides and diagonals).
* ``four_corners_<terrain>`` (6): +5 per corner square of the kingdom bearing that terrain.
* ``harmony``: +5 for a complete N x N kingdom; ``middle_kingdom``: +10 when the castle is centred in an N x N
  kingdom. Both score exactly as the base-rule options; with the option also on they do not count twice (the
  breakdown then lists the points under the option and 0 under the quest).
* ``lost_corner``: +20 when the castle stands on a corner of the kingdom.
* ``folie_des_grandeurs``: +10 per line of 3 squares in a row (row, column or diagonal) each bearing at least
  one crown (terrains may differ), two lines sharing at most one square.
* ``bleak_king``: +10 per territory of at least 5 squares of wheat, forest, lake or grassland without a crown.

Readings chosen where the cards are ambiguous:

* The kingdom's corners are the 4 corners of the N x N grid of the base rules, i.e. of the kingdom's bounding box
  (castle and placed squares) once it spans N x N. A kingdom whose bounding box is smaller (still growing, or
  left smaller by discards) has no corners: four corners and lost corner score 0 for it, as Middle Kingdom does.
  An empty corner square (a gap) scores nothing.
* La folie des grandeurs counts the largest set of lines. A line is 3 consecutive crowned squares; a longer run
  may hold several lines, and two lines of the same run share at most one square when their starts differ by at
  least 2, so a maximal run of L >= 3 crowned squares in one direction gives (L - 1) // 2 lines (3 or 4: 1,
  5 or 6: 2, 7: 3). Lines in different directions or on different rows share at most one square anyway, so the
  count is the sum over all maximal runs in the 4 directions (rows, columns, both diagonals). The castle bears
  no crown.
* Bleak king counts territories as the base scoring does (orthogonally connected squares of one terrain).
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from ..dominoes import TERRAINS

#: Quest names, in the order of the `State.quests` flags, the observation block and the record.
QUESTS: tuple[str, ...] = (
    *(f"local_business_{t}" for t in TERRAINS),
    *(f"four_corners_{t}" for t in TERRAINS),
    "harmony", "middle_kingdom", "lost_corner", "folie_des_grandeurs", "bleak_king",
)
N_QUESTS = len(QUESTS)
LOCAL_BUSINESS, FOUR_CORNERS = 0, 6
HARMONY, MIDDLE_KINGDOM, LOST_CORNER, FOLIE_DES_GRANDEURS, BLEAK_KING = 12, 13, 14, 15, 16

#: One-line description of each quest, for renderers.
DESCRIPTIONS: dict[str, str] = {
    **{f"local_business_{t}": f"+5 per {t} square around the castle" for t in TERRAINS},
    **{f"four_corners_{t}": f"+5 per {t} corner square of the kingdom" for t in TERRAINS},
    "harmony": "+5 for a complete kingdom",
    "middle_kingdom": "+10 if the castle is in the centre",
    "lost_corner": "+20 if the castle is in a corner",
    "folie_des_grandeurs": "+10 per line of 3 crowned squares",
    "bleak_king": "+10 per crownless territory of 5+ wheat/forest/lake/grassland squares",
}


def check_names(names: Iterable[str]) -> tuple[str, ...]:
    """The names as a tuple, or ValueError naming the unknown or repeated ones and listing the valid names."""
    if isinstance(names, str | bytes | dict) or not isinstance(names, Iterable):
        raise ValueError(f"quests must be a list of quest names, got {type(names).__name__}; "
                         f"valid quests: {', '.join(QUESTS)}")
    names = tuple(names)
    unknown = [q for q in names if q not in QUESTS]
    if unknown:
        raise ValueError(f"unknown quests {unknown}; valid quests: {', '.join(QUESTS)}")
    if len(set(names)) != len(names):
        raise ValueError(f"quests must not repeat, got {list(names)}")
    return names


def flags(names: Iterable[str]) -> np.ndarray:
    """(17,) bool flags of the named quests."""
    out = np.zeros(N_QUESTS, dtype=np.bool_)
    for name in check_names(names):
        out[QUESTS.index(name)] = True
    return out


def title(name: str) -> str:
    """Display title of a quest: 'lost_corner' -> 'Lost corner'."""
    return name.replace("_", " ").capitalize()


def names(flag_row: np.ndarray) -> list[str]:
    """The names of the quests flagged in a (17,) row, in `QUESTS` order."""
    return [QUESTS[i] for i in np.flatnonzero(flag_row)]
