"""`agents.load`: the spec grammar and its errors."""

from __future__ import annotations

import pytest

import kingdomino_env
from agents import AgentSpecError, Budget, load, registry
from agents.baselines import GreedyAgent, RandomAgent
from agents.flat_mc import FlatMonteCarloAgent
from agents.heuristic import HeuristicAgent
from agents.ppo import SHIPPED_MODEL
from agents.registry import DEFAULT_BUDGET
from agents.uct import UCTAgent
from tests.variants import play_aec


def test_specs_make_the_agents_they_name():
    assert isinstance(load("random"), RandomAgent)
    assert isinstance(load("greedy"), GreedyAgent) and not load("greedy").policy.random_draft
    assert load("gprd").policy.random_draft
    assert isinstance(load("heuristic"), HeuristicAgent)
    assert isinstance(load(" GREEDY "), GreedyAgent)
    mc = load("mc:0.25")
    assert isinstance(mc, FlatMonteCarloAgent) and mc.budget == Budget(seconds=0.25)
    uct = load("mcts:p300")
    assert isinstance(uct, UCTAgent) and uct.budget == Budget(playouts=300)
    assert load("mcts").budget == DEFAULT_BUDGET


@pytest.mark.parametrize("spec", ["foo", "alphazero", "", "mc2", "random:3"])
def test_unknown_specs_list_the_valid_ones(spec):
    with pytest.raises(AgentSpecError) as err:
        load(spec)
    for valid in ("random", "greedy", "gprd", "heuristic", "mc[:BUDGET]", "mcts[:BUDGET]", "ppo:PATH"):
        assert valid in str(err.value)


@pytest.mark.parametrize("spec", ["mc:abc", "mcts:p0", "mc:-2"])
def test_bad_budgets_say_what_a_budget_is(spec):
    with pytest.raises(AgentSpecError, match="pN"):
        load(spec)


def test_the_shipped_policy_plays_legal_two_player_games_only():
    pytest.importorskip("sb3_contrib")
    assert SHIPPED_MODEL.is_file()
    agent = load("ppo")
    for seed in range(2):
        play_aec(kingdomino_env.env(players=2), agent, seed)
    four = kingdomino_env.env(players=4)
    four.reset(seed=0)
    with pytest.raises(ValueError, match="another variant"):
        agent.act(four)


@pytest.mark.parametrize("spec", ["az", "az:0.5s", "ppo"])
def test_agents_that_need_torch_say_so_without_it(monkeypatch, spec):
    monkeypatch.setattr(registry, "has_torch", lambda: False)
    wanted = r"needs torch, which is not installed: pip install 'kingdomino-rl\[train\]'"
    with pytest.raises(AgentSpecError, match=wanted):
        load(spec)
    assert isinstance(load("mc:p10"), FlatMonteCarloAgent)


def test_ppo_with_a_missing_file_names_the_path(tmp_path):
    with pytest.raises(AgentSpecError, match="no model file"):
        load(f"ppo:{tmp_path / 'missing.zip'}")
