"""MaskablePPO trains on the vector env (learner and self-play) and on the single-game env in a SubprocVecEnv,
and the trained model only picks legal actions; a trained model plays as an opponent."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest

pytest.importorskip("sb3_contrib")

from sb3_contrib import MaskablePPO  # noqa: E402
from sb3_contrib.common.maskable.utils import get_action_masks  # noqa: E402
from stable_baselines3.common.vec_env import SubprocVecEnv, VecMonitor  # noqa: E402

from kingdomino_env import core  # noqa: E402
from kingdomino_env.envs.sb3 import ModelPolicy, SB3VecEnv  # noqa: E402
from kingdomino_env.vector_env import KingdominoVectorEnv  # noqa: E402


@pytest.fixture(autouse=True)
def one_torch_thread():
    """Tiny networks run fastest on one thread; two threads on a busy 2-core machine are ~10x slower."""
    import torch

    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(threads)


TINY = {"n_steps": 64, "batch_size": 256, "n_epochs": 2, "policy_kwargs": {"net_arch": [32]}, "seed": 0,
        "device": "cpu"}


def _plays_legally(model, env, steps: int) -> None:
    """Run the model with masks for `steps` steps of an SB3 VecEnv, checking each action against the mask."""
    obs = env.reset()
    for _ in range(steps):
        masks = get_action_masks(env)
        actions, _ = model.predict(obs, action_masks=masks, deterministic=True)
        assert masks[np.arange(len(actions)), actions].all()
        obs, _, _, infos = env.step(actions)
        assert not any(info.get("illegal_action") for info in infos)


def test_maskable_ppo_on_the_vector_env():
    env = VecMonitor(SB3VecEnv(KingdominoVectorEnv(8, opponents=["random", "greedy"] * 4)))
    model = MaskablePPO("MlpPolicy", env, **TINY).learn(2048)
    assert model.num_timesteps >= 2048
    _plays_legally(model, env, 60)  # past the end of the 24-decision games: auto-reset included

    # A frozen copy of the model as an opponent: the env raises if an opponent plays an illegal action.
    vec = KingdominoVectorEnv(4, opponents=ModelPolicy(model, deterministic=True))
    vec.reset(seed=0)
    rng = np.random.default_rng(0)
    for _ in range(30):
        vec.step(core.random_legal_actions(vec.action_masks(), rng))


def test_maskable_ppo_self_play():
    env = SB3VecEnv(KingdominoVectorEnv(4, self_play=True))
    assert env.num_envs == 8
    model = MaskablePPO("MlpPolicy", env, **TINY).learn(1024)
    assert model.num_timesteps >= 1024
    _plays_legally(model, env, 60)  # waiting slots must send the pass action, or the env raises


def test_maskable_ppo_on_the_single_game_env_in_subprocesses():
    # "module:id" makes gymnasium import kingdomino_env (which registers the id) in each worker process.
    make = [lambda: gymnasium.make("kingdomino_env:kingdomino/KingdominoSolo-v0", opponents="greedy")] * 2
    env = VecMonitor(SubprocVecEnv(make, start_method="fork"))
    try:
        model = MaskablePPO("MlpPolicy", env, **{**TINY, "n_steps": 256, "batch_size": 128}).learn(2048)
        assert model.num_timesteps >= 2048
        _plays_legally(model, env, 60)
    finally:
        env.close()


def test_sb3_conventions():
    env = VecMonitor(SB3VecEnv(KingdominoVectorEnv(3, learner_seat=[0, 1, 0])))
    env.seed(5)
    first = env.reset()
    env.seed(5)
    np.testing.assert_array_equal(env.reset(), first)
    rng = np.random.default_rng(0)
    for t in range(24):
        obs, rewards, dones, infos = env.step(core.random_legal_actions(get_action_masks(env), rng))
        assert dones.tolist() == [t == 23] * 3
    for i in range(3):
        assert infos[i]["terminal_observation"].shape == obs[i].shape
        assert not np.array_equal(infos[i]["terminal_observation"], obs[i])
        assert infos[i]["episode"]["l"] == 24 and infos[i]["episode"]["r"] == rewards[i]
        assert infos[i]["rank"] in (0, 1)
    with pytest.raises(ValueError, match="wraps a KingdominoVectorEnv"):
        SB3VecEnv(gymnasium.make("kingdomino/KingdominoSolo-v0"))
    with pytest.raises(ValueError, match="needs a model with predict"):
        ModelPolicy(object())
