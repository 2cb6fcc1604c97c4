"""The value network's inputs in every game, each game's declared once as named blocks (`Inputs`): the sparse
squares of each kingdom's board, its dense features and the game's global ones. One compiled call, `features`,
fills them for the game of the state record it is given (Kingdomino's `features.game_features`, Queendomino's and
the Royal Wedding's `queendomino_features`); `inputs_of` gives a variant's blocks to Python callers (the network's
shapes, the trainer's data)."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from kingdomino_env.games import compiled
from kingdomino_env.games.records import KingdominoArrays, QueendominoArrays
from kingdomino_env.rules import Rules

from . import features as kingdomino
from . import queendomino_features as queendomino


class Inputs(NamedTuple):
    """A game's input blocks. square_kinds: the kinds a filled square is one of (its sparse index is
    (r * S + c) * square_kinds + kind on a frame of S x S squares); dense: the names of each kingdom's dense
    features; dense_scale: what each is divided by; dense_widths: how many of them a network may read (the first so
    many); globals: the names of the game's features, given per kingdom."""

    name: str
    square_kinds: int
    dense: tuple[str, ...]
    dense_scale: np.ndarray
    dense_widths: tuple[int, ...]
    globals: tuple[str, ...]

    def sparse_size(self, frame: int) -> int:
        """The number of sparse indices on a frame of S x S squares; the padding index is this number."""
        return frame * frame * self.square_kinds


KINGDOMINO = Inputs("kingdomino", kingdomino.SQUARE_KINDS, kingdomino.DENSE, kingdomino.DENSE_SCALE,
                    (kingdomino.BOARD_DENSE, len(kingdomino.DENSE)), kingdomino.GLOBAL)
QUEENDOMINO = Inputs("queendomino", queendomino.SQUARE_KINDS, queendomino.DENSE, queendomino.DENSE_SCALE,
                     (len(queendomino.DENSE),), queendomino.GLOBAL)
#: Each game's inputs by the class of its state record.
BY_RECORD = {KingdominoArrays: KINGDOMINO, QueendominoArrays: QUEENDOMINO}
#: Each game's inputs by name (a network file's `inputs`).
BY_NAME = {inputs.name: inputs for inputs in BY_RECORD.values()}


def inputs_of(rules: Rules) -> Inputs:
    """The input blocks of `rules`' game."""
    return BY_RECORD[rules.engine.compiled.arrays]


@njit(cache=True)
def _kingdomino_work(st, v):
    """Kingdomino's feature scratch: labels, stack, space, cells (`features.game_features`)."""
    s = st.terrain.shape[2]
    return (np.zeros((s, s), dtype=np.int32), np.zeros(8 * s * s + 10, dtype=np.int64),
            np.zeros((3, s * s + 1), dtype=np.int64), np.zeros(4 * s * s, dtype=np.bool_))


@njit(cache=True)
def _kingdomino_features(st, v, work, indices, dense, glob):
    """`features.game_features` in the shape every game's features take."""
    labels, stack, space, cells = work
    kingdomino.game_features(st, v, indices, dense, glob, labels, stack, space, cells)


@njit(cache=True)
def _queendomino_work(st, v):
    """Queendomino's features need no scratch."""
    return np.zeros(0, dtype=np.int64)


#: `(st, v) -> work`: the scratch `features` needs, made once per caller.
feature_work = compiled.by_game({KingdominoArrays: _kingdomino_work, QueendominoArrays: _queendomino_work},
                                "feature_work")
#: `(st, v, work, indices, dense, glob)`: one game's inputs, as its `Inputs` declare them.
features = compiled.by_game({KingdominoArrays: _kingdomino_features,
                             QueendominoArrays: queendomino.queendomino_features}, "features")


@njit(cache=True)
def features_of(arrays, constants, indices, dense, glob):
    """`features` of a one-game state from its plain tuples (`State.arrays`, `State.constants`)."""
    st, v = compiled.as_records(arrays, constants)
    features(st, v, feature_work(st, v), indices, dense, glob)


def new_inputs(rules: Rules, dense: int | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Zero (indices, dense, glob) arrays of one game of `rules` for `features_of`, reading the first `dense` dense
    features (all by default)."""
    inputs = inputs_of(rules)
    k, s = rules.kingdoms, rules.frame
    return (np.zeros((k, s * s), dtype=np.int64), np.zeros((k, len(inputs.dense) if dense is None else dense)),
            np.zeros((k, len(inputs.globals))))
