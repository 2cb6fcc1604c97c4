"""Kingdomino's compiled game (`games.compiled.CompiledGame`): its kernels over game 0 of a `KingdominoArrays`
record, registered on import."""

from __future__ import annotations

import numpy as np
from numba import njit

from ..compiled import CompiledGame, as_tuple, project, register, sample_deck
from ..records import KingdominoArrays, MaskArrays, Variant
from . import kernels

#: The game index of a one-game record, an int64 as the batch kernels' loop index is (numba compiles a callee once
#: more for a literal argument).
ONE_GAME = np.int64(0)


@njit(cache=True)
def new_work(st, v):
    """`step`'s scratch arrays."""
    return kernels.step_scratch(st.terrain.shape[2])


@njit(cache=True)
def legal_mask(st, v, out):
    """The legal actions of the player to move, into out (1, n_actions), by the core's batch kernel."""
    kernels.legal_mask(as_tuple(project(st, MaskArrays)), as_tuple(v), out)


@njit(cache=True)
def step(st, v, action, work):
    """Apply `action`: OK, or ILLEGAL with the game untouched."""
    labels, stack, no_mask = work
    return kernels.step_game(st, v, ONE_GAME, action, labels, stack, no_mask)


@njit(cache=True)
def sample_hidden(st, v, b, boxes, pool):
    """A random order of the dominoes not yet drawn (the deck's only hidden order)."""
    sample_deck(st.deck[b], np.int64(st.drawn[b]), boxes, pool)


@njit(cache=True)
def rank_key(st, v, k):
    """Kingdom k's ranking key: score, then largest territory, then crowns."""
    return (np.int64(st.scores[0, k]) * 256 + st.largest[0, k]) * 256 + st.total_crowns[0, k]


@njit(cache=True)
def kingdom_to_move(st, v):
    """The kingdom to move (a seat is a kingdom)."""
    return np.int64(st.order_player[0, st.turn[0]])


GAME = CompiledGame(KingdominoArrays, Variant, new_work, legal_mask, step, sample_hidden, rank_key,
                     kingdom_to_move, forced_steps_in_tree=True)
register(GAME)
