"""`best_placements` gives, from one labelling of a board, what placing each legal domino and scoring the board
gives, bonuses included, and the same best placements, on boards of every size and stage."""

import numpy as np
import pytest

from kingdomino_env import core
from kingdomino_env.games.board import decode_placement, lift_domino
from kingdomino_env.games.dominoes import N_DOMINOES
from kingdomino_env.games.kingdomino.kernels import (
    best_placements,
    placements,
    put_domino,
    score_board,
    territories,
)
from kingdomino_env.rules import Rules


def _placed_best(terrain, crowns, bbox, domino, v):
    """(The most points after any legal placement under the variant `v`, by placing and scoring each (the board's
    points if none), the placements that score them)."""
    s = terrain.shape[0]
    labels, stack = np.zeros((s, s), dtype=np.int32), np.zeros(s * s, dtype=np.int64)
    cells = np.zeros(4 * s * s, dtype=np.bool_)
    if placements(terrain, bbox, domino, v.grid, cells, False) == 0:
        return score_board(terrain, crowns, v, labels, stack)[0], []
    points = {}
    saved = bbox.copy()
    for a in np.flatnonzero(cells):
        r, c, r2, c2 = decode_placement(int(a), s)
        put_domino(terrain, crowns, bbox, domino, r, c, r2, c2)
        points[int(a)] = score_board(terrain, crowns, v, labels, stack)[0]
        lift_domino(terrain, crowns, bbox, saved, r, c, r2, c2)
    best = max(points.values())
    return best, [a for a, p in points.items() if p == best]


@pytest.mark.parametrize("rules", [Rules(players=2, mighty_duel=True, harmony=True, middle_kingdom=True),
                                   Rules(players=4, harmony=True, middle_kingdom=True)], ids=["duel", "4p"])
def test_the_best_placement_points_equal_placing_and_scoring_each(rules):
    v, s = rules.constants, rules.frame
    rng = np.random.default_rng(1)
    labels, stack = np.zeros((s, s), dtype=np.int32), np.zeros(s * s, dtype=np.int64)
    sizes, crown_sums = np.zeros(s * s + 1, dtype=np.int64), np.zeros(s * s + 1, dtype=np.int64)
    cells, seen, ties = np.zeros(4 * s * s, dtype=np.bool_), np.zeros(8, dtype=np.int64), np.zeros(4 * s * s, np.int64)
    checked = 0
    for seed in range(3):
        state = core.new_games(rules, [seed])
        while not state.is_over[0]:
            for k in range(rules.kingdoms):
                terrain, crowns, bbox = (np.ascontiguousarray(state.terrain[0, k]),
                                         np.ascontiguousarray(state.crowns[0, k]), state.bbox[0, k].copy())
                points, filled = territories(terrain, crowns, bbox, labels, stack, sizes, crown_sums)
                for domino in rng.choice(N_DOMINOES, size=3, replace=False):
                    fast, n_best = best_placements(terrain, crowns, bbox, int(domino), v, points, filled, labels,
                                                   sizes, crown_sums, cells, seen, ties)
                    assert (fast, list(ties[:n_best])) == _placed_best(terrain, crowns, bbox, int(domino), v)
                    checked += 1
            core.step(state, [int(rng.choice(np.flatnonzero(core.legal_action_mask(state)[0])))])
    assert checked > 500
