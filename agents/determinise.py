"""Determinisation: sample the hidden part of a game so that search can play it out without peeking.

A player sees the dominoes already drawn into lines (`deck[:drawn]`) but not the order of those still to come,
nor, in 2-player and 36-domino games, which dominoes were left in the box. A determinisation replaces
`deck[drawn:]` by a uniformly random ordered sample of the dominoes not yet seen (all 48 minus the drawn ones),
so every world is consistent with what the player knows and the real deck order is never read.
"""

from __future__ import annotations

import numpy as np

from kingdomino_env.core import State
from kingdomino_env.dominoes import N_DOMINOES


def resample_hidden(state: State, rng: np.random.Generator) -> State:
    """Replace, in place, the undrawn part of every game's deck by a random sample of the unseen dominoes."""
    batch, size = state.deck.shape
    positions = np.arange(size)
    is_drawn = positions[None, :] < state.drawn.astype(np.int64)[:, None]
    seen = np.zeros((batch, N_DOMINOES), dtype=bool)
    rows, cols = np.nonzero(is_drawn)
    seen[rows, state.deck[rows, cols].astype(np.int64)] = True
    keys = rng.random((batch, N_DOMINOES))
    keys[seen] = 2.0
    unseen_first = np.argsort(keys, axis=1, kind="stable")
    offset = np.clip(positions[None, :] - state.drawn.astype(np.int64)[:, None], 0, N_DOMINOES - 1)
    fill = np.take_along_axis(unseen_first, offset, axis=1)
    state.deck[:] = np.where(is_drawn, state.deck, fill).astype(state.deck.dtype)
    return state


def determinise(state: State, games: np.ndarray, worlds_per_game: int | np.ndarray, rng: np.random.Generator
                ) -> State:
    """A new state of sampled worlds of each of `games`, grouped by game in order: `worlds_per_game` each (an int,
    or one count per game)."""
    worlds = state.take(np.repeat(np.asarray(games, dtype=np.int64), worlds_per_game))
    return resample_hidden(worlds, rng)
