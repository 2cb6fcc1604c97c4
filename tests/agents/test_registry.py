"""`agents.load`: the spec grammar and its errors."""

from __future__ import annotations

import os

import numpy as np
import pytest

import kingdomino_env
from agents import AgentSpecError, Budget, flat_mc, load, registry
from agents.az.agent import AZAgent
from agents.az.files import shipped_network
from agents.baselines import GreedyAgent, RandomAgent
from agents.budget import MAX_PLAYOUTS, MAX_SECONDS
from agents.csearch.network import shipped_weights
from agents.flat_mc import FlatMonteCarloAgent
from agents.heuristic import HeuristicAgent
from agents.ppo import SHIPPED_MODEL
from agents.registry import DEFAULT_BUDGET, parse_spec, supports
from agents.uct import UCTAgent
from kingdomino_env import core
from kingdomino_env.rules import Rules
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


@pytest.mark.parametrize("spec", ["mc:abc", "mcts:p0", "mc:-2", "mc:p1" + "0" * 5000, "csearch:p\u0663"])
def test_bad_budgets_say_what_a_budget_is(spec):
    with pytest.raises(AgentSpecError, match="pN"):
        load(spec)


@pytest.mark.parametrize("spec", ["mc:p99999999999999999999", "mcts:1e400", "csearch:p1000001",
                                  "az:p99999999999999999999", "azmc:1e300s", "az:86401s"])
def test_budgets_beyond_their_bounds_are_spec_errors_everywhere(spec):
    """One check where specs are parsed serves tournaments, analysis, advice and the app's seats."""
    with pytest.raises(AgentSpecError, match=r"(1_000_000|at most 86400)"):
        parse_spec(spec)
    assert not supports(spec, Rules(2))


def test_the_largest_budgets_are_accepted():
    assert parse_spec(f"mc:p{MAX_PLAYOUTS}").budget == Budget(playouts=MAX_PLAYOUTS)
    assert parse_spec(f"mcts:{MAX_SECONDS:g}s").budget == Budget(seconds=MAX_SECONDS)
    assert parse_spec(f"az:{MAX_PLAYOUTS}").simulations == MAX_PLAYOUTS


def test_budget_values_outside_their_range_are_refused_when_made():
    for bad in ({"playouts": 10**20}, {"playouts": True}, {"seconds": 1e300}, {"seconds": float("nan")}):
        with pytest.raises(ValueError, match="must be"):
            Budget(**bad)
    with pytest.raises(ValueError, match="simulations per move must be an integer from 0 to 1_000_000"):
        AZAgent(simulations=10**20)
    with pytest.raises(ValueError, match="seconds per move must be a positive number of at most 86400"):
        AZAgent(simulations=None, seconds=1e300)


def test_a_playout_budget_larger_than_one_sweep_runs_in_several(monkeypatch):
    """mc splits a large budget into sweeps of bounded size (memory stays bounded whatever the budget) and plays
    every playout it was given."""
    state = core.new_games(Rules(2), [3])
    mask = core.legal_action_mask(state)
    monkeypatch.setattr(flat_mc, "CHUNK_PLAYOUTS", 64)
    agent = FlatMonteCarloAgent(Budget(playouts=1000), seed=0)
    sweeps = []
    sweep = agent._sweep
    monkeypatch.setattr(agent, "_sweep", lambda *args: (sweeps.append(int(args[4].sum())), sweep(*args))[1])
    agent.act(state, np.zeros(1, dtype=np.int64), mask, None)
    per_action = 1000 // int(mask[0].sum())
    assert len(sweeps) > 1 and sum(sweeps) == per_action and agent.playouts == per_action * int(mask[0].sum())


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


@pytest.mark.parametrize("kind", ["ppo", "csearch:p10", "csearch-margin:p10"])
def test_a_model_path_that_is_a_fifo_is_refused_without_blocking(tmp_path, kind):
    """ppo (its .zip) and csearch (its value network) paths are checked before anything opens them."""
    fifo = tmp_path / "model.zip"
    os.mkfifo(fifo)
    with pytest.raises(AgentSpecError, match="model.zip is not a regular file: it is a FIFO"):
        parse_spec(f"{kind}:{fifo}")


def test_the_model_file_a_spec_names_and_the_same_agent_reading_another():
    network = shipped_weights(Rules(players=2))
    az_file = shipped_network(Rules(players=2))
    cases = [
        (f"csearch:0.25s:{network}", network, "csearch:0.25s:NEW"),
        (f"csearch-margin:p50:{network}", network, "csearch-margin:p50:NEW"),
        (f"az:p8:{az_file}", az_file, "az:8:NEW"),
        (f"ppo:{SHIPPED_MODEL}", SHIPPED_MODEL, "ppo:NEW"),
    ]
    for spec, file, moved in cases:
        parsed = parse_spec(spec)
        assert parsed.model_file == file and parsed.with_model("NEW") == moved, spec
    for spec in ("csearch:p50", "csearch:p50:heuristic", "az:8", "mc:p100", "greedy"):
        assert parse_spec(spec).model_file is None, spec
    with pytest.raises(ValueError, match="reads no model file"):
        parse_spec("mc:p100").with_model("NEW")
