"""Training: a smoke run that trains, saves, reloads and plays; evaluation equals a tournament; config handling."""

from __future__ import annotations

import json
import os
import re

import numpy as np
import pytest

pytest.importorskip("sb3_contrib")

import agents  # noqa: E402
import kingdomino_env  # noqa: E402
from tests.variants import play_aec  # noqa: E402
from tournament import TournamentConfig, run_tournament  # noqa: E402
from training.evaluate import evaluate  # noqa: E402
from training.train_ppo import TrainConfig, parse_args, train, trained_steps  # noqa: E402


@pytest.fixture(scope="module")
def trained(tmp_path_factory):
    out = tmp_path_factory.mktemp("run")
    config = TrainConfig(timesteps=2048, imitation_games=20, imitation_epochs=1, games=16, n_steps=64,
                         batch_size=256, n_epochs=1, eval_every=1024, eval_games=4, snapshot_every=1024,
                         out=str(out), seed=3)
    return config, train(config)


def test_smoke_run_trains_saves_reloads_and_plays_legal_games(trained):
    config, model_path = trained
    out = model_path.parent
    assert model_path.is_file()
    assert json.loads((out / "config.json").read_text())["timesteps"] == 2048
    rows = (out / "eval.csv").read_text().splitlines()
    assert rows[0].startswith("timesteps,win_rate") and len(rows) >= 3
    assert (out / "learning_curve.png").is_file()
    agent = agents.load(f"ppo:{model_path}")
    for seed in range(3):
        play_aec(kingdomino_env.env(players=2), agent, seed)


def test_the_progress_bar_counts_the_steps_sb3_really_trains(tmp_path, capsys):
    config = TrainConfig(timesteps=100, imitation_games=0, games=4, n_steps=16, batch_size=64, n_epochs=1,
                         eval_every=10**6, eval_games=2, snapshot_every=10**6, out=str(tmp_path), seed=0)
    train(config)
    output = capsys.readouterr().out
    done, total = (int(n.replace(",", "")) for n in re.findall(r"([\d,]+)/([\d,]+) steps", output)[-1])
    last_evaluation = int(re.findall(r"^step (\d+):", output, re.MULTILINE)[-1])
    assert done == total == last_evaluation == 128, output  # 100 steps: two whole rollouts of 4 games x 16 steps
    assert "PPO trains 128 steps for timesteps 100" in output, "the rounding is stated"


def test_trained_steps_rounds_each_stretch_between_snapshots_up_to_whole_rollouts():
    assert trained_steps(20_000, 200_000, 128 * 64) == 24_576  # the defaults: 128 games x 64 steps
    assert trained_steps(1024, 1024, 1024) == 1024
    assert trained_steps(100, 10**6, 64) == 128
    assert trained_steps(250, 100, 64) == 256  # 100 steps ask for 128; then 100 of the 122 left, 128 more
    assert trained_steps(300, 100, 64) == 320  # 128 + 128, then the 44 left round up to 64
    with pytest.raises(ValueError, match="rollout must be at least 1"):
        trained_steps(10, 10, 0)


def test_evaluation_equals_a_tournament_on_the_same_seed(trained):
    _, model_path = trained
    result = evaluate(model_path, "greedy", games=8, seed=11)
    tournament = run_tournament(TournamentConfig(agents=(f"ppo=ppo:{model_path}", "opponent=greedy"), games=8,
                                                 seed=11))
    stats = tournament.agents["ppo"]
    assert result.games == stats["games"] == 8
    assert result.win_rate == stats["win_rate"]
    assert list(result.win_rate_ci) == stats["win_rate_ci"]
    assert result.mean_margin == stats["mean_margin"]


def test_config_file_and_flags(tmp_path):
    path = tmp_path / "config.json"
    path.write_text(json.dumps({"timesteps": 5000, "games": 32, "seed": 4}))
    config = parse_args(["--config", str(path), "--games", "64", "--mighty-duel"])
    assert (config.timesteps, config.games, config.seed, config.mighty_duel) == (5000, 64, 4, True)
    assert config.rules.grid == 7
    path.write_text(json.dumps({"timestep": 5}))
    with pytest.raises(SystemExit):
        parse_args(["--config", str(path)])
    with pytest.raises(SystemExit):
        parse_args(["--players", "5"])
    with pytest.raises(ValueError, match="reward must be one of"):
        TrainConfig(reward="points")
    with pytest.raises(ValueError, match="greedy_share"):
        TrainConfig(greedy_share=0.8, random_share=0.5)


@pytest.mark.parametrize(("data", "message"), [
    ({"timestep": 5}, "unknown config keys ['timestep']"),
    ({"learning_rate": "x"}, "learning_rate must be a number greater than 0 and at most 10, got 'x'"),
    ({"games": -4}, "games must be an integer from 1 to 65536, got -4"),
    ({"games": 2.5}, "games must be an integer from 1 to 65536, got 2.5"),
    ({"seed": -1}, "seed must be an integer from 0 to 9223372036854775807, got -1"),
    ({"gamma": 1.5}, "gamma must be a number from 0 to 1, got 1.5"),
    ({"imitation_epochs": "4"}, "imitation_epochs must be an integer from 0 to 10000, got '4'"),
    ({"reward": 3}, "reward must be one of"),
    ({"mighty_duel": "yes"}, "the variant (players, mighty_duel, game, teams): mighty_duel must be True or False"),
    ({"greedy_share": 0.8, "random_share": 0.5}, "greedy_share and random_share must sum to at most 1"),
    ({"random_share": -0.1}, "random_share must be a number from 0 to 1, got -0.1"),
    ({"out": "{file}"}, "is an existing file, not a folder"),
    ({"out": "{file}/run"}, "which is not a folder"),
    ([1, 2], "must hold a JSON object of config keys, got list"),
    (7, "must hold a JSON object of config keys, got int"),
])
def test_bad_configs_name_the_key_and_exit_2_before_anything_runs(tmp_path, capsys, data, message):
    taken = tmp_path / "notes.txt"
    taken.write_text("mine")
    if isinstance(data, dict):
        data = {k: v.format(file=taken) if isinstance(v, str) else v for k, v in data.items()}
    path = tmp_path / "config.json"
    path.write_text(json.dumps(data))
    with pytest.raises(SystemExit) as exit_:
        parse_args(["--config", str(path)])
    assert exit_.value.code == 2 and message in capsys.readouterr().err
    assert taken.read_text() == "mine" and sorted(p.name for p in tmp_path.iterdir()) == ["config.json", "notes.txt"]


def test_a_config_path_that_is_a_fifo_is_refused_without_blocking(tmp_path, capsys):
    fifo = tmp_path / "config.json"
    os.mkfifo(fifo)
    with pytest.raises(SystemExit) as exit_:
        parse_args(["--config", str(fifo)])
    assert exit_.value.code == 2 and "is not a regular file: it is a FIFO" in capsys.readouterr().err


def test_opponent_mix_follows_the_shares():
    from training.ppo_config import opponent_mix

    config = TrainConfig(games=10, greedy_share=0.5, random_share=0.2)
    assert opponent_mix(config, []) == ["greedy"] * 5 + ["random"] * 2 + ["greedy"] * 3
    pool = ["a", "b"]
    assert opponent_mix(config, pool)[7:] == ["a", "b", "a"]
    assert np.mean([m == "greedy" for m in opponent_mix(TrainConfig(games=100), pool)]) == 0.5


def test_export_keeps_the_policy_and_drops_the_optimizer_state(trained, tmp_path):
    from training.export import export

    _, model_path = trained
    small = export(model_path, tmp_path / "small.zip")
    assert small.stat().st_size < model_path.stat().st_size
    before, after = agents.load(f"ppo:{model_path}"), agents.load(f"ppo:{small}")
    from kingdomino_env import core
    from kingdomino_env.rules import Rules

    state = core.new_games(Rules(2), range(16))
    mask = core.legal_action_mask(state)
    games = np.arange(16)
    obs = core.observe(state)
    np.testing.assert_array_equal(before.act(state, games, mask, obs), after.act(state, games, mask, obs))


def test_run_dir_is_a_second_name_of_out(tmp_path):
    assert parse_args(["--run-dir", str(tmp_path / "a")]).out == str(tmp_path / "a")
    assert parse_args(["--out", str(tmp_path / "b")]).out == str(tmp_path / "b")
