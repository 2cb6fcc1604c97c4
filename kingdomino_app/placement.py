"""The placement cursor: where the held domino is shown and which action it stands for. No pygame.

A cursor is the frame cell of the domino's first square and a direction (0 east, 1 south, 2 west, 3 north: the
action layout's). Legality always comes from the env's mask; these helpers only read it.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from kingdomino_env.rules import DIRECTIONS, Rules


@dataclass(frozen=True)
class Cursor:
    row: int
    col: int
    direction: int = 0

    def action(self, rules: Rules) -> int:
        return rules.place_action(self.row, self.col, self.direction)

    def cells(self) -> tuple[tuple[int, int], tuple[int, int]]:
        dr, dc = DIRECTIONS[self.direction]
        return (self.row, self.col), (self.row + dr, self.col + dc)


def _clamped(row: int, col: int, direction: int, frame: int) -> Cursor:
    """The cursor nearest (row, col) with both squares inside the frame."""
    dr, dc = DIRECTIONS[direction]
    row = min(max(row, max(0, -dr)), frame - 1 - max(0, dr))
    col = min(max(col, max(0, -dc)), frame - 1 - max(0, dc))
    return Cursor(row, col, direction)


def moved(cursor: Cursor, d_row: int, d_col: int, rules: Rules) -> Cursor:
    """The cursor shifted by (d_row, d_col), kept inside the frame."""
    return _clamped(cursor.row + d_row, cursor.col + d_col, cursor.direction, rules.frame)


def rotated(cursor: Cursor, rules: Rules, turns: int = 1) -> Cursor:
    """The cursor with its second square turned clockwise (east, south, west, north) `turns` times."""
    return _clamped(cursor.row, cursor.col, (cursor.direction + turns) % 4, rules.frame)


def at(cursor: Cursor, row: int, col: int, rules: Rules) -> Cursor:
    """The cursor moved to (row, col), same direction, kept inside the frame."""
    return _clamped(row, col, cursor.direction, rules.frame)


def is_legal(cursor: Cursor, mask: np.ndarray, rules: Rules) -> bool:
    return bool(mask[cursor.action(rules)])


def legal_first_cells(mask: np.ndarray, rules: Rules, direction: int) -> list[tuple[int, int]]:
    """The cells where the first square may go with the second towards `direction`."""
    cells = np.flatnonzero(mask[direction:rules.n_place_actions:4])
    return [(int(c) // rules.frame, int(c) % rules.frame) for c in cells]


def must_discard(mask: np.ndarray, rules: Rules) -> bool:
    """Whether discarding is the only legal action (no placement is legal)."""
    return bool(mask[rules.discard_action]) and not mask[:rules.n_place_actions].any()


def start_cursor(mask: np.ndarray, rules: Rules) -> Cursor:
    """A legal placement next to the castle if any (the nearest one, lowest action id first), else east of it."""
    legal = np.flatnonzero(mask[:rules.n_place_actions])
    if legal.size == 0:
        return _clamped(rules.castle, rules.castle + 1, 0, rules.frame)
    cells, directions = np.divmod(legal, 4)
    rows, cols = np.divmod(cells, rules.frame)
    distance = np.abs(rows - rules.castle) + np.abs(cols - rules.castle)
    best = int(np.argmin(distance))
    return Cursor(int(rows[best]), int(cols[best]), int(directions[best]))


__all__ = ["Cursor", "at", "is_legal", "legal_first_cells", "moved", "must_discard", "rotated", "start_cursor"]
