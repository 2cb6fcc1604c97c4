"""`az` training: a tiny run writes every output and resumes where it stopped; bad configs are refused before
anything runs; the training data (value targets, replay buffer, position files), self-play targets and losses."""

from __future__ import annotations

import contextlib
import csv
import io
import json
import math
import os
import shutil
from dataclasses import asdict
from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("tensorboard")

import agents  # noqa: E402
from agents.az.files import load_network, read_info, save_network  # noqa: E402
from agents.az.network import AZNet, NetConfig  # noqa: E402
from agents.az.search import NetworkEvaluator  # noqa: E402
from agents.manifest import MANIFEST, load_manifest, sha256_of  # noqa: E402
from kingdomino_env import core  # noqa: E402
from kingdomino_env.rules import Rules  # noqa: E402
from training import az_runs  # noqa: E402
from training.az_data import Positions, Recorder, ReplayBuffer, greedy_positions  # noqa: E402
from training.az_publish import publish  # noqa: E402
from training.az_runs import ShippedRun  # noqa: E402
from training.az_selfplay import SelfPlayConfig, selfplay  # noqa: E402
from training.train_az import AZTrainConfig, Trainer, load_config, losses, main  # noqa: E402

VARIANTS = [{"players": 2}, {"players": 2, "harmony": True, "middle_kingdom": True}]
TINY = {"channels": 8, "blocks": 1, "hidden": 16}
#: A run of seconds: 2 iterations of 4 self-play games with 4 simulations, evaluated after every iteration. 3
#: evaluation games round up to 2 deals of 2 seatings = 4 games.
TINY_RUN = {"variants": VARIANTS, "seed": 3, **TINY, "warm_games": 20, "warm_steps": 5, "iterations": 2,
            "games_per_iteration": 4, "workers": 1, "threads": 1,
            "selfplay": {"simulations": 4, "batch": 4, "temperature_steps": 4}, "train_steps": 3, "batch_size": 32,
            "buffer": 2000, "eval_every": 1, "eval_games": 3, "eval_simulations": 4, "eval_opponents": ["greedy"]}
CONFIGS = Path(__file__).resolve().parents[2] / "training" / "configs"
SHIPPED = Path(agents.__file__).resolve().parent / "models"


def read_csv(path: Path) -> list[dict[str, str]]:
    with path.open(newline="") as f:
        return list(csv.DictReader(f))


def train(argv: list[str]) -> str:
    """Run `train_az.main(argv)` and return what it printed."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        main(argv)
    return out.getvalue()


@pytest.fixture(scope="module")
def run(tmp_path_factory) -> tuple[Path, str]:
    """A finished tiny run: (its folder, what it printed)."""
    folder = tmp_path_factory.mktemp("az_run")
    config = folder / "tiny.json"
    config.write_text(json.dumps({**TINY_RUN, "out": str(folder / "out")}))
    return folder / "out", train(["--config", str(config)])


# The training run ----------------------------------------------------------------------------------------------------
def test_a_tiny_run_writes_every_output(run):
    out, printed = run
    assert "warm start:" in printed
    for name in ("latest.az", "log.csv", "eval.csv", "learning_curve.png", "config.json", "trainer.pt",
                 "buffer.npz"):
        assert (out / name).is_file(), f"{name} is missing"
    assert (out / "learning_curve.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert any((out / "tb").iterdir())
    assert sorted(p.name for p in (out / "checkpoints").iterdir()) == [f"iter_{i:04d}.az" for i in range(3)]

    saved = json.loads((out / "config.json").read_text())
    assert saved == asdict(AZTrainConfig.from_dict({**TINY_RUN, "out": str(out)}))
    assert saved["selfplay"]["simulations"] == 4

    log = read_csv(out / "log.csv")
    assert [int(r["iteration"]) for r in log] == [1, 2]
    assert [int(r["games"]) for r in log] == [4, 8]
    positions = [int(r["positions"]) for r in log]
    assert all(p > 4 for p in positions)
    assert [int(r["buffer"]) for r in log] == [positions[0], positions[0] + positions[1]]
    assert all(math.isfinite(float(r[k])) for r in log for k in ("policy_loss", "value_loss"))

    evals = read_csv(out / "eval.csv")
    assert [(int(r["iteration"]), int(r["games_played"])) for r in evals] == [(0, 0), (1, 4), (2, 8)]
    assert all(r["opponent"] == "greedy" and int(r["games"]) == 4 for r in evals)
    assert all(0 <= float(r["win_rate_low"]) <= float(r["win_rate"]) <= float(r["win_rate_high"]) <= 1
               for r in evals)

    info = read_info(out / "latest.az")
    assert (info.frame, info.players, info.config) == (9, (2,), TINY)
    assert info.trained["iteration"] == 2 and info.trained["games"] == 8 and info.trained["variants"] == VARIANTS
    assert read_info(out / "checkpoints" / "iter_0000.az").trained["iteration"] == 0
    net, _ = load_network(out / "latest.az")
    agents.check_supports(f"az:4:{out / 'latest.az'}", Rules(2, harmony=True, middle_kingdom=True))


def test_no_training_step_until_the_buffer_holds_learning_starts_positions(tmp_path):
    """Iterations whose buffer is still short of `learning_starts` only play: the network is unchanged and the
    losses are logged as nan; once the buffer is full enough the same run trains."""
    out = tmp_path / "out"
    config = tmp_path / "starts.json"
    config.write_text(json.dumps({**TINY_RUN, "iterations": 3, "learning_starts": 250, "out": str(out)}))
    train(["--config", str(config)])
    log = read_csv(out / "log.csv")
    full = [int(r["buffer"]) >= 250 for r in log]
    assert full[0] is False and full[-1] is True
    for row, trained in zip(log, full, strict=True):
        assert [math.isfinite(float(row[k])) for k in ("policy_loss", "value_loss")] == [trained, trained]
    weights = [load_network(out / "checkpoints" / f"iter_{i:04d}.az")[0].state_dict() for i in range(4)]
    for i, trained in enumerate(full, start=1):
        same = all(torch.equal(weights[i - 1][k], weights[i][k]) for k in weights[i])
        assert same is not trained, f"iteration {i}"


def test_learning_starts_must_be_a_count():
    with pytest.raises(ValueError, match="learning_starts must be an integer from 0 to 100000000, got -1"):
        AZTrainConfig.from_dict({**TINY_RUN, "learning_starts": -1})


def test_a_run_resumes_from_its_own_config(run, tmp_path):
    """Running again does nothing once the iterations are done; with more iterations it goes on from the last one
    (no second warm start, the buffer kept), and `--config OUT/config.json` repeats the run's settings."""
    original, _ = run
    out = tmp_path / "copy"
    shutil.copytree(original, out)
    before = (out / "log.csv").read_text()
    again = train(["--config", str(out / "config.json"), "--out", str(out)])
    assert "warm start" not in again and "iteration" not in again
    assert (out / "log.csv").read_text() == before

    printed = train(["--config", str(out / "config.json"), "--out", str(out), "--iterations", "3"])
    assert "warm start" not in printed
    log = read_csv(out / "log.csv")
    assert [int(r["iteration"]) for r in log] == [1, 2, 3]
    assert int(log[2]["games"]) == 12
    assert int(log[2]["buffer"]) == int(log[1]["buffer"]) + int(log[2]["positions"])
    assert [int(r["iteration"]) for r in read_csv(out / "eval.csv")] == [0, 1, 2, 3]
    assert (out / "checkpoints" / "iter_0003.az").is_file()
    assert read_info(out / "latest.az").trained["iteration"] == 3
    saved = json.loads((out / "config.json").read_text())
    assert saved["iterations"] == 3 and saved["out"] == str(out)
    assert (original / "log.csv").read_text() == before, "the resumed copy wrote into the original run"


def test_a_run_goes_on_from_the_committed_network_and_its_committed_logs(tmp_path, monkeypatch):
    """`resume_from: NAME` needs nothing but the clone: it starts from the shipped network's weights and counters
    and its committed log, appends to them, and `az_publish` writes the result back over the shipped files."""
    shipped = ShippedRun("2p")
    before = read_info(shipped.network).trained
    committed = read_csv(shipped.log)
    data = {**TINY_RUN, "channels": 32, "blocks": 4, "hidden": 128, "resume_from": "2p", "warm_games": 0,
            "iterations": before["iteration"] + 1, "eval_every": 100, "out": str(tmp_path / "out")}
    config = tmp_path / "resume.json"
    config.write_text(json.dumps(data))
    printed = train(["--config", str(config)])
    assert f"resuming the shipped run 2p: iteration {before['iteration']}" in printed and "warm start" not in printed
    out = tmp_path / "out"
    log = read_csv(out / "log.csv")
    assert [r["iteration"] for r in log[:-1]] == [r["iteration"] for r in committed]
    assert [r["policy_loss"] for r in log[:-1]] == [r["policy_loss"] for r in committed]
    assert int(log[-1]["iteration"]) == before["iteration"] + 1
    assert int(log[-1]["games"]) == before["games"] + TINY_RUN["games_per_iteration"]
    hours = [float(r["core_hours"]) for r in log]
    assert hours == sorted(hours) and hours[-1] > hours[-2] > 0
    assert [p.name for p in (out / "checkpoints").iterdir()] == [f"iter_{before['iteration']:04d}.az"]
    assert (out / "checkpoints" / f"iter_{before['iteration']:04d}.az").read_bytes() == shipped.network.read_bytes()
    trained = read_info(out / "latest.az").trained
    assert trained["iteration"] == before["iteration"] + 1 and trained["core_hours"] == pytest.approx(hours[-1])

    docs, models = tmp_path / "docs", tmp_path / "models"
    docs.mkdir()
    models.mkdir()
    for name in ("2p", "duel"):
        shutil.copyfile(ShippedRun(name).network, models / f"az_{name}.az")
    shutil.copyfile(MANIFEST, models / "manifest.json")
    monkeypatch.setattr(az_runs, "DOCS", docs)
    monkeypatch.setattr(az_runs, "MODELS", models)
    written = publish(out, "2p")
    assert read_info(models / "az_2p.az").trained["iteration"] == before["iteration"] + 1
    assert (docs / "log_2p.csv").read_text() == (out / "log.csv").read_text() and len(written) == 6
    assert not (docs / "checkpoints").exists(), "no checkpoint is committed"
    entries = {e.path: e for e in load_manifest(models / "manifest.json")}
    entry, old = entries["agents/models/az_2p.az"], {e.path: e for e in load_manifest()}["agents/models/az_2p.az"]
    assert entry.sha256 == sha256_of(models / "az_2p.az") != old.sha256 and entry.ratings == [] != old.ratings
    assert entry.trained["iterations"] == before["iteration"] + 1 and entry.trained["selfplay_games"] == \
        before["games"] + TINY_RUN["games_per_iteration"]
    assert entries["agents/models/az_duel.az"] == {e.path: e for e in load_manifest()}["agents/models/az_duel.az"]
    with pytest.raises(ValueError, match="plays Kingdomino with 5x5 kingdoms .*the shipped duel network plays"):
        publish(out, "duel")
    with pytest.raises(ValueError, match=r"the shipped 3p network plays Kingdomino with 5x5 kingdoms \(trained for 3"):
        publish(out, "3p")
    (models / "az_2p.az").unlink()
    publish(out, "2p")
    assert read_info(models / "az_2p.az").trained == trained, "the first network of a run ships where none was"


@pytest.mark.parametrize(("data", "argv", "message"), [
    ({"iteration": 3}, [], "unknown config key(s) iteration"),
    ({"workers": 0}, [], "workers must be an integer from 1 to 1024, got 0"),
    ({"symmetries": "yes"}, [], "symmetries must be true or false, got 'yes'"),
    ({"selfplay": {"root": "best"}}, [], "root must be one of puct, gumbel"),
    ({}, ["--workers", "0"], "workers must be an integer from 1 to 1024"),
    ({}, ["--seed", "-3"], "seed must be an integer from 0 to 9223372036854775807, got -3"),
    ({"learning_rate": "0.1"}, [], "learning_rate must be a number greater than 0 and at most 10, got '0.1'"),
    ({"learning_rate": -1}, [], "learning_rate must be a number greater than 0 and at most 10, got -1"),
    ({"weight_decay": "a"}, [], "weight_decay must be a number from 0 to 10, got 'a'"),
    ({"minutes": "5"}, [], "minutes must be a number greater than 0 and at most 1e+07 or null, got '5'"),
    ({"seed": "a"}, [], "seed must be an integer from 0 to"),
    ({"eval_seed": 10**30}, [], "eval_seed must be an integer from 0 to 9223372036854775807, got 1000"),
    ({"iterations": True}, [], "iterations must be an integer from 1 to 10000000, got True"),
    ({"buffer": 10**16}, [], "buffer must be an integer from 1 to 100000000"),
    ({"device": ["cpu"]}, [], "device must be one of cpu, cuda, auto, got ['cpu']"),
    ({"eval_opponents": "greedy"}, [], "eval_opponents must be a list of at most 64 non-empty strings, got 'greedy'"),
    ({"eval_opponents": ["mc:p99999999999999999999"]}, [], "eval_opponents: 'mc:p99999999999999999999': bad search"),
    ({"init": 3}, [], "init must be a non-empty string or null, got 3"),
    ({}, ["--out", ""], "out must be a non-empty string, got ''"),
    ({"selfplay": {"simulations": "a"}}, [], "selfplay: simulations must be an integer from 1 to 1000000, got 'a'"),
    ({"selfplay": {"rollout": 2}}, [], "selfplay: rollout must be a number from 0 to 1, got 2"),
    ({"selfplay": [1]}, [], "selfplay must be an object of SelfPlayConfig keys"),
    ({"channels": 1024, "blocks": 1024}, [], "make a network of"),
    ({"variants": "x"}, [], "variants must be a list of 1 to 16 variants"),
    ({"variants": [3]}, [], "variants[0]: rules must be an object, got int"),
    ({"games_per_iteration": "4"}, [], "games_per_iteration must be an integer"),
    ({"channels": 0}, [], "channels must be an integer"),
    ({"selfplay": {"sims": 4}}, [], "sims"),
    ({"variants": [{"players": 2}, {"players": 3}]}, [], "same board size, player count"),
    ({"variants": [{"players": 2}, {"players": 2, "mighty_duel": True}]}, [], "same board size"),
    ({"variants": [{"players": 5}]}, [], "players must be 2, 3 or 4"),
    ({"variants": [{"players": 2, "game": "queendomino"}, {"players": 2}]}, [], "quests setting, game and teams"),
    ({"variants": [{"players": 6, "game": "royal_wedding"}, {"players": 6, "game": "royal_wedding", "teams": True}]},
     [], "same board size"),
    ({"variants": [{"player": 2}]}, [], "unknown rules keys"),
    ({"variants": []}, [], "variants must be a list of 1 to 16 variants"),
    ({"resume_from": "5p"}, [],
     "no shipped az run named '5p'; shipped: 2p, 3p, 4p, duel, queendomino_2p, royal_wedding_4p"),
    ({"resume_from": "duel"}, [], "resume_from 'duel': its network plays Kingdomino with 7x7 kingdoms"),
    ({"resume_from": "2p", "channels": 8}, [], "resume_from '2p': its network has"),
    ({"resume_from": "2p", "init": "x.az"}, [], "give init (a network to start from) or resume_from"),
    ({"init": str(SHIPPED / "az_2p.az"), "variants": [{"players": 2, "game": "queendomino"}]}, [],
     "a queendomino run starts from a Queendomino or Royal Wedding network"),
    ({"init": str(SHIPPED / "az_queendomino_2p.az"), "blocks": 3}, [], "a kingdomino run starts from a Kingdomino"),
    ({"init": str(SHIPPED / "az_duel.az"), "variants": [{"players": 3}], "channels": 8}, [],
     "init network " + str(SHIPPED / "az_duel.az") + " has"),
    ([1, 2], [], "must hold a JSON object"),
])
def test_bad_configs_are_refused_before_anything_runs(data, argv, message, tmp_path, capsys):
    config = tmp_path / "bad.json"
    config.write_text(json.dumps(data if not isinstance(data, dict) else {**data, "out": str(tmp_path / "out")}))
    with pytest.raises(SystemExit) as exit_:
        main(["--config", str(config), *argv])
    assert exit_.value.code == 2
    assert message in capsys.readouterr().err
    assert not (tmp_path / "out").exists()


def test_a_missing_config_file_is_a_usage_error(tmp_path, capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["--config", str(tmp_path / "nope.json")])
    assert exit_.value.code == 2 and "nope.json" in capsys.readouterr().err


@pytest.mark.parametrize("kind", ["fifo", "folder", "text", "huge"])
def test_a_config_path_that_is_no_json_file_is_refused_without_blocking(tmp_path, capsys, kind):
    path = tmp_path / "config.json"
    message = {"fifo": "is not a regular file: it is a FIFO", "folder": "is not a regular file: it is a folder",
               "text": "is not JSON", "huge": "at most 1048576 are read"}[kind]
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "folder":
        path.mkdir()
    else:
        path.write_text("not json" if kind == "text" else "{" + " " * (1 << 20) + "}")
    with pytest.raises(SystemExit) as exit_:
        main(["--config", str(path)])
    assert exit_.value.code == 2 and message in capsys.readouterr().err


def test_a_run_folder_defaults_to_the_runs_folder_and_takes_run_dir(tmp_path, monkeypatch):
    """Without `out` a run goes to az_NAME in the runs folder, outside the checkout; `--run-dir` is `--out`."""
    monkeypatch.setenv("KINGDOMINO_RUNS", str(tmp_path / "runs"))
    assert AZTrainConfig(resume_from="2p", **{**TINY, "channels": 32, "blocks": 4, "hidden": 128}).out == \
        str(tmp_path / "runs" / "az_2p")
    assert AZTrainConfig(**TINY).out == str(tmp_path / "runs" / "az")
    assert load_config("az_2p").get("out") is None, "a shipped config leaves the run folder to the default"
    taken = tmp_path / "notes.txt"
    taken.write_text("mine")
    with pytest.raises(SystemExit):
        main(["--run-dir", str(taken)])
    assert taken.read_text() == "mine"


@pytest.mark.parametrize(("name", "text", "message"), [
    ("config_2p.json", "{", "config_2p.json is damaged: not JSON"),
    ("config_2p.json", '{"workers": "two"}', "config_2p.json is damaged: it must hold an object whose workers"),
    ("log_2p.csv", "iteration,selfplay_s\n1,fast\n", "log_2p.csv is damaged"),
])
def test_a_damaged_committed_record_is_named_before_anything_runs(tmp_path, monkeypatch, capsys, name, text,
                                                                   message):
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / name).write_text(text)
    monkeypatch.setattr(az_runs, "DOCS", docs)
    config = tmp_path / "resume.json"
    config.write_text(json.dumps({**TINY_RUN, "channels": 32, "blocks": 4, "hidden": 128, "resume_from": "2p",
                                  "out": str(tmp_path / "out")}))
    with pytest.raises(SystemExit) as exit_:
        main(["--config", str(config)])
    assert exit_.value.code == 2 and message in capsys.readouterr().err
    assert not (tmp_path / "out").exists() and (docs / name).read_text() == text


def test_an_out_that_is_an_existing_file_is_refused_and_kept(tmp_path, capsys):
    """A run never writes over or into a file named as its folder: refused before anything runs."""
    taken = tmp_path / "notes.txt"
    taken.write_text("mine")
    config = tmp_path / "run.json"
    for out in (taken, taken / "run"):
        config.write_text(json.dumps({**TINY_RUN, "out": str(out)}))
        with pytest.raises(SystemExit) as exit_:
            main(["--config", str(config)])
        assert exit_.value.code == 2
        assert str(taken) in capsys.readouterr().err and taken.read_text() == "mine"


@pytest.mark.parametrize(("init", "variant"), [("az_duel.az", {"players": 3}),
                                              ("az_queendomino_2p.az", {"players": 4, "game": "royal_wedding"})])
def test_init_starts_from_a_network_of_the_same_layers_on_any_frame(init, variant, tmp_path):
    source, info = load_network(SHIPPED / init)
    config = AZTrainConfig(variants=[variant], init=str(SHIPPED / init), out=str(tmp_path), **info.config)
    trainer = Trainer(config)
    assert trainer.net.frame != info.frame or variant.get("game") != info.game
    trainer.warm_start()
    theirs = source.state_dict()
    assert all(torch.equal(theirs[name], tensor) for name, tensor in trainer.net.state_dict().items())


@pytest.mark.parametrize("name", sorted(az_runs.NAMES))
def test_every_shipped_run_goes_on_from_its_committed_record(name, tmp_path):
    run = ShippedRun(name)
    data = {**json.loads(run.config.read_text()), "out": str(tmp_path), "resume_from": name, "init": None}
    trainer = Trainer(AZTrainConfig.from_dict(data))
    trainer.resume_shipped()
    assert trainer.iteration == read_info(run.network).trained["iteration"]
    assert read_csv(tmp_path / "log.csv")[-1]["iteration"] == str(trainer.iteration)
    if read_csv(run.evals):
        assert (tmp_path / "learning_curve.png").is_file()


def test_an_installed_package_goes_on_from_the_shipped_network_without_the_record(tmp_path, monkeypatch, capsys):
    """An installed package holds the shipped networks but not their logs and checkpoints (documentation files):
    `resume_from` goes on from the network's weights and counters alone, from any working folder."""
    monkeypatch.setattr(az_runs, "DOCS", tmp_path / "no_docs")
    monkeypatch.chdir(tmp_path)
    run = ShippedRun("3p")
    data = {**load_config("az_3p"), "out": str(tmp_path / "out")}
    trainer = Trainer(AZTrainConfig.from_dict(data))
    trainer.resume_shipped()
    assert trainer.iteration == read_info(run.network).trained["iteration"] > 0
    assert "resuming the shipped run 3p" in capsys.readouterr().out
    assert (tmp_path / "out" / "checkpoints" / f"iter_{trainer.iteration:04d}.az").read_bytes() == \
        run.network.read_bytes()
    assert not (tmp_path / "out" / "log.csv").exists()


def test_the_warm_start_learns_from_every_greedy_position(tmp_path, capsys):
    variants = [{"game": "royal_wedding", "players": 4}]
    config = AZTrainConfig(variants=variants, out=str(tmp_path), warm_games=2, warm_steps=1, batch_size=8, **TINY)
    Trainer(config).warm_start()
    generated = len(greedy_positions([Rules.from_dict(v) for v in variants], 2, config.seed))
    assert generated > 2 * 64, "a Royal Wedding game has more decisions than a Kingdomino one"
    assert f"warm start: {generated} greedy positions" in capsys.readouterr().out


@pytest.mark.parametrize(("name", "frame"), [("az_2p.json", 9), ("az_3p.json", 9), ("az_4p.json", 9),
                                           ("az_duel.json", 13), ("az_queendomino_2p.json", 13),
                                           ("az_royal_wedding_4p.json", 13)])
def test_the_shipped_training_configs_are_valid_and_go_on_from_the_shipped_runs(name, frame):
    config = AZTrainConfig.from_dict(json.loads((CONFIGS / name).read_text()))
    assert {r.frame for r in config.rules} == {frame}
    assert SelfPlayConfig(**config.selfplay).simulations >= 1
    assert config.resume_from == name.removeprefix("az_").removesuffix(".json")


# Training data -------------------------------------------------------------------------------------------------------
def test_recorded_positions_get_egocentric_win_shares_and_margins():
    rules = Rules(3)
    state = core.new_games(rules, [1, 2, 3, 4])
    recorder = Recorder(state, np.array([0, 1, 0, 1]))
    greedy = agents.load("greedy", seed=0)
    seen = []
    while not state.is_over.all():
        live = np.flatnonzero(~state.is_over)
        mask = core.legal_action_mask(state)
        choice = live[mask[live].sum(axis=1) > 1]
        if choice.size:
            policy = mask[choice] / mask[choice].sum(axis=1, keepdims=True)
            recorder.record(choice, mask[choice], policy)
            obs = core.observe(state.take(choice))
            seen += [(g, int(state.current_player[g]), obs[k], mask[g].copy(), policy[k]) for k, g in enumerate(choice)]
        actions = np.zeros(state.batch_size, dtype=np.int64)
        actions[live] = greedy.act(state, live, mask[live], None)
        core.step(state, actions)
    positions = recorder.positions()
    assert len(positions) == len(seen)
    ranks, scores = core.ranks(state), state.scores
    masks = positions.unpacked_mask(rules.n_actions)
    for i, (game, mover, obs, mask, policy) in enumerate(seen):
        seats = [(mover + k) % 3 for k in range(3)]
        winners = ranks[game] == 0
        assert positions.win[i].tolist() == pytest.approx([winners[q] / winners.sum() for q in seats])
        best_other = [max(scores[game, o] for o in range(3) if o != q) for q in seats]
        assert positions.margin[i].tolist() == [scores[game, q] - b for q, b in zip(seats, best_other, strict=True)]
        assert np.array_equal(positions.obs[i], obs.astype(np.float16))
        assert np.array_equal(masks[i], mask)
        assert np.allclose(positions.policy[i], policy, atol=1e-3)
        assert positions.variant[i] == game % 2
    assert (positions.win[:, 0] == 0).any() and (positions.win[:, 0] > 0).any()


def test_team_games_record_value_targets_per_kingdom_from_the_movers_team():
    rules = Rules(6, game="royal_wedding", teams=True)
    state = core.new_games(rules, [1, 2])
    recorder = Recorder(state, np.zeros(2, dtype=np.int64))
    greedy = agents.load("greedy", seed=0)
    movers = []
    while not state.is_over.all():
        live = np.flatnonzero(~state.is_over)
        mask = core.legal_action_mask(state)
        choice = live[mask[live].sum(axis=1) > 1]
        if choice.size:
            recorder.record(choice, mask[choice], mask[choice] / mask[choice].sum(axis=1, keepdims=True))
            movers += [(int(g), int(state.current_kingdom[g])) for g in choice]
        actions = np.zeros(state.batch_size, dtype=np.int64)
        actions[live] = greedy.act(state, live, mask[live], None)
        core.step(state, actions)
    positions = recorder.positions()
    assert positions.win.shape == positions.margin.shape == (len(movers), rules.kingdoms)
    winners = core.kingdom_ranks(state) == 0
    for i, (game, own) in enumerate(movers):
        kingdoms = [(own + k) % rules.kingdoms for k in range(rules.kingdoms)]
        assert positions.win[i].tolist() == pytest.approx([winners[game, q] / winners[game].sum() for q in kingdoms])
        best_other = [max(state.scores[game, o] for o in range(rules.kingdoms) if o != q) for q in kingdoms]
        assert positions.margin[i].tolist() == [state.scores[game, q] - b for q, b in zip(kingdoms, best_other,
                                                                                          strict=True)]


def test_queendomino_losses_are_finite_and_fall_when_fitting_greedy_positions():
    from agents.az.network import make_network

    variants = [Rules(2, game="queendomino")]
    batch = greedy_positions(variants, games=1, seed=2)
    assert batch.policy.shape[1] == variants[0].n_actions and batch.win.shape[1] == 2
    torch.manual_seed(0)
    net = make_network("queendomino", 13, NetConfig(**TINY))
    optimizer = torch.optim.Adam(net.parameters(), lr=1e-2)
    totals = []
    for _ in range(10):
        policy, value = losses(net, batch, variants)
        assert torch.isfinite(policy) and torch.isfinite(value)
        totals.append((policy + value).item())
        optimizer.zero_grad()
        (policy + value).backward()
        optimizer.step()
    assert totals[-1] < totals[0]


def test_greedy_positions_are_labelled_with_legal_greedy_moves_and_round_trip(tmp_path):
    variants = [Rules.from_dict(v) for v in VARIANTS]
    positions = greedy_positions(variants, games=6, seed=1)
    n_actions = variants[0].n_actions
    masks = positions.unpacked_mask(n_actions)
    assert positions.policy.shape == (len(positions), n_actions) and len(positions) > 6 * 20
    assert (positions.policy.sum(axis=1) == 1).all()
    assert masks[np.arange(len(positions)), positions.policy.argmax(axis=1)].all()
    assert (masks.sum(axis=1) > 1).all()
    assert set(np.unique(positions.variant)) == {0, 1}
    assert np.allclose(positions.win.sum(axis=1), 1)
    path = tmp_path / "positions.npz"
    positions.save(str(path))
    loaded = Positions.load(str(path))
    for name in ("obs", "variant", "mask", "policy", "win", "margin"):
        before, after = getattr(positions, name), getattr(loaded, name)
        assert before.dtype == after.dtype and np.array_equal(before, after), name


def numbered(n: int, start: int) -> Positions:
    """`n` dummy positions whose win[:, 0] counts from `start` (to tell them apart)."""
    return Positions(obs=np.zeros((n, 3), np.float16), variant=np.zeros(n, np.int8), mask=np.zeros((n, 2), np.uint8),
                     policy=np.zeros((n, 4), np.float16), win=np.arange(start, start + n, dtype=np.float32)[:, None],
                     margin=np.zeros((n, 1), np.float32))


def test_the_replay_buffer_keeps_the_newest_positions():
    buffer = ReplayBuffer(capacity=10)
    assert len(buffer) == 0
    buffer.add(numbered(4, 0))
    assert len(buffer) == 4
    buffer.add(numbered(4, 4))
    buffer.add(numbered(4, 8))
    assert len(buffer) == 10
    assert buffer.data.win[:, 0].tolist() == list(range(2, 12))
    buffer.add(numbered(25, 100))
    assert buffer.data.win[:, 0].tolist() == list(range(115, 125))
    sample = buffer.sample(7, np.random.default_rng(0))
    assert len(sample) == 7 and set(sample.win[:, 0].tolist()) <= set(range(115, 125))


def test_losses_are_finite_and_fall_when_fitting_a_batch():
    variants = [Rules.from_dict(v) for v in VARIANTS]
    batch = greedy_positions(variants, games=2, seed=2)
    torch.manual_seed(0)
    net = AZNet(9, NetConfig(**TINY))
    optimizer = torch.optim.Adam(net.parameters(), lr=1e-2)
    first = None
    for _ in range(15):
        policy, value = losses(net, batch, variants)
        assert torch.isfinite(policy) and torch.isfinite(value) and policy > 0 and value > 0
        total = policy + value
        first = total.item() if first is None else first
        optimizer.zero_grad()
        total.backward()
        assert all(p.grad is not None and torch.isfinite(p.grad).all() for p in net.parameters())
        optimizer.step()
    assert total.item() < first


def test_gumbel_selfplay_targets_are_improved_policies_over_legal_actions(tmp_path):
    torch.manual_seed(0)
    path = tmp_path / "net.az"
    save_network(path, AZNet(9, NetConfig(**TINY)), [2])
    net, _ = load_network(path)
    config = SelfPlayConfig(simulations=8, batch=4, root="gumbel", gumbel_actions=4, endgame=False)
    runs = [selfplay(NetworkEvaluator(net), [Rules(2)], games=2, seed=5, config=config) for _ in range(2)]
    positions, simulations = runs[0]
    assert simulations == 8 * len(positions)
    masks = positions.unpacked_mask(Rules(2).n_actions)
    policy = positions.policy.astype(np.float64)
    assert np.allclose(policy.sum(axis=1), 1, atol=1e-2) and (policy[~masks] == 0).all()
    assert not np.allclose(policy * 8, np.round(policy * 8))
    again, _ = runs[1]
    assert np.array_equal(positions.policy, again.policy) and np.array_equal(positions.obs, again.obs)


@pytest.mark.parametrize("root", ["gumbel", "puct"])
def test_selfplay_solves_the_last_round_instead_of_searching_it(root, tmp_path):
    """With `endgame` (the default) the last round's decisions cost no simulation and their targets are the
    solver's move alone: of 2 two-player games' 8 last-round placements, those with a choice are recorded unsearched."""
    torch.manual_seed(0)
    path = tmp_path / "net.az"
    save_network(path, AZNet(9, NetConfig(**TINY)), [2])
    net, _ = load_network(path)
    config = SelfPlayConfig(simulations=8, batch=4, root=root, gumbel_actions=4)
    positions, simulations = selfplay(NetworkEvaluator(net), [Rules(2)], games=2, seed=5, config=config)
    assert simulations % 8 == 0
    solved = len(positions) - simulations // 8
    assert 1 <= solved <= 8
    policy = positions.policy.astype(np.float64)
    one_hot = (policy == 1).sum(axis=1) == 1
    assert one_hot.sum() >= solved
    assert (positions.unpacked_mask(Rules(2).n_actions)[one_hot, policy[one_hot].argmax(axis=1)]).all()


def test_selfplay_targets_are_visit_shares_over_legal_actions(tmp_path):
    torch.manual_seed(0)
    path = tmp_path / "net.az"
    save_network(path, AZNet(9, NetConfig(**TINY)), [2])
    net, _ = load_network(path)
    config = SelfPlayConfig(simulations=4, batch=4, temperature_steps=6, root="puct", endgame=False)
    runs = [selfplay(NetworkEvaluator(net), [Rules(2)], games=2, seed=5, config=config) for _ in range(2)]
    positions, simulations = runs[0]
    assert simulations == 4 * len(positions) and len(positions) > 2 * 20
    masks = positions.unpacked_mask(Rules(2).n_actions)
    policy = positions.policy.astype(np.float64)
    assert np.allclose(policy.sum(axis=1), 1) and (policy[~masks] == 0).all()
    assert np.allclose(policy * 4, np.round(policy * 4))
    assert np.allclose(np.abs(positions.win.sum(axis=1)), 1)
    again, _ = runs[1]
    assert np.array_equal(positions.policy, again.policy) and np.array_equal(positions.obs, again.obs)
