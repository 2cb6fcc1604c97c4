"""The value network's inputs in every game (`agents.csearch.inputs`): what each game declares is what its
compiled features fill; Queendomino's squares see buildings; a network of Queendomino's inputs values the search's
leaves, and a network file of unknown inputs is refused."""

import re

import numpy as np
import pytest

from agents.budget import Budget
from agents.csearch import network, search
from agents.csearch.agent import CompiledSearchAgent
from agents.csearch.inputs import QUEENDOMINO, features_of, inputs_of, new_inputs
from agents.csearch.priors import HAND_WEIGHTS
from agents.heuristic_kernel import DEFAULT_WEIGHTS
from kingdomino_env import core
from kingdomino_env.games.board import PLACE
from kingdomino_env.games.dominoes import CASTLE, EMPTY, TOWN
from tests.agents.test_csearch import advance
from tests.games_table import RULES, every_game


def _features(state, dense=None):
    indices, values, glob = new_inputs(state.rules, dense)
    features_of(state.arrays, state.constants, indices, values, glob)
    return indices, values, glob


@every_game()
def test_the_features_fill_the_blocks_the_game_declares(game):
    state = advance(core.new_games(RULES[game], [2]), 25)
    inputs = inputs_of(state.rules)
    indices, dense, glob = _features(state)
    pad = inputs.sparse_size(state.rules.frame)
    for k in range(state.rules.kingdoms):
        terrain = state.terrain[0, k]
        filled = int(((terrain != EMPTY) & (terrain != CASTLE)).sum())
        assert (indices[k] != pad).sum() == filled and (indices[k, :filled] < pad).all()
        squares = np.sort(indices[k, :filled] // inputs.square_kinds)
        np.testing.assert_array_equal(squares, np.flatnonzero(((terrain != EMPTY) & (terrain != CASTLE)).ravel()))
    assert dense.shape[1] == len(inputs.dense) == inputs.dense_scale.shape[0] and glob.shape[1] == len(inputs.globals)
    score = inputs.dense.index("score")
    np.testing.assert_allclose(dense[:, score] * inputs.dense_scale[score], state.scores[0])
    to_move = np.zeros(state.rules.kingdoms)
    to_move[int(state.current_kingdom[0])] = 1.0
    np.testing.assert_array_equal(glob[:, inputs.globals.index("to_move")], to_move)


@every_game("queendomino-2p", "royal-wedding-6p-teams")
def test_queendomino_squares_see_the_building_on_them_and_its_crowns(game):
    state = advance(core.new_games(RULES[game], [5]), 30)
    k = 0
    r, c = np.argwhere((state.terrain[0, k] != EMPTY) & (state.terrain[0, k] != CASTLE))[0]
    before = _features(state)[0][k]
    table = state.rules.building_deck.table
    tile = int(np.argmax(table[:, 0]))
    state.building_board[0, k, r, c] = tile
    after = _features(state)[0][k]
    s = state.rules.frame
    changed = np.flatnonzero(before != after)
    assert changed.size == 1 and before[changed[0]] // QUEENDOMINO.square_kinds == r * s + c
    kind = after[changed[0]] % QUEENDOMINO.square_kinds
    terrain = 6 if state.terrain[0, k, r, c] == TOWN else state.terrain[0, k, r, c] - 1
    assert kind == (terrain * 4 + min(state.crowns[0, k, r, c] + table[tile, 0], 3)) * 2 + 1


def test_a_network_of_queendomino_s_inputs_values_the_leaves(tmp_path):
    """With no playout share, a leaf's utilities are the network's for the position after the action that made
    it."""
    state = advance(core.new_games(RULES["queendomino-2p"], [1]), 20)
    while state.phase[0] != PLACE or core.legal_action_mask(state)[0].sum() < 2:
        advance(state, 1)
    rng = np.random.default_rng(0)
    weights = network.Weights(*(rng.normal(0, 0.1, w.shape) for w in
                                network.empty_weights(state.rules.frame, inputs=QUEENDOMINO)))
    weights.w1[-1] = 0
    path = network.save_weights(tmp_path / "q.npz", weights, {"frame": state.rules.frame, "players": 2,
                                                              "inputs": "queendomino"})
    agent = CompiledSearchAgent(Budget(playouts=1), seed=0, weights=path, playout_mix=0.0)
    params, net = agent._leaves(state)
    tree = search.new_tree(64, state.terrain.shape[1])
    search.reset_tree(tree)
    search.seed(0)
    pos = search.position(state)
    worlds = search.new_worlds(0, pos)
    assert search.simulate(pos, tree, 1, params, DEFAULT_WEIGHTS, net, HAND_WEIGHTS, worlds, -1) == 1
    after = state.copy()
    core.step(after, [int(tree.action[1])])
    outputs = np.zeros((2, 2))
    network.forward(net, *_features(after), outputs)
    expected = np.zeros(2)
    network.utilities_from(outputs, params.margin_weight, params.margin_softness, expected)
    np.testing.assert_allclose(tree.utility[1], expected)


@pytest.mark.parametrize("inputs", ["chess", 5, ["queendomino"], None, {"name": "kingdomino"}])
def test_a_network_file_of_unknown_inputs_is_refused(tmp_path, inputs):
    path = network.save_weights(tmp_path / "n.npz", network.empty_weights(9), {"frame": 9, "players": 2,
                                                                              "inputs": inputs})
    message = f"its inputs must be one of kingdomino, queendomino, got {inputs!r}"
    with pytest.raises(ValueError, match=re.escape(message)):
        network.load_weights(path)


def test_a_network_of_the_other_game_s_inputs_shapes_is_refused(tmp_path):
    """A Kingdomino network's weights under Queendomino's name do not fit Queendomino's inputs."""
    path = network.save_weights(tmp_path / "n.npz", network.empty_weights(13), {"frame": 13, "players": 2,
                                                                               "inputs": "queendomino"})
    with pytest.raises(ValueError, match="weights wd have shape .*queendomino's dense features"):
        network.load_weights(path)
