"""Full Greedy for Kingdomino, compiled."""

from __future__ import annotations

import numpy as np
from numba import njit

from ..board import OVER, PLACE, decode_placement, lift_domino, random_open_pick
from ..records import MoverArrays, Variant
from .kernels import best_placements, board_points, placements, put_domino, territories


@njit(cache=True)
def best_placement(terrain, crowns, bbox, domino, n, harmony, middle_kingdom, quests, u, labels, stack, cells):
    """(action, score) of the placement of `domino` that scores most now, ties split by u in [0, 1);
    (discard action, current score) when no placement is legal. `stack` (8 * S * S + 10,) scratch. Without active
    quests every placement is scored from one labelling of the board (`best_placements`); with them each is placed,
    scored and lifted."""
    s = terrain.shape[0]
    for q in range(quests.shape[0]):
        if quests[q]:
            return _best_placed(terrain, crowns, bbox, domino, n, harmony, middle_kingdom, quests, u, labels, stack,
                                cells)
    ties = stack[s * s:5 * s * s]
    sizes = stack[5 * s * s:6 * s * s + 1]
    crown_sums = stack[6 * s * s + 1:7 * s * s + 2]
    seen = stack[7 * s * s + 2:7 * s * s + 10]
    points, filled = territories(terrain, crowns, bbox, labels, stack, sizes, crown_sums)
    best, n_best = best_placements(terrain, crowns, bbox, domino, n, harmony, middle_kingdom, points, filled, labels,
                                   sizes, crown_sums, cells, seen, ties)
    if n_best == 0:
        return s * s * 4, best
    return ties[min(int(u * n_best), n_best - 1)], best


@njit(cache=True)
def _best_placed(terrain, crowns, bbox, domino, n, harmony, middle_kingdom, quests, u, labels, stack, cells):
    """`best_placement` by placing, scoring (quests included) and lifting each legal placement."""
    s = terrain.shape[0]
    n_legal = placements(terrain, bbox, domino, n, cells, False)
    if n_legal == 0:
        points, _, _ = board_points(terrain, crowns, n, harmony, middle_kingdom, quests, labels, stack)
        return s * s * 4, points
    best = -1
    n_best = 0
    saved = bbox.copy()
    for a in range(s * s * 4):
        if not cells[a]:
            continue
        cells[a] = False
        r, c, r2, c2 = decode_placement(a, s)
        put_domino(terrain, crowns, bbox, domino, r, c, r2, c2)
        points, _, _ = board_points(terrain, crowns, n, harmony, middle_kingdom, quests, labels, stack)
        lift_domino(terrain, crowns, bbox, saved, r, c, r2, c2)
        if points > best:
            best = points
            n_best = 1
            stack[s * s] = a
        elif points == best:
            n_best += 1
            stack[s * s + n_best - 1] = a
    return stack[s * s + min(int(u * n_best), n_best - 1)], best


@njit(cache=True)
def greedy_actions(arrays, constants, games, random_draft, u, out):
    """Full Greedy (Gedda et al. 2018) for the player to move in each of `games`: place where the score after
    placing is highest; pick the domino whose best placement on the current board scores most (or a uniformly
    random one with `random_draft`, their GPRD). Scores include each game's active quests. Ties are split by u[i]
    in [0, 1). arrays, constants: the plain tuples `State.arrays_for(MoverArrays)` and `State.constants`."""
    st = MoverArrays(*arrays)
    v = Variant(*constants)
    terrain, crowns, bbox = st.terrain, st.crowns, st.bbox
    cur_line, next_line, next_owner = st.cur_line, st.next_line, st.next_owner
    order_player, order_slot, turn = st.order_player, st.order_slot, st.turn
    phase, quests = st.phase, st.quests
    s = terrain.shape[2]
    n_place = v.n_place
    line = v.line
    labels = np.zeros((s, s), dtype=np.int32)
    stack = np.zeros(8 * s * s + 10, dtype=np.int64)
    cells = np.zeros(n_place, dtype=np.bool_)
    best_picks = np.zeros(line, dtype=np.int64)
    for i in range(games.shape[0]):
        b = games[i]
        out[i] = -1
        if phase[b] == OVER:
            continue
        p = order_player[b, turn[b]]
        if phase[b] == PLACE:
            domino = cur_line[b, order_slot[b, turn[b]]]
            out[i], _ = best_placement(terrain[b, p], crowns[b, p], bbox[b, p], domino, v.grid, v.harmony,
                                       v.middle_kingdom, quests[b], u[i], labels, stack, cells)
            continue
        if random_draft:
            out[i] = random_open_pick(next_line, next_owner, b, u[i], n_place)
            continue
        best = -1
        n_best = 0
        for j in range(line):
            if next_line[b, j] < 0 or next_owner[b, j] >= 0:
                continue
            _, points = best_placement(terrain[b, p], crowns[b, p], bbox[b, p], next_line[b, j], v.grid,
                                       v.harmony, v.middle_kingdom, quests[b], 0.0, labels, stack, cells)
            if points > best:
                best = points
                n_best = 0
            if points == best:
                best_picks[n_best] = j
                n_best += 1
        out[i] = n_place + 1 + best_picks[min(int(u[i] * n_best), n_best - 1)]
