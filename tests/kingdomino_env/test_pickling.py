"""Rules pickle whole while another thread fills their caches, as when a pool's feeder thread sends them to
workers."""

from __future__ import annotations

import contextlib
import io
import pickle
from functools import cached_property
from typing import IO

import numpy as np

from kingdomino_env.rules import Rules
from tests.games_table import GAMES, every_game

CACHED = [name for name, value in vars(Rules).items() if isinstance(value, cached_property)]


class FillingPickler(pickle.Pickler):
    """Fills every cache of `target` (those of its game) the first time it meets an array, as a main thread might
    while a feeder thread pickles."""

    def __init__(self, file: IO[bytes], target: Rules):
        super().__init__(file)
        self.target, self.filled = target, False

    def reducer_override(self, obj: object) -> object:
        if isinstance(obj, np.ndarray) and not self.filled:
            self.filled = True
            for name in CACHED:
                with contextlib.suppress(ValueError):
                    getattr(self.target, name)
        return NotImplemented


@every_game()
def test_rules_pickle_alike_while_their_caches_fill(game: str):
    rules = Rules(**GAMES[game])
    assert rules.deck_boxes.size
    buffer = io.BytesIO()
    pickler = FillingPickler(buffer, rules)
    pickler.dump(rules)
    assert pickler.filled
    copy = pickle.loads(buffer.getvalue())
    assert copy == rules and copy.seat_kingdoms == rules.seat_kingdoms
    assert (copy.domino_terrain == rules.domino_terrain).all()
