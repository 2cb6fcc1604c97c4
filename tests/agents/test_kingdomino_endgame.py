"""Kingdomino's last round solved exactly (`agents.kingdomino_endgame`), checked against brute force on the core."""

from __future__ import annotations

import numpy as np
import pytest

from agents.kingdomino_endgame import final_round_actions, in_final_round, play_final_round
from kingdomino_env import core
from kingdomino_env.policies import greedy_actions
from kingdomino_env.rules import Rules

VARIANTS = {
    "2p": Rules(2),
    "mighty-duel-bonuses": Rules(2, mighty_duel=True, harmony=True, middle_kingdom=True),
    "3p": Rules(3),
    "4p-bonuses": Rules(4, harmony=True, middle_kingdom=True),
    "2p-quests": Rules(2, random_quests=2),
}


def last_round(rules: Rules, seed: int) -> core.State:
    """A game of Full Greedy with 30% random moves, stopped at the first placement of its last round."""
    state = core.new_games(rules, [seed])
    rng = np.random.default_rng(seed)
    while not in_final_round(state)[0]:
        mask = core.legal_action_mask(state)
        random_move = rng.random() < 0.3
        core.step(state, core.random_legal_actions(mask, rng) if random_move else greedy_actions(state, np.array([0]),
                                                                                                   rng))
    return state


def best_key(state: core.State, player: int) -> tuple[int, int, int]:
    """The largest final (score, largest territory, crowns) `player` can reach from `state` by trying all of its
    own moves through the core, the other seats playing Full Greedy (their moves cannot touch its kingdom)."""
    if state.is_over[0]:
        keys = core.rank_keys(state)
        return tuple(int(k[0, player]) for k in keys)
    if int(state.current_player[0]) != player:
        child = state.copy()
        core.step(child, greedy_actions(child, np.array([0]), np.random.default_rng(0)))
        return best_key(child, player)
    best = None
    for action in np.flatnonzero(core.legal_action_mask(state)[0]):
        child = state.copy()
        core.step(child, [action])
        key = best_key(child, player)
        best = key if best is None or key > best else best
    return best


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_every_last_round_move_reaches_the_best_final_key(variant):
    """At every placement of the last round, the solver's move keeps the mover's best reachable final key: it
    loses nothing against trying every sequence of its own remaining moves on the core."""
    checked = 0
    for seed in range(6):
        state = last_round(VARIANTS[variant], seed)
        while not state.is_over[0]:
            player = int(state.current_player[0])
            action = int(final_round_actions(state, np.array([0]))[0])
            assert core.legal_action_mask(state)[0, action]
            child = state.copy()
            core.step(child, [action])
            assert best_key(child, player) == best_key(state, player), f"seed {seed}: action {action}"
            checked += 1
            core.step(state, greedy_actions(state, np.array([0]), np.random.default_rng(seed)))
    assert checked >= 6 * VARIANTS[variant].players


def test_the_solver_beats_greedy_where_placing_for_points_now_is_not_best():
    """Full Greedy places each domino for the most points now; over many duels with both bonuses the exact pair
    of placements must score at least as much in every game and strictly more in some."""
    rules = VARIANTS["mighty-duel-bonuses"]
    gains = []
    for seed in range(40):
        state = last_round(rules, seed)
        exact, greedy = state.copy(), state.copy()
        play_final_round(exact)
        rng = np.random.default_rng(seed)
        while not greedy.is_over[0]:
            core.step(greedy, greedy_actions(greedy, np.array([0]), rng))
        gains.extend((exact.scores[0] - greedy.scores[0]).tolist())
    assert min(gains) >= 0 and max(gains) > 0


def test_only_kingdomino_last_rounds_are_solved():
    state = core.new_games(Rules(2), [1, 2])
    assert not in_final_round(state).any()
    assert (final_round_actions(state, np.arange(2)) == -1).all()
    with pytest.raises(ValueError, match="last round"):
        play_final_round(state)
    queen = core.new_games(Rules(2, game="queendomino"), [1])
    assert not in_final_round(queen).any()
    assert (final_round_actions(queen, np.array([0])) == -1).all()


def test_play_final_round_gives_every_seat_its_best_final_key():
    state = last_round(Rules(4), 3)
    best = [best_key(state, p) for p in range(4)]
    finished = play_final_round(state)
    assert finished is state and state.is_over.all()
    assert [tuple(int(k[0, p]) for k in core.rank_keys(state)) for p in range(4)] == best
