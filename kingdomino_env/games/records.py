"""The records the numba kernels read: a batch's arrays and a variant's constants, each as one named tuple.

A kernel takes a few records instead of dozens of arrays by position. Numba types a named tuple argument in
Python at every call, a plain tuple in C, so the public kernels take plain tuples (`State.arrays_for(record)`,
`State.constants`) and name them on entry with these classes (`MaskArrays(*arrays)`, `Variant(*constants)`);
the bodies bind the arrays they use to local names on entry (`terrain = st.terrain`) and read the constants by
name (`v.grid`). Light helpers called for every game of the loop take arrays (`board._end_round`), not a record:
reading an array field of a record takes a reference on the array, a cost in the loop over the games.

Numba unboxes every array of a call, so a kernel that reads a few of the state's arrays takes a record of just
those (`arrays_of`): the mask, observation and Full Greedy kernels run once per move, and a batch of one game
spends most of such a call unboxing. `step` reads nearly everything and takes the whole state.

Every field of `Variant` has one fixed type (Python int, Python bool, writeable C-ordered 2-d int8 or int64 array,
see `kernel_table`), so that all variants of a game share one compiled specialisation of each kernel.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .state import State, array_names

#: The arrays of a `State`, in its field order (see `games.state.State` for their meaning).
KingdominoArrays = NamedTuple("KingdominoArrays", [(name, np.ndarray) for name in array_names(State)])


#: Queendomino's arrays after Kingdomino's: the fields `games.queendomino.game.QState` adds to `State`, in order.
QUEENDOMINO_ARRAYS = ("coins", "knights", "knights_owned", "towers", "knight_board", "building_board", "queen",
                      "dragon", "slots", "pile", "pile_pos", "placed", "knight_done")
#: The arrays of a `QState`, in its field order: `KingdominoArrays`' then `QUEENDOMINO_ARRAYS`.
QueendominoArrays = NamedTuple(
    "QueendominoArrays", [(name, np.ndarray) for name in KingdominoArrays._fields + QUEENDOMINO_ARRAYS])


def arrays_of(name: str, record: type, fields: str) -> type:
    """A record of the arrays `fields` (names separated by spaces) of `record`, in `record`'s order: what one
    kernel reads."""
    wanted = fields.split()
    unknown = [f for f in wanted if f not in record._fields]
    if unknown:
        raise ValueError(f"{record.__name__} has no arrays {unknown}")
    return NamedTuple(name, [(f, np.ndarray) for f in record._fields if f in wanted])


_TURN = "terrain bbox cur_line next_line next_owner order_player order_slot turn phase"
#: What Kingdomino's legal mask reads.
MaskArrays = arrays_of("MaskArrays", KingdominoArrays, _TURN)
#: What a Kingdomino player's choice reads (Full Greedy, the heuristic): the mask's arrays, crowns and quests.
MoverArrays = arrays_of("MoverArrays", KingdominoArrays, _TURN + " crowns quests")
#: What Kingdomino's observation reads.
ObserveArrays = arrays_of("ObserveArrays", KingdominoArrays,
                          _TURN + " crowns deck drawn cur_owner round scores")
#: What Queendomino's legal mask reads.
QueendominoMaskArrays = arrays_of("QueendominoMaskArrays", QueendominoArrays,
                                  _TURN + " coins knights queen dragon slots building_board knight_done")
#: What Queendomino's Full Greedy placements and picks read.
QueendominoGreedyArrays = arrays_of("QueendominoGreedyArrays", QueendominoArrays,
                                    _TURN + " crowns coins knights_owned towers building_board queen")
#: What Queendomino's observation reads: Kingdomino's observation and all of Queendomino's own arrays.
QueendominoObserveArrays = arrays_of("QueendominoObserveArrays", QueendominoArrays,
                                     " ".join(ObserveArrays._fields + QUEENDOMINO_ARRAYS))


class Variant(NamedTuple):
    """A Kingdomino variant's constants as the kernels read them (`Rules.constants` computes them once).

    grid: N; rounds: rounds after the starting round; line: dominoes per line; harmony, middle_kingdom: the
    bonuses; n_place: the placement actions (S * S * 4), followed by discard and the picks (see `rules`).
    Kingdomino's kernels read the fixed domino tables of `games.dominoes`.
    """

    grid: int
    rounds: int
    line: int
    harmony: bool
    middle_kingdom: bool
    n_place: int


#: Queendomino's constants: `Variant`'s, then players (seats); shift: a seat's kingdom is seat >> shift (1 in team
#: games, where seats 2t and 2t + 1 share kingdom t, else 0); the first action of each optional step
#: (first_knight, first_build, first_dragon) and pass_action; domino_terrain, domino_crowns: (ids, 2) int8 tables by
#: domino id; building_table: the (32, 7) int64 `BuildingDeck.table`.
QueendominoVariant = NamedTuple(
    "QueendominoVariant", [(name, Variant.__annotations__[name]) for name in Variant._fields]
    + [("players", int), ("shift", int), ("first_knight", int), ("first_build", int), ("first_dragon", int),
       ("pass_action", int), ("domino_terrain", np.ndarray), ("domino_crowns", np.ndarray),
       ("building_table", np.ndarray)])


def kernel_table(table: np.ndarray, dtype: type) -> np.ndarray:
    """A C-ordered 2-d `dtype` copy of `table` for `Variant`: writeable, so that numba types the plain tuple holding
    it in its compiled dispatcher (a read-only array sends the typing to Python, microseconds a call), and the same
    type in every variant and after unpickling. The kernels only read it."""
    return np.array(table, dtype=dtype, order="C", copy=True)
