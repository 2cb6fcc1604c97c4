"""The records the numba kernels read: a batch's arrays and a variant's constants, each as one named tuple.

A kernel takes a few records instead of dozens of arrays by position. Numba types a named tuple argument in
Python at every call, a plain tuple in C, so the public kernels take plain tuples (`State.arrays`,
`State.constants`) and name them on entry with these classes (`KingdominoArrays(*arrays)`, `Variant(*constants)`);
the bodies bind the arrays they use to local names on entry (`terrain = st.terrain`) and read the constants by
name (`v.grid`). Light helpers called for every game of the loop take arrays (`board._end_round`), not a record:
reading an array field of a record takes a reference on the array, a cost in the loop over the games.

Every field of `Variant` has one fixed type (Python int, Python bool, writeable C-ordered 2-d int8 or int64 array,
see `kernel_table`), so that all variants of a game share one compiled specialisation of each kernel.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np


class KingdominoArrays(NamedTuple):
    """The arrays of a `State`, in its field order (see `games.state.State` for their meaning)."""

    terrain: np.ndarray
    crowns: np.ndarray
    bbox: np.ndarray
    deck: np.ndarray
    drawn: np.ndarray
    cur_line: np.ndarray
    cur_owner: np.ndarray
    next_line: np.ndarray
    next_owner: np.ndarray
    first_kings: np.ndarray
    order_player: np.ndarray
    order_slot: np.ndarray
    turn: np.ndarray
    round: np.ndarray
    phase: np.ndarray
    scores: np.ndarray
    largest: np.ndarray
    total_crowns: np.ndarray
    discarded: np.ndarray
    n_steps: np.ndarray
    quests: np.ndarray


#: Queendomino's arrays after Kingdomino's, in `QState`'s field order (see `games.queendomino.game.QState`).
QUEENDOMINO_ARRAYS = ("coins", "knights", "knights_owned", "towers", "knight_board", "building_board", "queen",
                      "dragon", "slots", "pile", "pile_pos", "placed", "knight_done")
#: The arrays of a `QState`, in its field order: `KingdominoArrays`' then `QUEENDOMINO_ARRAYS`.
QueendominoArrays = NamedTuple(
    "QueendominoArrays", [(name, np.ndarray) for name in KingdominoArrays._fields + QUEENDOMINO_ARRAYS])


class Variant(NamedTuple):
    """A variant's constants as the kernels read them (`Rules.constants` computes them once).

    grid: N; rounds: rounds after the starting round; players: seats; kingdoms: K; line: dominoes per line;
    shift: a seat's kingdom is seat >> shift (1 in team games, where seats 2t and 2t + 1 share kingdom t, else 0);
    harmony, middle_kingdom: Kingdomino's bonuses. domino_terrain, domino_crowns: (ids, 2) int8 tables by domino id;
    building_table: Queendomino's (32, 7) int64 `BuildingDeck.table` ((0, 7) in Kingdomino). The action layout
    (see `rules`): n_place placements (S * S * 4), then discard, first_pick; Queendomino's first_knight,
    first_build, first_dragon and pass_action (-1 in Kingdomino).
    """

    grid: int
    rounds: int
    players: int
    kingdoms: int
    line: int
    shift: int
    harmony: bool
    middle_kingdom: bool
    domino_terrain: np.ndarray
    domino_crowns: np.ndarray
    building_table: np.ndarray
    n_place: int
    discard: int
    first_pick: int
    first_knight: int
    first_build: int
    first_dragon: int
    pass_action: int


def kernel_table(table: np.ndarray, dtype: type) -> np.ndarray:
    """A C-ordered 2-d `dtype` copy of `table` for `Variant`: writeable, so that numba types the plain tuple holding
    it in its compiled dispatcher (a read-only array sends the typing to Python, microseconds a call), and the same
    type in every variant and after unpickling. The kernels only read it."""
    return np.array(table, dtype=dtype, order="C", copy=True)


#: Kingdomino's building table: none, with the type of Queendomino's.
NO_BUILDINGS = kernel_table(np.zeros((0, 7), dtype=np.int64), np.int64)
