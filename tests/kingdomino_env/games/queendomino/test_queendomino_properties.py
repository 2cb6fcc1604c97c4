"""Property tests over random Queendomino games: masks, lengths, scoring, the observation's new blocks (records and
batches of every game: tests/kingdomino_env/test_record.py, test_core_properties.py)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kingdomino_env import core
from kingdomino_env.games.queendomino import game as queendomino
from tests.games_table import QUEENDOMINO, RULES
from tests.queendomino_positions import play_random as play

VARIANTS = {RULES[name].players: RULES[name] for name in QUEENDOMINO}
SEEDS = st.integers(min_value=0, max_value=2**32 - 1)


@pytest.mark.parametrize("players", [2, 3, 4])
@settings(max_examples=4, deadline=None)
@given(deal_seed=SEEDS, action_seed=SEEDS)
def test_random_games_end_and_score_exactly(players, deal_seed, action_seed):
    rules = VARIANTS[players]
    state, actions = play(rules, [deal_seed, deal_seed + 1], action_seed)
    assert not core.legal_action_mask(state).any()
    assert (state.round == rules.rounds).all() and (state.drawn == 48).all()
    min_steps = rules.kings + rules.rounds * rules.kings + (rules.rounds - 1) * rules.kings
    assert ((state.n_steps >= min_steps) & (state.n_steps <= rules.max_actions)).all()
    for b in range(state.batch_size):
        assert state.knights_owned[b].sum() <= 22 and state.towers[b].sum() <= 15
        for p in range(players):
            assert queendomino.rescore(state, b, p) == (state.scores[b, p], state.largest[b, p],
                                                         state.total_crowns[b, p])
            assert core.score_breakdown(state, b, p)["total"] == state.scores[b, p]
            placed = (np.count_nonzero(state.terrain[b, p]) - 1) // 2
            assert placed + state.discarded[b, p] == rules.rounds * rules.kings_per_player
            assert state.knights[b, p] + state.knight_board[b, p].sum() == state.knights_owned[b, p]
            built = state.building_board[b, p] >= 0
            assert (state.terrain[b, p][built] == 8).all()
        if state.queen[b] >= 0:
            assert state.towers[b, state.queen[b]] > 0
        gone = set(state.slots[b][state.slots[b] >= 0].tolist())
        for p in range(players):
            gone |= set(state.building_board[b, p][state.building_board[b, p] >= 0].tolist())
        assert gone <= set(state.pile[b, :state.pile_pos[b]].tolist())


def test_the_observation_starts_with_coins_pile_and_board():
    rules = VARIANTS[3]
    state = core.new_games(rules, [0, 1])
    from kingdomino_env.observation import QueendominoLayout

    layout = QueendominoLayout(rules)
    obs = core.observe(state)
    assert (obs[:, layout.kingdom_features].reshape(2, 3, -1)[:, :, 0] == 7).all()  # coins
    assert obs[0, layout.pile].sum() == 26 and obs[0, layout.board].reshape(6, -1)[:, 0].sum() == 6
