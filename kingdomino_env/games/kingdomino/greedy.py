"""Full Greedy for Kingdomino, compiled."""

from __future__ import annotations

import numpy as np
from numba import njit

from ..board import ALL_PLACEMENTS, OVER, PLACE, decode_placement, lift_domino, random_open_pick
from ..records import MoverArrays, Variant
from .kernels import best_placements, board_points, placements, put_domino, territories


@njit(cache=True, inline="always")
def quests_active(quests):
    """Whether any quest of a game's (17,) flags is active."""
    for q in range(quests.shape[0]):
        if quests[q]:
            return True
    return False


@njit(cache=True, inline="always")
def label_board(terrain, crowns, bbox, labels, stack):
    """Label one board's territories for `best_labelled` (sizes and crowns by label go into `stack`); (territory
    points, filled squares)."""
    s = terrain.shape[0]
    return territories(terrain, crowns, bbox, labels, stack, stack[5 * s * s:6 * s * s + 1],
                       stack[6 * s * s + 1:7 * s * s + 2])


@njit(cache=True, inline="always")
def best_labelled(terrain, crowns, bbox, domino, v, u, labels, stack, cells, points, filled):
    """`best_placement` without quests, on a board `label_board` labelled (giving `points`, `filled`); the labels
    are only read, so one labelling serves every domino tried on the same board."""
    s = terrain.shape[0]
    ties = stack[s * s:5 * s * s]
    best, n_best = best_placements(terrain, crowns, bbox, domino, v, points, filled, labels,
                                   stack[5 * s * s:6 * s * s + 1], stack[6 * s * s + 1:7 * s * s + 2], cells,
                                   stack[7 * s * s + 2:7 * s * s + 10], ties)
    if n_best == 0:
        return s * s * 4, best
    return ties[min(int(u * n_best), n_best - 1)], best


@njit(cache=True, inline="always")
def best_placement(terrain, crowns, bbox, domino, v, quests, u, labels, stack, cells):
    """(action, score) of the placement of `domino` that scores most now under the variant `v` (`records.Variant`),
    ties split by u in [0, 1); (discard action, current score) when no placement is legal. `stack`
    (8 * S * S + 10,) scratch. Without active quests every placement is scored from one labelling of the board
    (`best_placements`); with them each is placed, scored and lifted."""
    if quests_active(quests):
        return _best_placed(terrain, crowns, bbox, domino, v, quests, u, labels, stack, cells)
    points, filled = label_board(terrain, crowns, bbox, labels, stack)
    return best_labelled(terrain, crowns, bbox, domino, v, u, labels, stack, cells, points, filled)


@njit(cache=True, inline="always")
def _best_placed(terrain, crowns, bbox, domino, v, quests, u, labels, stack, cells):
    """`best_placement` by placing, scoring (quests included) and lifting each legal placement."""
    s = terrain.shape[0]
    n_legal = placements(terrain, bbox, domino, v.grid, cells, ALL_PLACEMENTS)
    if n_legal == 0:
        points, _, _ = board_points(terrain, crowns, bbox, v, quests, labels, stack)
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
        points, _, _ = board_points(terrain, crowns, bbox, v, quests, labels, stack)
        lift_domino(terrain, crowns, bbox, saved, r, c, r2, c2)
        if points > best:
            best = points
            n_best = 1
            stack[s * s] = a
        elif points == best:
            n_best += 1
            stack[s * s + n_best - 1] = a
    return stack[s * s + min(int(u * n_best), n_best - 1)], best


@njit(cache=True, inline="always")
def greedy_scratch(s, line):
    """The scratch arrays `greedy_action` needs on an S x S frame with lines of `line` dominoes: (labels, stack,
    cells, best_picks)."""
    return (np.zeros((s, s), dtype=np.int32), np.zeros(8 * s * s + 10, dtype=np.int64),
            np.zeros(4 * s * s, dtype=np.bool_), np.zeros(line, dtype=np.int64))


@njit(cache=True, inline="always")
def greedy_action(st, v, b, random_draft, u, labels, stack, cells, best_picks):
    """Full Greedy's action for the player to move in game b of the `MoverArrays` record `st` (-1 once over); the
    scratch arrays come from `greedy_scratch`. A pick labels the board once for every open domino (without
    quests); the last open domino is picked without scoring it."""
    if st.phase[b] == OVER:
        return -1
    p = st.order_player[b, st.turn[b]]
    terrain, crowns, bbox, quests = st.terrain[b, p], st.crowns[b, p], st.bbox[b, p], st.quests[b]
    if st.phase[b] == PLACE:
        domino = st.cur_line[b, st.order_slot[b, st.turn[b]]]
        action, _ = best_placement(terrain, crowns, bbox, domino, v, quests, u, labels, stack, cells)
        return action
    if random_draft:
        return random_open_pick(st.next_line, st.next_owner, b, u, v.n_place)
    n_open = 0
    for j in range(v.line):
        if st.next_line[b, j] >= 0 and st.next_owner[b, j] < 0:
            best_picks[0] = j
            n_open += 1
    if n_open == 1:
        return v.n_place + 1 + best_picks[0]
    labelled = not quests_active(quests)
    points, filled = label_board(terrain, crowns, bbox, labels, stack) if labelled else (0, 0)
    best = -1
    n_best = 0
    for j in range(v.line):
        domino = st.next_line[b, j]
        if domino < 0 or st.next_owner[b, j] >= 0:
            continue
        if labelled:
            _, score = best_labelled(terrain, crowns, bbox, domino, v, 0.0, labels, stack, cells, points, filled)
        else:
            _, score = _best_placed(terrain, crowns, bbox, domino, v, quests, 0.0, labels, stack, cells)
        if score > best:
            best = score
            n_best = 0
        if score == best:
            best_picks[n_best] = j
            n_best += 1
    return v.n_place + 1 + best_picks[min(int(u * n_best), n_best - 1)]


@njit(cache=True)
def greedy_actions(arrays, constants, games, random_draft, u, out):
    """Full Greedy (Gedda et al. 2018) for the player to move in each of `games`: place where the score after
    placing is highest; pick the domino whose best placement on the current board scores most (or a uniformly
    random one with `random_draft`, their GPRD). Scores include each game's active quests. Ties are split by u[i]
    in [0, 1). arrays, constants: the plain tuples `State.arrays_for(MoverArrays)` and `State.constants`."""
    st = MoverArrays(*arrays)
    v = Variant(*constants)
    labels, stack, cells, best_picks = greedy_scratch(st.terrain.shape[2], v.line)
    for i in range(games.shape[0]):
        out[i] = greedy_action(st, v, games[i], random_draft, u[i], labels, stack, cells, best_picks)
