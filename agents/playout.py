"""Batched playouts on the core and the ratio evaluation of Gedda et al. (2018).

Two playout policies: Full Greedy (`greedy`, Gedda et al.'s playout policy) and the heuristic agent's evaluation
(`heuristic`: the score now plus room to grow, reachable Harmony and Middle Kingdom, minus dead squares; see
`heuristic_kernel`), which plays the last round exactly (`kingdomino_endgame`), where room to grow is worth nothing.
The heuristic plays Kingdomino only; on Queendomino and Royal Wedding states every playout policy plays
Queendomino's Full Greedy.
"""

from __future__ import annotations

import numpy as np

from kingdomino_env import core
from kingdomino_env.core import State
from kingdomino_env.games.records import MoverArrays
from kingdomino_env.policies import greedy_actions

from .heuristic_kernel import DEFAULT_WEIGHTS, heuristic_actions
from .kingdomino_endgame import final_round_actions, in_final_round

#: The playout policies `playout` knows.
PLAYOUT_POLICIES = ("greedy", "heuristic")
#: `mc` and `mcts` play out with Full Greedy (Gedda et al.'s MCE-FG/R and UCT; they are the fixed anchors of the
#: ladders), `az`'s leaf values with the heuristic: at 100 simulations per move it won 56% of 32 Mighty Duel games
#: (both bonuses) against the same search with Full Greedy playouts, and 50% of 40 at equal time (0.2 s a move).
ANCHOR_PLAYOUT = "greedy"
SEARCH_PLAYOUT = "heuristic"


def check_playout(policy: str) -> str:
    """`policy` if it names a playout policy; ValueError naming the valid ones otherwise."""
    if policy not in PLAYOUT_POLICIES:
        raise ValueError(f"unknown playout policy {policy!r}; valid: {', '.join(PLAYOUT_POLICIES)}")
    return policy


def playout_actions(state: State, games: np.ndarray, rng: np.random.Generator, policy: str) -> np.ndarray:
    """(len(games),) actions of playout policy `policy` for the player to move in each of `games` (none over)."""
    if policy == "greedy" or state.rules.has_buildings:
        return greedy_actions(state, games, rng)
    out = np.empty(games.shape[0], dtype=np.int64)
    heuristic_actions(state.arrays_for(MoverArrays), state.constants, games, DEFAULT_WEIGHTS,
                      rng.random(games.shape[0]), out)
    if not in_final_round(state)[games].any():
        return out
    exact = final_round_actions(state, games)
    return np.where(exact >= 0, exact, out)


def playout(state: State, rng: np.random.Generator, policy: str = ANCHOR_PLAYOUT) -> State:
    """Play every game of `state` to its end in place, all seats by playout policy `policy`; returns the state."""
    actions = np.zeros(state.batch_size, dtype=np.int64)
    while True:
        live = np.flatnonzero(~state.is_over)
        if live.size == 0:
            return state
        actions[live] = playout_actions(state, live, rng, policy)
        core.step(state, actions)


def greedy_playout(state: State, rng: np.random.Generator) -> State:
    """Play every game of `state` to its end in place, all seats by Full Greedy; returns the state."""
    return playout(state, rng, "greedy")


def score_ratio(state: State) -> np.ndarray:
    """(B, K) each kingdom's score / (own score + best other kingdom's score); 0.5 where both are 0. K = P but in
    team games, where a kingdom is a team's; index it by `state.current_kingdom`, not by seat."""
    scores = state.scores.astype(np.float64)
    players = scores.shape[1]
    others = np.where(np.eye(players, dtype=bool)[None], -np.inf, scores[:, None, :]).max(axis=2)
    total = scores + others
    return np.divide(scores, total, out=np.full_like(scores, 0.5), where=total > 0)
