"""Queendomino's and the Royal Wedding's compiled game (`games.compiled.CompiledGame`): its kernels over game 0 of
a `QueendominoArrays` record, registered on import."""

from __future__ import annotations

import numpy as np
from numba import njit

from ..compiled import CompiledGame, as_tuple, project, register, sample_deck, shuffle_unseen
from ..records import QueendominoArrays, QueendominoMaskArrays, QueendominoVariant
from .kernels import N_TILES, q_legal_mask, q_step


@njit(cache=True)
def new_work(st, v):
    """`step`'s scratch arrays: the action and the status of a one-game batch."""
    return np.zeros(1, dtype=np.int64), np.zeros(1, dtype=np.int8)


@njit(cache=True)
def legal_mask(st, v, out):
    """The legal actions of the player to move, into out (1, n_actions), by the core's batch kernel."""
    q_legal_mask(as_tuple(project(st, QueendominoMaskArrays)), as_tuple(v), out)


@njit(cache=True)
def step(st, v, action, work):
    """Apply `action` by the core's batch kernel: OK, or ILLEGAL with the game untouched."""
    act, status = work
    act[0] = action
    q_step(as_tuple(st), as_tuple(v), act, status)
    return status[0]


@njit(cache=True)
def sample_hidden(st, v, b, boxes, pool):
    """Random orders of the dominoes not yet drawn (each box's among its positions) and of the building tiles not
    yet drawn from the pile."""
    sample_deck(st.deck[b], np.int64(st.drawn[b]), boxes, pool)
    pile = st.pile[b]
    shuffle_unseen(pile, np.int64(st.pile_pos[b]), np.int64(0), N_TILES, np.arange(pile.shape[0]), pool)


@njit(cache=True)
def rank_key(st, v, k):
    """Kingdom k's ranking key: score, then largest territory (Queendomino has no crown tie-break)."""
    return np.int64(st.scores[0, k]) * 256 + st.largest[0, k]


@njit(cache=True)
def kingdom_to_move(st, v):
    """The kingdom of the seat to move (two seats share one in the Royal Wedding's team games)."""
    return np.int64(st.order_player[0, st.turn[0]] >> v.shift)


GAME = CompiledGame(QueendominoArrays, QueendominoVariant, new_work, legal_mask, step, sample_hidden, rank_key,
                     kingdom_to_move, forced_steps_in_tree=False)
register(GAME)
