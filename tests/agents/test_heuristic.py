"""The heuristic agent's evaluation features, on hand-built kingdoms."""

from __future__ import annotations

import numpy as np

from agents.heuristic_kernel import DEFAULT_WEIGHTS, evaluate
from kingdomino_env import core
from kingdomino_env.games.dominoes import CASTLE
from kingdomino_env.rules import Rules

R = Rules(2)
S, K = R.frame, R.castle
FOREST, LAKE = 2, 3


def board(squares: dict[tuple[int, int], tuple[int, int]]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """terrain, crowns, bbox of a kingdom with the castle and the given {(row, col): (terrain, crowns)}."""
    terrain = np.zeros((S, S), dtype=np.int8)
    crowns = np.zeros((S, S), dtype=np.int8)
    terrain[K, K] = CASTLE
    for (r, c), (t, n) in squares.items():
        terrain[r, c] = t
        crowns[r, c] = n
    rows, cols = np.nonzero(terrain)
    bbox = np.array([rows.min(), rows.max(), cols.min(), cols.max()], dtype=np.int8)
    return terrain, crowns, bbox


def value(squares, weights=DEFAULT_WEIGHTS, harmony=False, middle=False) -> float:
    terrain, crowns, bbox = board(squares)
    scratch = [np.zeros(S * S + 1, dtype=np.int64) for _ in range(3)]
    v = R.constants._replace(harmony=harmony, middle_kingdom=middle)
    return evaluate(terrain, crowns, bbox, v, np.asarray(weights, dtype=np.float64), np.zeros((S, S), dtype=np.int32),
                    np.zeros(S * S, dtype=np.int64), *scratch)


def feature(index: int, squares) -> float:
    """The feature alone: the evaluation with only its weight, minus the score."""
    weights = np.zeros(5)
    weights[index] = 1.0
    return value(squares, weights) - value(squares, np.zeros(5))


def test_with_zero_weights_the_evaluation_is_the_score():
    squares = {(K, K + 1): (FOREST, 1), (K, K + 2): (FOREST, 0), (K + 1, K): (LAKE, 0)}
    assert value(squares, np.zeros(5)) == 2.0


def test_crowned_territories_value_their_room_to_grow_capped_at_three():
    open_forest = {(K, K + 1): (FOREST, 2)}
    assert feature(0, open_forest) == 2 * 3


def test_a_square_no_domino_can_reach_is_dead():
    # (K - 1, K + 1) is boxed in by the castle row, forests and the lake: an isolated hole.
    squares = {(K, K + 1): (FOREST, 0), (K - 1, K): (LAKE, 0), (K - 2, K + 1): (FOREST, 0),
               (K - 1, K + 2): (FOREST, 0), (K - 2, K): (LAKE, 0), (K - 2, K + 2): (FOREST, 0)}
    assert feature(2, squares) == 1.0
    assert feature(2, {(K, K + 1): (FOREST, 0)}) == 0.0


def test_bonus_features_follow_reachability():
    centred = {(K, K + 1): (FOREST, 0)}
    off_centre = {(K, K + 1): (FOREST, 0), (K, K + 2): (FOREST, 0), (K, K + 3): (FOREST, 0)}
    middle_only, harmony_only = np.array([0, 0, 0, 0, 1.0]), np.array([0, 0, 0, 1.0, 0])
    assert value(centred, middle_only, middle=True) == 1.0
    assert value(off_centre, middle_only, middle=True) == 0.0
    assert value(centred, harmony_only, harmony=True) == 1.0


def test_heuristic_moves_are_legal_and_differ_from_greedy_somewhere():
    from agents import load

    state = core.new_games(Rules(4), range(40))
    heuristic, greedy = load("heuristic", seed=0), load("greedy", seed=0)
    differ = 0
    rng = np.random.default_rng(0)
    for _ in range(30):
        mask = core.legal_action_mask(state)
        games = np.flatnonzero(~state.is_over)
        h = heuristic.act(state, games, mask[games], None)
        assert mask[games, h].all()
        differ += int((h != greedy.act(state, games, mask[games], None)).sum())
        core.step(state, core.random_legal_actions(mask, rng))
    assert differ > 0
