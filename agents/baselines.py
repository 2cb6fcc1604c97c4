"""The reference agents: random, Full Greedy and GPRD, as thin wrappers of `kingdomino_env.policies`."""

from __future__ import annotations

import numpy as np

from kingdomino_env.core import State
from kingdomino_env.policies import GreedyPolicy, RandomPolicy

from .base import Agent


class RandomAgent(Agent):
    """Uniformly random legal actions."""

    name = "random"

    def __init__(self, seed: int | None = None):
        self.policy = RandomPolicy(seed)

    def act_batch(self, state: State, games: np.ndarray, mask: np.ndarray, obs: np.ndarray | None) -> np.ndarray:
        return self.policy.act(state, games, mask, obs)


class GreedyAgent(Agent):
    """Full Greedy (Gedda et al. 2018): place to maximise the score now; draft the domino whose best placement now
    scores most. With `random_draft` it drafts uniformly at random: their GPRD."""

    def __init__(self, seed: int | None = None, random_draft: bool = False):
        self.policy = GreedyPolicy(seed, random_draft=random_draft)
        self.name = "gprd" if random_draft else "greedy"

    def act_batch(self, state: State, games: np.ndarray, mask: np.ndarray, obs: np.ndarray | None) -> np.ndarray:
        return self.policy.act(state, games, mask, obs)
