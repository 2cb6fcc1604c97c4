"""Search agents: determinisation never reads the hidden deck order, playouts and ratios, budgets, good moves."""

from __future__ import annotations

import numpy as np
import pytest

from agents import Budget, load
from agents.determinise import determinise, resample_hidden
from agents.flat_mc import FlatMonteCarloAgent
from agents.playout import greedy_playout, score_ratio
from agents.uct import UCTAgent
from kingdomino_env import core
from kingdomino_env.games.dominoes import N_DOMINOES
from kingdomino_env.rules import Rules


def advance(state: core.State, steps: int, seed: int = 0) -> core.State:
    """Play `steps` random actions in every game."""
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        core.step(state, core.random_legal_actions(core.legal_action_mask(state), rng))
    return state


def last_decision(rules: Rules, seed: int) -> core.State:
    """A game right before its last action (the last placement of the game)."""
    state = core.new_games(rules, [seed])
    advance(state, rules.max_actions - 1, seed)
    assert not state.is_over[0]
    return state


@pytest.mark.parametrize("rules", [Rules(2), Rules(4), Rules(3, three_player_36=True)])
def test_resampling_keeps_what_was_drawn_and_samples_only_unseen_dominoes(rules):
    state = advance(core.new_games(rules, range(50)), 17)
    worlds = resample_hidden(state.copy(), np.random.default_rng(0))
    for b in range(state.batch_size):
        drawn = int(state.drawn[b])
        assert (worlds.deck[b, :drawn] == state.deck[b, :drawn]).all()
        hidden = worlds.deck[b, drawn:]
        assert len(set(hidden.tolist())) == hidden.size
        assert not set(hidden.tolist()) & set(state.deck[b, :drawn].tolist())
        assert hidden.min() >= 0 and hidden.max() < N_DOMINOES
    for name in ("terrain", "cur_line", "next_line", "scores", "phase"):
        assert (getattr(worlds, name) == getattr(state, name)).all()


def test_two_player_worlds_draw_from_the_box_too():
    """The 24 dominoes left in the box are unknown: worlds must sometimes contain dominoes the real deck lacks."""
    state = core.new_games(Rules(2), [0])
    worlds = determinise(state, np.array([0]), 200, np.random.default_rng(1))
    real = set(state.deck[0].tolist())
    sampled = set(worlds.deck[:, int(state.drawn[0]):].ravel().tolist())
    assert sampled - real
    assert len(sampled) == N_DOMINOES - int(state.drawn[0])


@pytest.mark.parametrize("maker", [FlatMonteCarloAgent, UCTAgent])
def test_search_does_not_depend_on_the_hidden_deck_order(maker):
    state = advance(core.new_games(Rules(4), [7]), 9)
    shuffled = state.copy()
    drawn = int(state.drawn[0])
    shuffled.deck[0, drawn:] = np.random.default_rng(3).permutation(state.deck[0, drawn:])
    assert (shuffled.deck != state.deck).any()
    games = np.array([0])
    chosen = []
    for s in (state, shuffled):
        agent = maker(Budget(playouts=64), seed=11)
        chosen.append(int(agent.act(s, games, core.legal_action_mask(s), None)[0]))
    assert chosen[0] == chosen[1]


def test_greedy_playout_finishes_every_game_and_ratios_are_own_over_own_plus_best_opponent():
    state = greedy_playout(core.new_games(Rules(3), range(5)), np.random.default_rng(0))
    assert state.is_over.all()
    ratio = score_ratio(state)
    s = state.scores.astype(float)
    for b in range(5):
        for p in range(3):
            best = max(s[b, q] for q in range(3) if q != p)
            assert ratio[b, p] == pytest.approx(s[b, p] / (s[b, p] + best))
    zero = core.new_games(Rules(2), [0])
    assert (score_ratio(zero) == 0.5).all()


@pytest.mark.parametrize("maker", [FlatMonteCarloAgent, UCTAgent])
def test_search_finds_the_best_last_placement(maker):
    """At the game's last action the outcome is certain, so search must maximise the mover's final score."""
    for seed in range(4):
        state = last_decision(Rules(2), seed)
        mask = core.legal_action_mask(state)
        legal = np.flatnonzero(mask[0])
        player = int(state.current_player[0])
        finals = []
        for a in legal:
            trial = state.copy()
            core.step(trial, [a])
            finals.append(trial.scores[0, player])
        agent = maker(Budget(playouts=4 * legal.size), seed=seed)
        action = int(agent.act(state, np.array([0]), mask, None)[0])
        trial = state.copy()
        core.step(trial, [action])
        assert trial.scores[0, player] == max(finals)


def test_playout_budget_is_spent_and_single_legal_actions_cost_nothing():
    state = advance(core.new_games(Rules(2), [4]), 6)
    mask = core.legal_action_mask(state)
    agent = FlatMonteCarloAgent(Budget(playouts=100), seed=0)
    agent.act(state, np.array([0]), mask, None)
    n_legal = int(mask[0].sum())
    assert agent.playouts == max(1, 100 // n_legal) * n_legal
    forced = np.zeros_like(mask)
    forced[0, np.flatnonzero(mask[0])[0]] = True
    agent.playouts = 0
    assert agent.act(state, np.array([0]), forced, None)[0] == np.flatnonzero(mask[0])[0]
    assert agent.playouts == 0


def test_time_budget_stays_near_its_limit():
    import time

    state = advance(core.new_games(Rules(4), [5]), 4)
    agent = load("mc:0.2", seed=0)
    began = time.perf_counter()
    agent.act(state, np.array([0]), core.legal_action_mask(state), None)
    assert time.perf_counter() - began < 0.6
    assert agent.playouts > 0


@pytest.mark.parametrize(("text", "budget"), [("0.5", Budget(seconds=0.5)), ("2s", Budget(seconds=2.0)),
                                              ("p200", Budget(playouts=200)), ("P7", Budget(playouts=7))])
def test_budget_grammar(text, budget):
    assert Budget.parse(text) == budget
    assert Budget.parse(str(budget)) == budget


@pytest.mark.parametrize("text", ["", "x", "p", "p0", "-1", "0", "nan", "inf", "p1.5"])
def test_bad_budgets_are_refused(text):
    with pytest.raises(ValueError, match="budget"):
        Budget.parse(text)
