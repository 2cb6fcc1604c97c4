"""The placement rule both games share: `placements_of`, which tries only the squares of `placement_window`, marks
exactly the placements `placement_ok` allows anywhere on the frame, on the boards of every game at every stage."""

import numpy as np
import pytest

from kingdomino_env import core
from kingdomino_env.games.board import _DCOL, _DR, placement_ok, placement_window, placements_of
from tests.games_table import RULES


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
