"""The compiled search's draft features agree with the core's own placements and scores, and a network that does
not read them values every position as before."""

import numpy as np
import pytest

from agents.csearch import network
from agents.csearch.features import BOARD_DENSE, DENSE, DENSE_SCALE, GLOBAL
from agents.csearch.inputs import features_of
from kingdomino_env import core
from kingdomino_env.games.board import PLACE
from kingdomino_env.rules import Rules

VARIANTS = [Rules(players=2, mighty_duel=True, harmony=True, middle_kingdom=True), Rules(players=2),
            Rules(players=4), Rules(players=3, harmony=True)]


def _features(state: core.State) -> np.ndarray:
    k, s = state.rules.kingdoms, state.rules.frame
    indices, dense, glob = np.zeros((k, s * s), dtype=np.int64), np.zeros((k, len(DENSE))), np.zeros((k, len(GLOBAL)))
    features_of(state.arrays, state.constants, indices, dense, glob)
    return dense * DENSE_SCALE


def _positions(rules: Rules, seed: int):
    """The states of a game played at random, each before a placement of the player to move."""
    rng = np.random.default_rng(seed)
    state = core.new_games(rules, [seed])
    while not state.is_over[0]:
        mask = core.legal_action_mask(state)
        if state.phase[0] == PLACE:
            yield state, mask
        core.step(state, [int(rng.choice(np.flatnonzero(mask[0])))])


@pytest.mark.parametrize("rules", VARIANTS, ids=lambda r: r.title)
def test_the_movers_held_gain_is_its_best_placement_by_the_core(rules):
    checked = 0
    for state, mask in (position for seed in range(4) for position in _positions(rules, seed)):
        mover = int(state.current_kingdom[0])
        turn = int(state.turn[0])
        if (state.next_owner[0] == mover).any() or (state.order_player[0, turn + 1:] == mover).any():
            continue  # holds another domino too
        now = int(state.scores[0, mover])
        best = now
        for action in np.flatnonzero(mask[0]):
            trial = state.take([0])
            core.step(trial, [int(action)])
            best = max(best, int(trial.scores[0, mover]))
        assert _features(state)[mover, DENSE.index("held_gain")] == pytest.approx(best - now)
        checked += 1
    assert checked >= 6


@pytest.mark.parametrize("rules", VARIANTS, ids=lambda r: r.title)
def test_first_next_marks_the_owner_of_the_first_claimed_slot(rules):
    for state, _ in _positions(rules, seed=9):
        first = _features(state)[:, DENSE.index("first_next")]
        claimed = np.flatnonzero(state.next_owner[0] >= 0)
        expected = np.zeros(rules.kingdoms)
        if claimed.size:
            expected[state.next_owner[0, claimed[0]]] = 1.0
        np.testing.assert_array_equal(first, expected)


def test_table_gain_is_the_best_open_domino_and_never_negative():
    rules = VARIANTS[0]
    for state, _ in _positions(rules, seed=2):
        table = _features(state)[:, DENSE.index("table_gain")]
        assert (table >= 0).all()
        if (state.next_owner[0] >= 0).all():
            np.testing.assert_array_equal(table, 0.0)


def test_a_network_without_the_draft_values_positions_as_the_same_network_reading_zero_draft_weights(tmp_path):
    rng = np.random.default_rng(0)
    board_only = network.empty_weights(13, squares=False, dense=BOARD_DENSE)
    board_only = network.Weights(*(rng.normal(scale=0.2, size=w.shape) for w in board_only))
    board_only.w1[:] = 0
    padded = board_only._replace(wd=np.vstack([board_only.wd, np.zeros((len(DENSE) - BOARD_DENSE, 32))]))
    state = core.new_games(VARIANTS[0], [1])
    for _ in range(20):
        core.step(state, [int(np.flatnonzero(core.legal_action_mask(state)[0])[0])])
    indices, dense, glob = np.zeros((2, 169), dtype=np.int64), np.zeros((2, len(DENSE))), np.zeros((2, len(GLOBAL)))
    features_of(state.arrays, state.constants, indices, dense, glob)
    short, full = np.zeros((2, 2)), np.zeros((2, 2))
    network.forward(board_only, indices, dense[:, :BOARD_DENSE].copy(), glob, short)
    network.forward(padded, indices, dense, glob, full)
    np.testing.assert_allclose(short, full)
    path = network.save_weights(tmp_path / "old.npz", board_only, {"frame": 13, "players": 2})
    assert network.load_weights(path)[0].wd.shape == (BOARD_DENSE, 32)


def test_a_network_reading_another_number_of_dense_features_is_refused(tmp_path):
    weights = network.empty_weights(13, dense=BOARD_DENSE + 1)
    path = network.save_weights(tmp_path / "odd.npz", weights, {"frame": 13, "players": 2})
    with pytest.raises(ValueError, match=r"weights wd have shape \(13, 32\), expected \(15, 32\) or \(12, 32\)"):
        network.load_weights(path)
