"""The value network's inputs in Kingdomino, computed in numba for one game (`inputs` declares them; the same
function feeds training and search).

Per kingdom, two parts:

* sparse: the filled squares of its board, each as one index among SQUARE_KINDS kinds (terrain x crowns) at one
  of the S x S frame positions (the castle, always at the centre, is left out), so the first layer is a sum of
  one weight row per filled square;
* dense (`DENSE` names them): the score now, the largest territory, crowns, the heuristic's `board_terms` (room to
  grow, uncrowned room, dead squares, Harmony and Middle Kingdom still open), discards, filled squares, and the
  dominoes it holds (picked, not yet placed) with their crowns; then the draft (`DRAFT`): the points its held
  dominoes add, each at its best placement on the board as it is now; the most points an open domino of the line on
  the table would add so; and whether it goes first in the next round (holds the lowest claimed slot of that line);

and for the game (`GLOBAL`): the share of rounds played and whether the kingdom is the one to move.

A network reads the first `dense` features of DENSE, its first layer's width: one without the draft's reads the
first `len(DENSE) - len(DRAFT)`, and they are all that is computed for it (the draft's cost a Full Greedy placement
search per domino).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from agents.heuristic_kernel import board_terms
from kingdomino_env.games.board import OVER, PLACE
from kingdomino_env.games.dominoes import CASTLE, DOMINO_CROWNS
from kingdomino_env.games.kingdomino.greedy import best_placement

_DC = np.ascontiguousarray(DOMINO_CROWNS)
#: Kinds of a filled square: terrain (6) x crowns (0..3).
SQUARE_KINDS = 24
DRAFT = ("held_gain", "table_gain", "first_next")
DENSE = ("score", "largest", "crowns", "growth", "uncrowned_room", "dead", "harmony_open", "middle_open",
         "discarded", "filled", "held", "held_crowns") + DRAFT
#: Dense features of a network that does not read the draft.
BOARD_DENSE = len(DENSE) - len(DRAFT)
GLOBAL = ("progress", "to_move")
#: What each dense feature is divided by, in DENSE's order.
DENSE_SCALE = np.array([100.0, 49.0, 20.0, 20.0, 20.0, 10.0, 1.0, 1.0, 5.0, 49.0, 4.0, 6.0, 20.0, 20.0, 1.0])


@njit(cache=True, inline="always")
def board_indices(terrain, crowns, out):
    """Write the sparse indices of a board's filled squares (castle excluded) into `out`, then the padding index
    in the unused entries; the number of filled squares."""
    s = terrain.shape[0]
    n = 0
    for r in range(s):
        for c in range(s):
            t = terrain[r, c]
            if t == 0 or t == CASTLE:
                continue
            out[n] = (r * s + c) * SQUARE_KINDS + (t - 1) * 4 + min(crowns[r, c], 3)
            n += 1
    out[n:] = s * s * SQUARE_KINDS
    return n


@njit(cache=True)
def _gain(st, v, k, domino, gains, labels, stack, cells):
    """The points kingdom k's board gains from `domino` at its best placement now (0 without `gains`)."""
    if not gains:
        return 0
    return best_placement(st.terrain[0, k], st.crowns[0, k], st.bbox[0, k], domino, v, st.quests[0], 0.0, labels,
                          stack, cells)[1] - st.scores[0, k]


@njit(cache=True, inline="always")
def held_dominoes(st, v, k, gains, labels, stack, cells):
    """(dominoes, crowns on them, held gain, table gain, first next) of kingdom k in the one-game record `st`: the
    dominoes it has picked and not yet placed, then the draft's features (see the module docstring; the gains are
    0 without `gains`). `labels` (S, S), `stack` (8 * S * S + 10,) and `cells` (4 * S * S,) bool scratch."""
    held = 0
    crowns = 0
    held_gain = 0
    table_gain = 0
    first_next = 0.0
    if st.phase[0] == OVER:
        return held, crowns, held_gain, table_gain, first_next
    turn = st.turn[0]
    for t in range(turn, st.order_slot.shape[1]):
        slot = st.order_slot[0, t]
        if slot < 0 or st.order_player[0, t] != k or (t == turn and st.phase[0] != PLACE):
            continue
        domino = st.cur_line[0, slot]
        if domino >= 0:
            held += 1
            crowns += _DC[domino, 0] + _DC[domino, 1]
            held_gain += _gain(st, v, k, domino, gains, labels, stack, cells)
    claimed = False
    for i in range(st.next_line.shape[1]):
        domino = st.next_line[0, i]
        if domino < 0:
            continue
        owner = st.next_owner[0, i]
        if owner >= 0 and not claimed:
            claimed = True
            first_next = 1.0 if owner == k else 0.0
        if owner == k:
            held += 1
            crowns += _DC[domino, 0] + _DC[domino, 1]
            held_gain += _gain(st, v, k, domino, gains, labels, stack, cells)
        elif owner < 0 and gains:
            table_gain = max(table_gain, _gain(st, v, k, domino, gains, labels, stack, cells))
    return held, crowns, held_gain, table_gain, first_next


@njit(cache=True)
def game_features(st, v, indices, dense, glob, labels, stack, space, cells):
    """Fill one game's inputs from the one-game record `st` (`KingdominoArrays` of batch 1): indices (K, L) sparse
    indices per kingdom (L >= the grid's squares), dense (K, D) the first D of DENSE, glob (K, len(GLOBAL)).
    `labels` (S, S), `stack` (8 * S * S + 10,) and `cells` (4 * S * S,) bool scratch; `space` (3, S * S + 1) int64 zero
    scratch, zero again on return."""
    kingdoms = st.terrain.shape[1]
    mover = st.order_player[0, st.turn[0]] if st.phase[0] != OVER else -1
    progress = min(st.round[0] / (v.rounds + 1.0), 1.0)
    for k in range(kingdoms):
        terrain, crowns, bbox = st.terrain[0, k], st.crowns[0, k], st.bbox[0, k]
        filled = board_indices(terrain, crowns, indices[k])
        _, growth, uncrowned, dead, harmony_open, middle_open = board_terms(
            terrain, crowns, bbox, v, labels, stack, space[0], space[1], space[2])
        draft = dense.shape[1] > BOARD_DENSE
        held, held_crowns, held_gain, table_gain, first_next = held_dominoes(st, v, k, draft, labels, stack, cells)
        dense[k, 0] = st.scores[0, k]
        dense[k, 1] = st.largest[0, k]
        dense[k, 2] = st.total_crowns[0, k]
        dense[k, 3] = growth
        dense[k, 4] = uncrowned
        dense[k, 5] = dead
        dense[k, 6] = harmony_open
        dense[k, 7] = middle_open
        dense[k, 8] = st.discarded[0, k]
        dense[k, 9] = filled
        dense[k, 10] = held
        dense[k, 11] = held_crowns
        if draft:
            dense[k, 12], dense[k, 13], dense[k, 14] = held_gain, table_gain, first_next
        for f in range(dense.shape[1]):
            dense[k, f] /= DENSE_SCALE[f]
        glob[k, 0] = progress
        glob[k, 1] = 1.0 if k == mover else 0.0
