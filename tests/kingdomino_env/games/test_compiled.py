"""The compiled game interface (`games.compiled`): in every game and variant its legal mask, step, rank keys and
kingdom to move agree with the batched core on one game, its sampler keeps what is seen and reorders the rest, the
record helpers copy and view any record, and misuse is refused with a clear error."""

from typing import NamedTuple

import numpy as np
import pytest
from numba import njit
from numba.core import event
from numba.core.errors import TypingError

from agents.csearch import search
from kingdomino_env import core
from kingdomino_env.games import compiled
from kingdomino_env.games.board import ILLEGAL, OK
from kingdomino_env.games.dominoes import N_DOMINOES
from kingdomino_env.games.records import KingdominoArrays, MaskArrays, Variant
from kingdomino_env.policies import greedy_actions
from kingdomino_env.rules import Rules
from tests.games_table import RULES


@njit(cache=True)
def _one_step(arrays, constants, action, mask, keys):
    """On a one-game batch: the legal mask into `mask`, the rank keys into `keys`, then `action` applied; (status,
    kingdom to move before the step)."""
    st, v = compiled.as_records(arrays, constants)
    compiled.legal_mask(st, v, mask)
    for k in range(keys.shape[0]):
        keys[k] = compiled.rank_key(st, v, k)
    mover = compiled.kingdom_to_move(st, v)
    return compiled.step(st, v, action, compiled.new_work(st, v)), mover


@njit(cache=True)
def _sample(arrays, constants, boxes):
    """Sample the hidden orders of a one-game batch in place."""
    st, v = compiled.as_records(arrays, constants)
    compiled.sample_hidden(st, v, np.int64(0), boxes, np.zeros(2 * N_DOMINOES, dtype=np.int64))


def _positions(rules, seed, moves=60):
    """One-game states of a random game of `rules`, one per move until it ends (at most `moves`)."""
    rng = np.random.default_rng(seed)
    state = core.new_games(rules, [seed])
    out = []
    while not state.is_over[0] and len(out) < moves:
        out.append(state.copy())
        mask = core.legal_action_mask(state)
        core.step(state, core.random_legal_actions(mask, rng))
    return out


@pytest.mark.parametrize("game", RULES)
def test_compiled_game_plays_as_the_core_does(game):
    rules = RULES[game]
    rng = np.random.default_rng(3)
    for state in _positions(rules, 5)[::3]:
        expected_mask = core.legal_action_mask(state)
        mask = np.zeros_like(expected_mask)
        keys = np.zeros(state.scores.shape[1], dtype=np.int64)
        action = int(rng.choice(np.flatnonzero(expected_mask[0])))
        after = state.copy()
        status, mover = _one_step(after.arrays, after.constants, action, mask, keys)
        np.testing.assert_array_equal(mask, expected_mask)
        assert status == OK and mover == state.current_kingdom[0]
        core.step(state, [action])
        for name, array in state._arrays().items():
            np.testing.assert_array_equal(getattr(after, name), array, err_msg=name)


@pytest.mark.parametrize("game", RULES)
def test_rank_keys_order_finished_games_as_the_core_ranks_them(game):
    rules = RULES[game]
    for seed in range(3):
        state = _positions(rules, seed, moves=10**6)[-1]
        core.step(state, core.random_legal_actions(core.legal_action_mask(state), np.random.default_rng(seed)))
        assert state.is_over[0]
        keys = np.zeros(state.scores.shape[1], dtype=np.int64)
        _one_step(state.copy().arrays, state.constants, 0, np.zeros((1, rules.n_actions), dtype=bool), keys)
        np.testing.assert_array_equal(core.kingdom_ranks(state)[0], (keys[None, :] > keys[:, None]).sum(axis=1))


@pytest.mark.parametrize("game", ["2p", "mighty-duel", "queendomino-2p", "royal-wedding-5p"])
def test_an_illegal_action_leaves_the_game_untouched(game):
    state = _positions(RULES[game], 1)[7]
    illegal = int(np.flatnonzero(~core.legal_action_mask(state)[0])[0])
    after = state.copy()
    status, _ = _one_step(after.arrays, after.constants, illegal, np.zeros((1, state.rules.n_actions), dtype=bool),
                          np.zeros(state.scores.shape[1], dtype=np.int64))
    assert status == ILLEGAL
    for name, array in state._arrays().items():
        np.testing.assert_array_equal(getattr(after, name), array, err_msg=name)


@pytest.mark.parametrize("game", RULES)
def test_sampling_keeps_what_is_seen_and_reorders_the_rest(game):
    state = _positions(RULES[game], 2)[20]
    boxes = search.position(state).boxes
    drawn = int(state.drawn[0])
    worlds = set()
    for _ in range(8):
        world = state.copy()
        _sample(world.arrays, world.constants, boxes)
        np.testing.assert_array_equal(world.deck[0, :drawn], state.deck[0, :drawn])
        for box in np.unique(boxes):
            ids = world.deck[0, np.flatnonzero(boxes == box)].astype(np.int64)
            assert ((box * N_DOMINOES <= ids) & (ids < (box + 1) * N_DOMINOES)).all()
            assert np.unique(ids).size == ids.size
        if hasattr(state, "pile"):
            seen = int(state.pile_pos[0])
            np.testing.assert_array_equal(world.pile[0, :seen], state.pile[0, :seen])
            assert sorted(world.pile[0].tolist()) == sorted(state.pile[0].tolist())
        for name in state._arrays():
            if name not in ("deck", "pile"):
                np.testing.assert_array_equal(getattr(world, name), getattr(state, name), err_msg=name)
        worlds.add(world.deck[0, drawn:].tobytes())
    assert len(worlds) > 1


@njit(cache=True)
def _copy(dst, src):
    compiled.copy_state(dst, src)


@njit(cache=True)
def _copy_game(dst, src, b):
    compiled.copy_game(dst, src, b)


@njit(cache=True)
def _first_terrain_of_view(arrays):
    view = compiled.project(KingdominoArrays(*arrays), MaskArrays)
    view.terrain[0, 0, 0, 0] = 99
    return len(view)


def test_copy_state_copies_every_array_of_a_record():
    state, other = _positions(RULES["queendomino-2p"], 4)[30], _positions(RULES["queendomino-2p"], 6)[2]
    _copy(other.arrays, state.arrays)
    for name, array in state._arrays().items():
        np.testing.assert_array_equal(getattr(other, name), array, err_msg=name)


def test_copy_game_copies_one_game_of_a_batch():
    batch = core.new_games(RULES["royal-wedding-5p"], range(4))
    for _ in range(25):
        core.step(batch, greedy_actions(batch, np.arange(4), np.random.default_rng(0)))
    one = core.new_games(RULES["royal-wedding-5p"], [9])
    _copy_game(one.arrays, batch.arrays, 2)
    for name, array in batch.take([2])._arrays().items():
        np.testing.assert_array_equal(getattr(one, name), array, err_msg=name)


def test_a_projection_is_a_view_of_the_named_arrays():
    state = core.new_games(RULES["2p"], [0])
    assert _first_terrain_of_view(state.arrays) == len(MaskArrays._fields)
    assert state.terrain[0, 0, 0, 0] == 99


def test_copy_state_refuses_records_that_do_not_match():
    with pytest.raises(TypingError):
        _copy((np.zeros(3),), (np.zeros(3, dtype=np.int64),))
    with pytest.raises(TypingError):
        _copy((np.zeros(3),), (np.zeros(3), np.zeros(3)))
    with pytest.raises(TypingError):
        _copy_game((np.zeros((1, 3)),), (np.zeros((2, 3), dtype=np.int8),), 1)


def test_the_interface_is_for_compiled_callers_only():
    with pytest.raises(TypeError, match="legal_mask is called from compiled code only"):
        compiled.legal_mask(None, None, None)


def test_a_game_whose_records_look_like_another_s_is_refused():
    record = NamedTuple("Clash", [(name, np.ndarray) for name in KingdominoArrays._fields])
    game = compiled.GAMES[KingdominoArrays]._replace(arrays=record, variant=Variant)
    with pytest.raises(ValueError, match="as many fields as KingdominoArrays"):
        compiled.register(game)
    assert record not in compiled.GAMES


@njit
def _mover_plus(st, v, extra):
    """A per-game kernel of this test: the kingdom to move plus `extra`."""
    return np.int64(st.order_player[0, st.turn[0]]) + extra


_probe = compiled.by_game({KingdominoArrays: _mover_plus}, "probe")


@njit
def _probe_inside(st, v):
    """A per-game kernel that calls another: compiled as an overload, with its own compile flags."""
    return _probe(st, v, np.int64(1))


_inside = compiled.by_game({KingdominoArrays: _probe_inside}, "inside")


@njit
def _probe_both(arrays, constants):
    """`_probe` called from a plain kernel and from within the per-game kernel `_inside`."""
    st, v = compiled.as_records(arrays, constants)
    return _inside(st, v) + _probe(st, v, np.int64(1))


def test_a_game_kernel_is_compiled_once_for_every_caller():
    compiles = []

    class Listener(event.Listener):
        def on_start(self, ev):
            if getattr(ev.data["dispatcher"], "py_func", None) is _mover_plus.py_func:
                compiles.append(ev.data["args"])

        def on_end(self, ev):
            pass

    state = core.new_games(Rules(players=2), [0])
    with event.install_listener("numba:compile", Listener()):
        total = _probe_both(state.arrays, state.constants)
    assert total == 2 * (int(state.order_player[0, state.turn[0]]) + 1)
    assert len(compiles) == 1
