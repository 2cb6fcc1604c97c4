"""Measuring value networks on held-out positions: the figures are those of the numba forward the search runs,
against each target the data holds, and bad input is refused with a message."""

import json
import os
import re

import numpy as np
import pytest

from agents.csearch import network
from training.csearch_net import VARIANTS, selfplay, train
from training.value_fit import main, measure


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    """Held-out data with playout targets, data without them, and a network trained on other games."""
    folder = tmp_path_factory.mktemp("value_fit")
    selfplay(VARIANTS["duel"], games=1, simulations=10, weights=None, seed=3, playouts=2).save(folder / "held.npz")
    plain = selfplay(VARIANTS["duel"], games=1, simulations=10, weights=None, seed=4)
    plain.save(folder / "plain.npz")
    plain.dense = np.ascontiguousarray(plain.dense[:, :, :12])
    plain.save(folder / "older.npz")
    trained = selfplay(VARIANTS["duel"], games=2, simulations=10, weights=None, seed=5)
    net, report = train(trained, 13, epochs=1, squares=True)
    network.save_weights(folder / "net.npz", net.export(), {"frame": 13, "players": 2, **report})
    return folder


def test_a_networks_errors_are_those_of_the_searchs_forward_on_every_target(files):
    result = measure("duel", [files / "held.npz"], [files / "net.npz"])
    held = np.load(files / "held.npz")
    weights, _ = network.load_weights(files / "net.npz")
    out, win, margin = np.zeros((2, 2)), [], []
    for i in range(held["win"].shape[0]):
        network.forward(weights, held["indices"][i].astype(np.int64), held["dense"][i].astype(np.float64),
                        held["glob"][i].astype(np.float64), out)
        win.append(1 / (1 + np.exp(-out[:, 0])))
        margin.append(out[:, 1] * network.MARGIN_UNIT)
    win, margin = np.array(win), np.array(margin)
    row = result["networks"][0]
    assert row["squares"] and row["target"] == "outcome" and result["games"] == 1
    assert row["win_mse_vs_outcome"] == pytest.approx(((win - held["win"]) ** 2).mean(), rel=1e-5)
    assert row["win_mse_vs_playouts"] == pytest.approx(((win - held["playout_win"]) ** 2).mean(), rel=1e-5)
    assert row["margin_mae_vs_playouts"] == pytest.approx(np.abs(margin - held["playout_margin"]).mean(), rel=1e-4)
    constant = result["reference"]["constant"]
    assert constant["win_mse_vs_playouts"] == pytest.approx(held["playout_win"].var(), rel=1e-5)
    assert result["reference"]["playouts"]["win_mse_vs_outcome"] == pytest.approx(
        ((held["playout_win"] - held["win"]) ** 2).mean(), rel=1e-5)


def test_data_without_playouts_is_measured_against_the_outcomes_alone(files):
    result = measure("duel", [files / "plain.npz"], [files / "net.npz"])
    assert set(result["networks"][0]) >= {"win_mse_vs_outcome", "margin_mae_vs_outcome"}
    assert not any(key.endswith("playouts") for key in result["networks"][0]) and "playouts" not in result["reference"]


def test_the_command_line_writes_the_measurement(files, capsys):
    main(["--data", str(files / "held.npz"), "--networks", str(files / "net.npz"), "--out", str(files / "fit.json")])
    written = json.loads((files / "fit.json").read_text())
    assert written["format"] == "kingdomino-rl csearch value fit" and written["data"] == ["held.npz"]
    assert json.loads(capsys.readouterr().out) == written


@pytest.mark.parametrize("argv, message", [
    (["--data", "{tmp}/none_*.npz", "--networks", "{tmp}/net.npz"], "no data files match"),
    (["--data", "{tmp}/held.npz", "--networks", "{tmp}/net.npz", "--variant", "2p"],
     "trained for 2-player games on a 13x13 frame, not 2-player games on a 9x9 frame"),
    (["--data", "{tmp}/held.npz", "--networks", "{tmp}/held.npz"], "is not a csearch value network"),
    (["--data", "{tmp}/net.npz", "--networks", "{tmp}/net.npz"], "is not csearch self-play data"),
    (["--data", "{tmp}/held.npz", "--networks", "{tmp}/net.npz", "--out", "{tmp}"], "--out must be a file"),
    (["--data", "{tmp}/held.npz", "--networks", "{tmp}/net.npz", "--out", "{tmp}/no/such/fit.json"],
     "--out must be a file in an existing folder"),
    (["--data", "{tmp}/folder", "--networks", "{tmp}/net.npz"], "is not a regular file"),
    (["--data", "{tmp}/fifo.npz", "--networks", "{tmp}/net.npz"], "is not a regular file"),
    (["--data", "{tmp}/held.npz", "--networks", "{tmp}/folder"], "is not a regular file"),
    (["--data", "{tmp}/held.npz", "--networks", "{tmp}/fifo.npz"], "is not a regular file"),
    (["--data", "{tmp}/held.npz", "--networks", "{tmp}/missing.npz"], "missing.npz"),
    (["--data", "{tmp}/held.npz", "--networks", "{tmp}/net.npz", "--variant", "five"], "invalid choice: 'five'"),
    (["--data", "{tmp}/older.npz", "--networks", "{tmp}/net.npz"],
     "net.npz reads 15 dense features a kingdom, the data holds 12: measure it on data of its feature set"),
    (["--data", "{tmp}/held.npz", "{tmp}/plain.npz", "--networks", "{tmp}/net.npz"],
     "holds playout targets and .*plain.npz does not"),
])
def test_bad_input_is_refused_with_a_message(files, capsys, argv, message, monkeypatch):
    import training.value_fit

    if not (files / "folder").exists():
        (files / "folder").mkdir()
        os.mkfifo(files / "fifo.npz")
    measured = []
    monkeypatch.setattr(training.value_fit, "predictions", lambda *args: measured.append(args))
    with pytest.raises(SystemExit) as exit_:
        main([a.replace("{tmp}", str(files)) for a in argv])
    assert exit_.value.code == 2
    assert re.search(message, capsys.readouterr().err)
    assert measured == []  # refused before any network was measured


def test_a_bad_network_after_a_good_one_is_refused_before_either_is_measured(files, capsys, monkeypatch):
    import training.value_fit

    measured = []
    monkeypatch.setattr(training.value_fit, "predictions", lambda *args: measured.append(args))
    with pytest.raises(SystemExit):
        main(["--data", str(files / "held.npz"), "--networks", str(files / "net.npz"), str(files / "held.npz")])
    assert measured == [] and "held.npz is not a csearch value network" in capsys.readouterr().err
