"""A heuristic agent stronger than Full Greedy: it values the board beyond the points it scores now."""

from __future__ import annotations

import numpy as np

from kingdomino_env.core import State
from kingdomino_env.games.records import MoverArrays

from .base import Agent
from .heuristic_kernel import DEFAULT_WEIGHTS, heuristic_actions


class HeuristicAgent(Agent):
    """Greedy on `heuristic_kernel.evaluate` instead of the score: the score now, plus room to grow next to crowned
    territories, uncrowned territories that a crown could still reach, minus squares no domino can ever cover, plus
    Harmony and the Middle Kingdom while still reachable. It places where that evaluation is highest and drafts the
    domino whose best placement evaluates highest; ties are broken at random. Kingdomino only: `check_supports`
    refuses it for Queendomino, whose towns, buildings, knights and coins its evaluation does not know."""

    name = "heuristic"

    def __init__(self, seed: int | None = None, weights: np.ndarray | None = None):
        self.rng = np.random.default_rng(seed)
        self.weights = np.asarray(DEFAULT_WEIGHTS if weights is None else weights, dtype=np.float64)

    def act_batch(self, state: State, games: np.ndarray, mask: np.ndarray, obs: np.ndarray | None) -> np.ndarray:
        if state.rules.has_buildings:
            raise ValueError("the heuristic agent plays Kingdomino only (its evaluation kernel scores Kingdomino's "
                             "territories, room and bonuses: it cannot value towns, buildings, knights, towers, coins, "
                             "the Queen or the Dragon, nor choose the knight, build and Dragon steps); for Queendomino "
                             "use random, greedy, gprd, mc, mcts or az")
        games = np.asarray(games, dtype=np.int64)
        out = np.empty(games.shape[0], dtype=np.int64)
        heuristic_actions(state.arrays_for(MoverArrays), state.constants, games, self.weights,
                          self.rng.random(games.shape[0]), out)
        return out
