"""Kingdomino's last round, solved exactly.

Once the last line has been picked, nothing is hidden and no player can touch another's kingdom: every decision
left is a placement of a known domino in the mover's own kingdom, and the final ranking compares each kingdom's
(score, largest territory, crowns) (`core.rank_keys`). Whatever the others do, a player's best play is therefore
the sequence of its remaining placements that makes that key largest: it maximises both its chance of winning and
its margin. `final_round_actions` finds it by trying every placement of each of the mover's remaining dominoes
(in the Mighty Duel and 2-player games two, otherwise one), scoring the finished boards with the core's own scoring
(`board_points`: bonuses and quests included). Kingdomino only: Queendomino's last round still has builds, knights
and the Dragon, which other kingdoms feel.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from kingdomino_env import core
from kingdomino_env.core import State
from kingdomino_env.games.board import ALL_PLACEMENTS, PLACE, decode_placement, lift_domino
from kingdomino_env.games.kingdomino.kernels import board_points, placements, put_domino


@njit(cache=True, inline="always")
def _better(a0, a1, a2, b0, b1, b2):
    """Whether key (a0, a1, a2) ranks above (b0, b1, b2): score, then largest territory, then crowns."""
    if a0 != b0:
        return a0 > b0
    if a1 != b1:
        return a1 > b1
    return a2 > b2


@njit(cache=True, inline="always")
def _final_key(terrain, crowns, bbox, then, v, quests, labels, stack, cells):
    """(score, largest, crowns) under the variant `v` (`records.Variant`) of the board after the best placement of
    domino `then` (the board as it is if `then` is negative or cannot be placed). The board is restored before
    returning; `cells` is scratch."""
    if then < 0:
        return board_points(terrain, crowns, bbox, v, quests, labels, stack)
    s = terrain.shape[0]
    cells[:] = False
    if placements(terrain, bbox, then, v.grid, cells, ALL_PLACEMENTS) == 0:
        return board_points(terrain, crowns, bbox, v, quests, labels, stack)
    saved = bbox.copy()
    best0, best1, best2 = -1, -1, -1
    for a in range(s * s * 4):
        if not cells[a]:
            continue
        r, c, r2, c2 = decode_placement(a, s)
        put_domino(terrain, crowns, bbox, then, r, c, r2, c2)
        k0, k1, k2 = board_points(terrain, crowns, bbox, v, quests, labels, stack)
        lift_domino(terrain, crowns, bbox, saved, r, c, r2, c2)
        if _better(k0, k1, k2, best0, best1, best2):
            best0, best1, best2 = k0, k1, k2
    return best0, best1, best2


@njit(cache=True)
def _best(terrain, crowns, bbox, domino, then, v, quests, labels, stack, cells, then_cells):
    """The placement of `domino` (the discard when none is legal) that, followed by the best placement of domino
    `then` (none if negative), leaves the best final key under the variant `v`; the first such in action order. The
    board is restored before returning; `cells` and `then_cells` are scratch."""
    s = terrain.shape[0]
    discard = s * s * 4
    cells[:] = False
    if placements(terrain, bbox, domino, v.grid, cells, ALL_PLACEMENTS) == 0:
        return discard
    saved = bbox.copy()
    best_a, best0, best1, best2 = -1, -1, -1, -1
    for a in range(discard):
        if not cells[a]:
            continue
        r, c, r2, c2 = decode_placement(a, s)
        put_domino(terrain, crowns, bbox, domino, r, c, r2, c2)
        k0, k1, k2 = _final_key(terrain, crowns, bbox, then, v, quests, labels, stack, then_cells)
        lift_domino(terrain, crowns, bbox, saved, r, c, r2, c2)
        if best_a < 0 or _better(k0, k1, k2, best0, best1, best2):
            best_a, best0, best1, best2 = a, k0, k1, k2
    return best_a


@njit(cache=True)
def _final_round(terrain, crowns, bbox, cur_line, order_player, order_slot, turn, solvable, games, v, quests, out):
    """Fill out[i] with the exact best placement for the player to move in each of `games` of the variant `v`
    (`records.Variant`), -1 where game games[i] is not `solvable` (placing in its last round). A player has at most
    two kings, so at most one more placement of its own follows the current one."""
    s = terrain.shape[2]
    kings = order_player.shape[1]
    labels = np.zeros((s, s), dtype=np.int32)
    stack = np.zeros(s * s, dtype=np.int64)
    cells = np.zeros(s * s * 4, dtype=np.bool_)
    then_cells = np.zeros(s * s * 4, dtype=np.bool_)
    for i in range(games.shape[0]):
        b = games[i]
        out[i] = -1
        if not solvable[b]:
            continue
        p = order_player[b, turn[b]]
        domino = cur_line[b, order_slot[b, turn[b]]]
        then = np.int64(-1)  # not the literal -1, which would compile `_best` once more
        for t in range(turn[b] + 1, kings):
            if order_player[b, t] == p:
                then = cur_line[b, order_slot[b, t]]
        out[i] = _best(terrain[b, p], crowns[b, p], bbox[b, p], domino, then, v, quests[b], labels, stack, cells,
                       then_cells)


@njit(cache=True, inline="always")
def placing_in_final_round(g, b):
    """Whether game b of the `KingdominoArrays` record g places in its last round (`in_final_round`, compiled)."""
    return g.phase[b] == PLACE and g.next_line[b, 0] < 0


@njit(cache=True, inline="always")
def final_round_action(g, v, b):
    """The exact best action of the player to move in game b of the `KingdominoArrays` record g, of the variant whose
    `Variant` constants are v, when that game places in its last round (`in_final_round`); compiled code calls it
    (searches, playouts), the caller checks the round."""
    out = np.empty(1, dtype=np.int64)
    solvable = np.ones(b + 1, dtype=np.bool_)
    _final_round(g.terrain, g.crowns, g.bbox, g.cur_line, g.order_player, g.order_slot, g.turn, solvable,
                 np.array([b], dtype=np.int64), v, g.quests, out)
    return out[0]


def in_final_round(state: State) -> np.ndarray:
    """(B,) whether each game is a Kingdomino game placing in its last round (`State.in_last_round`; solved by
    `final_round_actions`)."""
    if state.rules.has_buildings:
        return np.zeros(state.batch_size, dtype=bool)
    return state.in_last_round & (state.phase == PLACE)


def play_final_round(state: State) -> State:
    """Play every game of `state` to its end in place, every seat by `final_round_actions`; every game must be over
    or in its last round (`in_final_round`). The result is the game's exact outcome under best play."""
    if not (state.is_over | in_final_round(state)).all():
        raise ValueError("play_final_round needs games that are over or placing in their last round")
    actions = np.zeros(state.batch_size, dtype=np.int64)
    while True:
        live = np.flatnonzero(~state.is_over)
        if live.size == 0:
            return state
        actions[live] = final_round_actions(state, live)
        core.step(state, actions)


def final_round_actions(state: State, games: np.ndarray) -> np.ndarray:
    """(len(games),) for each of `games`: the exact best action of the player to move if the game is placing in
    its last round (the last line picked), else -1. Always -1 in Queendomino and the Royal Wedding."""
    games = np.asarray(games, dtype=np.int64)
    out = np.full(games.shape[0], -1, dtype=np.int64)
    r = state.rules
    final = in_final_round(state)
    if games.size == 0 or not final[games].any():  # the solver's kernel is compiled on its first real use
        return out
    _final_round(state.terrain, state.crowns, state.bbox, state.cur_line, state.order_player, state.order_slot,
                 state.turn, final, games, r.constants, state.quests, out)
    return out
