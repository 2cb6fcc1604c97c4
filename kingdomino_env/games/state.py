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
    """An action that is not legal for the player to move.

    Args:
        message: What was illegal, naming the games, actions and phases.
        games: The offending games' batch indices (kept as `games`).
    """

    def __init__(self, message: str, games: np.ndarray):
        super().__init__(message)
        self.games = games


@dataclass
class State:
    """B games of one variant, as numpy arrays with the batch axis first.

    Domino ids are 0-based (number - 1), -1 for none. In the shapes, B is the number of games, P of players
    (kingdoms), K of kings, S the side of a kingdom's frame, N the side of its grid, L the size of a line and D of
    the deck.

    For the kernels, construction also sets `arrays` and `constants` (see the table): plain tuples, because numba
    types them fastest. The arrays are never reassigned after construction, only changed in place (`step` and the
    kernels write into them); a state with other arrays is a new state (`copy`, `take`, `dataclasses.replace`).

    Attributes:
        rules: The variant every game of the batch plays.
        terrain: `(B, P, S, S)` each kingdom's squares: 0 empty, 1..6 the terrains, 7 the castle at (N-1, N-1).
        crowns: `(B, P, S, S)` the crowns on each square.
        bbox: `(B, P, 4)` min row, max row, min col, max col of each kingdom, castle included.
        deck: `(B, D)` the dominoes in draw order.
        drawn: `(B,)` how many dominoes have been drawn into lines.
        cur_line: `(B, L)` the line being placed this round.
        cur_owner: `(B, L)` the player whose king is on each slot of `cur_line` (-1 none).
        next_line: `(B, L)` the line being picked from (all -1 in the last round).
        next_owner: `(B, L)` the player whose king is on each slot of `next_line` (-1 none).
        first_kings: `(B, K)` the player of each king, in the starting round's pick order.
        order_player: `(B, K)` this round's turn order: the player of each turn.
        order_slot: `(B, K)` this round's turn order: the `cur_line` slot of each turn.
        turn: `(B,)` the index into the turn order.
        round: `(B,)` the round, 0 for the starting round.
        phase: `(B,)` PICK, PLACE or OVER.
        scores: `(B, P)` points so far, bonuses included.
        largest: `(B, P)` the largest territory of each kingdom.
        total_crowns: `(B, P)` the crowns of each kingdom.
        discarded: `(B, P)` the dominoes each player had to discard.
        n_steps: `(B,)` the actions taken.
        quests: `(B, 17)` bool, the game's active quests in `quests.QUESTS` order (all False without quests).
        arrays: The arrays in field order, as a plain tuple (named on entry to a kernel by
            `records.KingdominoArrays`, `records.QueendominoArrays` for a `QState`).
        constants: The variant's `rules.kernel_constants` (`records.Variant` as a plain tuple, shared by every
            state of the variant).
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
        self.arrays = tuple(getattr(self, name) for name in array_names(type(self)))
        self.constants = self.rules.kernel_constants
        self._records: dict[type, tuple] = {}

    def __getstate__(self) -> dict:
        """Pickle and copy the fields only; `__setstate__` rebuilds `arrays` and `constants` from them."""
        return {k: v for k, v in self.__dict__.items() if k not in ("arrays", "constants", "_records")}

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
        self.__post_init__()

    def arrays_for(self, record: type) -> tuple:
        """The arrays a kernel reads, as a plain tuple; built once per state.

        Args:
            record: A `records` class: the arrays it names, in its order.

        Returns:
            The arrays as a plain tuple.
        """
        arrays = self._records.get(record)
        if arrays is None:
            arrays = self._records[record] = tuple(getattr(self, name) for name in record._fields)
        return arrays

    @property
    def batch_size(self) -> int:
        """B, the number of games."""
        return self.phase.shape[0]

    def _arrays(self) -> dict[str, np.ndarray]:
        return {f.name: getattr(self, f.name) for f in fields(self) if f.name != "rules"}

    def copy(self) -> State:
        """A new state with copies of every array: a branch that steps without changing this one."""
        return replace(self, **{k: v.copy() for k, v in self._arrays().items()})

    def take(self, games: np.ndarray | Sequence[int]) -> State:
        """A new state holding only the given games (copied), in the given order.

        Args:
            games: Batch indices.

        Returns:
            A state of `len(games)` games.
        """
        idx = np.asarray(games, dtype=np.int64)
        return replace(self, **{k: v[idx].copy() for k, v in self._arrays().items()})

    def put(self, games: np.ndarray | Sequence[int], other: State) -> None:
        """Overwrite the given games with those of `other`.

        Args:
            games: Batch indices of this state.
            other: A state of the same variant with one game per index.

        Raises:
            ValueError: `other` plays another variant.
        """
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
        """(B,) whether each game is over."""
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
def array_names(cls: type[State]) -> tuple[str, ...]:
    """The names of a state class's arrays, in field order (every field but `rules`): the one list the kernels'
    records (`games.records`) are built from."""
    return tuple(f.name for f in fields(cls) if f.name != "rules")
