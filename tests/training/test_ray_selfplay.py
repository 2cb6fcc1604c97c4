"""Self-play on Ray (2 CPUs): az workers give the process pool's positions and a run checkpoints; csearch jobs give
the positions played here; the PPO rollout's games step on actors and a short PPO run saves its model."""

from __future__ import annotations

import contextlib
import csv
import io
import json
from dataclasses import fields
from pathlib import Path

import numpy as np
import pytest

ray = pytest.importorskip("ray")
torch = pytest.importorskip("torch")
pytest.importorskip("sb3_contrib")
pytest.importorskip("tensorboard")

from sb3_contrib import MaskablePPO  # noqa: E402

from agents.az.files import save_network  # noqa: E402
from agents.az.network import AZNet, NetConfig  # noqa: E402
from kingdomino_env import core  # noqa: E402
from kingdomino_env.envs.sb3 import ModelPolicy  # noqa: E402
from kingdomino_env.rules import Rules  # noqa: E402
from tournament.ray_runner import init_ray  # noqa: E402
from training.az_data import Positions  # noqa: E402
from training.az_selfplay import SelfPlayConfig, selfplay_task  # noqa: E402
from training.ray_selfplay import RayEnvs, RaySelfPlay  # noqa: E402
from training.train_az import main as train_az  # noqa: E402
from training.train_ppo import TrainConfig, train  # noqa: E402

VARIANTS = [{"players": 2}]
SELFPLAY = {**SelfPlayConfig(simulations=4, batch=4, temperature_steps=4).to_dict()}


@pytest.fixture(scope="module", autouse=True)
def local_ray():
    """One Ray instance of 2 CPUs for the module."""
    init_ray(num_cpus=2)
    yield
    ray.shutdown()


def _tiny_network(path: Path) -> Path:
    torch.manual_seed(0)
    save_network(path, AZNet(Rules(players=2).frame, NetConfig(8, 1, 16)).eval(), [2])
    return path


def _same(a: Positions, b: Positions) -> bool:
    return all(np.array_equal(getattr(a, f.name), getattr(b, f.name)) for f in fields(Positions))


def test_ray_actors_play_the_positions_of_the_process_pool(tmp_path: Path) -> None:
    network = _tiny_network(tmp_path / "tiny.az")
    jobs = [(2, 11), (1, 12)]
    with RaySelfPlay(2) as workers:
        results = workers.play(network, VARIANTS, jobs, SELFPLAY)
    for (positions, simulations, seconds), (games, seed) in zip(results, jobs, strict=True):
        expected, expected_simulations, _ = selfplay_task(str(network), VARIANTS, games, seed, SELFPLAY)
        assert len(positions) > 0 and simulations == expected_simulations and seconds > 0
        assert _same(positions, expected)


def test_a_short_az_run_with_two_ray_actors_checkpoints(tmp_path: Path) -> None:
    config = {"variants": VARIANTS, "seed": 3, "channels": 8, "blocks": 1, "hidden": 16, "warm_games": 4,
              "warm_steps": 3, "iterations": 1, "games_per_iteration": 2, "workers": 2, "threads": 1,
              "selfplay": SELFPLAY, "train_steps": 2, "batch_size": 32, "buffer": 2000, "eval_every": 1,
              "eval_games": 2, "eval_simulations": 2, "eval_opponents": ["greedy"], "out": str(tmp_path / "run")}
    (tmp_path / "run.json").write_text(json.dumps(config))
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        train_az(["--config", str(tmp_path / "run.json"), "--ray"])
    out = tmp_path / "run"
    assert (out / "latest.az").is_file()
    assert sorted(p.name for p in (out / "checkpoints").iterdir()) == ["iter_0000.az", "iter_0001.az"]
    with (out / "log.csv").open(newline="") as f:
        log = list(csv.DictReader(f))
    assert [int(r["iteration"]) for r in log] == [1] and int(log[0]["positions"]) > 0
    assert "iteration 1: az:2 vs greedy" in printed.getvalue()


def test_ppo_games_step_on_ray_actors_with_shipped_snapshots(tmp_path: Path) -> None:
    config = TrainConfig(games=6, greedy_share=0.34, random_share=0.0, threads=1, out=str(tmp_path))
    envs = RayEnvs(workers=2)
    try:
        first = envs(config, [], seed=4)
        model = MaskablePPO("MlpPolicy", first, n_steps=8, batch_size=48, n_epochs=1, seed=0, device="cpu")
        snapshot = ModelPolicy(model)
        env = envs(config, [snapshot], seed=5)
        assert env.num_envs == 6 and len(envs.shipped) == 1
        obs = env.reset()
        rng = np.random.default_rng(0)
        finished = 0
        for _ in range(60):
            masks = np.stack(env.env_method("action_masks"))
            assert masks.shape == (6, Rules(players=2).n_actions) and masks.any(axis=1).all()
            actions = np.array([rng.choice(np.flatnonzero(row)) for row in masks])
            obs, rewards, dones, infos = env.step(actions)
            assert obs.shape[0] == 6 and rewards.shape == (6,)
            finished += int(dones.sum())
            assert all("terminal_observation" in infos[i] for i in np.flatnonzero(dones))
        assert finished > 0
        env = envs(config, [], seed=6)
        assert envs.shipped == {}
    finally:
        envs.close()


def test_a_short_ppo_run_on_ray_saves_a_model_that_plays_legal_moves(tmp_path: Path) -> None:
    config = TrainConfig(timesteps=512, imitation_games=4, imitation_epochs=1, games=8, n_steps=32,
                         batch_size=128, n_epochs=1, eval_every=512, eval_games=2, snapshot_every=256,
                         out=str(tmp_path), seed=3)
    path = train(config, ray=True)
    assert path.is_file() and (tmp_path / "checkpoints" / "snapshot_2.zip").is_file()
    model = MaskablePPO.load(path, device="cpu")
    deck, kings = core.deal(Rules(players=2), np.random.default_rng(0))
    state = core.init(Rules(players=2), deck[None], kings[None])
    mask = core.legal_action_mask(state)
    action, _ = model.predict(core.observe(state), action_masks=mask, deterministic=True)
    assert mask[0, int(action[0])]


def test_csearch_self_play_jobs_as_ray_tasks_play_the_games_played_here(tmp_path: Path) -> None:
    from training.csearch_net import VARIANTS, Variety, play_jobs, selfplay_jobs

    network = tmp_path / "net.npz"
    network.write_bytes(Path("training/kept/csearch_2p_basic_squares.npz").read_bytes())
    jobs = selfplay_jobs(VARIANTS["2p"], 3, 5, network, seed=2, variety=Variety(past_share=1.0), past=[network],
                         job_games=2)
    here, _ = play_jobs(jobs)
    on_ray, cpu = play_jobs(jobs, ray=True)
    assert cpu > 0 and np.unique(on_ray.game).size == 3
    for name in ("indices", "dense", "glob", "win", "margin", "game"):
        np.testing.assert_array_equal(getattr(on_ray, name), getattr(here, name))
