"""Game variants and the action layout: the fixed numbers every other module derives its shapes from.

A `Rules` value names one variant (players, Mighty Duel, bonuses, quests, the older 3-player rule) and derives the sizes
of that variant: kingdom size N, frame size S = 2N - 1, deck size, line size, kings, rounds and the number of
action ids. It validates its options, so a bad variant fails here, before any game exists.

Action layout (a public contract, see the README):

* ``a = (r * S + c) * 4 + d`` places the domino's first square at (r, c) of the S x S frame (castle at
  (N - 1, N - 1)) and its second square at the neighbour in direction d: 0 east (c + 1), 1 south (r + 1),
  2 west (c - 1), 3 north (r - 1).
* ``a = S * S * 4`` discards the domino (legal only when no placement is).
* ``a = S * S * 4 + 1 + i`` picks the i-th domino (ascending number) of the next line.
"""

from __future__ import annotations

import reprlib
from dataclasses import asdict, dataclass
from functools import cached_property
from typing import Any

import numpy as np

from . import quests as _quests

#: Row and column offsets of the second square for directions 0 east, 1 south, 2 west, 3 north.
DIRECTIONS: tuple[tuple[int, int], ...] = ((0, 1), (1, 0), (0, -1), (-1, 0))
DIRECTION_NAMES: tuple[str, ...] = ("east", "south", "west", "north")


@dataclass(frozen=True)
class Rules:
    """One Kingdomino variant.

    players: 2, 3 or 4. mighty_duel: 2 players, all 48 dominoes, 7x7 kingdoms. harmony: +5 for a complete N x N
    kingdom. middle_kingdom: +10 when the castle is centred in an N x N kingdom. three_player_36: the older
    3-player rule (36 dominoes in lines of 3) instead of the current one (48 in lines of 4, the leftover discarded).
    quests: names from `quests.QUESTS` active in every game; random_quests: k distinct quests drawn per game at
    deal time instead (not both). A Harmony or Middle Kingdom quest with the same base option on counts once.
    """

    players: int = 2
    mighty_duel: bool = False
    harmony: bool = False
    middle_kingdom: bool = False
    three_player_36: bool = False
    quests: tuple[str, ...] = ()
    random_quests: int = 0

    def __post_init__(self) -> None:
        if not isinstance(self.players, int) or isinstance(self.players, bool) or self.players not in (2, 3, 4):
            raise ValueError(f"players must be 2, 3 or 4, got {short_repr(self.players)}")
        for name in ("mighty_duel", "harmony", "middle_kingdom", "three_player_36"):
            if not isinstance(getattr(self, name), bool):
                raise ValueError(f"{name} must be True or False, got {short_repr(getattr(self, name))}")
        if self.mighty_duel and self.players != 2:
            raise ValueError(f"mighty_duel is a 2-player variant, got players={self.players}")
        if self.three_player_36 and self.players != 3:
            raise ValueError(f"three_player_36 is a 3-player rule, got players={self.players}")
        self._check_quests()

    def _check_quests(self) -> None:
        if isinstance(self.quests, str) or not isinstance(self.quests, (tuple, list)):
            raise ValueError(f"quests must be a sequence of quest names, got {short_repr(self.quests)}; "
                             f"valid quests: {', '.join(_quests.QUESTS)}")
        object.__setattr__(self, "quests", _quests.check_names(self.quests))
        k = self.random_quests
        if not isinstance(k, int) or isinstance(k, bool) or not 0 <= k <= _quests.N_QUESTS:
            raise ValueError(f"random_quests must be an integer in 0..{_quests.N_QUESTS}, got {short_repr(k)}")
        if k and self.quests:
            raise ValueError("give either quests (fixed) or random_quests (drawn per game), not both")

    @property
    def has_quests(self) -> bool:
        """Whether games of this variant have quests (fixed or random)."""
        return bool(self.quests) or self.random_quests > 0

    # Sizes derived from the variant (cached: the hot paths read them every step).
    @cached_property
    def grid(self) -> int:
        """N: the kingdom's side (5, or 7 in the Mighty Duel)."""
        return 7 if self.mighty_duel else 5

    @cached_property
    def frame(self) -> int:
        """S = 2N - 1: the side of the frame a kingdom lives in, castle at the centre."""
        return 2 * self.grid - 1

    @cached_property
    def castle(self) -> int:
        """Row and column of the castle in the frame (N - 1)."""
        return self.grid - 1

    @cached_property
    def deck_size(self) -> int:
        if self.players == 2 and not self.mighty_duel:
            return 24
        if self.three_player_36:
            return 36
        return 48

    @cached_property
    def line_size(self) -> int:
        return 3 if self.three_player_36 else 4

    @cached_property
    def kings(self) -> int:
        """Kings in play: 2 per player in 2-player games, 1 otherwise."""
        return 4 if self.players == 2 else self.players

    @cached_property
    def kings_per_player(self) -> int:
        return self.kings // self.players

    @cached_property
    def rounds(self) -> int:
        """Rounds after the starting round; each places one line."""
        return self.deck_size // self.line_size

    @cached_property
    def max_actions(self) -> int:
        """Actions in a whole game: one pick and one placement (or discard) per king per line."""
        return 2 * self.rounds * self.kings

    # The action layout.
    @cached_property
    def n_place_actions(self) -> int:
        return self.frame * self.frame * 4

    @cached_property
    def discard_action(self) -> int:
        return self.n_place_actions

    @cached_property
    def first_pick_action(self) -> int:
        return self.n_place_actions + 1

    @cached_property
    def n_actions(self) -> int:
        return self.n_place_actions + 1 + self.line_size

    def place_action(self, row: int, col: int, direction: int) -> int:
        """The action id that puts the first square at (row, col) and the second towards `direction`."""
        s = self.frame
        if not (0 <= row < s and 0 <= col < s and 0 <= direction < 4):
            raise ValueError(f"placement ({row}, {col}, {direction}) is outside the {s}x{s} frame or directions 0-3")
        return (row * s + col) * 4 + direction

    def pick_action(self, index: int) -> int:
        """The action id that picks the `index`-th domino (ascending number) of the next line."""
        if not 0 <= index < self.line_size:
            raise ValueError(f"pick index must be in 0..{self.line_size - 1}, got {index}")
        return self.first_pick_action + index

    def describe_action(self, action: int) -> str:
        """Human-readable meaning of an action id, e.g. ``'place (4, 5) east'``, ``'pick 2'``, ``'discard'``."""
        if not 0 <= action < self.n_actions:
            raise ValueError(f"action must be in 0..{self.n_actions - 1}, got {action}")
        if action == self.discard_action:
            return "discard"
        if action >= self.first_pick_action:
            return f"pick {action - self.first_pick_action}"
        cell, direction = divmod(action, 4)
        row, col = divmod(cell, self.frame)
        return f"place ({row}, {col}) {DIRECTION_NAMES[direction]}"

    # Records.
    def to_dict(self) -> dict[str, Any]:
        """The `rules` object of a game record (the grid is included for readers; it follows mighty_duel).

        "quests" and "random_quests" appear only in variants with quests, so records without quests keep the
        format they had before quests existed."""
        out = asdict(self)
        if self.has_quests:
            out["quests"] = list(self.quests)
        else:
            del out["quests"], out["random_quests"]
        out["grid"] = self.grid
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Rules:
        """Inverse of `to_dict`; unknown keys or a grid that contradicts the variant raise ValueError.

        The quest keys are optional (records written before quests existed lack them)."""
        if not isinstance(data, dict):
            raise ValueError(f"rules must be an object, got {type(data).__name__}")
        known = {"players", "mighty_duel", "harmony", "middle_kingdom", "three_player_36", "quests", "random_quests",
                 "grid"}
        unknown = [key for key in data if key not in known]
        if unknown:
            raise ValueError(f"unknown rules keys {sorted(map(short_repr, unknown))}; allowed: {sorted(known)}")
        args = {k: v for k, v in data.items() if k != "grid"}
        if isinstance(args.get("quests"), list):
            args["quests"] = tuple(args["quests"])
        rules = cls(**args)
        grid = data.get("grid", rules.grid)
        if not is_integer(grid) or grid != rules.grid:
            raise ValueError(f"rules say grid={short_repr(grid)} but the variant has a {rules.grid}x{rules.grid} grid")
        return rules


def is_integer(value: Any) -> bool:
    """Whether `value` is an integer: a Python int (not a bool), a numpy integer or a 0-d numpy integer array."""
    if isinstance(value, bool):
        return False
    if isinstance(value, int | np.integer):
        return True
    return isinstance(value, np.ndarray) and value.shape == () and np.issubdtype(value.dtype, np.integer)


def short_repr(value: Any) -> str:
    """A short repr for messages (a huge integer or a long list stays short)."""
    try:
        return reprlib.repr(value)
    except ValueError:  # an integer with more digits than Python will print
        if isinstance(value, int):
            return f"an integer of about {int(value.bit_length() * 0.30103) + 1} digits"
        return f"a {type(value).__name__} holding an integer too large to show"
