"""The value network's inputs in Queendomino and the Royal Wedding, computed in numba for one game (`inputs`
declares them; the same function feeds training and search).

Per kingdom:

* sparse: the filled squares of its board (the castle left out), each as one index among SQUARE_KINDS kinds at one
  of the S x S frame positions: the terrain (the six and the town), the square's crowns with those of the building
  on it (up to 3), and whether a building stands there;
* dense (`DENSE` names them): the score now (the core keeps it as if the game ended), the largest territory,
  crowns, coins, knights in hand, knights owned, towers, whether it hosts the Queen, discards, filled squares, and
  the dominoes it holds (picked, not yet placed) with their crowns;

and for the game (`GLOBAL`): the share of rounds played, whether the kingdom is the one to move, and whether the
Dragon is still in play.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from kingdomino_env.games import compiled
from kingdomino_env.games.board import OVER, PLACE
from kingdomino_env.games.dominoes import CASTLE, TOWN
from kingdomino_env.games.queendomino.buildings import CROWNS

#: Terrains of a square: the six, then the town.
_TERRAINS = 7
#: Kinds of a filled square: terrain (7) x crowns (0..3) x building or not.
SQUARE_KINDS = _TERRAINS * 4 * 2
DENSE = ("score", "largest", "crowns", "coins", "knights", "knights_owned", "towers", "queen", "discarded", "filled",
         "held", "held_crowns")
GLOBAL = ("progress", "to_move", "dragon")
#: What each dense feature is divided by, in DENSE's order.
DENSE_SCALE = np.array([100.0, 49.0, 20.0, 20.0, 5.0, 10.0, 10.0, 1.0, 5.0, 49.0, 4.0, 6.0])


@njit(cache=True)
def square_indices(terrain, crowns, buildings, table, out):
    """Write the sparse indices of a board's filled squares (castle excluded) into `out`, then the padding index
    in the unused entries; the number of filled squares."""
    s = terrain.shape[0]
    n = 0
    for r in range(s):
        for c in range(s):
            t = terrain[r, c]
            if t == 0 or t == CASTLE:
                continue
            tile = buildings[r, c]
            kind = _TERRAINS - 1 if t == TOWN else t - 1
            on_square = crowns[r, c] + (table[tile, CROWNS] if tile >= 0 else 0)
            out[n] = (r * s + c) * SQUARE_KINDS + (kind * 4 + min(on_square, 3)) * 2 + (1 if tile >= 0 else 0)
            n += 1
    out[n:] = s * s * SQUARE_KINDS
    return n


@njit(cache=True)
def held_dominoes(st, v, k):
    """(dominoes, crowns on them) kingdom k has picked and not yet placed in the one-game record `st`."""
    held = 0
    crowns = 0
    if st.phase[0] == OVER:
        return held, crowns
    turn = st.turn[0]
    for t in range(turn, st.order_slot.shape[1]):
        slot = st.order_slot[0, t]
        if slot < 0 or st.order_player[0, t] >> v.shift != k or (t == turn and st.phase[0] != PLACE):
            continue
        domino = st.cur_line[0, slot]
        if domino >= 0:
            held += 1
            crowns += v.domino_crowns[domino, 0] + v.domino_crowns[domino, 1]
    for i in range(st.next_line.shape[1]):
        domino = st.next_line[0, i]
        owner = st.next_owner[0, i]
        if domino >= 0 and owner >= 0 and owner >> v.shift == k:
            held += 1
            crowns += v.domino_crowns[domino, 0] + v.domino_crowns[domino, 1]
    return held, crowns


@njit(cache=True)
def queendomino_features(st, v, work, indices, dense, glob):
    """Fill one game's inputs from the one-game record `st` (`QueendominoArrays` of batch 1): indices (K, L) sparse
    indices per kingdom (L >= the frame's squares), dense (K, len(DENSE)), glob (K, len(GLOBAL)). `work` is
    unused (no scratch needed)."""
    kingdoms = st.terrain.shape[1]
    mover = compiled.kingdom_to_move(st, v) if st.phase[0] != OVER else -1
    progress = min(st.round[0] / (v.rounds + 1.0), 1.0)
    for k in range(kingdoms):
        filled = square_indices(st.terrain[0, k], st.crowns[0, k], st.building_board[0, k], v.building_table,
                                indices[k])
        held, held_crowns = held_dominoes(st, v, k)
        dense[k, 0] = st.scores[0, k]
        dense[k, 1] = st.largest[0, k]
        dense[k, 2] = st.total_crowns[0, k]
        dense[k, 3] = st.coins[0, k]
        dense[k, 4] = st.knights[0, k]
        dense[k, 5] = st.knights_owned[0, k]
        dense[k, 6] = st.towers[0, k]
        dense[k, 7] = 1.0 if st.queen[0] == k else 0.0
        dense[k, 8] = st.discarded[0, k]
        dense[k, 9] = filled
        dense[k, 10] = held
        dense[k, 11] = held_crowns
        for f in range(dense.shape[1]):
            dense[k, f] /= DENSE_SCALE[f]
        glob[k, 0] = progress
        glob[k, 1] = 1.0 if k == mover else 0.0
        glob[k, 2] = 1.0 if st.dragon[0] else 0.0
