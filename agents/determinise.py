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
from kingdomino_env.games.dominoes import N_DOMINOES
from kingdomino_env.games.queendomino.game import queen_box_positions


def _fill_unseen(order: np.ndarray, known: np.ndarray, n_ids: int, rng: np.random.Generator) -> np.ndarray:
    """`order` (B, D) with each row's entries from position known[b] on replaced by a uniformly random ordered
    sample of the ids 0..n_ids - 1 not among its first known[b] entries (only those are read)."""
    batch, size = order.shape
    positions = np.arange(size)
    is_known = positions[None, :] < known.astype(np.int64)[:, None]
    seen = np.zeros((batch, n_ids), dtype=bool)
    rows, cols = np.nonzero(is_known)
    seen[rows, order[rows, cols].astype(np.int64)] = True
    keys = rng.random((batch, n_ids))
    keys[seen] = 2.0
    unseen_first = np.argsort(keys, axis=1, kind="stable")
    offset = np.clip(positions[None, :] - known.astype(np.int64)[:, None], 0, n_ids - 1)
    fill = np.take_along_axis(unseen_first, offset, axis=1)
    return np.where(is_known, order, fill).astype(order.dtype)


def _fill_royal_deck(state: State, rng: np.random.Generator) -> None:
    """Reorder, in place, each box's undrawn dominoes among that box's undrawn positions of the deck."""
    queen_line = queen_box_positions(state.rules.line_size)
    drawn = state.drawn.astype(np.int64)
    for positions, base in ((np.flatnonzero(~queen_line), 0), (np.flatnonzero(queen_line), N_DOMINOES)):
        known = (positions[None, :] < drawn[:, None]).sum(axis=1)
        box = state.deck[:, positions].astype(np.int64) - base
        state.deck[:, positions] = (_fill_unseen(box, known, N_DOMINOES, rng) + base).astype(state.deck.dtype)


def resample_hidden(state: State, rng: np.random.Generator) -> State:
    """Replace, in place, the undrawn part of every game's deck by a random sample of the unseen dominoes (and, in
    Queendomino, the undrawn part of the building pile by a random order of the tiles not yet drawn)."""
    if state.rules.two_boxes:
        _fill_royal_deck(state, rng)
    else:
        state.deck[:] = _fill_unseen(state.deck, state.drawn, N_DOMINOES, rng)
    if state.rules.has_buildings:
        state.pile[:] = _fill_unseen(state.pile, state.pile_pos, state.pile.shape[1], rng)  # type: ignore[attr-defined]
    return state


def determinise(state: State, games: np.ndarray, worlds_per_game: int | np.ndarray, rng: np.random.Generator
                ) -> State:
    """A new state of sampled worlds of each of `games`, grouped by game in order: `worlds_per_game` each (an int,
    or one count per game)."""
    worlds = state.take(np.repeat(np.asarray(games, dtype=np.int64), worlds_per_game))
    return resample_hidden(worlds, rng)
