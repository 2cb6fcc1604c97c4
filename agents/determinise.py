"""Determinisation: sample the hidden part of a game so that search can play it out without peeking.

A player sees the dominoes already drawn into lines (`deck[:drawn]`) but not the order of those still to come,
nor, in 2-player and 36-domino games, which dominoes were left in the box. A determinisation replaces
`deck[drawn:]` by a uniformly random ordered sample of the dominoes not yet seen (all 48 minus the drawn ones),
so every world is consistent with what the player knows and the real deck order is never read.

The Royal Wedding's deck holds both boxes (ids 0-47 Kingdomino's, 48-95 Queendomino's), its lines alternating
boxes by a public rule; each box's undrawn dominoes are reordered among that box's undrawn positions only, so every
world keeps the alternation.

Queendomino hides a second order: the building pile's undrawn tiles (`pile[pile_pos:]`). Every tile drawn so far
(on the Builders' Board, built or burned) is kept; the rest are the deck's tiles not yet drawn, in a random order.
"""

from __future__ import annotations

import numpy as np

from kingdomino_env.core import State
from kingdomino_env.games.compiled import resample

#: Seeds drawn for the compiled sampler lie below this bound.
SEED_BOUND = 2**31 - 1


def resample_hidden(state: State, rng: np.random.Generator) -> State:
    """Replace, in place, the undrawn part of every game's deck by a random sample of the unseen dominoes (and, in
    Queendomino, the undrawn part of the building pile by a random order of the tiles not yet drawn): the core's
    compiled sampler (`games.compiled.resample`, the one the compiled search uses), seeded from `rng`."""
    resample(state.arrays, state.constants, state.rules.deck_boxes, int(rng.integers(SEED_BOUND)))
    return state


def determinise(state: State, games: np.ndarray, worlds_per_game: int | np.ndarray, rng: np.random.Generator
                ) -> State:
    """A new state of sampled worlds of each of `games`, grouped by game in order: `worlds_per_game` each (an int,
    or one count per game)."""
    worlds = state.take(np.repeat(np.asarray(games, dtype=np.int64), worlds_per_game))
    return resample_hidden(worlds, rng)
