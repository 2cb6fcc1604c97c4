"""The fast CPU inference path of az networks: same outputs as torch, chosen by `inference`, refused when unsafe."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import torch

from agents.az.agent import AZAgent
from agents.az.files import MODELS, load_network, read_info
from agents.az.inference import TOLERANCE, FastNetwork, example_inputs, inference_network, max_difference
from agents.az.network import AZNet, NetConfig, make_network
from agents.az.search import NetworkEvaluator
from kingdomino_env import core
from kingdomino_env.rules import Rules

SHIPPED_FILES = sorted(MODELS.glob("*.az"))


def rules_of(path: Path) -> Rules:
    """A variant the network file plays (its first player count)."""
    info = read_info(path)
    return Rules(game=info.game, players=info.players[0],
                 mighty_duel=info.game == "kingdomino" and info.frame == 13)


def real_positions(rules: Rules, seed: int = 0) -> list[core.State]:
    """Positions of 4 games played with random legal actions, at the start and after 5, 15 and 30 steps."""
    rng = np.random.default_rng(seed)
    state = core.new_games(rules, range(seed, seed + 4))
    out = []
    for step in range(31):
        if step in (0, 5, 15, 30):
            live = np.flatnonzero(~state.is_over)
            out.append(state.take(live))
        mask = core.legal_action_mask(state)
        actions = np.array([rng.choice(np.flatnonzero(row)) if row.any() else 0 for row in mask])
        core.step(state, actions)
    return out


@pytest.fixture(scope="module")
def fresh_net() -> AZNet:
    torch.manual_seed(0)
    return AZNet(9, NetConfig()).eval()


def test_shipped_networks_are_found():
    assert {p.name for p in SHIPPED_FILES} >= {"az_2p.az", "az_3p.az", "az_4p.az", "az_duel.az"}


@pytest.mark.parametrize("path", SHIPPED_FILES, ids=lambda p: p.name)
def test_fast_copy_of_every_shipped_network_gives_torch_outputs_on_real_positions(path):
    net, _ = load_network(path)
    fast = inference_network(net, "fast")
    assert isinstance(fast, FastNetwork) and fast.traced
    torch_eval, fast_eval = NetworkEvaluator(net), NetworkEvaluator(fast)
    for state in real_positions(rules_of(path)):
        logits, util = torch_eval(state)
        fast_logits, fast_util = fast_eval(state)
        assert fast_logits.shape == logits.shape and fast_util.shape == util.shape
        np.testing.assert_allclose(fast_logits, logits, rtol=TOLERANCE, atol=TOLERANCE)
        np.testing.assert_allclose(fast_util, util, rtol=TOLERANCE, atol=TOLERANCE)


@pytest.mark.parametrize("path", SHIPPED_FILES, ids=lambda p: p.name)
def test_fast_copy_of_every_shipped_network_gives_torch_outputs_on_random_inputs(path):
    net, _ = load_network(path)
    fast = FastNetwork(net)
    for seed, (batch, kingdoms, line) in enumerate([(1, 2, 2), (16, 2, 2), (64, 4, 4), (7, 3, 3)]):
        inputs = example_inputs(net, batch, kingdoms, line, seed=seed)
        assert max_difference(net, fast, inputs) <= TOLERANCE


@pytest.mark.parametrize("rules", [Rules(players=3), Rules(game="queendomino", players=2),
                                   Rules(game="royal_wedding", players=4)], ids=["kingdomino", "queendomino",
                                                                                 "royal_wedding"])
def test_fast_copy_of_every_network_class_gives_torch_outputs(rules):
    torch.manual_seed(1)
    net = make_network(rules.game, rules.frame).eval()
    fast = inference_network(net, "fast")
    assert isinstance(fast, FastNetwork) and fast.traced
    for state in real_positions(rules, seed=2):
        for (ours, theirs) in zip(NetworkEvaluator(fast)(state), NetworkEvaluator(net)(state), strict=True):
            np.testing.assert_allclose(ours, theirs, rtol=TOLERANCE, atol=TOLERANCE)


def test_fast_copy_is_repeatable_bit_for_bit(fresh_net):
    fast = FastNetwork(fresh_net)
    inputs = example_inputs(fresh_net, 16, 2, 2, seed=3)
    with torch.inference_mode():
        first = [t.clone() for t in fast(*inputs)]
        for _ in range(4):
            assert all(torch.equal(a, b) for a, b in zip(first, fast(*inputs), strict=True))


def test_torch_inference_is_the_module_itself_and_auto_picks_the_fast_copy(fresh_net):
    assert inference_network(fresh_net, "torch") is fresh_net
    assert isinstance(inference_network(fresh_net), FastNetwork)


class _Plain(torch.nn.Module):
    def run(self, inputs):
        return inputs


class _ShapeBranch(AZNet):
    """A module whose output depends on the batch size through Python control flow, which tracing cannot keep."""

    def forward(self, planes, lines, extras):
        logits, win, margin = super().forward(planes, lines, extras)
        return (logits + 1 if planes.shape[0] > 4 else logits), win, margin


def test_an_unknown_module_runs_as_trained_and_fast_is_refused():
    plain = _Plain()
    assert inference_network(plain) is plain
    with pytest.raises(ValueError, match="no fast inference for _Plain"):
        inference_network(plain, "fast")


def test_a_fast_copy_that_differs_is_refused_and_auto_keeps_the_module():
    torch.manual_seed(0)
    net = _ShapeBranch(9).eval()
    with pytest.raises(ValueError, match="differs from the network"):
        inference_network(net, "fast")
    assert inference_network(net, "auto") is net


@pytest.mark.parametrize("bad", ["gpu", "", None, "Fast"])
def test_bad_inference_values_are_refused(fresh_net, bad):
    with pytest.raises(ValueError, match="inference must be one of auto, fast, torch"):
        inference_network(fresh_net, bad)
    with pytest.raises(ValueError, match="inference must be one of auto, fast, torch"):
        AZAgent(simulations=8, inference=bad)


def test_agent_runs_the_fast_copy_by_default_and_the_module_when_asked():
    rules = Rules(players=2)
    assert isinstance(AZAgent(simulations=8).evaluator(rules).net, FastNetwork)
    assert isinstance(AZAgent(simulations=8, inference="torch").evaluator(rules).net, AZNet)


def test_agent_with_fast_inference_plays_the_same_game_given_the_seed():
    rules = Rules(players=2)
    state = real_positions(rules, seed=5)[1]
    games = np.arange(state.batch_size)
    mask = core.legal_action_mask(state)
    first, second = (AZAgent(simulations=32, seed=7).act(state, games, mask, None) for _ in range(2))
    np.testing.assert_array_equal(first, second)
