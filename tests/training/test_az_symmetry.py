"""The kingdom's symmetries: a rotated or reflected game is the same game, move for move, in all three games; the
action maps are permutations; augmented losses train."""

from __future__ import annotations

import numpy as np
import pytest

from agents.az.features import encode
from kingdomino_env import core
from kingdomino_env.rules import Rules
from tests.variants import advance
from training.az_symmetry import N_SYMMETRIES, action_sources, augment, sparse_maps, transform_planes

VARIANTS = [
    Rules(players=2),
    Rules(players=2, mighty_duel=True, harmony=True, middle_kingdom=True),
    Rules(players=4, quests=("lost_corner", "folie_des_grandeurs")),
    Rules(players=3, random_quests=2),
    Rules(game="queendomino", players=2),
    Rules(game="royal_wedding", players=6, teams=True),
]
IDS = ["2p", "duel_bonuses", "4p_quests", "3p_random_quests", "queendomino", "royal_wedding_teams"]


def inverse(sources: np.ndarray) -> np.ndarray:
    out = np.empty_like(sources)
    out[sources] = np.arange(sources.size)
    return out


def transformed(state: core.State, k: int) -> core.State:
    """A copy of `state` with every kingdom under symmetry `k` (bounding boxes recomputed, Queendomino's knights,
    buildings and the squares of the domino just placed moved with them), written into the copy's arrays (a state's
    arrays are changed in place, never reassigned: the kernels read them through `State.arrays`)."""
    out = state.copy()
    s = state.rules.frame
    for name in ("terrain", "crowns", "knight_board", "building_board"):
        if getattr(out, name, None) is not None:
            getattr(out, name)[...] = transform_planes(getattr(state, name), k)
    occupied = out.terrain != 0
    r_any, c_any = occupied.any(axis=3), occupied.any(axis=2)
    bounds = [r_any.argmax(axis=2), s - 1 - r_any[..., ::-1].argmax(axis=2),
              c_any.argmax(axis=2), s - 1 - c_any[..., ::-1].argmax(axis=2)]
    out.bbox[...] = np.stack(bounds, axis=2).astype(state.bbox.dtype)
    if getattr(out, "placed", None) is not None:
        where = inverse(transform_planes(np.arange(s * s).reshape(s, s), k).reshape(-1))
        placed = state.placed.copy()
        for first in (0, 2):
            live = placed[:, first] >= 0
            cell = where[placed[live, first] * s + placed[live, first + 1]]
            placed[live, first], placed[live, first + 1] = np.divmod(cell, s)
        out.placed[...] = placed
    return out


@pytest.mark.parametrize("k", range(N_SYMMETRIES))
@pytest.mark.parametrize("rules", VARIANTS, ids=IDS)
def test_a_transformed_game_is_the_same_game(rules: Rules, k: int) -> None:
    """From a mid-game position, the transformed position has the mapped legal actions and observation planes,
    and playing the mapped moves to the end gives the same scores, bonuses and quests included."""
    state = advance(rules, [3, 4, 5], steps=4 * rules.kings + 3)
    other = transformed(state, k)
    sources = action_sources(rules, k)
    to_new = inverse(sources)
    rng = np.random.default_rng(k)
    while not state.is_over.all():
        mask = core.legal_action_mask(state)
        np.testing.assert_array_equal(core.legal_action_mask(other), mask[:, sources])
        actions = core.random_legal_actions(mask, rng)
        core.step(state, actions)
        core.step(other, to_new[actions])
    np.testing.assert_array_equal(other.scores, state.scores)
    np.testing.assert_array_equal(other.largest, state.largest)


@pytest.mark.parametrize("rules", VARIANTS, ids=IDS)
def test_action_maps_are_permutations_that_compose(rules: Rules) -> None:
    identity = np.arange(rules.n_actions)
    np.testing.assert_array_equal(action_sources(rules, 0), identity)
    for k in range(N_SYMMETRIES):
        sources = action_sources(rules, k)
        np.testing.assert_array_equal(np.sort(sources), identity)
        assert (sources[rules.n_place_actions:rules.first_pick_action + rules.line_size]
                == identity[rules.n_place_actions:rules.first_pick_action + rules.line_size]).all()
    quarter = action_sources(rules, 1)
    np.testing.assert_array_equal(quarter[quarter[quarter[quarter]]], identity)
    with pytest.raises(ValueError, match="symmetry must be 0..7"):
        action_sources(rules, 8)


def test_augment_maps_planes_policy_and_mask_together() -> None:
    rules = Rules(players=2)
    state = advance(rules, [1, 2], steps=5)
    inputs = encode(core.observe(state), rules)
    mask = core.legal_action_mask(state)
    policy = mask / mask.sum(axis=1, keepdims=True)
    same = augment(inputs.planes, policy, mask, rules, np.zeros(2, dtype=np.int64))
    np.testing.assert_array_equal(same[0], inputs.planes)
    np.testing.assert_array_equal(same[2], mask)
    planes, moved_policy, moved_mask = augment(inputs.planes, policy, mask, rules, np.array([1, 6]))
    for row, k in enumerate((1, 6)):
        other = transformed(state.take([row]), k)
        np.testing.assert_array_equal(moved_mask[row], core.legal_action_mask(other)[0])
        np.testing.assert_array_equal(planes[row], encode(core.observe(other), rules).planes[0])
        assert moved_policy[row].sum() == pytest.approx(1.0)
        np.testing.assert_array_equal(moved_policy[row] > 0, moved_mask[row])


@pytest.mark.parametrize("rules", VARIANTS, ids=IDS)
def test_the_value_networks_inputs_map_with_the_kingdoms(rules: Rules) -> None:
    """Under each symmetry the csearch value network's sparse squares are the original's mapped by `sparse_maps`
    and its dense and global inputs do not change: what training on a random symmetry of each kingdom relies on."""
    from agents.csearch.inputs import features_of, inputs_of, new_inputs

    state = advance(rules, [5], 14, seed=1)
    maps = sparse_maps(rules.frame, inputs_of(rules).square_kinds)
    assert all(np.array_equal(np.sort(m), np.arange(m.size)) for m in maps)
    original = new_inputs(rules)
    features_of(state.arrays, state.constants, *original)
    for k in range(N_SYMMETRIES):
        turned = transformed(state, k)
        mapped = new_inputs(rules)
        features_of(turned.arrays, turned.constants, *mapped)
        np.testing.assert_array_equal(np.sort(mapped[0], axis=1), np.sort(maps[k][original[0]], axis=1))
        np.testing.assert_allclose(mapped[1], original[1])
        np.testing.assert_array_equal(mapped[2], original[2])
