"""Batched policies: the interface every agent implements, and the two reference policies the envs need.

A policy chooses one action in each of some games of a core `State` batch. Environments use `random` and
`greedy` as built-in opponents; the `agents` package implements the same interface for its search and trained
agents, so an agent can play in the AEC env, the vector env, a tournament or the play app alike.
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

import numpy as np

from . import core
from .core import State
from .games.kingdomino import greedy as kingdomino_greedy
from .games.queendomino import greedy as queendomino_greedy


@runtime_checkable
class Policy(Protocol):
    """Acts for the player to move in each of `games` (indices into `state`).

    mask: (len(games), n_actions) bool legal actions of those games; obs: their observations from the mover's
    point of view, or None when the policy's `needs_observation` is False (callers skip computing them).
    Returns (len(games),) legal action ids. A policy may read `state` through the core, but must not use what
    the player cannot see (the order of the dominoes still in the deck).
    """

    needs_observation: bool

    def act(self, state: State, games: np.ndarray, mask: np.ndarray, obs: np.ndarray | None) -> np.ndarray: ...


class RandomPolicy:
    """Uniformly random legal actions."""

    needs_observation = False

    def __init__(self, seed: int | None = None):
        self.rng = np.random.default_rng(seed)

    def act(self, state: State, games: np.ndarray, mask: np.ndarray, obs: np.ndarray | None) -> np.ndarray:
        return core.random_legal_actions(mask, self.rng)


class GreedyPolicy:
    """Full Greedy of Gedda, Lagerkvist and Butler (IEEE CIG 2018): place where the score after placing is
    highest; draft the domino whose best placement now scores most. With `random_draft=True` it drafts at random
    (their GPRD). Ties are broken uniformly at random. On Queendomino states it plays `games.queendomino.greedy`'s
    choices (GPRD: greedy placement, random everything else)."""

    needs_observation = False

    def __init__(self, seed: int | None = None, random_draft: bool = False):
        self.rng = np.random.default_rng(seed)
        self.random_draft = random_draft

    def act(self, state: State, games: np.ndarray, mask: np.ndarray, obs: np.ndarray | None) -> np.ndarray:
        return greedy_actions(state, games, self.rng, self.random_draft)


def greedy_actions(state: State, games: np.ndarray, rng: np.random.Generator, random_draft: bool = False
                   ) -> np.ndarray:
    """(len(games),) Full Greedy actions (GPRD with `random_draft`) for the player to move; -1 where over.
    Queendomino states get `games.queendomino.greedy.greedy_actions` (its choices for the knights, build and Dragon
    steps are documented there)."""
    if state.rules.is_queendomino:
        return queendomino_greedy.greedy_actions(state, games, rng, random_draft)
    games = np.asarray(games, dtype=np.int64)
    out = np.empty(games.shape[0], dtype=np.int64)
    kingdomino_greedy.greedy_actions(state.arrays, state.constants, games, random_draft, rng.random(games.shape[0]),
                                     out)
    return out
