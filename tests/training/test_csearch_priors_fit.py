"""Learned priors (`training.csearch_priors`): collecting root visits, fitting weights to them, the command line."""

import os

import numpy as np
import pytest
import torch

from agents.budget import Budget
from agents.csearch import priors
from agents.csearch.agent import CompiledSearchAgent
from kingdomino_env import core
from training.csearch_net import VARIANTS
from training.csearch_priors import Visits, chosen_prior, collect, cross_entropy, fit, main


def synthetic(weights, decisions=600, actions=12, seed=0):
    """Decisions whose visits are drawn from the softmax of `weights` over random features."""
    rng = np.random.default_rng(seed)
    features = rng.integers(0, 3, size=(decisions * actions, len(priors.FEATURES))).astype(np.float32)
    logits = (features @ weights).reshape(decisions, actions)
    shares = np.exp(logits - logits.max(axis=1, keepdims=True))
    shares /= shares.sum(axis=1, keepdims=True)
    visits = np.concatenate([rng.multinomial(2000, p) for p in shares]).astype(np.float32)
    return Visits(features, visits, np.repeat(np.arange(decisions), actions), np.arange(decisions) // 6)


def test_fit_finds_the_weights_the_visits_were_drawn_from():
    true = np.linspace(-1.0, 1.5, len(priors.FEATURES))
    weights, figures = fit(synthetic(true))
    np.testing.assert_allclose(weights, true, atol=0.1)
    ce = figures["held_out_cross_entropy"]
    assert ce["fitted"] < ce["hand"]
    assert figures["held_out_chosen_prior"]["fitted"] > figures["held_out_chosen_prior"]["hand"]
    assert figures["games"] == 100 and figures["held_out_games"] == 10


def test_the_cross_entropy_is_that_of_each_decision_averaged():
    data = synthetic(np.zeros(len(priors.FEATURES)), decisions=3, actions=4)
    weights = np.arange(len(priors.FEATURES)) / 10
    expected = []
    for d in range(3):
        rows = data.decision == d
        logits = data.features[rows].astype(np.float64) @ weights
        log_prior = logits - np.log(np.exp(logits).sum())
        expected.append(-(data.visits[rows] / data.visits[rows].sum() * log_prior).sum())
    assert float(cross_entropy(data, torch.as_tensor(weights))) == pytest.approx(np.mean(expected))
    one = data.subset(np.array([False, True, False]))
    assert float(cross_entropy(one, torch.as_tensor(weights))) == pytest.approx(expected[1])
    assert 0 < chosen_prior(one, weights) < 1


def test_collect_keeps_every_searched_decision_with_its_visits_and_plays_the_same_games_again():
    data = collect(VARIANTS["2p"], games=2, simulations=6, seed=3)
    decisions = data.game.shape[0]
    assert data.features.shape == (data.visits.shape[0], len(priors.FEATURES))
    assert np.array_equal(np.unique(data.decision), np.arange(decisions))
    totals = np.bincount(data.decision, weights=data.visits)
    np.testing.assert_array_equal(totals, 6)
    assert set(data.game.tolist()) == {3 * 2**20, 3 * 2**20 + 1}
    again = collect(VARIANTS["2p"], games=2, simulations=6, seed=3)
    np.testing.assert_array_equal(again.features, data.features)


def test_collect_and_fit_from_the_command_line_write_priors_the_agent_searches_with(tmp_path, capsys):
    main(["collect", "--variant", "2p", "--games", "3", "--simulations", "6", "--out", str(tmp_path / "v.npz")])
    assert "3 of 3 games, " in capsys.readouterr().out
    main(["fit", "--variant", "2p", "--data", str(tmp_path / "v*.npz"), "--out", str(tmp_path / "p.json")])
    out = capsys.readouterr().out
    assert "cross entropy" in out and "joins" in out
    weights, meta = priors.load(tmp_path / "p.json")
    assert meta["variant"] == "2p" and meta["data"] == ["v.npz"] and meta["held_out_games"] == 1
    agent = CompiledSearchAgent(Budget(playouts=8), seed=0, priors=str(tmp_path / "p.json"))
    np.testing.assert_array_equal(agent.prior_weights, weights)
    state = core.new_games(VARIANTS["2p"], [1])
    mask = core.legal_action_mask(state)
    assert mask[0, agent.act(state, np.zeros(1, dtype=np.int64), mask, None)[0]]


def test_ctrl_c_during_collect_keeps_the_finished_games(tmp_path, capsys, monkeypatch):
    act, calls = CompiledSearchAgent.root_visits, []

    def interrupted_in_the_second_game(self, *args):
        calls.append(1)
        if len(calls) == 45:  # a 2-player 5x5 game searches fewer decisions than this
            raise KeyboardInterrupt
        return act(self, *args)

    monkeypatch.setattr(CompiledSearchAgent, "root_visits", interrupted_in_the_second_game)
    with pytest.raises(SystemExit) as exit_:
        main(["collect", "--variant", "2p", "--games", "3", "--simulations", "5", "--out", str(tmp_path / "v.npz")])
    assert exit_.value.code == 130
    assert "interrupted: kept 1 finished game(s), " in capsys.readouterr().out
    assert np.unique(Visits.load([tmp_path / "v.npz"]).game).size == 1


def _save(path, **changes):
    good = synthetic(np.zeros(len(priors.FEATURES)), decisions=4, actions=3)
    np.savez(path, **{**good.__dict__, **changes})
    return path


@pytest.mark.parametrize("changes", [
    {"features": np.zeros((12, 3), dtype=np.float32)},
    {"visits": -np.ones(12, dtype=np.float32)},
    {"decision": np.arange(12)[::-1]},
    {"decision": np.arange(12) + 1},
    {"game": np.zeros((2, 2), dtype=np.int64)},
])
def test_damaged_visits_are_named(tmp_path, changes):
    with pytest.raises(ValueError, match="v.npz is damaged"):
        Visits.load([_save(tmp_path / "v.npz", **changes)])


@pytest.mark.parametrize("argv, message", [
    (["collect", "--games", "0", "--out", "{tmp}/v.npz"], "--games must be from 1 to"),
    (["collect", "--simulations", "-1", "--out", "{tmp}/v.npz"], "--simulations must be from 1 to"),
    (["collect", "--games", "x", "--out", "{tmp}/v.npz"], "invalid int value"),
    (["collect", "--games", "10000000", "--out", "{tmp}/v.npz"], "--games must be from 1 to"),
    (["collect", "--simulations", "100000000", "--out", "{tmp}/v.npz"], "--simulations must be from 1 to"),
    (["collect", "--seed", "-1", "--out", "{tmp}/v.npz"], "--seed must be from 0"),
    (["collect", "--seed", str(2**63), "--out", "{tmp}/v.npz"], "--seed must be from 0"),
    (["fit", "--seed", "-1", "--data", "{tmp}/one.npz", "--out", "{tmp}/p.json"], "--seed must be from 0"),
    (["collect", "--out", "{tmp}"], "--out must be a file in an existing folder"),
    (["collect", "--out", "{tmp}/missing/v.npz"], "--out must be a file in an existing folder"),
    (["collect", "--priors", "{tmp}/bad.npz", "--out", "{tmp}/v.npz"], "is not a priors file"),
    (["collect", "--priors", "{tmp}/fifo.npz", "--out", "{tmp}/v.npz"], "is not a regular file"),
    (["fit", "--data", "{tmp}/bad.npz", "--out", "{tmp}/p.json"], "is not csearch root visits"),
    (["fit", "--data", "{tmp}/fifo.npz", "--out", "{tmp}/p.json"], "is not a regular file"),
    (["fit", "--data", "{tmp}", "--out", "{tmp}/p.json"], "is not a regular file"),
    (["fit", "--data", "{tmp}/one.npz", "--out", "{tmp}/p.json"], "fitting needs at least two"),
    (["fit", "--variant", "5p", "--data", "{tmp}/one.npz", "--out", "{tmp}/p.json"], "invalid choice: '5p'"),
])
def test_the_command_line_refuses_bad_input_with_a_message(tmp_path, capsys, argv, message):
    (tmp_path / "bad.npz").write_bytes(b"not data")
    os.mkfifo(tmp_path / "fifo.npz")
    _save(tmp_path / "one.npz", game=np.zeros(4, dtype=np.int64))
    with pytest.raises(SystemExit) as exit_:
        main([a.replace("{tmp}", str(tmp_path)) for a in argv])
    assert exit_.value.code == 2
    assert message in capsys.readouterr().err
    assert not (tmp_path / "p.json").exists() and not (tmp_path / "v.npz").exists()
