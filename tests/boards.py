"""Test helpers: hand-built kingdoms from text, and an independent (pure Python) rescoring of a board."""

from __future__ import annotations

import numpy as np

from kingdomino_env import core
from kingdomino_env.games.dominoes import CASTLE
from kingdomino_env.rules import Rules

LETTERS = "WFLGSM"


def parse_kingdom(text: str) -> tuple[np.ndarray, np.ndarray]:
    """Rows of tokens: '.' empty, '##' castle, a terrain letter with optional crowns ('F', 'F2').

    Returns (terrain, crowns) as small arrays in the drawn shape; the castle must appear exactly once.
    """
    rows = [line.split() for line in text.strip().splitlines()]
    h, w = len(rows), len(rows[0])
    terrain = np.zeros((h, w), dtype=np.int8)
    crowns = np.zeros((h, w), dtype=np.int8)
    for r, row in enumerate(rows):
        assert len(row) == w, f"row {r} has {len(row)} tokens, expected {w}"
        for c, tok in enumerate(row):
            if tok == ".":
                continue
            if tok == "##":
                terrain[r, c] = CASTLE
                continue
            terrain[r, c] = LETTERS.index(tok[0]) + 1
            crowns[r, c] = int(tok[1:] or 0)
    assert (terrain == CASTLE).sum() == 1
    return terrain, crowns


def place_kingdom(state: core.State, game: int, player: int, text: str) -> tuple[int, int]:
    """Write a drawn kingdom into state's board so that its castle lands on the frame's castle square.

    Returns (row offset, col offset) mapping drawn coordinates to frame coordinates. Scores are recomputed.
    """
    terrain, crowns = parse_kingdom(text)
    (cr,), (cc,) = np.nonzero(terrain == CASTLE)
    castle = state.rules.castle
    dr, dc = castle - cr, castle - cc
    board = state.terrain[game, player]
    board[:] = 0
    state.crowns[game, player] = 0
    h, w = terrain.shape
    board[dr:dr + h, dc:dc + w] = terrain
    state.crowns[game, player, dr:dr + h, dc:dc + w] = crowns
    rows, cols = np.nonzero(board)
    state.bbox[game, player] = (rows.min(), rows.max(), cols.min(), cols.max())
    rescore(state, game, player)
    return dr, dc


def rescore(state: core.State, game: int, player: int) -> None:
    r = state.rules
    points, largest, crowns = score(state.terrain[game, player], state.crowns[game, player], r)
    state.scores[game, player] = points
    state.largest[game, player] = largest
    state.total_crowns[game, player] = crowns


def placing_state(rules: Rules, domino_number: int, player: int = 0, kingdom: str | None = None) -> core.State:
    """A one-game state in round 1 where `player` must place domino `domino_number` (its king on slot 0)."""
    state = core.new_games(rules, [0])
    used = {domino_number - 1}
    state.cur_line[0] = -1
    state.cur_owner[0] = -1
    state.cur_line[0, 0] = domino_number - 1
    state.cur_owner[0, 0] = player
    others = [d for d in range(48) if d not in used][: rules.line_size - 1]
    for i, d in enumerate(others, start=1):
        state.cur_line[0, i] = d
        state.cur_owner[0, i] = (player + i) % rules.players
    state.order_player[0] = [state.cur_owner[0, i] for i in range(rules.kings)]
    state.order_slot[0] = np.arange(rules.kings)
    state.turn[0] = 0
    state.round[0] = 1
    state.phase[0] = core.PLACE
    if kingdom is not None:
        place_kingdom(state, 0, player, kingdom)
    return state


def score(terrain: np.ndarray, crowns: np.ndarray, rules: Rules) -> tuple[int, int, int]:
    """Independent scoring by breadth-first search: (points with bonuses, largest territory, total crowns)."""
    h, w = terrain.shape
    seen = np.zeros_like(terrain, dtype=bool)
    points = largest = total = 0
    for r0 in range(h):
        for c0 in range(w):
            t = terrain[r0, c0]
            if t in (0, CASTLE) or seen[r0, c0]:
                continue
            queue, seen[r0, c0] = [(r0, c0)], True
            size = crown_sum = 0
            while queue:
                r, c = queue.pop()
                size += 1
                crown_sum += int(crowns[r, c])
                for rr, cc in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
                    if 0 <= rr < h and 0 <= cc < w and not seen[rr, cc] and terrain[rr, cc] == t:
                        seen[rr, cc] = True
                        queue.append((rr, cc))
            points += size * crown_sum
            largest = max(largest, size)
            total += crown_sum
    rows, cols = np.nonzero(terrain)
    n = rules.grid
    if rules.harmony and len(rows) == n * n:
        points += 5
    k = rules.castle
    half = (n - 1) // 2
    if rules.middle_kingdom and (rows.min(), rows.max(), cols.min(), cols.max()) == (k - half, k + half, k - half,
                                                                                      k + half):
        points += 10
    return points, largest, total
