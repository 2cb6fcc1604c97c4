"""Numba kernel of the heuristic agent: a board evaluation beyond the current score, and the moves it implies.

Legal placements and scoring come from the core's kernels (`games.kingdomino.kernels.placements`, `score_board`); this
module only adds evaluation features, no rule.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from kingdomino_env.games.board import ALL_PLACEMENTS, OVER, PLACE, decode_placement, lift_domino
from kingdomino_env.games.kingdomino.kernels import placements, put_domino, score_box
from kingdomino_env.games.records import MoverArrays, Variant

_DR = np.array([0, 1, 0, -1], dtype=np.int64)
_DCOL = np.array([1, 0, -1, 0], dtype=np.int64)

#: Feature weights, in order: crowned frontier, uncrowned territory size with room, dead squares, Harmony still
#: possible, Middle Kingdom still possible, and the cost of a discard (subtracted from the board's value).
DEFAULT_WEIGHTS = np.array([0.2, 0.05, -1.0, 2.0, 5.0, 1.0])


@njit(cache=True)
def evaluate(terrain, crowns, bbox, v, weights, labels, stack, size, crown_sum, frontier):
    """Score now plus the `board_terms` of one board under the variant `v` (`records.Variant`) weighted by `weights`
    (the last weight is not used here)."""
    points, growth, uncrowned, dead, harmony_open, middle_open = board_terms(
        terrain, crowns, bbox, v, labels, stack, size, crown_sum, frontier)
    return (points + weights[0] * growth + weights[1] * uncrowned + weights[2] * dead + weights[3] * harmony_open
            + weights[4] * middle_open)


@njit(cache=True)
def board_terms(terrain, crowns, bbox, v, labels, stack, size, crown_sum, frontier):
    """(points now, growth, uncrowned room, dead squares, Harmony open, Middle Kingdom open) of one board under the
    variant `v` (`records.Variant`: grid and bonuses).

    growth: for each territory with crowns, crowns x its empty neighbour squares still inside the N x N bound
    (capped at 3: room to grow); uncrowned room: for each territory without crowns but with room, its size (a crown
    landing there pays that much); dead squares: empty, inside the bound, with no empty neighbour inside it (no
    domino can ever cover them); Harmony open (1 or 0): the variant scores Harmony and no square is dead; Middle
    Kingdom open: the variant scores it and the kingdom still fits the centred N x N square. `labels`, `stack`,
    `size`, `crown_sum`, `frontier` are scratch space; the last three must be zero on entry and are zero again on
    return.
    """
    s = terrain.shape[0]
    n = v.grid
    points, _, _ = score_box(terrain, crowns, v, labels, stack, np.int64(bbox[0]), np.int64(bbox[1]),
                             np.int64(bbox[2]), np.int64(bbox[3]))
    rlo = max(bbox[1] - n + 1, 0)
    rhi = min(bbox[0] + n - 1, s - 1)
    clo = max(bbox[3] - n + 1, 0)
    chi = min(bbox[2] + n - 1, s - 1)
    n_labels = 0
    for r in range(bbox[0], bbox[1] + 1):
        for c in range(bbox[2], bbox[3] + 1):
            lab = labels[r, c]
            if terrain[r, c] != 0 and lab > 0:
                size[lab] += 1
                crown_sum[lab] += crowns[r, c]
                n_labels = max(n_labels, lab)
    dead = 0
    seen = np.zeros(4, dtype=np.int64)
    for r in range(rlo, rhi + 1):
        for c in range(clo, chi + 1):
            if terrain[r, c] != 0:
                continue
            has_room = False
            k = 0
            for d in range(4):
                r2 = r + _DR[d]
                c2 = c + _DCOL[d]
                if r2 < rlo or r2 > rhi or c2 < clo or c2 > chi:
                    continue
                if terrain[r2, c2] == 0:
                    has_room = True
                    continue
                lab = labels[r2, c2]
                if lab > 0:
                    new = True
                    for i in range(k):
                        if seen[i] == lab:
                            new = False
                    if new:
                        seen[k] = lab
                        k += 1
                        frontier[lab] += 1
            if not has_room:
                dead += 1
    growth = 0.0
    uncrowned = 0.0
    for lab in range(1, n_labels + 1):
        if crown_sum[lab] > 0:
            growth += crown_sum[lab] * min(frontier[lab], 3)
        elif frontier[lab] > 0:
            uncrowned += size[lab]
        size[lab] = 0
        crown_sum[lab] = 0
        frontier[lab] = 0
    harmony_open = 1.0 if v.harmony and dead == 0 else 0.0
    middle_open = 0.0
    if v.middle_kingdom:
        half = (n - 1) // 2
        centre = n - 1
        if bbox[0] >= centre - half and bbox[1] <= centre + half and bbox[2] >= centre - half and (
            bbox[3] <= centre + half
        ):
            middle_open = 1.0
    return float(points), growth, uncrowned, float(dead), harmony_open, middle_open


@njit(cache=True, inline="always")
def _tally(value, item, best, n_best, tied):
    """Fold `item`, of `value`, into a running best: (best, n_best), tied[:n_best] the items within 1e-9 of best."""
    if value > best + 1e-9:
        best = value
        n_best = 0
    if value > best - 1e-9:
        tied[n_best] = item
        n_best += 1
    return best, n_best


@njit(cache=True)
def _best(terrain, crowns, bbox, domino, v, weights, u, cells, labels, stack, size, crown_sum, frontier, choices):
    """(action, value) of the placement of `domino` with the highest `evaluate` under the variant `v`
    (`records.Variant`), ties split by u; the discard action and the board's value minus one when no placement is
    legal. The board is left unchanged."""
    s = terrain.shape[0]
    cells[:] = False
    if placements(terrain, bbox, domino, v.grid, cells, ALL_PLACEMENTS) == 0:
        return s * s * 4, evaluate(terrain, crowns, bbox, v, weights, labels, stack, size, crown_sum,
                                   frontier) - weights[5]
    saved = bbox.copy()
    best = -1e18
    n_best = 0
    for a in range(s * s * 4):
        if not cells[a]:
            continue
        r, c, r2, c2 = decode_placement(a, s)
        put_domino(terrain, crowns, bbox, domino, r, c, r2, c2)
        value = evaluate(terrain, crowns, bbox, v, weights, labels, stack, size, crown_sum, frontier)
        lift_domino(terrain, crowns, bbox, saved, r, c, r2, c2)
        best, n_best = _tally(value, a, best, n_best, choices)
    return choices[min(int(u * n_best), n_best - 1)], best


@njit(cache=True)
def heuristic_scratch(s, line):
    """The scratch arrays `heuristic_action` needs on an S x S frame with lines of `line` dominoes."""
    n_place = s * s * 4
    return (np.zeros((s, s), dtype=np.int32), np.zeros(s * s, dtype=np.int64), np.zeros(s * s + 1, dtype=np.int64),
            np.zeros(s * s + 1, dtype=np.int64), np.zeros(s * s + 1, dtype=np.int64), np.zeros(n_place, dtype=np.bool_),
            np.zeros(n_place, dtype=np.int64), np.zeros(line, dtype=np.int64))


@njit(cache=True)
def heuristic_action(st, v, b, weights, u, scratch):
    """The heuristic's action for the player to move in game b (not over) of the `MoverArrays` record `st`: place
    where `evaluate` is highest; pick the domino whose best placement on the current board evaluates highest. Ties
    are split by u in [0, 1). scratch: `heuristic_scratch`'s arrays."""
    labels, stack, size, crown_sum, frontier, cells, choices, picks = scratch
    p = st.order_player[b, st.turn[b]]
    terrain, crowns, bbox = st.terrain[b, p], st.crowns[b, p], st.bbox[b, p]
    if st.phase[b] == PLACE:
        domino = st.cur_line[b, st.order_slot[b, st.turn[b]]]
        action, _ = _best(terrain, crowns, bbox, domino, v, weights, u, cells, labels, stack, size, crown_sum,
                          frontier, choices)
        return action
    best = -1e18
    n_best = 0
    for j in range(v.line):
        if st.next_line[b, j] < 0 or st.next_owner[b, j] >= 0:
            continue
        _, value = _best(terrain, crowns, bbox, st.next_line[b, j], v, weights, 0.0, cells, labels, stack, size,
                         crown_sum, frontier, choices)
        best, n_best = _tally(value, j, best, n_best, picks)
    return v.n_place + 1 + picks[min(int(u * n_best), n_best - 1)]


@njit(cache=True)
def heuristic_actions(arrays, constants, games, weights, u, out):
    """`heuristic_action` for the player to move in each of `games`; -1 where over.
    arrays, constants: the plain tuples `State.arrays_for(MoverArrays)` and `State.constants`."""
    st = MoverArrays(*arrays)
    v = Variant(*constants)
    scratch = heuristic_scratch(st.terrain.shape[2], v.line)
    for i in range(games.shape[0]):
        b = games[i]
        out[i] = heuristic_action(st, v, b, weights, u[i], scratch) if st.phase[b] != OVER else -1
