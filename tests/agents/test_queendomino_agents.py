"""Agents on Queendomino: every spec that plays it chooses only legal actions (batched and in the AEC env), the
heuristic and PPO refuse it up front, and search determinises both hidden orders without reading them."""

from __future__ import annotations

import numpy as np
import pytest

import agents
from agents import AgentSpecError, Budget, check_supports, supports
from agents.determinise import determinise, resample_hidden
from agents.flat_mc import FlatMonteCarloAgent
from agents.uct import UCTAgent
from kingdomino_env import core
from kingdomino_env.games.queendomino.kernels import N_TILES
from kingdomino_env.rules import Rules

QUEENDOMINO = {players: Rules(players, game="queendomino") for players in (2, 3, 4)}
PLAYS = ["random", "greedy", "gprd", "mc:p4", "mcts:p4"]


def advance(state: core.State, steps: int, seed: int = 0) -> core.State:
    """Play `steps` random actions in every game (finished games ignore theirs)."""
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        core.step(state, core.random_legal_actions(core.legal_action_mask(state), rng))
    return state


def play(rules: Rules, agent: agents.Agent, games: int, seed: int) -> core.State:
    """Play `games` games to the end, `agent` for every seat, asserting that each action is legal."""
    state = core.new_games(rules, [seed + g for g in range(games)])
    actions = np.zeros(games, dtype=np.int64)
    while not state.is_over.all():
        live = np.flatnonzero(~state.is_over)
        mask = core.legal_action_mask(state)
        chosen = np.asarray(agent.act(state, live, mask[live], None))
        assert chosen.shape == live.shape
        assert mask[live, chosen].all(), f"{agent.name} chose an illegal action"
        actions[live] = chosen
        core.step(state, actions)
    return state


@pytest.mark.parametrize("players", [2, 3])
@pytest.mark.parametrize("spec", PLAYS)
def test_every_spec_that_plays_queendomino_plays_whole_legal_games(spec, players):
    rules = QUEENDOMINO[players]
    check_supports(spec, rules)
    state = play(rules, agents.load(spec, seed=1), games=1 if spec.startswith("mc") else 3, seed=40)
    assert state.is_over.all()
    assert (state.scores > 0).any()


def test_greedy_beats_random_at_queendomino():
    rules = QUEENDOMINO[2]
    greedy = play(rules, agents.load("greedy", seed=0), games=8, seed=0).scores.mean()
    rand = play(rules, agents.load("random", seed=0), games=8, seed=0).scores.mean()
    assert greedy > rand


@pytest.mark.parametrize("players", [2, 3, 4])
def test_heuristic_and_ppo_refuse_queendomino_naming_what_they_play(players):
    rules = QUEENDOMINO[players]
    for spec, plays in (("heuristic", "every Kingdomino variant, not Queendomino"),
                        ("ppo", "2-player games without quests on the 5x5 grid")):
        assert not supports(spec, rules)
        with pytest.raises(AgentSpecError) as err:
            check_supports(spec, rules)
        assert plays in str(err.value)
    with pytest.raises(AgentSpecError, match=f"this game is a {players}-player Queendomino game"):
        check_supports("ppo", rules)
    with pytest.raises(AgentSpecError, match="cannot value towns, buildings, knights, towers, coins, the Queen or the "
                                             "Dragon.*; for Queendomino use az, random, greedy"):
        check_supports("heuristic", rules)
    assert "Queendomino" in agents.supported_variants("greedy")


def test_the_heuristic_agent_refuses_a_queendomino_state_it_is_handed():
    state = core.new_games(QUEENDOMINO[2], [0])
    with pytest.raises(ValueError, match="Kingdomino only .*cannot value towns, buildings, knights"):
        agents.load("heuristic").act(state, np.array([0]), core.legal_action_mask(state), None)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_worlds_keep_what_was_seen_and_reorder_both_hidden_orders(players):
    state = advance(core.new_games(QUEENDOMINO[players], range(20)), 40)
    worlds = resample_hidden(state.copy(), np.random.default_rng(0))
    moved_deck = moved_pile = False
    for b in range(state.batch_size):
        drawn, pos = int(state.drawn[b]), int(state.pile_pos[b])
        assert (worlds.deck[b, :drawn] == state.deck[b, :drawn]).all()
        assert sorted(worlds.deck[b, drawn:].tolist()) == sorted(state.deck[b, drawn:].tolist())
        assert (worlds.pile[b, :pos] == state.pile[b, :pos]).all()
        assert sorted(worlds.pile[b, pos:].tolist()) == sorted(state.pile[b, pos:].tolist())
        moved_deck |= bool((worlds.deck[b] != state.deck[b]).any())
        moved_pile |= bool((worlds.pile[b] != state.pile[b]).any())
    assert moved_deck and moved_pile
    for name in ("terrain", "slots", "building_board", "coins", "knights", "towers", "queen", "dragon", "cur_line",
                 "next_line", "scores", "phase"):
        assert (getattr(worlds, name) == getattr(state, name)).all(), name


def test_worlds_never_read_the_hidden_orders():
    """Two games that differ only in their undrawn dominoes' and building tiles' orders give the same worlds."""
    state = advance(core.new_games(QUEENDOMINO[3], [3]), 25)
    other = hidden_reshuffled(state, seed=8)
    first = determinise(state, np.array([0]), 16, np.random.default_rng(2))
    second = determinise(other, np.array([0]), 16, np.random.default_rng(2))
    assert (first.deck == second.deck).all() and (first.pile == second.pile).all()
    assert {tuple(p) for p in first.pile[:, int(state.pile_pos[0]):].tolist()} != {()}
    assert first.pile.shape[1] == N_TILES


def hidden_reshuffled(state: core.State, seed: int) -> core.State:
    """A copy of game 0 whose undrawn dominoes and building tiles are in another order (all else equal)."""
    out = state.copy()
    rng = np.random.default_rng(seed)
    drawn, pos = int(state.drawn[0]), int(state.pile_pos[0])
    out.deck[0, drawn:] = rng.permutation(state.deck[0, drawn:])
    out.pile[0, pos:] = rng.permutation(state.pile[0, pos:])
    assert (out.deck != state.deck).any() and (out.pile != state.pile).any()
    return out


def decision(players: int, seed: int) -> core.State:
    """A Queendomino game at a decision with several legal actions, after some random play."""
    state = advance(core.new_games(QUEENDOMINO[players], [seed]), 30, seed)
    while core.legal_action_mask(state)[0].sum() < 2:
        advance(state, 1, seed)
    return state


@pytest.mark.parametrize("maker", [FlatMonteCarloAgent, UCTAgent])
def test_search_does_not_depend_on_the_hidden_orders(maker):
    state = decision(3, 6)
    other = hidden_reshuffled(state, seed=9)
    chosen = []
    for s in (state, other):
        agent = maker(Budget(playouts=32), seed=11)
        chosen.append(int(agent.act(s, np.array([0]), core.legal_action_mask(s), None)[0]))
    assert chosen[0] == chosen[1]


@pytest.mark.parametrize("kind", ["mc", "mcts"])
def test_search_with_a_playout_budget_is_reproducible(kind):
    state = decision(2, 4)
    mask = core.legal_action_mask(state)
    first = [int(agents.load(f"{kind}:p24", seed=3).act(state, np.array([0]), mask, None)[0]) for _ in range(2)]
    assert first[0] == first[1]
    games = [play(QUEENDOMINO[2], agents.load(f"{kind}:p2", seed=3), games=1, seed=2) for _ in range(2)]
    assert (games[0].scores == games[1].scores).all()
    assert games[0].n_steps[0] == games[1].n_steps[0]
