"""Property tests over random games: Kingdomino's masks, game lengths and scoring; in every game of the table,
batches equal single games and seeds name games."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kingdomino_env import core, record
from kingdomino_env.rules import Rules
from tests.boards import score
from tests.games_table import RULES, assert_same_state, every_game

VARIANTS = {
    "2p": Rules(2),
    "3p": Rules(3),
    "4p": Rules(4),
    "mighty_duel": Rules(2, mighty_duel=True),
    "3p_36": Rules(3, three_player_36=True),
    "2p_bonuses": Rules(2, harmony=True, middle_kingdom=True),
    "4p_bonuses": Rules(4, harmony=True, middle_kingdom=True),
}
EXPECTED_LENGTH = {"2p": 48, "3p": 72, "4p": 96, "mighty_duel": 96, "3p_36": 72, "2p_bonuses": 48, "4p_bonuses": 96}
SEEDS = st.integers(min_value=0, max_value=2**32 - 1)


def play_random(rules: Rules, deal_seeds: list[int], action_seed: int) -> tuple[core.State, list[np.ndarray]]:
    """Play B games with random legal actions; returns the final state and the mask before each step."""
    state = core.new_games(rules, deal_seeds)
    rng = np.random.default_rng(action_seed)
    masks = []
    while not state.is_over.all():
        mask = core.legal_action_mask(state)
        masks.append(mask)
        live = ~state.is_over
        assert mask[live].any(axis=1).all(), "a live game has no legal action"
        assert not mask[~live].any(), "a finished game has legal actions"
        core.step(state, core.random_legal_actions(mask, rng))
    return state, masks


@pytest.mark.parametrize("variant", list(VARIANTS))
@settings(max_examples=15, deadline=None)
@given(deal_seed=SEEDS, action_seed=SEEDS)
def test_random_games_are_complete_and_score_exactly(variant, deal_seed, action_seed):
    rules = VARIANTS[variant]
    state, masks = play_random(rules, [deal_seed, deal_seed + 1, deal_seed + 2], action_seed)
    assert rules.max_actions == EXPECTED_LENGTH[variant]
    assert (state.n_steps == EXPECTED_LENGTH[variant]).all()
    assert len(masks) == EXPECTED_LENGTH[variant]
    assert not core.legal_action_mask(state).any()
    for b in range(state.batch_size):
        for p in range(rules.players):
            points, largest, crowns = score(state.terrain[b, p], state.crowns[b, p], rules)
            assert (state.scores[b, p], state.largest[b, p], state.total_crowns[b, p]) == (points, largest, crowns)
            placed = (np.count_nonzero(state.terrain[b, p]) - 1) // 2
            assert placed + state.discarded[b, p] == rules.rounds * rules.kings_per_player
            rows, cols = np.nonzero(state.terrain[b, p])
            assert rows.max() - rows.min() < rules.grid and cols.max() - cols.min() < rules.grid
    # Every domino of the deck was drawn; in 3-player games with lines of 4, the unpicked one of each line is
    # discarded, so exactly 36 dominoes reach the players.
    assert (state.drawn == rules.deck_size).all()
    reached = sum(
        (np.count_nonzero(state.terrain[:, p].reshape(state.batch_size, -1), axis=1) - 1) // 2 + state.discarded[:, p]
        for p in range(rules.players)
    )
    assert (reached == rules.rounds * rules.kings).all()


@settings(max_examples=10, deadline=None)
@given(seed=SEEDS)
def test_three_player_leftover_is_never_placed(seed):
    rules = Rules(3)
    state = core.new_games(rules, [seed])
    rng = np.random.default_rng(seed)
    leftovers = []
    while not state.is_over[0]:
        if state.phase[0] == core.PLACE and state.turn[0] == 0:
            unowned = [int(d) for d, o in zip(state.cur_line[0], state.cur_owner[0], strict=True) if o < 0]
            assert len(unowned) == 1  # 4 dominoes per line, 3 kings
            leftovers.extend(unowned)
        held = int(state.held_domino[0])
        assert held not in leftovers
        core.step(state, core.random_legal_actions(core.legal_action_mask(state), rng))
    assert len(leftovers) == 12


@every_game()
@settings(max_examples=2, deadline=None)
@given(seed=SEEDS)
def test_a_batch_of_b_games_equals_b_single_games(game, seed):
    """Stepped together, games have the masks, observations and arrays of the same games stepped one by one, and
    each one's record replays to its single game."""
    rules = RULES[game]
    seeds = [seed, seed + 1, seed + 2]
    batch = core.new_games(rules, seeds)
    singles = [core.new_games(rules, [s]) for s in seeds]
    rngs = [np.random.default_rng(s) for s in seeds]
    taken: list[list[int]] = [[] for _ in seeds]
    while not batch.is_over.all():
        mask = core.legal_action_mask(batch)
        obs = core.observe(batch)
        actions = np.zeros(len(seeds), dtype=np.int64)
        for b, single in enumerate(singles):
            single_mask = core.legal_action_mask(single)
            np.testing.assert_array_equal(single_mask[0], mask[b])
            np.testing.assert_array_equal(core.observe(single)[0], obs[b])
            if not single.is_over[0]:
                actions[b] = core.random_legal_actions(single_mask, rngs[b])[0]
                taken[b].append(int(actions[b]))
                core.step(single, actions[b:b + 1])
        core.step(batch, actions)
    for b, single in enumerate(singles):
        assert_same_state(batch.take([b]), single, f"of game {b}")
        replayed, actions = record.replay(record.make_record(batch, b, taken[b]))
        assert actions == taken[b]
        assert_same_state(replayed, single, f"replayed of game {b}")


@every_game()
def test_same_seed_same_game_and_different_seeds_differ(game):
    rules = RULES[game]
    a = core.new_games(rules, [7, 8])
    b = core.new_games(rules, [7, 8])
    assert_same_state(a, b)
    assert not np.array_equal(a.deck[0], a.deck[1])


def test_a_seed_names_the_same_deal_everywhere():
    """numpy's PCG64 stream: seed 7's deal is pinned, so that a change of dealing is noticed."""
    a = core.new_games(Rules(2), [7])
    assert (a.deck[0, :8] + 1).tolist() == [11, 38, 45, 23, 21, 29, 1, 37]
    assert a.first_kings[0].tolist() == [0, 1, 1, 0]


def test_state_copy_take_and_put_are_independent():
    rules = Rules(2)
    state = core.new_games(rules, [1, 2, 3])
    copy = state.copy()
    core.step(state, core.random_legal_actions(core.legal_action_mask(state), np.random.default_rng(0)))
    assert (copy.n_steps == 0).all() and (state.n_steps == 1).all()
    sub = state.take([2, 0])
    np.testing.assert_array_equal(sub.deck, state.deck[[2, 0]])
    state.put([1], sub.take([0]))
    np.testing.assert_array_equal(state.deck[1], state.deck[2])
    with pytest.raises(ValueError, match="cannot put"):
        state.put([0], core.new_games(Rules(4), [0]))
