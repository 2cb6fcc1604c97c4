"""The compiled search's priors (`agents.csearch.priors`): the features against a reference written here from their
definition, the logits as the weighted features, the search's first choice, and the priors files."""

import json
import os

import numpy as np
import pytest

from agents.budget import Budget
from agents.csearch import priors, search
from agents.csearch.agent import CompiledSearchAgent
from agents.csearch.settings import Settings
from agents.heuristic_kernel import DEFAULT_WEIGHTS
from kingdomino_env import core
from kingdomino_env.games.board import PICK, PLACE
from kingdomino_env.games.dominoes import CASTLE, DOMINO_CROWNS, DOMINO_TERRAIN, EMPTY
from kingdomino_env.games.records import QueendominoVariant, Variant
from kingdomino_env.policies import greedy_actions
from tests.games_table import RULES

STEPS = ((0, 1), (1, 0), (0, -1), (-1, 0))


def positions(rules, seed=0, every=7):
    """Some positions of one game played by Full Greedy, every `every`-th decision with more than one legal action."""
    rng = np.random.default_rng(seed)
    state = core.new_games(rules, [seed])
    count = 0
    while not state.is_over[0]:
        if core.legal_action_mask(state)[0].sum() > 1:
            count += 1
            if count % every == 1:
                yield state.copy()
        core.step(state, greedy_actions(state, np.arange(1), rng))


def root_priors(state, weights):
    """(actions, logits, features) of the legal actions at the one-game `state`, from the search's kernels."""
    n_actions = state.rules.n_actions
    actions, logits = np.zeros(n_actions, dtype=np.int64), np.zeros(n_actions)
    features = np.zeros((n_actions, len(priors.FEATURES)))
    n = search.root_priors(search.position(state), np.asarray(weights, dtype=np.float64), actions, logits, features)
    return actions[:n], logits[:n], features[:n]


def reference_features(state, action):
    """The features of `action` in the one-game `state`, from the module docstring's definitions."""
    constants = state.constants
    if len(constants) > len(Variant._fields):
        v = QueendominoVariant(*constants)
        terrain_of, crowns_of = v.domino_terrain, v.domino_crowns
    else:
        v = Variant(*constants)
        terrain_of, crowns_of = DOMINO_TERRAIN, DOMINO_CROWNS
    out = dict.fromkeys(priors.FEATURES, 0.0)
    kingdom = int(state.current_kingdom[0])
    board = state.terrain[0, kingdom].astype(int)
    bbox = state.bbox[0, kingdom].astype(int)
    size, n, phase = board.shape[0], v.grid, int(state.phase[0])
    if phase == PLACE:
        if action == v.n_place:
            out["discard"] = 1.0
            return out
        domino = int(state.cur_line[0, state.order_slot[0, state.turn[0]]])
        cell, direction = divmod(action, 4)
        r, c = divmod(cell, size)
        r2, c2 = r + STEPS[direction][0], c + STEPS[direction][1]
        squares = [(r, c, int(terrain_of[domino, 0]), int(crowns_of[domino, 0])),
                   (r2, c2, int(terrain_of[domino, 1]), int(crowns_of[domino, 1]))]
        inside = lambda a, b: 0 <= a < size and 0 <= b < size  # noqa: E731
        rows, cols = [bbox[0], bbox[1], r, r2], [bbox[2], bbox[3], c, c2]
        for index, (a, b, t, k) in enumerate(squares):
            other = squares[1 - index]
            joins = sum(1 for da, db in STEPS if inside(a + da, b + db) and (a + da, b + db) != other[:2]
                        and board[a + da, b + db] in (t, CASTLE))
            out["joins"] += joins
            out["crowns_joined" if joins else "crowns_alone"] += k
        after = board.copy()
        after[r, c] = after[r2, c2] = 1

        def fillable(a, b):
            return (inside(a, b) and after[a, b] == EMPTY and max(max(rows), a) - min(min(rows), a) < n
                    and max(max(cols), b) - min(min(cols), b) < n)

        for a, b, _, _ in squares:
            for da, db in STEPS:
                x, y = a + da, b + db
                if fillable(x, y) and not any(fillable(x + ea, y + eb) for ea, eb in STEPS):
                    out["holes"] += 1
        out["growth"] = float(max(rows) - min(rows) + max(cols) - min(cols) - (bbox[1] - bbox[0] + bbox[3] - bbox[2]))
    elif phase == PICK:
        slot = action - v.n_place - 1
        picked = int(state.next_line[0, slot])
        out["pick_crowns"] = float(crowns_of[picked].sum())
        out["pick_slot"] = slot / max(state.next_line.shape[1] - 1, 1)
        held = set(board.ravel().tolist())
        out["pick_fits"] = float(sum(int(terrain_of[picked, i]) in held for i in range(2)))
    elif action == v.pass_action:
        out["pass"] = 1.0
    return out


@pytest.mark.parametrize("game", list(RULES))
def test_the_features_are_those_the_module_defines_in_every_game_and_variant(game):
    seen = set()
    for state in positions(RULES[game]):
        actions, _, features = root_priors(state, priors.HAND_WEIGHTS)
        seen.add(int(state.phase[0]))
        for action, row in zip(actions, features, strict=True):
            expected = reference_features(state, int(action))
            assert row.tolist() == pytest.approx([expected[name] for name in priors.FEATURES]), int(action)
    assert {PLACE, PICK} <= seen


@pytest.mark.parametrize("game", list(RULES))
def test_the_logits_are_the_weighted_features_for_any_weights(game):
    rng = np.random.default_rng(1)
    for state in positions(RULES[game], every=11):
        for weights in (priors.HAND_WEIGHTS, rng.normal(size=len(priors.FEATURES))):
            _, logits, features = root_priors(state, weights)
            np.testing.assert_allclose(logits, features @ weights, rtol=1e-12, atol=1e-12)


def test_the_hand_set_weights_are_half_a_logit_a_join_and_a_joined_crown_and_a_third_a_picked_crown():
    named = dict(zip(priors.FEATURES, priors.HAND_WEIGHTS.tolist(), strict=True))
    assert named == {**dict.fromkeys(priors.FEATURES, 0.0), "joins": 0.5, "crowns_joined": 0.5, "pick_crowns": 0.3}


@pytest.mark.parametrize("game", ["mighty-duel", "4p", "queendomino-2p", "royal-wedding-6p-teams"])
def test_a_first_simulation_takes_the_action_of_largest_prior(game):
    """Every root action is unvisited before the first simulation, so PUCT takes the largest prior."""
    rng = np.random.default_rng(2)
    for state in positions(RULES[game], every=13):
        weights = rng.normal(scale=3.0, size=len(priors.FEATURES))
        actions, logits, _ = root_priors(state, weights)
        tree = search.new_tree(64, state.terrain.shape[1])
        search.reset_tree(tree)
        pos = search.position(state)
        params = search.Params(1.5, 0.25, 20.0, 8.0, False, 0.0, False, True)
        net = CompiledSearchAgent(Budget(playouts=1))._leaves(state)[1]
        search.simulate(pos, tree, 1, params, DEFAULT_WEIGHTS, net, weights, search.new_worlds(0, pos), -1)
        assert logits[list(actions).index(int(tree.action[1]))] == logits.max()


def test_a_saved_priors_file_loads_with_its_weights_and_figures(tmp_path):
    weights = np.linspace(-1, 1, len(priors.FEATURES))
    path = priors.save(tmp_path / "p.json", weights, {"variant": "duel", "games": 3})
    loaded, meta = priors.load(path)
    np.testing.assert_array_equal(loaded, weights)
    assert meta == {"variant": "duel", "games": 3}


def _file(tmp_path, content):
    path = tmp_path / "p.json"
    path.write_text(content if isinstance(content, str) else json.dumps(content))
    return path


def _named(**changes):
    return {"format": priors.FORMAT, "weights": {**dict.fromkeys(priors.FEATURES, 0.1), **changes}}


@pytest.mark.parametrize("content, message", [
    ("{not json", "is not a priors file"),
    ("[1, 2]", "no format"),
    ({"format": "other", "weights": {}}, "no format"),
    ({"format": priors.FORMAT, "weights": {"joins": 1.0}}, "missing"),
    (_named(shape=1.0), "unknown shape"),
    (_named(joins="1"), "must be a number"),
    (_named(joins=True), "must be a number"),
    (_named(joins=1e9), "finite number from"),
    (json.dumps(_named()).replace("0.1", "NaN"), "finite number from"),
])
def test_a_damaged_priors_file_is_named_with_what_is_wrong(tmp_path, content, message):
    with pytest.raises(ValueError, match=message):
        priors.load(_file(tmp_path, content))


def test_a_folder_a_fifo_a_missing_or_huge_file_is_not_read_as_priors(tmp_path):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    huge = tmp_path / "huge.json"
    huge.write_text(" " * (priors.MAX_FILE_BYTES + 1))
    for path in (tmp_path, fifo, tmp_path / "missing.json", huge):
        with pytest.raises(ValueError, match=str(path.name)):
            priors.load(path)


def test_weights_of_the_wrong_length_or_not_finite_are_not_saved(tmp_path):
    for weights in (np.zeros(3), np.full(len(priors.FEATURES), np.inf)):
        with pytest.raises(ValueError, match="prior"):
            priors.save(tmp_path / "p.json", weights, {})
    assert not (tmp_path / "p.json").exists()


@pytest.mark.parametrize("value", [None, 3, "", b"hand"])
def test_priors_must_be_a_name_or_a_path(value):
    with pytest.raises(ValueError, match="priors must be"):
        Settings.of(priors=value)


def test_a_priors_path_that_is_not_a_priors_file_is_refused_when_the_agent_is_made(tmp_path):
    with pytest.raises(ValueError, match="missing.json"):
        CompiledSearchAgent(Budget(playouts=10), priors=str(tmp_path / "missing.json"))


def test_the_agent_searches_with_the_priors_it_is_given(tmp_path):
    own = np.arange(len(priors.FEATURES), dtype=np.float64) / 10
    path = priors.save(tmp_path / "p.json", own, {})
    assert CompiledSearchAgent(Budget(playouts=1)).prior_weights is priors.HAND_WEIGHTS
    np.testing.assert_array_equal(CompiledSearchAgent(Budget(playouts=1), priors=str(path)).prior_weights, own)
