"""The compiled search's value network: the torch twin and the numba forward agree, files round-trip, bad files
and wrong variants are refused, and self-play data trains a network the search can use."""

import json
import os
from pathlib import Path

import numpy as np
import pytest
import torch

from agents.budget import Budget
from agents.csearch import network
from agents.csearch.agent import CompiledSearchAgent
from agents.csearch.features import BOARD_DENSE, DENSE, GLOBAL
from agents.csearch.inputs import features_of, inputs_of
from agents.manifest import MANIFEST, load_manifest
from kingdomino_env import core
from training.csearch_net import VARIANTS, Data, ValueNet, selfplay, train
from training.runs import kept_names

KEPT_DUEL = Path("training/kept/csearch_duel.npz")
SHIPPED_DUEL = Path("agents/models/csearch_13_2p.npz")
KEPT_2P = Path("training/kept/csearch_2p_basic_squares.npz")


@pytest.fixture(scope="module")
def data():
    return selfplay(VARIANTS["duel"], games=2, simulations=20, weights=None, seed=0)


def test_selfplay_keeps_every_decision_with_its_outcome(data):
    n = data.win.shape[0]
    assert n > 40 and data.indices.shape[1:] == (2, 13 * 13) and data.dense.shape[1:] == (2, len(DENSE))
    assert data.glob.shape[1:] == (2, len(GLOBAL))
    np.testing.assert_allclose(data.win.sum(axis=1), 1.0)
    np.testing.assert_array_equal(data.margin[:, 0], -data.margin[:, 1])
    assert np.unique(data.game).size == 2
    assert set(np.unique(data.glob[:, :, 1].sum(axis=1))) == {1.0}  # one kingdom to move


def test_selfplay_with_playouts_keeps_their_mean_outcome_and_trains_on_it(data, tmp_path):
    played = selfplay(VARIANTS["duel"], games=1, simulations=10, weights=None, seed=1, playouts=3)
    n = played.win.shape[0]
    assert played.playout_win.shape == played.playout_margin.shape == (n, 2)
    np.testing.assert_allclose(played.playout_win.sum(axis=1), 1.0)
    np.testing.assert_array_equal(played.playout_margin[:, 0], -played.playout_margin[:, 1])
    assert (played.playout_win != played.win).any()
    played.save(tmp_path / "p.npz")
    again = Data.load([tmp_path / "p.npz"])
    np.testing.assert_array_equal(again.playout_margin, played.playout_margin)
    net, report = train(again, 13, epochs=1, target="playouts")
    assert report["target"] == "playouts" and not report["symmetries"]  # no squares to turn
    assert train(again, 13, epochs=1, target="playouts", squares=True)[1]["symmetries"]
    with pytest.raises(ValueError, match="the data holds no playout targets: play it with selfplay --playouts N"):
        train(data, 13, epochs=1, target="playouts")
    with pytest.raises(ValueError, match="target must be one of outcome, playouts, got 'mean'"):
        train(again, 13, epochs=1, target="mean")
    data.save(tmp_path / "plain.npz")
    with pytest.raises(ValueError, match="p.npz holds playout targets and .*plain.npz does not"):
        Data.load([tmp_path / "plain.npz", tmp_path / "p.npz"])
    fields = dict(np.load(tmp_path / "p.npz"))
    for name, damage in (("half", lambda f: f.pop("playout_margin")), ("shape", lambda f: f.update(
            playout_win=f["playout_win"][:, :1]))):
        damaged = dict(fields)
        damage(damaged)
        np.savez(tmp_path / f"{name}.npz", **damaged)
        with pytest.raises(ValueError, match=f"{name}.npz is damaged: its playout targets must be playout_win and "
                                             "playout_margin, both shaped as its win shares"):
            Data.load([tmp_path / f"{name}.npz"])


def test_selfplay_from_the_command_line_reports_its_progress(tmp_path, capsys):
    from training.csearch_net import main

    main(["selfplay", "--games", "2", "--simulations", "5", "--playouts", "1", "--out", str(tmp_path / "d.npz")])
    out = capsys.readouterr().out
    assert "1 of 2 games, " in out and "2 of 2 games, " in out and Data.load([tmp_path / "d.npz"]).playout_win.size


def test_ctrl_c_during_selfplay_keeps_the_finished_games(tmp_path, capsys, monkeypatch):
    from training.csearch_net import main

    act, calls = CompiledSearchAgent.act, []

    def interrupted_in_the_second_game(self, *args):
        calls.append(1)
        if len(calls) == 45:  # a 2-player 5x5 game takes fewer decisions than this, two more
            raise KeyboardInterrupt
        return act(self, *args)

    monkeypatch.setattr(CompiledSearchAgent, "act", interrupted_in_the_second_game)
    with pytest.raises(SystemExit) as exit_:
        main(["selfplay", "--variant", "2p", "--games", "3", "--simulations", "5", "--playouts", "1",
              "--out", str(tmp_path / "d.npz")])
    assert exit_.value.code == 130
    assert "interrupted: kept 1 finished game(s), " in capsys.readouterr().out
    kept = Data.load([tmp_path / "d.npz"])
    assert np.unique(kept.game).size == 1 and kept.playout_win.shape == kept.win.shape
    monkeypatch.setattr(CompiledSearchAgent, "act", act)
    again = selfplay(VARIANTS["2p"], games=1, simulations=5, weights=None, seed=0, playouts=1)
    np.testing.assert_array_equal(again.indices, kept.indices)  # the same first game as uninterrupted
    np.testing.assert_array_equal(again.playout_win, kept.playout_win)


def test_training_on_playout_targets_of_data_without_them_is_refused_from_the_command_line(data, tmp_path, capsys):
    from training.csearch_net import main

    data.save(tmp_path / "plain.npz")
    with pytest.raises(SystemExit) as exit_:
        main(["train", "--data", str(tmp_path / "plain.npz"), "--target", "playouts", "--out", str(tmp_path / "n.npz")])
    assert exit_.value.code == 2 and "the data holds no playout targets" in capsys.readouterr().err
    assert not (tmp_path / "n.npz").exists()


@pytest.mark.parametrize("squares", [True, False])
def test_the_torch_network_computes_what_the_numba_forward_computes(data, squares):
    torch.manual_seed(0)
    net = ValueNet(13, squares=squares).double()
    with torch.no_grad():
        for p in net.parameters():
            p.add_(torch.randn_like(p) * 0.1)
        net.w1.weight[net.pad] = 0
    weights = net.export()
    with torch.no_grad():
        expected = net(torch.from_numpy(data.indices.astype(np.int64)), torch.from_numpy(data.dense).double(),
                       torch.from_numpy(data.glob).double()).numpy()
    out = np.zeros((2, 2))
    for i in range(0, data.win.shape[0], 7):
        network.forward(weights, data.indices[i].astype(np.int64), data.dense[i].astype(np.float64),
                        data.glob[i].astype(np.float64), out)
        np.testing.assert_allclose(out, expected[i], atol=1e-5)


def test_a_trained_network_round_trips_and_guides_the_search(data, tmp_path):
    net, report = train(data, 13, epochs=2)
    path = network.save_weights(tmp_path / "net.npz", net.export(), {"frame": 13, "players": 2, **report})
    weights, meta = network.load_weights(path)
    for a, b in zip(weights, net.export(), strict=True):
        np.testing.assert_allclose(a, b, atol=1e-6)  # stored as float32
    assert meta["positions"] == data.win.shape[0]
    state = core.new_games(VARIANTS["duel"], [3])
    agent = CompiledSearchAgent(Budget(playouts=50), seed=0, weights=path)
    for _ in range(12):
        core.step(state, agent.act(state, np.zeros(1, dtype=np.int64), core.legal_action_mask(state), None))
    with pytest.raises(ValueError, match="trained for 2-player games on a 13x13 frame, not 4-player games on a 9x9"):
        state = core.new_games(VARIANTS["4p"], [0])
        agent.act(state, np.zeros(1, dtype=np.int64), core.legal_action_mask(state), None)


@pytest.mark.parametrize("variant", ["queendomino-2p", "royal-wedding-4p"])
def test_queendomino_self_play_trains_a_network_of_its_inputs_that_guides_the_search(variant, tmp_path):
    rules = VARIANTS[variant]
    inputs = inputs_of(rules)
    games = selfplay(rules, games=1, simulations=10, weights=None, seed=1)
    assert games.dense.shape[1:] == (rules.kingdoms, len(inputs.dense)) and inputs.name == "queendomino"
    assert games.indices.shape[1:] == (rules.kingdoms, rules.frame * rules.frame)
    net, report = train(games, rules.frame, epochs=1, inputs=inputs, squares=True)
    meta = {"variant": variant, "inputs": inputs.name, "frame": rules.frame, "players": rules.players, **report}
    path = network.save_weights(tmp_path / "net.npz", net.export(), meta)
    assert network.load_weights(path)[0].w1.shape[0] == inputs.sparse_size(rules.frame) + 1
    agent = CompiledSearchAgent(Budget(playouts=30), seed=0, weights=path)
    state = core.new_games(rules, [4])
    for _ in range(8):
        core.step(state, agent.act(state, np.zeros(1, dtype=np.int64), core.legal_action_mask(state), None))
    assert agent._leaves(state)[0].network
    games.save(tmp_path / "data.npz")
    np.testing.assert_array_equal(Data.load([tmp_path / "data.npz"], inputs).indices, games.indices)


def test_features_of_a_new_game_show_empty_boards():
    rules = VARIANTS["2p"]
    state = core.new_games(rules, [0])
    indices = np.zeros((2, 81), dtype=np.int64)
    dense, glob = np.zeros((2, len(DENSE))), np.zeros((2, len(GLOBAL)))
    features_of(state.arrays, state.constants, indices, dense, glob)
    assert (indices == 81 * 24).all() and (dense[:, DENSE.index("score")] == 0).all()
    assert glob[:, GLOBAL.index("to_move")].sum() == 1


@pytest.mark.parametrize("damage", ["not a zip", "wrong shape", "other format", "padding", "not a mapping",
                                    "playout mix", "negative mix", "huge mix", "boolean mix", "no frame"])
def test_a_damaged_weights_file_is_refused_with_a_message(tmp_path, damage):
    path = tmp_path / "net.npz"
    weights = network.empty_weights(13)
    meta = {"frame": 13, "players": 2}
    if damage == "not a zip":
        path.write_bytes(b"garbage")
    else:
        if damage == "wrong shape":
            weights = weights._replace(b2=np.zeros(5))
        if damage == "padding":
            weights.w1[-1] = 1.0
        network.save_weights(path, weights, meta)
        header = {"other format": '{"format": "something else"}', "not a mapping": "[1, 2]",
                  "playout mix": json.dumps({"format": network.FORMAT, **meta, "playout_mix": "half"}),
                  "negative mix": json.dumps({"format": network.FORMAT, **meta, "playout_mix": -0.1}),
                  "huge mix": json.dumps({"format": network.FORMAT, **meta, "playout_mix": 1e300}),
                  "boolean mix": json.dumps({"format": network.FORMAT, **meta, "playout_mix": True}),
                  "no frame": json.dumps({"format": network.FORMAT, "players": 2})}.get(damage)
        if header is not None:
            stored = dict(np.load(path))
            stored["meta"] = np.array(header)
            np.savez(path, **stored)
    with pytest.raises(ValueError, match="csearch value network|shape|padding row|playout_mix must be a number from 0 "
                                         "to 1, got ('half'|-0.1|1e\\+300|True)|frame and players as whole numbers"):
        network.load_weights(path)


def test_data_files_concatenate(data, tmp_path):
    data.save(tmp_path / "a.npz")
    data.save(tmp_path / "b.npz")
    both = Data.load([tmp_path / "a.npz", tmp_path / "b.npz"])
    assert both.win.shape[0] == 2 * data.win.shape[0]


def test_data_of_two_feature_sets_is_refused_and_an_older_network_goes_on_with_the_draft(data, tmp_path):
    older = Data(data.indices, np.ascontiguousarray(data.dense[:, :, :BOARD_DENSE]), data.glob, data.win,
                 data.margin, data.game)
    older.save(tmp_path / "old.npz")
    data.save(tmp_path / "new.npz")
    with pytest.raises(ValueError, match="holds 15 dense features a position, .*old.npz 12: data of one feature set"):
        Data.load([tmp_path / "old.npz", tmp_path / "new.npz"])
    net, report = train(older, 13, epochs=1)
    assert net.export().wd.shape == (BOARD_DENSE, 32)
    start = network.save_weights(tmp_path / "net.npz", net.export(), {"frame": 13, "players": 2, **report})
    grown, _ = train(data, 13, epochs=1, start=start)
    assert grown.export().wd.shape == (len(DENSE), 32)
    newer = network.save_weights(tmp_path / "newer.npz", grown.export(), {"frame": 13, "players": 2})
    with pytest.raises(ValueError, match="reads 15 dense features, this one 12: data of the older feature set"):
        train(older, 13, epochs=1, start=newer)


@pytest.mark.parametrize("argv, message", [
    (["selfplay", "--games", "0", "--out", "x.npz"], "--games must be from 1 to 10000000, got 0"),
    (["selfplay", "--simulations", "-3", "--out", "x.npz"], "--simulations must be from 1 to"),
    (["selfplay", "--out", "{tmp}"], "--out must be a file in an existing folder"),
    (["selfplay", "--out", "{tmp}/no/such/folder/x.npz"], "--out must be a file in an existing folder"),
    (["train", "--data", "{tmp}/none_*.npz", "--out", "{tmp}/net.npz"], "no data files match"),
    (["train", "--data", "{tmp}/bad.npz", "--out", "{tmp}/net.npz"], "is not csearch self-play data"),
    (["train", "--data", "{tmp}/bad.npz", "--epochs", "0", "--out", "{tmp}/net.npz"], "--epochs must be from 1 to"),
    (["selfplay", "--weights", "{tmp}/bad.npz", "--out", "{tmp}/d.npz"], "not a csearch value network"),
    (["ladder", "{tmp}"], "no networks"),
    (["selfplay", "--games", "100000000000000000000", "--out", "x.npz"], "--games must be from 1 to"),
    (["selfplay", "--seed", "-1", "--out", "x.npz"], "--seed must be from 0 to 2**63 - 1, got -1"),
    (["selfplay", "--seed", str(2**63), "--out", "x.npz"], "--seed must be from 0 to 2**63 - 1"),
    (["selfplay", "--seed", "x", "--out", "x.npz"], "invalid int value"),
    (["selfplay", "--games", "many", "--out", "x.npz"], "invalid int value: 'many'"),
    (["selfplay", "--playouts", "-1", "--out", "x.npz"], "--playouts must be an integer from 0 to 1000000, got -1"),
    (["selfplay", "--playouts", "1000001", "--out", "x.npz"],
     "--playouts must be an integer from 0 to 1000000, got 1000001"),
    (["selfplay", "--fast-share", "0.96", "--out", "x.npz"], "--fast-share must be a number from 0 to 0.95, got 0.96"),
    (["selfplay", "--fast-share", "nan", "--out", "x.npz"], "--fast-share must be a number from 0 to 0.95, got nan"),
    (["selfplay", "--fast-share", "-0.1", "--out", "x.npz"], "--fast-share must be a number from 0 to 0.95, got -0.1"),
    (["selfplay", "--fast-share", "most", "--out", "x.npz"], "invalid float value: 'most'"),
    (["selfplay", "--fast-share", "0.5", "--out", "{tmp}/d.npz"],
     "--fast-share 0.5 takes --fast-simulations from 1 to 199 (fewer than --simulations 200), got 0"),
    (["selfplay", "--fast-share", "0.5", "--fast-simulations", "200", "--out", "{tmp}/d.npz"],
     "--fast-share 0.5 takes --fast-simulations from 1 to 199 (fewer than --simulations 200), got 200"),
    (["selfplay", "--fast-simulations", "-3", "--out", "x.npz"], "--fast-simulations must be an integer from 0"),
    (["selfplay", "--past-share", "1.5", "--out", "x.npz"], "--past-share must be a number from 0 to 1, got 1.5"),
    (["selfplay", "--past-share", "0.5", "--past", "{tmp}/bad.npz", "--out", "{tmp}/d.npz"],
     "bad.npz is not a csearch value network"),
    (["selfplay", "--past-share", "0.5", "--past", "{tmp}/none.npz", "--out", "{tmp}/d.npz"],
     "none.npz: No such file or directory"),
    (["selfplay", "--past-share", "0.5", "--past", "{tmp}", "--out", "{tmp}/d.npz"], "is not a regular file"),
    (["selfplay", "--past-share", "0.5", "--past", "{tmp}/fifo.npz", "--out", "{tmp}/d.npz"], "is not a regular file"),
    (["selfplay", "--fast-simulations", "1000001", "--out", "x.npz"],
     "--fast-simulations must be an integer from 0 to 1000000, got 1000001"),
    (["selfplay", "--fast-simulations", "many", "--out", "x.npz"], "invalid int value: 'many'"),
    (["selfplay", "--past-share", "-0.5", "--out", "x.npz"], "--past-share must be a number from 0 to 1, got -0.5"),
    (["selfplay", "--past", "training/kept/csearch_4p.npz", "--out", "{tmp}/d.npz"],
     "csearch_4p.npz is a network of 4 players on a 9x9 frame, not of the variant duel"),
    (["selfplay", "--playouts", "some", "--out", "x.npz"], "invalid int value: 'some'"),
    (["train", "--data", "{tmp}/bad.npz", "--playout-mix", "-0.1", "--out", "{tmp}/net.npz"],
     "--playout-mix must be from 0 to 1, got -0.1"),
    (["train", "--data", "{tmp}/bad.npz", "--playout-mix", "half", "--out", "{tmp}/net.npz"],
     "invalid float value: 'half'"),
    (["train", "--data", "{tmp}/bad.npz", "--playout-mix", "1.5", "--out", "{tmp}/net.npz"],
     "--playout-mix must be from 0 to 1, got 1.5"),
    (["train", "--data", "{tmp}/bad.npz", "--playout-mix", "nan", "--out", "{tmp}/net.npz"],
     "--playout-mix must be from 0 to 1, got nan"),
    (["train", "--data", "{tmp}/bad.npz", "--target", "mean", "--out", "{tmp}/net.npz"], "invalid choice: 'mean'"),
    (["train", "--data", "{tmp}", "--out", "{tmp}/net.npz"], "is not a regular file"),
    (["train", "--data", "{tmp}/fifo.npz", "--out", "{tmp}/net.npz"], "is not a regular file"),
    (["selfplay", "--weights", "{tmp}/fifo.npz", "--out", "{tmp}/d.npz"], "is not a regular file"),
    (["selfplay", "--weights", "{tmp}", "--out", "{tmp}/d.npz"], "is not a regular file"),
    (["loop", "{tmp}/run", "--playouts", "-1"], "--playouts must be an integer from 0 to 1000000, got -1"),
    (["loop", "{tmp}/run", "--playouts", "1000001"],
     "--playouts must be an integer from 0 to 1000000, got 1000001"),
    (["loop", "{tmp}/run", "--fast-share", "0.75", "--fast-simulations", "50", "--simulations", "40"],
     "--fast-share 0.75 takes --fast-simulations from 1 to 39 (fewer than --simulations 40), got 50"),
    (["loop", "{tmp}/run", "--past-share", "inf"], "--past-share must be a number from 0 to 1, got inf"),
    (["loop", "{tmp}/run", "--playouts", "some"], "invalid int value: 'some'"),
    (["ladder", "{tmp}/run", "--playout-mix", "-0.1"], "--playout-mix must be from 0 to 1, got -0.1"),
    (["ladder", "{tmp}/run", "--playout-mix", "nan"], "--playout-mix must be from 0 to 1, got nan"),
    (["ladder", "{tmp}/run", "--playout-mix", "half"], "invalid float value: 'half'"),
    (["loop", "{tmp}/bad.npz"], "is a file, not a run folder"),
    (["loop", "{tmp}/run", "--iterations", "0"], "--iterations must be from 1 to"),
    (["loop", "{tmp}/not_zip", "--variant", "duel"], "data_0.npz is not csearch self-play data: File is not a zip"),
    (["loop", "{tmp}/no_games", "--variant", "duel"], "data_0.npz is not csearch self-play data: 'game is not"),
    (["loop", "{tmp}/run", "--first", "{tmp}/bad.npz"], "not a csearch value network"),
    (["loop", "{tmp}/bad.npz/run"], "which is a file, not a folder"),
    (["loop", "{tmp}/run", "--run-dir", "{tmp}/other"], "differ: give one"),
    (["loop", "{tmp}/run", "--resume", "nosuch"],
     f"no kept network named 'nosuch'; kept: {', '.join(kept_names())}\n"),
    (["loop", "{tmp}/run", "--resume", "4p", "--variant", "duel"], "csearch_4p.npz is a network of 4p, not of the "
                                                                    "variant duel"),
    (["loop", "{tmp}/run", "--resume", "duel", "--first", "{tmp}/bad.npz"], "give --first"),
    (["loop", "{tmp}/run", "--resume", "{tmp}/bad.npz"], "not a csearch value network"),
    (["loop", "{tmp}/run", "--resume", "agents/models/csearch_13_2p.npz"], "gives no iteration in its metadata"),
    (["loop", "{tmp}/run", "--first", "agents/models/csearch_13_2p.npz", "--variant", "2p"],
     "is a network of duel, not of the variant 2p"),
    (["ladder", "{tmp}/nothing"], "no run folder"),
    (["keep", "duel", "{tmp}"], "no networks (net_K.npz written by loop) in"),
    (["keep", "duel", "--run-dir", "{tmp}/nothing"], "no networks (net_K.npz written by loop) in"),
    (["keep", "duel", "{tmp}/bad.npz"], "is a file, not a run folder"),
])
def test_the_command_line_refuses_bad_input_with_a_message(tmp_path, capsys, argv, message):
    from training.csearch_net import main

    (tmp_path / "bad.npz").write_bytes(b"not data")
    os.mkfifo(tmp_path / "fifo.npz")
    for run in ("not_zip", "no_games"):
        (tmp_path / run).mkdir()
    (tmp_path / "not_zip" / "data_0.npz").write_bytes(b"not data")
    np.savez(tmp_path / "no_games" / "data_0.npz", dense=np.zeros((1, 2, 12), np.float32))
    with pytest.raises(SystemExit) as exit_:
        main([a.replace("{tmp}", str(tmp_path)) for a in argv])
    assert exit_.value.code == 2
    assert message in capsys.readouterr().err


def test_a_runs_ladder_rates_its_networks_against_anchors(data, tmp_path):
    from training.csearch_net import ladder, run_checkpoints

    data.save(tmp_path / "data_0.npz")
    net, report = train(data, 13, epochs=1)
    network.save_weights(tmp_path / "net_1.npz", net.export(), {"frame": 13, "players": 2, **report})
    assert run_checkpoints(tmp_path) == [(1, tmp_path / "net_1.npz", 2)]
    out = ladder(tmp_path, VARIANTS["duel"], simulations=10, anchors=["greedy"], games=2)
    names = {e["name"]: e for e in out["entrants"]}
    assert set(names) == {"it0001", "greedy"} and names["it0001"]["selfplay_games"] == 2
    assert (tmp_path / "ladder.json").is_file() and (tmp_path / "ladder.png").is_file()


def test_a_ladder_with_a_playout_mix_rates_copies_of_the_networks_that_carry_it(data, tmp_path, capsys):
    from training.csearch_net import main

    run = tmp_path / "run"
    run.mkdir()
    net, report = train(data, 13, epochs=1)
    network.save_weights(run / "net_1.npz", net.export(), {"frame": 13, "players": 2, "selfplay_games": 2, **report})
    main(["ladder", str(run), "--variant", "duel", "--simulations", "5", "--games", "2", "--anchors", "greedy",
          "--playout-mix", "0"])
    out = json.loads((run / "ladder.json").read_text())
    copy = run / "ladder_networks_mix_0" / "net_1.npz"
    assert out["playout_mix"] == 0 and str(copy) in {e["spec"].split(":", 2)[2] for e in out["entrants"][:1]}
    assert network.load_weights(copy)[1]["playout_mix"] == 0 and "playout_mix" not in network.load_weights(
        run / "net_1.npz")[1]
    blocked = tmp_path / "blocked"
    blocked.mkdir()
    (blocked / "net_1.npz").write_bytes((run / "net_1.npz").read_bytes())
    (blocked / "ladder_networks_mix_0.5").write_text("mine")
    capsys.readouterr()
    with pytest.raises(SystemExit):
        main(["ladder", str(blocked), "--variant", "duel", "--anchors", "greedy", "--playout-mix", "0.5"])
    assert "ladder_networks_mix_0.5 is a file, not a folder" in capsys.readouterr().err
    assert (blocked / "ladder_networks_mix_0.5").read_text() == "mine" and not (blocked / "ladder.json").exists()


def test_a_ladder_of_a_network_with_damaged_metadata_stops_before_playing(data, tmp_path, capsys):
    from training.csearch_net import main

    net, report = train(data, 13, epochs=1)
    network.save_weights(tmp_path / "net_1.npz", net.export(),
                         {"frame": 13, "players": 2, **report, "selfplay_games": "many"})
    with pytest.raises(SystemExit):
        main(["ladder", str(tmp_path), "--variant", "duel", "--anchors", "greedy"])
    assert "checkpoint it0001" in capsys.readouterr().err and not (tmp_path / "ladder.json").exists()


def test_a_loop_runs_iterations_and_resumes_where_it_stopped(tmp_path, capsys):
    from training.csearch_net import loop, run_checkpoints

    run = tmp_path / "run"
    loop(run, VARIANTS["2p"], iterations=1, games=1, simulations=5, window=2, epochs=1)
    first = (run / "net_1.npz").read_bytes()
    loop(run, VARIANTS["2p"], iterations=2, games=1, simulations=5, window=2, epochs=1)
    assert (run / "net_1.npz").read_bytes() == first  # kept, not redone
    assert [(k, games) for k, _, games in run_checkpoints(run)] == [(1, 1), (2, 2)]
    weights, meta = network.load_weights(run / "net_2.npz")
    assert meta["selfplay_games"] == 2 and meta["data"] == ["data_0.npz", "data_1.npz"]
    assert meta["selfplay_cpu_seconds"] > 0
    assert '"iteration": 1' in capsys.readouterr().out
    (run / "net_2.npz").unlink()  # stopped after its self-play: the games on disk are trained on, their cost unknown
    loop(run, VARIANTS["2p"], iterations=2, games=1, simulations=5, window=2, epochs=1)
    assert network.load_weights(run / "net_2.npz")[1]["selfplay_cpu_seconds"] is None
    assert '"selfplay_cpu_seconds": null' in capsys.readouterr().out
    moved = tmp_path / "moved"  # a fresh clone holds only the newest network and its data window
    moved.mkdir()
    for name in ("net_2.npz", "data_1.npz"):
        (moved / name).write_bytes((run / name).read_bytes())
    loop(moved, VARIANTS["2p"], iterations=3, games=1, simulations=5, window=2, epochs=1)
    assert not (moved / "data_0.npz").exists() and (moved / "data_2.npz").is_file()
    assert network.load_weights(moved / "net_3.npz")[1]["selfplay_games"] == 3
    assert [(k, games) for k, _, games in run_checkpoints(moved)] == [(2, 2), (3, 3)]  # a ladder of what it holds


def test_a_run_resumes_from_a_kept_network_and_its_counters_go_on(tmp_path, monkeypatch, capsys):
    """`loop --resume duel` needs nothing but the clone: the kept network's iteration, game count, variant and
    settings go on in the default run folder, whose data window starts with the resumed iteration's games alone."""
    from training.csearch_net import RUN_FILE, main
    from training.runs import kept_network

    monkeypatch.setenv("KINGDOMINO_RUNS", str(tmp_path / "runs"))
    kept = kept_network("duel")
    argv = ["loop", "--resume", "duel", "--games", "1", "--simulations", "5", "--epochs", "1"]
    main([*argv, "--iterations", str(kept.iteration + 1)])
    run = tmp_path / "runs" / "csearch_duel"
    assert (run / f"net_{kept.iteration}.npz").read_bytes() == kept.network.read_bytes()
    meta = network.load_weights(run / f"net_{kept.iteration + 1}.npz")[1]
    assert meta["iteration"] == kept.iteration + 1 and meta["selfplay_games"] == kept.selfplay_games + 1
    assert meta["variant"] == "duel" and meta["data"] == [f"data_{kept.iteration}.npz"]
    recorded = json.loads((run / RUN_FILE).read_text())
    assert recorded["variant"] == "duel" and recorded["window"] == kept.settings["window"] == 12
    out = capsys.readouterr().out
    assert recorded["games"] == 1 and f"iteration {kept.iteration}, {kept.selfplay_games} self-play games" in out
    assert f"net_{kept.iteration} goes on, its data window of 12 iterations played anew" in out
    main([*argv, "--iterations", str(kept.iteration + 2)])  # the same command again goes on in the same folder
    assert f"net_{kept.iteration + 1} goes on with 1 of its data window's 12 iterations in the folder" in \
        capsys.readouterr().out
    meta = network.load_weights(run / f"net_{kept.iteration + 2}.npz")[1]
    assert meta["selfplay_games"] == kept.selfplay_games + 2
    assert meta["data"] == [f"data_{kept.iteration}.npz", f"data_{kept.iteration + 1}.npz"]  # the window refills
    main(["loop", "--variant", "duel", "--iterations", str(kept.iteration + 2)])
    assert "--iterations 225 is already reached" in capsys.readouterr().out


def test_a_new_run_may_start_from_a_network_of_other_bonus_rules_but_a_resume_may_not(tmp_path, monkeypatch,
                                                                                        capsys):
    """`--first` takes a network of the same board and players (the 2p_basic run began from the shipped network of
    the run with bonuses); `--resume` goes on with a run's counters, so only in that run's variant."""
    from training import csearch_net

    started = []
    monkeypatch.setattr(csearch_net, "loop", lambda *args: started.append(args))
    csearch_net.main(["loop", str(tmp_path / "new"), "--variant", "2p", "--first", "agents/models/csearch_9_2p.npz"])
    assert started and started[0][1] == VARIANTS["2p"]
    with pytest.raises(SystemExit):
        csearch_net.main(["loop", str(tmp_path / "other"), "--variant", "2p", "--resume", "2p_bonuses"])
    assert "csearch_2p_bonuses.npz is a network of 2p-bonuses, not of the variant 2p" in capsys.readouterr().err
    assert not (tmp_path / "other").exists()


def test_a_resume_leaves_a_folder_of_another_run_alone(tmp_path, capsys):
    from training.csearch_net import main

    run = tmp_path / "run"
    run.mkdir()
    (run / "net_5.npz").write_bytes(b"someone's network")
    with pytest.raises(SystemExit):
        main(["loop", str(run), "--resume", "duel"])
    assert "already holds a run (its newest network is net_5.npz)" in capsys.readouterr().err
    assert sorted(p.name for p in run.iterdir()) == ["net_5.npz"] and (run / "net_5.npz").read_bytes() == \
        b"someone's network"


@pytest.mark.parametrize("damage", ["not json", "other format", "variant", "window"])
def test_a_damaged_run_file_is_named_and_kept(tmp_path, capsys, damage):
    from training.csearch_net import RUN_FILE, RUN_FORMAT, main

    run = tmp_path / "run"
    run.mkdir()
    good = {"format": RUN_FORMAT, "variant": "duel", "games": 1, "simulations": 5, "window": 2, "epochs": 1}
    text = {"not json": "{", "other format": json.dumps({**good, "format": "x"}),
            "variant": json.dumps({**good, "variant": "5p"}), "window": json.dumps({**good, "window": 0})}[damage]
    (run / RUN_FILE).write_text(text)
    with pytest.raises(SystemExit):
        main(["loop", str(run), "--iterations", "1"])
    assert f"{run / RUN_FILE} is damaged" in capsys.readouterr().err
    assert (run / RUN_FILE).read_text() == text and sorted(p.name for p in run.iterdir()) == [RUN_FILE]


def test_a_run_folder_keeps_its_variant(tmp_path, capsys):
    from training.csearch_net import RUN_FILE, RUN_FORMAT, main

    run = tmp_path / "run"
    run.mkdir()
    (run / RUN_FILE).write_text(json.dumps({"format": RUN_FORMAT, "variant": "4p", "games": 1, "simulations": 5,
                                            "window": 2, "epochs": 1}))
    with pytest.raises(SystemExit):
        main(["loop", str(run), "--variant", "duel"])
    assert "run.json gives the variant 4p, not duel" in capsys.readouterr().err


def test_a_file_that_unpacks_beyond_the_limit_is_refused_before_it_is_read(tmp_path, monkeypatch):
    path = network.save_weights(tmp_path / "net.npz", network.empty_weights(13), {"frame": 13, "players": 2})
    monkeypatch.setattr(network, "MAX_WEIGHTS_BYTES", 1000)
    with pytest.raises(ValueError, match="unpacks to .* bytes; a csearch value network holds at most 1000"):
        network.load_weights(path)


@pytest.mark.parametrize("kind", ["folder", "fifo", "missing"])
def test_a_spec_path_that_is_no_network_file_is_refused(tmp_path, kind):
    from agents.registry import AgentSpecError, load

    path = tmp_path / "net.npz"
    if kind == "folder":
        path.mkdir()
    elif kind == "fifo":
        os.mkfifo(path)
    with pytest.raises(AgentSpecError, match="no value network file" if kind == "missing" else
                       "the value network file .*net.npz is not a regular file: it is a (folder|FIFO)"):
        load(f"csearch:p10:{path}")
    if kind != "missing":
        with pytest.raises(ValueError, match="is not a regular file"):
            network.load_weights(path)


def test_keep_keeps_a_run_folders_newest_network_with_its_settings(tmp_path, monkeypatch, capsys):
    """`keep NAME RUN_DIR` keeps the newest net_K of the folder with the settings its run.json records; a folder
    without run.json is refused (its variant and settings unknown)."""
    import functools

    from training import csearch_net
    from training.runs import keep_network, kept_network

    folder, manifest = tmp_path / "training" / "kept", tmp_path / "manifest.json"
    folder.mkdir(parents=True)
    manifest.write_bytes(MANIFEST.read_bytes())
    monkeypatch.setattr(csearch_net, "keep_network", functools.partial(keep_network, folder=folder,
                                                                       manifest=manifest, root=tmp_path))
    run = tmp_path / "run"
    run.mkdir()
    committed = kept_network("royal_wedding_4p")
    weights, meta = network.load_weights(committed.network)
    for k in (21, 22):
        network.save_weights(run / f"net_{k}.npz", weights, {**meta, "iteration": k})
    with pytest.raises(SystemExit):
        csearch_net.main(["keep", "rw", str(run)])
    assert "has no run.json, so its variant and settings are unknown" in capsys.readouterr().err
    settings = {"games": 24, "simulations": 100, "window": 4, "epochs": 8}
    (run / "run.json").write_text(json.dumps({"format": csearch_net.RUN_FORMAT, "variant": "royal-wedding-4p",
                                              **settings}))
    csearch_net.main(["keep", "rw", str(run)])
    assert "kept net_22 of" in capsys.readouterr().out
    kept = kept_network("rw", folder)
    assert (kept.iteration, kept.variant, kept.settings) == (22, "royal-wedding-4p", settings)
    assert "training/kept/csearch_rw.npz" in {e.path for e in load_manifest(manifest)}


def test_a_squares_loop_goes_on_from_a_dense_network_with_its_values_and_keeps_reading_squares(data, tmp_path):
    """`loop --squares` from a network without squares: its squares' weights start at zero, so the first network
    values positions as the dense one did before training; the run's next networks read squares without the flag."""
    from training.csearch_net import loop

    dense, _ = train(data, 13, epochs=1)
    first = network.save_weights(tmp_path / "dense.npz", dense.export(), {"frame": 13, "players": 2})
    widened = ValueNet(13, squares=True).double()
    widened.load(dense.export())
    with torch.no_grad():
        args = (torch.from_numpy(data.indices.astype(np.int64)), torch.from_numpy(data.dense).double(),
                torch.from_numpy(data.glob).double())
        np.testing.assert_allclose(widened(*args).numpy(), dense(*args).numpy())
    run = tmp_path / "run"
    loop(run, VARIANTS["duel"], iterations=1, games=3, simulations=5, window=2, epochs=1, first=first, squares=True)
    loop(run, VARIANTS["duel"], iterations=2, games=3, simulations=5, window=2, epochs=1)
    for k in (1, 2):
        weights, meta = network.load_weights(run / f"net_{k}.npz")
        assert weights.reads_squares and meta["squares"] and (weights.w1[:-1] != 0).any()
    with pytest.raises(ValueError, match="reads the board's squares and this one does not: .*train with squares"):
        ValueNet(13, squares=False).load(weights)


def test_a_game_is_held_out_or_not_whatever_else_is_trained_on():
    from training.csearch_net import held_out_games

    first = np.arange(400, dtype=np.int64) + 3 * 2**20
    window = np.concatenate([first, np.arange(400, dtype=np.int64) + 4 * 2**20])
    held, held_in_window = held_out_games(first, 0.1), held_out_games(window, 0.1)
    assert 20 <= held.size <= 60 and set(held) == set(held_in_window) & set(first)
    assert held_out_games(np.array([7, 9]), 0.1).size == 1  # at least one


def test_training_keeps_the_starts_weights_where_no_epoch_values_the_held_out_games_better(data, tmp_path):
    fitted, _ = train(data, 13, epochs=3)
    start = network.save_weights(tmp_path / "start.npz", fitted.export(), {"frame": 13, "players": 2})
    net, report = train(data, 13, epochs=2, start=start, lr=10.0)  # steps this large only make it worse
    assert report["kept"]["epoch"] is None and len(report["history"]) == 2
    assert report["kept"]["holdout_win_bce"] < min(h["holdout_win_bce"] for h in report["history"])
    for a, b in zip(net.export(), network.load_weights(start)[0], strict=True):
        np.testing.assert_allclose(a, b, atol=1e-6)


def test_a_loop_with_playouts_learns_their_mean_and_refuses_data_without_them(tmp_path, capsys):
    from training.csearch_net import RUN_FILE, loop, main

    run = tmp_path / "run"
    loop(run, VARIANTS["2p"], iterations=1, games=3, simulations=5, window=2, epochs=1, playouts=2)
    meta = network.load_weights(run / "net_1.npz")[1]
    assert (meta["target"], meta["playouts"]) == ("playouts", 2) and Data.summary(run / "data_0.npz").has_playouts
    plain = tmp_path / "plain"
    loop(plain, VARIANTS["2p"], iterations=1, games=3, simulations=5, window=2, epochs=1)
    (run / "net_1.npz").unlink()
    (run / "data_0.npz").write_bytes((plain / "data_0.npz").read_bytes())
    with pytest.raises(ValueError, match="data_0.npz holds no playout targets, unlike the run's --playouts 2: move it"):
        loop(run, VARIANTS["2p"], iterations=1, games=3, simulations=5, window=2, epochs=1, playouts=2)
    (run / "data_0.npz").unlink()
    main(["loop", str(run), "--variant", "2p", "--iterations", "1", "--games", "3", "--simulations", "5",
          "--epochs", "1", "--playouts", "2"])
    assert json.loads((run / RUN_FILE).read_text())["playouts"] == 2
    record = json.loads((run / RUN_FILE).read_text())
    for bad in (-1, 10**7, "32", True, 2.5):
        (run / RUN_FILE).write_text(json.dumps({**record, "playouts": bad}))
        capsys.readouterr()
        with pytest.raises(SystemExit):
            main(["loop", str(run), "--iterations", "2"])
        assert f"is damaged: playouts must be an integer from 0 to 1000000, got {bad!r}" in capsys.readouterr().err
    assert not (run / "net_2.npz").exists()


def test_fast_decisions_are_searched_with_fewer_simulations_and_their_positions_left_out(monkeypatch):
    from training.csearch_net import OPENING_MOVES, Variety

    budgets = []
    act = CompiledSearchAgent.act

    def spy(self, *args):
        budgets.append(self.budget.playouts)
        return act(self, *args)

    monkeypatch.setattr(CompiledSearchAgent, "act", spy)
    data = selfplay(VARIANTS["duel"], 2, 10, None, seed=3, variety=Variety(0.5, 3))
    assert set(budgets) == {3, 10}
    assert data.win.shape[0] == budgets.count(10) + 2 * OPENING_MOVES
    again = selfplay(VARIANTS["duel"], 2, 10, None, seed=3, variety=Variety(0.5, 3))
    assert (again.dense == data.dense).all() and (again.indices == data.indices).all()


@pytest.mark.parametrize("past_share", [0.0, 1.0])
def test_an_earlier_network_plays_one_seat_in_its_share_of_the_games(monkeypatch, past_share):
    from training.csearch_net import Variety

    movers = []
    act = CompiledSearchAgent.act

    def spy(self, state, *args):
        movers.append((int(state.current_player[0]), self.meta.get("iteration")))
        return act(self, state, *args)

    monkeypatch.setattr(CompiledSearchAgent, "act", spy)
    selfplay(VARIANTS["duel"], 1, 6, KEPT_DUEL, seed=4, variety=Variety(past_share=past_share), past=[SHIPPED_DUEL])
    networks = dict(movers)
    assert set(movers) == set(networks.items()) and set(networks) == {0, 1}
    own = network.load_weights(KEPT_DUEL)[1]["iteration"]
    assert sorted(networks.values(), key=str) == ([own, None] if past_share else [own, own])


def test_a_varied_loop_records_its_settings_and_draws_opponents_from_its_earlier_networks(tmp_path, monkeypatch,
                                                                                        capsys):
    from training import csearch_net

    calls = []
    play = csearch_net.selfplay

    def spy(*args, **kwargs):
        calls.append((kwargs["variety"], [path.name for path in kwargs["past"]]))
        return play(*args, **kwargs)

    monkeypatch.setattr(csearch_net, "selfplay", spy)
    run = tmp_path / "run"
    varied = ["--fast-share", "0.5", "--fast-simulations", "2", "--past-share", "0.5"]
    csearch_net.main(["loop", str(run), "--variant", "duel", "--iterations", "3", "--games", "2", "--simulations",
                      "6", "--epochs", "1", *varied])
    assert calls == [(csearch_net.Variety(0.5, 2, 0.5), past) for past in ([], [], ["net_1.npz"])]
    record = json.loads((run / csearch_net.RUN_FILE).read_text())
    meta = network.load_weights(run / "net_3.npz")[1]
    assert [(r["fast_share"], r["fast_simulations"], r["past_share"]) for r in (record, meta)] == [(0.5, 2, 0.5)] * 2
    for bad, message in (("x", "fast_share must be a number from 0 to 0.95, got 'x'"),
                         (0.2, "--fast-share 0.2 takes --fast-simulations from 1 to 5")):
        (run / csearch_net.RUN_FILE).write_text(json.dumps({**record, "fast_share": bad, "fast_simulations": 6}))
        capsys.readouterr()
        with pytest.raises(SystemExit):
            csearch_net.main(["loop", str(run), "--iterations", "4"])
        assert message in capsys.readouterr().err
    assert not (run / "net_4.npz").exists()


def test_a_three_player_loop_trains_a_network_of_three_kingdoms(tmp_path):
    from training.csearch_net import loop

    loop(tmp_path / "run", VARIANTS["3p"], iterations=1, games=1, simulations=5, window=1, epochs=1)
    weights, meta = network.load_weights(tmp_path / "run" / "net_1.npz")
    assert (meta["variant"], meta["players"], meta["iteration"], meta["selfplay_games"]) == ("3p", 3, 1, 1)
    state = core.new_games(VARIANTS["3p"], [2])
    agent = CompiledSearchAgent(Budget(playouts=20), seed=0, weights=tmp_path / "run" / "net_1.npz")
    action = agent.act(state, np.zeros(1, dtype=np.int64), core.legal_action_mask(state), None)
    assert core.legal_action_mask(state)[0, int(action[0])]


def _same_positions(a: Data, b: Data) -> bool:
    return all((getattr(a, name) is None and getattr(b, name) is None)
               or np.array_equal(getattr(a, name), getattr(b, name)) for name in Data.__dataclass_fields__)


def test_self_play_jobs_play_the_same_games_here_and_in_worker_processes():
    from training.csearch_net import play_jobs, selfplay_jobs

    jobs = selfplay_jobs(VARIANTS["2p"], 5, 5, KEPT_2P, seed=7, job_games=2)
    assert [(job.games, job.first) for job in jobs] == [(2, 0), (2, 2), (1, 4)]
    here, cpu = play_jobs(jobs)
    pooled, pooled_cpu = play_jobs(jobs, workers=2)
    assert _same_positions(here, pooled) and cpu > 0 and pooled_cpu > 0
    assert np.unique(here.game).size == 5 and np.unique(here.game // 2**20).tolist() == [7]
    alone = selfplay(VARIANTS["2p"], 2, 5, KEPT_2P, seed=7)
    assert _same_positions(alone, play_jobs(jobs[:1])[0])
    assert not np.array_equal(here.dense[here.game == 7 * 2**20][:4], here.dense[here.game == 7 * 2**20 + 2][:4])


def test_a_loop_with_two_workers_writes_the_data_and_counts_the_cpu_of_one(tmp_path, monkeypatch):
    from training import csearch_net
    from training.csearch_net import main

    monkeypatch.setattr(csearch_net, "JOB_GAMES", 1)
    for workers in ("1", "2"):
        main(["loop", str(tmp_path / workers), "--variant", "2p", "--iterations", "1", "--games", "3",
              "--simulations", "5", "--epochs", "1", "--workers", workers])
    one, two = (Data.load([tmp_path / workers / "data_0.npz"]) for workers in ("1", "2"))
    assert _same_positions(one, two)
    assert network.load_weights(tmp_path / "2" / "net_1.npz")[1]["selfplay_cpu_seconds"] > 0


def test_ctrl_c_during_self_play_jobs_keeps_the_finished_games(monkeypatch):
    from training import csearch_net

    play, calls = csearch_net.selfplay, []

    def stop_in_the_second_job(*args, **kwargs):
        calls.append(kwargs["first"])
        if len(calls) == 2:
            raise KeyboardInterrupt
        return play(*args, **kwargs)

    monkeypatch.setattr(csearch_net, "selfplay", stop_in_the_second_job)
    jobs = csearch_net.selfplay_jobs(VARIANTS["2p"], 4, 5, None, seed=1, job_games=2)
    with pytest.raises(csearch_net.SelfplayInterrupted) as stopped:
        csearch_net.play_jobs(jobs)
    assert stopped.value.games == 2 and np.unique(stopped.value.data.game).size == 2


@pytest.mark.parametrize("extra, message", [
    (["--workers", "0"], "--workers must be from 1 to 1024, got 0"),
    (["--workers", "-3"], "--workers must be from 1 to 1024, got -3"),
    (["--workers", "5000"], "--workers must be from 1 to 1024, got 5000"),
    (["--workers", "1.5"], "argument --workers: invalid int value"),
    (["--workers", "2", "--ray"], "give --workers (processes on this machine) or --ray"),
    (["--workers", "two"], "argument --workers: invalid int value"),
])
def test_bad_worker_options_are_refused_before_any_game(tmp_path, capsys, extra, message):
    from training.csearch_net import main

    for command in (["selfplay", "--out", str(tmp_path / "d.npz")], ["loop", str(tmp_path / "run")]):
        with pytest.raises(SystemExit):
            main([*command, "--games", "2", "--simulations", "5", *extra])
        assert message in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []
