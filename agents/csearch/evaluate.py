"""What the compiled search knows beyond the rules (its priors are `priors`'): the value of an unfinished game and
the utility of a finished one, all per kingdom and in [0, 1].

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

#: Points of margin that make tanh(1) in the final utility unless a search names its own (`search.Params`).
MARGIN_SOFTNESS = 20.0


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
