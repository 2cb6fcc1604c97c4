"""The kernels both games share: the placement rule (`placements_of`, which tries only the squares of
`placement_window`, marks exactly the placements `placement_ok` allows anywhere on the frame, on the boards of every
game at every stage) and the copy of one game over another (`copy_game`, Queendomino's `copy_queendomino`)."""

import numpy as np
import pytest

from kingdomino_env import core
from kingdomino_env.games.board import _DCOL, _DR, copy_game, placement_ok, placement_window, placements_of
from kingdomino_env.games.queendomino.kernels import copy_queendomino
from kingdomino_env.games.records import KingdominoArrays
from tests.games_table import RULES
from tests.variants import advance


def _allowed_anywhere(terrain: np.ndarray, bbox: np.ndarray, t1: int, t2: int, n: int) -> set[int]:
    """Every placement action of the frame whose squares `placement_ok` allows, found square by square."""
    s = terrain.shape[0]
    found = set()
    for r in range(s):
        for c in range(s):
            for d in range(4):
                r2, c2 = r + int(_DR[d]), c + int(_DCOL[d])
                if 0 <= r2 < s and 0 <= c2 < s and placement_ok(terrain, bbox, t1, t2, n, r, c, r2, c2):
                    found.add((r * s + c) * 4 + d)
    return found


@pytest.mark.parametrize("game", list(RULES))
def test_the_placements_tried_in_the_window_are_every_legal_placement_of_the_frame(game):
    rules = RULES[game]
    rng = np.random.default_rng(3)
    state = core.new_games(rules, [11])
    s, n = rules.frame, rules.grid
    checked = 0
    while not state.is_over[0]:
        for k in range(state.terrain.shape[1]):
            terrain, bbox = np.ascontiguousarray(state.terrain[0, k]), state.bbox[0, k].copy()
            rlo, rhi, clo, chi = placement_window(bbox, n)
            assert rlo <= bbox[0] and bbox[1] <= rhi and clo <= bbox[2] and bbox[3] <= chi
            t1, t2 = (int(t) for t in rng.integers(1, 7, size=2))
            cells = np.zeros(4 * s * s, dtype=np.bool_)
            count = placements_of(terrain, bbox, t1, t2, n, cells, False)
            expected = _allowed_anywhere(terrain, bbox, t1, t2, n)
            assert set(np.flatnonzero(cells).tolist()) == expected and count == len(expected)
            assert placements_of(terrain, bbox, t1, t2, n, cells, True) == min(count, 1)
            checked += 1
        core.step(state, core.random_legal_actions(core.legal_action_mask(state), rng))
    assert checked > 20


def _assert_copied(state, before, dst: int, src: int, fields: int) -> None:
    """The first `fields` arrays of `state` hold game `src` of `before` at `dst`; every other square is unchanged."""
    for k, (now, was) in enumerate(zip(state.arrays, before.arrays, strict=True)):
        expected = was.copy()
        if k < fields:
            expected[dst] = was[src]
        np.testing.assert_array_equal(now, expected, err_msg=f"array {k}")


@pytest.mark.parametrize("game", list(RULES))
def test_copy_game_copies_kingdominos_arrays_of_one_game_over_another(game):
    state = advance(RULES[game], [1, 2, 3], 9)
    before = state.copy()
    copy_game(state.arrays, 0, state.arrays, 2)
    _assert_copied(state, before, 0, 2, len(KingdominoArrays._fields))


@pytest.mark.parametrize("game", [g for g in RULES if RULES[g].game != "kingdomino"])
def test_copy_queendomino_copies_every_array(game):
    state = advance(RULES[game], [1, 2, 3], 9)
    before = state.copy()
    copy_queendomino(state.arrays, 1, state.arrays, 0)
    _assert_copied(state, before, 1, 0, len(state.arrays))
