"""The batched game state both games share: B games of one variant as numpy arrays with a leading batch axis.

Queendomino and the Royal Wedding extend it (`games.queendomino.game.QState`); `core` creates and steps it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, fields, replace
from functools import cache
from typing import TYPE_CHECKING

import numpy as np

from .board import OK, OVER, PLACE

if TYPE_CHECKING:
    from ..rules import Rules


class IllegalActionError(ValueError):
    """An action that is not legal for the player to move; `games` lists the offending batch indices."""

    def __init__(self, message: str, games: np.ndarray):
        super().__init__(message)
        self.games = games


@dataclass
class State:
    """B games of one variant. Arrays have the batch axis first; domino ids are 0-based (number - 1), -1 none.

    terrain, crowns: (B, P, S, S) boards, terrain codes 0 empty, 1..6 terrains, 7 castle at (N-1, N-1).
    bbox: (B, P, 4) min row, max row, min col, max col of each kingdom (castle included).
    deck: (B, D) dominoes in draw order; drawn: (B,) how many have been drawn into lines.
    cur_line / cur_owner: (B, L) the line being placed this round and whose king is on each (-1 none).
    next_line / next_owner: (B, L) the line being picked from (all -1 in the last round).
    first_kings: (B, K) player of each king in starting-round pick order.
    order_player / order_slot: (B, K) this round's turn order: the player of each turn and its cur_line slot.
    turn: (B,) index into the turn order; round: (B,) 0 = starting round; phase: (B,) PICK, PLACE or OVER.
    scores: (B, P) points so far, bonuses included; largest: (B, P) largest territory; total_crowns: (B, P).
    discarded: (B, P) dominoes each player had to discard; n_steps: (B,) actions taken.
    quests: (B, 17) bool, the game's active quests in `quests.QUESTS` order (all False without quests).

    For the kernels, construction also sets `arrays`, a plain tuple of the arrays in field order (named on entry
    to a kernel by `records.KingdominoArrays`, `records.QueendominoArrays` for a `QState`), and `constants`, the
    variant's `rules.kernel_constants` (`records.Variant` as a plain tuple, shared by every state of the variant):
    plain tuples because numba types them fastest. `arrays_for(record)` gives the plain tuple of a record of
    some of the arrays (a kernel's reads, see `records.arrays_of`). The arrays are never reassigned after
    construction, only changed in place (`step` and the kernels write into them); a state with other arrays is a
    new state (`copy`, `take`, `dataclasses.replace`).
    """

    rules: Rules
    terrain: np.ndarray
    crowns: np.ndarray
    bbox: np.ndarray
    deck: np.ndarray
    drawn: np.ndarray
    cur_line: np.ndarray
    cur_owner: np.ndarray
    next_line: np.ndarray
    next_owner: np.ndarray
    first_kings: np.ndarray
    order_player: np.ndarray
    order_slot: np.ndarray
    turn: np.ndarray
    round: np.ndarray
    phase: np.ndarray
    scores: np.ndarray
    largest: np.ndarray
    total_crowns: np.ndarray
    discarded: np.ndarray
    n_steps: np.ndarray
    quests: np.ndarray

    def __post_init__(self) -> None:
        self.arrays = tuple(getattr(self, name) for name in _array_names(type(self)))
        self.constants = self.rules.kernel_constants
        self._records: dict[type, tuple] = {}

    def __getstate__(self) -> dict:
        """Pickle and copy the fields only; `__setstate__` rebuilds `arrays` and `constants` from them."""
        return {k: v for k, v in self.__dict__.items() if k not in ("arrays", "constants", "_records")}

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
        self.__post_init__()

    def arrays_for(self, record: type) -> tuple:
        """The plain tuple of the arrays `record` (a `records` class) names, in its order; built once per state."""
        arrays = self._records.get(record)
        if arrays is None:
            arrays = self._records[record] = tuple(getattr(self, name) for name in record._fields)
        return arrays

    @property
    def batch_size(self) -> int:
        return self.phase.shape[0]

    def _arrays(self) -> dict[str, np.ndarray]:
        return {f.name: getattr(self, f.name) for f in fields(self) if f.name != "rules"}

    def copy(self) -> State:
        return replace(self, **{k: v.copy() for k, v in self._arrays().items()})

    def take(self, games: np.ndarray | Sequence[int]) -> State:
        """A new state holding only the given games (copied), in the given order."""
        idx = np.asarray(games, dtype=np.int64)
        return replace(self, **{k: v[idx].copy() for k, v in self._arrays().items()})

    def put(self, games: np.ndarray | Sequence[int], other: State) -> None:
        """Overwrite the given games with those of `other` (same variant, one game per index)."""
        if other.rules != self.rules:
            raise ValueError(f"cannot put games of {other.rules} into a state of {self.rules}")
        idx = np.asarray(games, dtype=np.int64)
        for k, v in self._arrays().items():
            v[idx] = getattr(other, k)

    @property
    def current_player(self) -> np.ndarray:
        """(B,) the player to move in each game, -1 where the game is over."""
        turn = np.minimum(self.turn, self.rules.kings - 1).astype(np.int64)
        player = self.order_player[np.arange(self.batch_size), turn].astype(np.int64)
        return np.where(self.phase == OVER, -1, player)

    @property
    def current_kingdom(self) -> np.ndarray:
        """(B,) the kingdom of the player to move (its team's in team games), -1 where the game is over."""
        seat = self.current_player
        return np.where(seat < 0, -1, np.asarray(self.rules.seat_kingdoms)[np.maximum(seat, 0)])

    @property
    def held_domino(self) -> np.ndarray:
        """(B,) the domino the player to move must place now, -1 outside the PLACE phase."""
        turn = np.minimum(self.turn, self.rules.kings - 1).astype(np.int64)
        slot = self.order_slot[np.arange(self.batch_size), turn].astype(np.int64)
        domino = self.cur_line[np.arange(self.batch_size), np.maximum(slot, 0)].astype(np.int64)
        return np.where(self.phase == PLACE, domino, -1)

    @property
    def is_over(self) -> np.ndarray:
        return self.phase == OVER

    @property
    def in_last_round(self) -> np.ndarray:
        """(B,) whether each game is in its last round: not over, and no line left to pick from (the deck ran out),
        so every domino still to place is on the table and none is hidden."""
        return (self.phase != OVER) & (self.next_line[:, 0] < 0)


def illegal_actions(state: State, actions: np.ndarray, status: np.ndarray, phase_names: dict[int, str],
                    what: str) -> IllegalActionError:
    """The error naming the games whose action a kernel refused (status not OK), with each action and phase."""
    bad = np.flatnonzero(status != OK)
    return IllegalActionError(
        f"illegal action(s) in game(s) {bad.tolist()[:10]}: "
        + ", ".join(f"{int(actions[g])} in the {phase_names.get(int(state.phase[g]), '?')} {what}" for g in bad[:10]),
        bad,
    )


@cache
def _array_names(cls: type[State]) -> tuple[str, ...]:
    """The names of a state class's arrays, in field order (every field but `rules`)."""
    return tuple(f.name for f in fields(cls) if f.name != "rules")
