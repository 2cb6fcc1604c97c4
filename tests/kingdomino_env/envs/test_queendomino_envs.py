"""Queendomino in the training envs: the vector env (learner and self-play), the single-game Gymnasium env and
the SB3 adapter play the AEC env's games for the same seeds, with the same spaces and the same errors."""

from __future__ import annotations

import warnings

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import kingdomino_env  # noqa: F401  (registers the envs)
from kingdomino_env import core
from kingdomino_env.env import raw_env
from kingdomino_env.rules import Rules
from kingdomino_env.vector_env import KingdominoVectorEnv
from tests.kingdomino_env.envs.test_vector_env import FirstLegal, _aec_to_learner

SOLO = "kingdomino/QueendominoSolo-v0"


def test_self_play_waiting_slots_pass_with_the_discard_id_not_the_game_pass():
    """Self-play equals the AEC games for Queendomino too (`test_vector_env` runs both games); a waiting
    slot's pass is the discard id, never Queendomino's own PASS action."""
    vec = KingdominoVectorEnv(2, self_play=True, game="queendomino", players=3)
    assert vec.pass_action == vec.rules.discard_action != vec.rules.pass_action


@pytest.mark.parametrize(("players", "opponents"), [(2, "greedy"), (4, ("gprd", "random", "greedy"))])
def test_learner_env_equals_aec_games(players, opponents):
    """With FirstLegal opponents each game is the AEC game of its seed; spec-string opponents play legally."""
    games = 2
    vec = KingdominoVectorEnv(games, opponents=FirstLegal(), game="queendomino", players=players)
    assert vec.single_observation_space == raw_env(game="queendomino", players=players).observation_space(
        "player_0")["observation"]
    assert vec.single_action_space.n == Rules(game="queendomino", players=players).n_actions
    obs, info = vec.reset(seed=40)
    aecs = [raw_env(game="queendomino", players=players) for _ in range(games)]
    seats = info["learner_seat"]
    for b, aec in enumerate(aecs):
        aec.reset(seed=40 + b)
        _aec_to_learner(aec, seats[b])
    rng = np.random.default_rng(1)
    ended = 0
    while ended < games:
        masks = vec.action_masks()
        for b, aec in enumerate(aecs):
            seen = aec.observe(aec.agent_selection)
            np.testing.assert_array_equal(obs[b], seen["observation"])
            np.testing.assert_array_equal(masks[b], seen["action_mask"].astype(bool))
        actions = core.random_legal_actions(masks, rng)
        obs, rewards, terminated, _, info = vec.step(actions)
        for b, aec in enumerate(aecs):
            aec.step(int(actions[b]))
            _aec_to_learner(aec, seats[b])
            assert all(aec.terminations.values()) == terminated[b]
            if terminated[b]:
                ended += 1
                assert rewards[b] == aec.rewards[f"player_{seats[b]}"]
                aec.reset()
        seats = info["learner_seat"]
        for b, aec in enumerate(aecs):
            _aec_to_learner(aec, seats[b])
    spec = KingdominoVectorEnv(3, opponents=opponents, game="queendomino", players=players)
    spec.reset(seed=0)
    for _ in range(80):
        spec.step(core.random_legal_actions(spec.action_masks(), rng))  # raises if an opponent plays illegally


def test_vector_env_errors_as_in_kingdomino():
    vec = KingdominoVectorEnv(2, self_play=True, game="queendomino")
    vec.reset(seed=0)
    masks = vec.action_masks()
    actions = core.random_legal_actions(masks, np.random.default_rng(0))
    waiting = int(np.flatnonzero(~vec._info()["to_move"])[0])
    bad = actions.copy()
    bad[waiting] = vec.rules.pass_action  # the game's PASS is not the waiting slots' pass
    with pytest.raises(ValueError, match=f"must send the pass action {vec.pass_action}"):
        vec.step(bad)
    with pytest.raises(ValueError, match="actions must be 4 integers"):
        vec.step(actions.astype(float))
    with pytest.raises(ValueError, match="Queendomino has no option harmony"):
        KingdominoVectorEnv(2, game="queendomino", harmony=True)
    with pytest.raises(ValueError, match="game must be one of"):
        KingdominoVectorEnv(2, game="queendom")


def test_make_vec_and_seeding():
    vec = gymnasium.make_vec(SOLO, num_envs=3, players=3)
    assert isinstance(vec, KingdominoVectorEnv) and vec.rules.is_queendomino and vec.num_envs == 3
    first, _ = vec.reset(seed=9)
    again, _ = KingdominoVectorEnv(3, game="queendomino", players=3).reset(seed=9)
    np.testing.assert_array_equal(first, again)
    state = vec.state
    np.testing.assert_array_equal(state.pile[1], core.deal(vec.rules, np.random.default_rng(10))[2])


@pytest.mark.parametrize("options", [
    {},
    {"players": 3, "opponents": ("greedy", "gprd"), "render_mode": "ansi"},
    {"players": 4, "opponents": "greedy", "reward": "margin"},
])
def test_check_env(options):
    env = gymnasium.make(SOLO, **options)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(env.unwrapped)
    assert all("maximum value is infinity" in str(w.message) for w in caught), [str(w.message) for w in caught]


def test_solo_env_plays_the_aec_game_of_the_same_seed():
    env = gymnasium.make(SOLO, opponents=FirstLegal(), learner_seat=0, reward="score")
    aec = raw_env(game="queendomino", reward="score")
    for seed in (21, None):
        obs, info = env.reset(seed=seed)
        aec.reset(seed=seed)
        while True:
            _aec_to_learner(aec, 0)
            if all(aec.terminations.values()):
                break
            seen = aec.observe("player_0")
            np.testing.assert_array_equal(obs, seen["observation"])
            np.testing.assert_array_equal(info["action_mask"], seen["action_mask"].astype(bool))
            action = int(np.flatnonzero(info["action_mask"])[-1])
            aec.step(action)
            obs, reward, terminated, _, info = env.step(action)
        assert terminated and reward == aec.rewards["player_0"] == info["score"]


def test_solo_env_illegal_and_invalid_actions():
    env = gymnasium.make(SOLO, illegal_reward=-2)
    env.reset(seed=0)
    with pytest.raises(ValueError, match="action must be an integer"):
        env.step(1.0)
    illegal = int(np.flatnonzero(~env.unwrapped.action_masks())[0])
    _, reward, terminated, truncated, info = env.step(illegal)
    assert (reward, terminated, truncated, info["illegal_action"]) == (-2.0, True, False, True)


def test_sb3_vec_env_steps_queendomino():
    pytest.importorskip("stable_baselines3")
    from kingdomino_env.envs.sb3 import SB3VecEnv

    env = SB3VecEnv(KingdominoVectorEnv(2, self_play=True, game="queendomino"))
    assert env.num_envs == 4 and env.action_space.n == Rules(game="queendomino").n_actions
    env.seed(3)
    obs = env.reset()
    rng = np.random.default_rng(0)
    done_seen = False
    for _ in range(300):
        masks = np.stack(env.env_method("action_masks"))
        obs, rewards, dones, infos = env.step(core.random_legal_actions(masks, rng))
        assert obs.shape == (4, env.observation_space.shape[0])
        for i in np.flatnonzero(dones):
            done_seen = True
            assert "terminal_observation" in infos[i] and "score" in infos[i]
    assert done_seen
