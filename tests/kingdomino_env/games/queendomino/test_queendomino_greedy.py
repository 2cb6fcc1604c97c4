"""Queendomino Full Greedy (`games.queendomino.greedy`, through
`policies.GreedyPolicy`): legal, stronger than random, and each
documented choice on a hand-made position."""

from __future__ import annotations

import numpy as np
import pytest

from kingdomino_env import core
from kingdomino_env.games.queendomino.greedy import rising_choice
from kingdomino_env.games.queendomino.kernels import BUILD, DRAGON, KNIGHT_STEP
from kingdomino_env.policies import GreedyPolicy, RandomPolicy, greedy_actions
from kingdomino_env.rules import Rules
from tests.queendomino_positions import (
    Q2,
    act,
    at_step,
    give_domino,
    knight_and_build_steps,
    mover,
    paint,
    rescore,
    started,
)

STATUE, WEAVING_SHOP = 22, 0  # 0-based tiles: 5 points; 2 points per grassland territory


def _greedy(state, random_draft=False, seed=0):
    return int(greedy_actions(state, np.array([0]), np.random.default_rng(seed), random_draft)[0])


def _score_after(state, action):
    trial = state.copy()
    core.step(trial, [action])
    return int(trial.scores[0, mover(state)])


@pytest.mark.parametrize("players", [2, 3, 4])
def test_greedy_and_gprd_play_legally_and_place_for_the_best_score(players):
    rules = Rules(game="queendomino", players=players)
    state = core.new_games(rules, range(12))
    policies = [GreedyPolicy(1), GreedyPolicy(2, random_draft=True), RandomPolicy(3)]
    while not state.is_over.all():
        live = np.flatnonzero(~state.is_over)
        mask = core.legal_action_mask(state)
        actions = np.zeros(state.batch_size, dtype=np.int64)
        for k, policy in enumerate(policies):
            games = live[live % 3 == k]
            if games.size:
                actions[games] = policy.act(state, games, mask[games], None)
        assert mask[live, actions[live]].all()
        for b in live[(live % 3 == 0) & (state.phase[live] == core.PLACE)][:2]:
            one = state.take([b])
            legal = np.flatnonzero(mask[b])
            assert _score_after(one, int(actions[b])) == max(_score_after(one, int(a)) for a in legal)
        core.step(state, actions)
    assert (state.n_steps > 0).all()


def test_greedy_beats_random_in_most_two_player_games():
    """Measured: 40 of 40 (greedy averages ~147 points, random ~86)."""
    games = 40
    state = core.new_games(Q2, range(1000, 1000 + games))
    greedy, rand = GreedyPolicy(0), RandomPolicy(1)
    seat = np.arange(games) % 2
    while not state.is_over.all():
        live = np.flatnonzero(~state.is_over)
        mask = core.legal_action_mask(state)
        actions = np.zeros(games, dtype=np.int64)
        mine = live[state.current_player[live] == seat[live]]
        theirs = live[state.current_player[live] != seat[live]]
        if mine.size:
            actions[mine] = greedy.act(state, mine, mask[mine], None)
        if theirs.size:
            actions[theirs] = rand.act(state, theirs, mask[theirs], None)
        core.step(state, actions)
    wins = int((core.ranks(state)[np.arange(games), seat] == 0).sum())
    assert wins >= 32


def test_greedy_is_deterministic_for_a_seed():
    def play(seed):
        state = core.new_games(Rules(game="queendomino", players=3), [7, 8])
        policy = GreedyPolicy(seed, random_draft=True)
        while not state.is_over.all():
            live = np.flatnonzero(~state.is_over)
            actions = np.zeros(2, dtype=np.int64)
            actions[live] = policy.act(state, live, None, None)
            core.step(state, actions)
        return state.scores.tolist(), state.n_steps.tolist()

    assert play(4) == play(4)


def _knight_position(coins):
    """The mover has placed domino 18 (wheat with a crown | forest): the wheat square (first) joins a wheat
    territory of 4, the forest square (second) stands alone."""
    state = started(Q2)
    p = mover(state)
    c = Q2.castle
    paint(state, p, {(c, c + 1): "W", (c, c + 2): "W", (c, c + 3): "W"})
    state.coins[0, p] = coins
    rescore(state, p)
    give_domino(state, 18)
    act(state, Q2.place_action(c - 1, c + 1, 2))  # wheat at (c - 1, c + 1), forest west of it
    assert state.phase[0] == KNIGHT_STEP
    return state


def test_knight_goes_on_the_larger_territory_when_the_tax_pays():
    state = _knight_position(coins=7)  # tax 4: 11 coins, wealth 2 -> 3
    assert _greedy(state) == Q2.knight_action(0)


def test_knight_passes_when_the_tax_does_not_raise_the_score():
    state = _knight_position(coins=7)
    state.knight_done[0, 0] = True  # only the lone forest square is left: tax 1, 8 coins, wealth stays 2
    assert _greedy(state) == Q2.pass_action


def _build_position(coins, slots):
    state = started(Q2)
    p = mover(state)
    c = Q2.castle
    paint(state, p, {(c, c + 1): "T", (c, c + 2): "T"})
    state.coins[0, p] = coins
    state.slots[0] = slots
    rescore(state, p)
    at_step(state, BUILD)
    return state


def test_build_buys_the_tile_that_scores_most():
    state = _build_position(coins=2, slots=[WEAVING_SHOP, STATUE, -1, -1, -1, -1])
    action = _greedy(state)
    ss = Q2.frame * Q2.frame
    assert (action - Q2.first_build_action) // ss == 1  # the Statue (5 points for 1 coin), not the Weaving Shop
    legal = np.flatnonzero(core.legal_action_mask(state)[0])
    assert _score_after(state, action) == max(_score_after(state, int(a)) for a in legal)


def test_knights_and_builds_take_the_largest_rise_then_the_most_coins():
    """At every knight and build step of whole games, every legal action tried on a copy with the core's step:
    Full Greedy's raises the mover's score most and, among equal rises, leaves the most coins; PASS exactly when
    nothing raises the score."""
    checked = passes = 0
    for state in knight_and_build_steps(range(3)):
        kingdom = int(state.current_kingdom[0])
        outcome = {}
        for a in np.flatnonzero(core.legal_action_mask(state)[0][:state.rules.pass_action]):
            trial = state.copy()
            core.step(trial, [int(a)])
            outcome[int(a)] = (int(trial.scores[0, kingdom]) - int(state.scores[0, kingdom]),
                               int(trial.coins[0, kingdom]))
        chosen = _greedy(state, seed=checked)
        best = max(outcome.values())
        if best[0] <= 0:
            assert chosen == state.rules.pass_action
            passes += 1
        else:
            assert outcome[chosen] == best
        checked += 1
    assert checked >= 20 and 0 < passes < checked


def test_the_rising_choice_breaks_ties_by_coins_then_by_the_draw():
    gains, coins = np.array([2, 3, 3, 3, 0]), np.array([9, 1, 4, 4, 9])
    assert [rising_choice(gains, coins, 5, u) for u in (0.0, 0.49, 0.5, 0.99)] == [2, 2, 3, 3]
    assert rising_choice(gains, coins, 1, 0.5) == 0
    assert rising_choice(np.array([0, -1]), np.array([9, 9]), 2, 0.5) == -1


def test_build_passes_when_nothing_gains():
    state = _build_position(coins=3, slots=[WEAVING_SHOP, -1, -1, -1, -1, -1])  # no grassland: 0 points
    assert _greedy(state) == Q2.pass_action


def _dragon_position(their_coins):
    """The mover may burn; the opponent has an open town square and `their_coins`; slot 1 holds a Statue."""
    state = started(Q2)
    p = mover(state)
    q = 1 - p
    c = Q2.castle
    paint(state, q, {(c, c + 1): "T"})
    state.coins[0, p] = 3
    state.coins[0, q] = their_coins
    state.slots[0] = [WEAVING_SHOP, STATUE, -1, -1, -1, -1]
    rescore(state, q)
    at_step(state, DRAGON)
    return state


def test_dragon_burns_the_tile_the_opponent_gains_most_from():
    assert _greedy(_dragon_position(their_coins=4)) == Q2.dragon_action(1)


def test_dragon_passes_when_the_opponent_cannot_afford_a_gain():
    assert _greedy(_dragon_position(their_coins=0)) == Q2.pass_action  # only the 0-point Weaving Shop is free


def test_gprd_places_greedily():
    state = started(Q2)
    mask = core.legal_action_mask(state)[0]
    action = _greedy(state, random_draft=True)
    assert _score_after(state, action) == max(_score_after(state, int(a)) for a in np.flatnonzero(mask))
