"""RLlib on our PettingZoo env (2 CPUs): a PPO iteration runs with one shared policy and samples only legal actions;
the command writes its checkpoint, progress and evaluation."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

ray = pytest.importorskip("ray")
pytest.importorskip("ray.rllib")
torch = pytest.importorskip("torch")

from ray.rllib.core.columns import Columns  # noqa: E402

from tournament.ray_runner import init_ray  # noqa: E402
from training.rllib_selfplay import POLICY, build_config, main, make_env  # noqa: E402


@pytest.fixture(scope="module", autouse=True)
def local_ray():
    """One Ray instance of 2 CPUs for the module."""
    init_ray(num_cpus=2)
    yield
    ray.shutdown()


def _observations(count: int, seed: int = 0) -> list[dict]:
    """Observations of the player to move along a game of random legal moves."""
    env = make_env({"players": 2})
    obs, _ = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    seen = []
    while len(seen) < count:
        agent, observation = next(iter(obs.items()))
        seen.append(observation)
        action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
        obs, _, terminated, _, _ = env.step({agent: action})
        if terminated["__all__"]:
            obs, _ = env.reset(seed=seed + len(seen))
    return seen


def test_the_env_refuses_illegal_actions():
    env = make_env({"players": 2})
    obs, _ = env.reset(seed=1)
    agent, observation = next(iter(obs.items()))
    with pytest.raises(ValueError, match="illegal action"):
        env.step({agent: int(np.flatnonzero(observation["action_mask"] == 0)[0])})


def test_one_iteration_trains_a_shared_policy_sampling_only_legal_actions():
    # The env raises on an illegal action and failed env runners are not restarted: an illegal sample fails train().
    algo = build_config(players=2, env_runners=1, batch=200, minibatch=100, epochs=1, hidden=32).build_algo()
    try:
        result = algo.train()
        assert result["num_env_steps_sampled_lifetime"] >= 200
        runners = result["env_runners"]
        assert set(runners["agent_episode_returns_mean"]) == {"player_0", "player_1"}
        assert set(runners["module_episode_returns_mean"]) == {POLICY}
        module = algo.get_module(POLICY)
        observations = _observations(60)
        batch = {Columns.OBS: {key: torch.from_numpy(np.stack([o[key] for o in observations]))
                               for key in ("observation", "action_mask")}}
        with torch.no_grad():
            logits = module.forward_exploration(batch)[Columns.ACTION_DIST_INPUTS]
        distribution = module.get_exploration_action_dist_cls().from_logits(logits)
        masks = batch[Columns.OBS]["action_mask"].numpy().astype(bool)
        for _ in range(50):
            actions = distribution.sample().numpy()
            assert masks[np.arange(len(actions)), actions].all()
        assert np.isclose(torch.softmax(logits, dim=1).numpy()[~masks], 0.0).all()
    finally:
        algo.stop()


def test_the_command_writes_checkpoint_progress_and_evaluation(tmp_path: Path, capsys):
    main(["--players", "2", "--iterations", "1", "--batch", "200", "--minibatch", "100", "--eval-games", "2",
          "--eval-opponents", "random", "--out", str(tmp_path)])
    summary = json.loads((tmp_path / "eval.json").read_text())
    assert summary["iterations"] == 1 and summary["env_steps"] >= 200
    (evaluation,) = summary["evaluations"]
    assert evaluation["opponent"] == "random" and evaluation["games"] == 2 and 0 <= evaluation["win_rate"] <= 1
    assert (tmp_path / "progress.csv").read_text().startswith("iteration,")
    assert any((tmp_path / "checkpoint").iterdir())
    assert "vs random: win rate" in capsys.readouterr().out
