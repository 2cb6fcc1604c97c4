"""KingdominoSoloEnv: gymnasium's check_env, the AEC game of the same seed, masks, illegal actions, errors."""

from __future__ import annotations

import warnings

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import kingdomino_env  # noqa: F401  (registers the env)
from kingdomino_env.env import raw_env
from kingdomino_env.gym_env import KingdominoSoloEnv

ENV_ID = "kingdomino/KingdominoSolo-v0"


class FirstLegal:
    needs_observation = False

    def act(self, state, games, mask, obs):
        return mask.argmax(axis=1)


@pytest.mark.parametrize("options", [
    {},
    {"players": 4, "opponents": ("greedy", "random", "gprd"), "render_mode": "ansi"},
    {"players": 3, "three_player_36": True, "reward": "margin", "render_mode": "rgb_array"},
])
def test_check_env(options):
    env = gymnasium.make(ENV_ID, **options)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(env.unwrapped)
    # The only remark: the AEC env's observation Box leaves the scores unbounded above.
    assert all("maximum value is infinity" in str(w.message) for w in caught), [str(w.message) for w in caught]


def test_same_game_as_aec_env_of_the_same_seed():
    env = gymnasium.make(ENV_ID, opponents=FirstLegal(), learner_seat=1, reward="score")
    aec = raw_env(reward="score")
    for episode in range(2):
        seed = 21 if episode == 0 else None
        obs, info = env.reset(seed=seed)
        aec.reset(seed=seed)
        assert info["learner_seat"] == 1
        steps = 0
        while True:
            while not all(aec.terminations.values()) and aec.agent_selection != "player_1":
                aec.step(int(np.flatnonzero(aec.observe(aec.agent_selection)["action_mask"])[0]))
            if all(aec.terminations.values()):
                break
            seen = aec.observe("player_1")
            np.testing.assert_array_equal(obs, seen["observation"])
            mask = env.unwrapped.action_masks()
            np.testing.assert_array_equal(mask, seen["action_mask"].astype(bool))
            np.testing.assert_array_equal(info["action_mask"], mask)
            action = int(np.flatnonzero(mask)[-1])
            aec.step(action)
            obs, reward, terminated, truncated, info = env.step(action)
            steps += 1
            assert not truncated
        assert terminated and steps == env.unwrapped.rules.max_actions // 2
        assert reward == aec.rewards["player_1"] == info["score"]
        assert info["rank"] == aec.infos["player_1"]["rank"]


def test_episode_rewards_and_masks():
    env = gymnasium.make(ENV_ID, opponents="greedy")
    obs, info = env.reset(seed=4)
    rng = np.random.default_rng(0)
    rewards = []
    while True:
        mask = env.unwrapped.action_masks()
        assert mask.dtype == np.bool_ and mask.any()
        obs, reward, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(mask))))
        rewards.append(reward)
        assert obs in env.observation_space
        if terminated:
            break
    assert len(rewards) == 24 and all(r == 0 for r in rewards[:-1])
    assert rewards[-1] in {0: {1.0, 0.0}, 1: {-1.0}}[info["rank"]]  # win (or shared win) / loss
    assert not env.unwrapped.action_masks().any()
    with pytest.raises(RuntimeError, match="call reset"):
        env.step(0)


def test_seeding_reproduces_seats_and_opponents():
    def play(seed):
        env = KingdominoSoloEnv(players=3, opponents=("random", "gprd"))
        out = []
        obs, info = env.reset(seed=seed)
        rng = np.random.default_rng(1)
        for _ in range(3):
            out += [obs, info["learner_seat"]]
            done = False
            while not done:
                obs, reward, done, _, info = env.step(int(rng.choice(np.flatnonzero(env.action_masks()))))
                out.append(obs)
            out.append(reward)
            obs, info = env.reset()
        return out

    first, again, other = play(8), play(8), play(9)
    assert all(np.array_equal(a, b) for a, b in zip(first, again, strict=True))
    assert not all(np.array_equal(a, b) for a, b in zip(first, other, strict=True))


def test_illegal_action_ends_the_episode():
    env = gymnasium.make(ENV_ID, illegal_reward=-2)
    env.reset(seed=0)
    illegal = int(np.flatnonzero(~env.unwrapped.action_masks())[0])
    obs, reward, terminated, truncated, info = env.step(illegal)
    assert (reward, terminated, truncated, info["illegal_action"]) == (-2.0, True, False, True)
    assert not info["action_mask"].any()


def test_render():
    env = KingdominoSoloEnv(render_mode="ansi")
    env.reset(seed=0)
    assert "player_0" in env.render()
    env = KingdominoSoloEnv(render_mode="rgb_array")
    env.reset(seed=0)
    frame = env.render()
    assert frame.ndim == 3 and frame.shape[2] == 3


@pytest.mark.parametrize(("options", "message"), [
    ({"opponents": ["random"]}, "one game takes one opponents entry"),
    ({"opponents": "alphazero"}, "unknown opponent 'alphazero'"),
    ({"players": 4, "opponents": ("random",)}, "lists 1 opponents; a 4-player game has 3"),
    ({"learner_seat": 2}, "learner_seat must be"),
    ({"illegal_reward": "lose"}, "illegal_reward must be a number"),
    ({"render_mode": "human"}, "unknown render_mode 'human'"),
    ({"reward": "points"}, "unknown reward 'points'"),
])
def test_bad_options(options, message):
    with pytest.raises(ValueError, match=message):
        KingdominoSoloEnv(**options)


def test_bad_calls():
    env = KingdominoSoloEnv()
    with pytest.raises(RuntimeError, match="call reset"):
        env.step(0)
    with pytest.raises(ValueError, match="reset takes no options"):
        env.reset(options={"record": {}})
    env.reset(seed=0)
    with pytest.raises(ValueError, match="action must be an integer"):
        env.step(1.0)
