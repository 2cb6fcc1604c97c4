"""Batched playouts on the core and the ratio evaluation of Gedda et al. (2018)."""

from __future__ import annotations

import numpy as np

from kingdomino_env import core
from kingdomino_env.core import State
from kingdomino_env.policies import greedy_actions


def greedy_playout(state: State, rng: np.random.Generator) -> State:
    """Play every game of `state` to its end in place, all seats by Full Greedy; returns the state."""
    actions = np.zeros(state.batch_size, dtype=np.int64)
    while True:
        live = np.flatnonzero(~state.is_over)
        if live.size == 0:
            return state
        actions[live] = greedy_actions(state, live, rng)
        core.step(state, actions)


def score_ratio(state: State) -> np.ndarray:
    """(B, K) each kingdom's score / (own score + best other kingdom's score); 0.5 where both are 0. K = P but in
    team games, where a kingdom is a team's; index it by `state.current_kingdom`, not by seat."""
    scores = state.scores.astype(np.float64)
    players = scores.shape[1]
    others = np.where(np.eye(players, dtype=bool)[None], -np.inf, scores[:, None, :]).max(axis=2)
    total = scores + others
    return np.divide(scores, total, out=np.full_like(scores, 0.5), where=total > 0)
