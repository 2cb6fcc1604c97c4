"""The PPO loader: a MaskablePPO trained for a few hundred steps, saved, loaded by spec, playing legal games."""

from __future__ import annotations

import numpy as np
import pytest

import kingdomino_env
from agents import AgentSpecError, load
from kingdomino_env import core
from kingdomino_env.gym_env import KingdominoSoloEnv
from kingdomino_env.rules import Rules
from tests.variants import play_aec

sb3_contrib = pytest.importorskip("sb3_contrib")


@pytest.fixture(scope="module")
def model_path(tmp_path_factory):
    env = KingdominoSoloEnv(players=2, opponents="random")
    model = sb3_contrib.MaskablePPO("MlpPolicy", env, n_steps=64, batch_size=32, n_epochs=1, seed=0, device="cpu",
                                    policy_kwargs={"net_arch": [32]})
    model.learn(total_timesteps=128)
    path = tmp_path_factory.mktemp("ppo") / "tiny.zip"
    model.save(path)
    return path


def test_loaded_policy_plays_legal_batched_games(model_path):
    agent = load(f"ppo:{model_path}")
    assert agent.needs_observation and agent.name == f"ppo:{model_path}"
    state = core.new_games(Rules(2), range(8))
    while not state.is_over.all():
        games = np.flatnonzero(~state.is_over)
        mask = core.legal_action_mask(state)[games]
        for obs in (core.observe(state.take(games)), None):
            actions = agent.act(state, games, mask, obs)
            assert mask[np.arange(games.size), actions].all()
        full = np.zeros(state.batch_size, dtype=np.int64)
        full[games] = actions
        core.step(state, full)


def test_loaded_policy_plays_through_the_aec_env_and_without_the_zip_suffix(model_path):
    agent = load(f"ppo:{str(model_path)[:-4]}")
    play_aec(kingdomino_env.env(players=2), agent, seed=1)


def test_a_policy_of_another_variant_is_refused_clearly(model_path):
    agent = load(f"ppo:{model_path}")
    state = core.new_games(Rules(4), [0])
    with pytest.raises(ValueError, match="another variant"):
        agent.act(state, np.array([0]), core.legal_action_mask(state), None)


def test_a_file_that_is_not_a_model_is_an_agent_spec_error(tmp_path):
    bad = tmp_path / "bad.zip"
    bad.write_text("not a model")
    with pytest.raises(AgentSpecError):
        load(f"ppo:{bad}")
