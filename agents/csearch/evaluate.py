"""What the compiled search knows beyond the rules: priors over the legal actions, the value of an unfinished game
and the utility of a finished one, all per kingdom and in [0, 1].

* Priors: a placement's logit grows with the neighbours its two squares join (same terrain, or the castle) and
  with the crowns it lays next to its own terrain; a pick's with the crowns of the domino. Both cost a few array
  reads an action, so every node can have them.
* Leaf values without a value network (`network` has the other kind): each kingdom's board is evaluated by the
  heuristic agent's `evaluate` (score now, room to grow, bonuses still reachable, dead squares); a kingdom's utility
  is sigmoid((own - best other) / value_scale).
* Final utilities: (1 - margin_weight) * win + margin_weight * (1 + tanh(margin / margin_softness)) / 2, where win
  is 1 for a sole winner, 1 / w for w tied winners (by the game's ranking keys), else 0, and margin is the score
  minus the best other score.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from agents.heuristic_kernel import evaluate
from kingdomino_env.games.board import PLACE, decode_placement
from kingdomino_env.games.dominoes import CASTLE, DOMINO_CROWNS, DOMINO_TERRAIN

_DT = np.ascontiguousarray(DOMINO_TERRAIN)
_DC = np.ascontiguousarray(DOMINO_CROWNS)
_DR = np.array([0, 1, 0, -1], dtype=np.int64)
_DCOL = np.array([1, 0, -1, 0], dtype=np.int64)
#: Logit per neighbour a placed square joins, per crown laid next to its own terrain, per crown of a picked domino.
JOIN_LOGIT = 0.5
CROWN_LOGIT = 0.5
PICK_CROWN_LOGIT = 0.3
#: Points of margin that make tanh(1) in the final utility unless a search names its own (`search.Params`).
MARGIN_SOFTNESS = 20.0


@njit(cache=True, inline="always")
def _joins(terrain, r, c, t, skip_r, skip_c):
    """Neighbours of (r, c), other than (skip_r, skip_c), of terrain t or the castle."""
    s = terrain.shape[0]
    count = 0
    for d in range(4):
        r2 = r + _DR[d]
        c2 = c + _DCOL[d]
        if 0 <= r2 < s and 0 <= c2 < s and not (r2 == skip_r and c2 == skip_c):
            if terrain[r2, c2] == t or terrain[r2, c2] == CASTLE:
                count += 1
    return count


@njit(cache=True, inline="always")
def action_logits(st, v, actions, n_legal, logits):
    """Fill logits[i] for the legal actions actions[:n_legal] of the player to move in one-game record `st`."""
    domino = st.cur_line[0, st.order_slot[0, st.turn[0]]] if st.phase[0] == PLACE else -1
    domino_logits(st.terrain[0, st.order_player[0, st.turn[0]]], st.next_line[0], domino, _DT, _DC, v.n_place,
                  actions, n_legal, logits)


@njit(cache=True)
def domino_logits(terrain, next_line, domino, dt, dc, n_place, actions, n_legal, logits):
    """Fill logits[i] for actions[:n_legal]: the placements of `domino` (and the discard) on the kingdom `terrain`,
    or, when domino is -1, the picks of `next_line`; dt, dc: the (ids, 2) terrain and crowns tables by domino id."""
    if domino >= 0:
        s = terrain.shape[0]
        t1, t2 = dt[domino, 0], dt[domino, 1]
        k1, k2 = dc[domino, 0], dc[domino, 1]
        for i in range(n_legal):
            a = actions[i]
            if a == n_place:
                logits[i] = 0.0
                continue
            r, c, r2, c2 = decode_placement(a, s)
            j1 = _joins(terrain, r, c, t1, r2, c2)
            j2 = _joins(terrain, r2, c2, t2, r, c)
            logits[i] = JOIN_LOGIT * (j1 + j2) + CROWN_LOGIT * (k1 * min(j1, 1) + k2 * min(j2, 1))
    else:
        for i in range(n_legal):
            picked = next_line[actions[i] - n_place - 1]
            logits[i] = PICK_CROWN_LOGIT * (dc[picked, 0] + dc[picked, 1])


@njit(cache=True, inline="always")
def leaf_utilities(st, v, weights, value_scale, labels, stack, space, u, lead):
    """u[k]: kingdom k's utility in the unfinished one-game record `st` (see the module docstring); lead[k]: its
    evaluated lead over the best other kingdom, in points. `space` (3, S * S + 1) int64 scratch, zero on entry and on
    return."""
    kingdoms = st.terrain.shape[1]
    values = np.empty(kingdoms)
    for k in range(kingdoms):
        values[k] = evaluate(st.terrain[0, k], st.crowns[0, k], st.bbox[0, k], v, weights, labels, stack, space[0],
                             space[1], space[2])
    lead_utilities(values, value_scale, u, lead)


@njit(cache=True)
def lead_utilities(values, value_scale, u, lead):
    """u[k]: sigmoid(lead[k] / value_scale), where lead[k] is values[k] minus the best other kingdom's value."""
    kingdoms = values.shape[0]
    for k in range(kingdoms):
        best_other = -1e30
        for j in range(kingdoms):
            if j != k and values[j] > best_other:
                best_other = values[j]
        lead[k] = values[k] - best_other
        u[k] = 1.0 / (1.0 + np.exp(-lead[k] / value_scale))


@njit(cache=True)
def terminal_outcome(keys, scores, k):
    """(win share, margin) of kingdom k in a finished game from its (K,) ranking keys (`games.compiled.rank_key`,
    the game's own tie-breaks) and scores: 1 for a sole winner, 1 / w for each of w tied winners, else 0; the score
    minus the best other score."""
    kingdoms = scores.shape[0]
    top = keys.max()
    winners = 0
    best_other = -1e30
    for j in range(kingdoms):
        if keys[j] == top:
            winners += 1
        if j != k and scores[j] > best_other:
            best_other = scores[j]
    return (1.0 / winners if keys[k] == top else 0.0), scores[k] - best_other


@njit(cache=True)
def terminal_utilities(keys, scores, margin_weight, margin_softness, u):
    """u[k]: kingdom k's utility in a finished game from its (K,) ranking keys and scores (`terminal_outcome`
    weighed as the module docstring says)."""
    for k in range(scores.shape[0]):
        win, margin = terminal_outcome(keys, scores, k)
        u[k] = utility(win, margin, margin_weight, margin_softness)


@njit(cache=True, inline="always")
def utility(win, margin, margin_weight, margin_softness):
    """A kingdom's utility from its win share and margin in points, weighed as the module docstring says."""
    return (1 - margin_weight) * win + margin_weight * 0.5 * (1 + np.tanh(margin / margin_softness))
