"""The Royal Wedding in every env: the AEC env for 3-8 players and in teams (lengths, team ranks and rewards,
teammates marked, records), the vector env (learner team, self-play), the single-game Gymnasium env and the SB3
adapter, each playing the AEC env's games for the same seeds."""

from __future__ import annotations

import warnings

import gymnasium
import numpy as np
import pettingzoo
import pytest
from gymnasium.utils.env_checker import check_env
from hypothesis import given, settings
from hypothesis import strategies as st

import kingdomino_env
from kingdomino_env import core
from kingdomino_env.env import raw_env
from kingdomino_env.games.queendomino.kernels import Q_DOMINO_FEATURES
from kingdomino_env.observation import QueendominoLayout
from kingdomino_env.rules import Rules
from kingdomino_env.vector_env import KingdominoVectorEnv
from tests.kingdomino_env.envs.test_vector_env import FirstLegal

SOLO = "kingdomino/RoyalWeddingSolo-v0"
#: (players, teams) of every Royal Wedding variant.
VARIANTS = [(3, False), (4, False), (5, False), (6, False), (6, True), (7, False), (8, False), (8, True)]


def royal(players: int, teams: bool = False) -> Rules:
    return Rules(game="royal_wedding", players=players, teams=teams)


def play_aec(env, seed: int, rng: np.random.Generator, check=None
             ) -> tuple[dict[str, int], dict[str, tuple[float, dict]]]:
    """Play one random game in `env` (made by `kingdomino_env.env`); returns each agent's step count and final
    (reward, info). `check(env, agent, obs)` is called before each move."""
    env.reset(seed=seed)
    steps = dict.fromkeys(env.possible_agents, 0)
    finals: dict[str, tuple[float, dict]] = {}
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        if terminated or truncated:
            finals[agent] = (reward, info)
            env.step(None)
            continue
        if check is not None:
            check(env, agent, obs)
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        steps[agent] += 1
    return steps, finals


@pytest.mark.parametrize(("players", "teams"), VARIANTS)
def test_aec_games_of_every_size_last_as_the_rules_say_and_pay_teams(players, teams):
    rules = royal(players, teams)
    assert (rules.rounds, rules.line_size) == ((24, 4) if players <= 4 else (12, 8))
    assert rules.grid == (7 if players <= 4 or teams else 5)
    env = kingdomino_env.env(game="royal_wedding", players=players, teams=teams)
    assert env.possible_agents == [f"player_{i}" for i in range(players)]
    space = env.observation_space("player_0")["observation"]
    assert space.shape == (QueendominoLayout(rules).size,)
    def check(env, agent, obs):
        assert obs["observation"] in space
        assert obs["action_mask"].any()
        others = [a for a in env.agents if a != agent]
        assert not env.unwrapped.observe(others[0])["action_mask"].any()

    steps, finals = play_aec(env, seed=players, rng=np.random.default_rng(players), check=check)
    state = env.unwrapped.state
    assert sorted(finals) == sorted(env.possible_agents)
    total = sum(steps.values())
    kings = rules.kings
    assert kings + rules.rounds * kings + (rules.rounds - 1) * kings <= total <= rules.max_actions
    assert all(n >= 2 * rules.rounds for n in steps.values())  # each seat's king picks 1 + (rounds - 1), places rounds
    ranks = core.kingdom_ranks(state)[0]
    rewards = np.array([finals[f"player_{p}"][0] for p in range(players)])
    for p in range(players):
        k = rules.seat_kingdoms[p]
        assert finals[f"player_{p}"][1] == {"score": int(state.scores[0, k]), "rank": int(ranks[k])}
    by_kingdom = {k: {rewards[p] for p in rules.kingdom_seats(k)} for k in range(rules.kingdoms)}
    assert all(len(values) == 1 for values in by_kingdom.values())  # teammates get the same reward
    assert sum(v.pop() for v in by_kingdom.values()) == pytest.approx(0.0, abs=1e-6)  # zero-sum over kingdoms
    assert max(rewards) > 0 and rewards[ranks[list(rules.seat_kingdoms)] == 0].min() == max(rewards)


@settings(max_examples=6, deadline=None)
@given(variant=st.sampled_from(VARIANTS), seed=st.integers(0, 2**32 - 1), action_seed=st.integers(0, 2**32 - 1))
def test_batched_games_equal_single_aec_games_and_rank_teams_by_score(variant, seed, action_seed):
    """Two games stepped together in the self-play vector env are the AEC games of their seeds: same observations
    for every seat, same team rewards; the winners are the teams with the best score (then largest territory)."""
    players, teams = variant
    options = {"game": "royal_wedding", "players": players, "teams": teams}
    vec = KingdominoVectorEnv(2, self_play=True, **options)
    obs, info = vec.reset(seed=seed)
    aecs = [raw_env(**options) for _ in range(2)]
    for b, aec in enumerate(aecs):
        aec.reset(seed=seed + b)
    rng = np.random.default_rng(action_seed)
    done = np.zeros(2, dtype=bool)
    while not done.all():
        actions = core.random_legal_actions(vec.action_masks(), rng)
        for b, aec in enumerate(aecs):
            if done[b]:
                continue
            mover = aec.agent_name_mapping[aec.agent_selection]
            np.testing.assert_array_equal(obs[mover * 2 + b], aec.observe(aec.agent_selection)["observation"])
            aec.step(int(actions[mover * 2 + b]))
        obs, rewards, terminated, _, info = vec.step(actions)
        for b, aec in enumerate(aecs):
            if done[b] or not terminated[b]:
                continue
            done[b] = True
            rules, state = aec.rules, aec.state
            np.testing.assert_allclose(rewards[b::2], [aec.rewards[f"player_{p}"] for p in range(players)])
            key = state.scores[0].astype(np.int64) * 100 + state.largest[0]
            best = set(np.flatnonzero(key == key.max()).tolist())
            assert {rules.seat_kingdoms[p] for p in range(players) if aec.infos[f"player_{p}"]["rank"] == 0} == best


@pytest.mark.parametrize("reward", ["outcome", "score", "margin"])
def test_both_members_of_a_team_get_the_teams_reward_in_every_mode(reward):
    env = raw_env(game="royal_wedding", players=8, teams=True, reward=reward)
    env.reset(seed=5)
    rng = np.random.default_rng(0)
    while not all(env.terminations.values()):
        env.step(int(rng.choice(np.flatnonzero(env.observe(env.agent_selection)["action_mask"]))))
    scores = env.state.scores[0].astype(float)
    for t in range(4):
        mine, teammate = env.rewards[f"player_{2 * t}"], env.rewards[f"player_{2 * t + 1}"]
        assert mine == teammate
        if reward == "score":
            assert mine == scores[t]
        if reward == "margin":
            assert mine == scores[t] - np.delete(scores, t).max()
    if reward == "outcome":  # zero-sum over the 4 teams: a winner of w gets (4 / w - 1) / 3, a loser -1 / 3
        won = core.kingdom_ranks(env.state)[0] == 0
        for t in range(4):
            expected = (4 / won.sum() - 1) / 3 if won[t] else -1 / 3
            assert env.rewards[f"player_{2 * t}"] == pytest.approx(expected)
        assert sum(env.rewards.values()) == pytest.approx(0.0, abs=1e-6)


def test_observations_mark_the_teammates_king_and_show_the_teams_kingdom_first():
    rules = royal(6, teams=True)
    env = raw_env(game="royal_wedding", players=6, teams=True)
    env.reset(seed=3)
    layout = QueendominoLayout(rules)
    rng = np.random.default_rng(1)
    for _ in range(rules.kings):  # the starting round: every king picks
        env.step(int(rng.choice(np.flatnonzero(env.observe(env.agent_selection)["action_mask"]))))
    owners = env.state.cur_owner[0]
    for seat in range(6):
        obs = env.observe(f"player_{seat}")["observation"]
        slots = obs[layout.current_line].reshape(rules.line_size, layout.slot_size)
        marked = slots[:, Q_DOMINO_FEATURES:Q_DOMINO_FEATURES + 6]
        for slot, owner in enumerate(owners.tolist()):
            if owner < 0:
                continue
            relative = int(np.flatnonzero(marked[slot])[0])
            assert (relative == 0) == (owner == seat)
            assert (relative == 1) == (owner == seat ^ 1), (seat, owner, relative)
    # Own kingdom first: a teammate's view shows the same kingdom first.
    for t in range(3):
        first = env.observe(f"player_{2 * t}")["observation"][layout.kingdoms]
        second = env.observe(f"player_{2 * t + 1}")["observation"][layout.kingdoms]
        np.testing.assert_array_equal(first, second)


@pytest.mark.parametrize(("players", "teams"), [(5, False), (6, True)])
def test_records_replay_and_restore_the_game(players, teams):
    env = kingdomino_env.env(game="royal_wedding", players=players, teams=teams)
    play_aec(env, seed=11, rng=np.random.default_rng(2))
    record = env.unwrapped.record()
    assert record["game"] == "royal_wedding" and record["rules"]["teams"] is teams
    assert sorted(record["deck"]) == list(range(1, 49)) and sorted(record["queen_deck"]) == list(range(1, 49))
    assert len(record["scores"]) == (players // 2 if teams else players)
    again = raw_env(game="royal_wedding", players=players, teams=teams)
    again.reset(options={"record": record})
    assert again.record() == record
    for name, value in env.unwrapped.state._arrays().items():
        np.testing.assert_array_equal(getattr(again.state, name), value, err_msg=name)
    other = raw_env(game="royal_wedding", players=players, teams=not teams) if teams else \
        raw_env(game="royal_wedding", players=players + 1)
    with pytest.raises(ValueError, match="make the env with the record's rules"):
        other.reset(options={"record": record})


def test_pettingzoo_registry_and_api_test():
    from pettingzoo.test import api_test

    env = pettingzoo.make("aec", "kingdomino/RoyalWedding-v0", players=8, teams=True)
    assert env.unwrapped.rules == royal(8, teams=True) and env.unwrapped.metadata["name"] == "royal_wedding_v0"
    assert pettingzoo.make("aec", "kingdomino/RoyalWedding-v0").unwrapped.rules == royal(3)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(kingdomino_env.env(game="royal_wedding", players=6, teams=True), num_cycles=200)


def test_bad_options_are_refused():
    with pytest.raises(ValueError, match="teams"):
        kingdomino_env.env(game="royal_wedding", players=7, teams=True)
    with pytest.raises(ValueError, match="teams"):
        KingdominoVectorEnv(2, game="queendomino", players=4, teams=True)
    with pytest.raises(ValueError, match="players must be 3"):
        gymnasium.make(SOLO, players=9)


def _aec_to_team(aec: raw_env, team: int) -> None:
    """Play FirstLegal for the AEC game's other seats until a seat of `team` is to move or the game is over."""
    while not all(aec.terminations.values()) and aec.agent_name_mapping[aec.agent_selection] // 2 != team:
        aec.step(int(np.flatnonzero(aec.observe(aec.agent_selection)["action_mask"])[0]))


def test_the_learner_team_plays_both_its_seats_and_equals_the_aec_games():
    games = 2
    vec = KingdominoVectorEnv(games, opponents=FirstLegal(), game="royal_wedding", players=6, teams=True)
    assert vec.num_envs == games
    obs, info = vec.reset(seed=30)
    teams = info["learner_seat"] // 2
    aecs = [raw_env(game="royal_wedding", players=6, teams=True) for _ in range(games)]
    for b, aec in enumerate(aecs):
        aec.reset(seed=30 + b)
        _aec_to_team(aec, teams[b])
    rng = np.random.default_rng(1)
    seen_seats: list[set[int]] = [set() for _ in range(games)]
    ended = 0
    while ended < games:
        masks = vec.action_masks()
        for b, aec in enumerate(aecs):
            seat = aec.agent_name_mapping[aec.agent_selection]
            assert info["learner_seat"][b] == seat and seat // 2 == teams[b]
            seen_seats[b].add(seat)
            mine = aec.observe(aec.agent_selection)
            np.testing.assert_array_equal(obs[b], mine["observation"])
            np.testing.assert_array_equal(masks[b], mine["action_mask"].astype(bool))
        actions = core.random_legal_actions(masks, rng)
        obs, rewards, terminated, _, info = vec.step(actions)
        for b, aec in enumerate(aecs):
            aec.step(int(actions[b]))
            _aec_to_team(aec, teams[b])
            assert all(aec.terminations.values()) == terminated[b]
            if terminated[b]:
                ended += 1
                assert rewards[b] == aec.rewards[f"player_{2 * teams[b]}"] == aec.rewards[f"player_{2 * teams[b] + 1}"]
                assert info["final_info"]["score"][b] == aec.state.scores[0, teams[b]]
                assert seen_seats[b] == {2 * teams[b], 2 * teams[b] + 1}
                aec.reset()
        teams = info["learner_seat"] // 2
        for b, aec in enumerate(aecs):
            _aec_to_team(aec, teams[b])


def test_team_opponents_fill_the_other_teams_seats():
    vec = KingdominoVectorEnv(2, opponents=("greedy", "random", "gprd", "greedy", "random", "gprd"),
                              game="royal_wedding", players=8, teams=True, learner_seat=3)
    table = vec.opponents.table(np.array([3, 2]))
    assert (table[:, 2:4] == -1).all() and (table[:, [0, 1, 4, 5, 6, 7]] >= 0).all()
    vec.reset(seed=0)
    rng = np.random.default_rng(0)
    for _ in range(150):
        assert set(vec._info()["learner_seat"].tolist()) <= {2, 3}
        vec.step(core.random_legal_actions(vec.action_masks(), rng))  # raises if an opponent plays illegally
    with pytest.raises(ValueError, match="has 4 .the seats after the learner's team"):
        KingdominoVectorEnv(1, opponents=("greedy",) * 5, game="royal_wedding", players=6, teams=True)


def test_team_self_play_rewards_both_seats_of_a_team_alike():
    vec = KingdominoVectorEnv(2, self_play=True, game="royal_wedding", players=6, teams=True)
    assert vec.num_envs == 12
    vec.reset(seed=4)
    rng = np.random.default_rng(0)
    while True:
        _, rewards, terminated, _, info = vec.step(core.random_legal_actions(vec.action_masks(), rng))
        if terminated.any():
            break
    per_seat = rewards.reshape(6, 2)
    done = terminated.reshape(6, 2).all(axis=0)
    assert done.any()
    for b in np.flatnonzero(done):
        assert (per_seat[0::2, b] == per_seat[1::2, b]).all()
        assert per_seat[:, b].sum() == pytest.approx(0.0, abs=1e-6)
        scores = info["final_info"]["score"].reshape(6, 2)[:, b]
        assert (scores[0::2] == scores[1::2]).all()


def test_check_env_and_the_solo_env_plays_the_aec_game_of_the_same_seed():
    env = gymnasium.make(SOLO, players=6, teams=True, opponents="greedy", render_mode="ansi")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(env.unwrapped)
    assert all("maximum value is infinity" in str(w.message) for w in caught), [str(w.message) for w in caught]
    solo = gymnasium.make(SOLO, players=6, teams=True, opponents=FirstLegal(), learner_seat=1, reward="score")
    aec = raw_env(game="royal_wedding", players=6, teams=True, reward="score")
    obs, info = solo.reset(seed=8)
    aec.reset(seed=8)
    seats = set()
    while True:
        _aec_to_team(aec, 0)
        if all(aec.terminations.values()):
            break
        seat = aec.agent_name_mapping[aec.agent_selection]
        seats.add(seat)
        assert info["learner_seat"] == seat
        np.testing.assert_array_equal(obs, aec.observe(aec.agent_selection)["observation"])
        action = int(np.flatnonzero(info["action_mask"])[-1])
        aec.step(action)
        obs, reward, terminated, _, info = solo.step(action)
    assert seats == {0, 1}
    assert terminated and reward == aec.rewards["player_0"] == aec.rewards["player_1"] == info["score"]


def test_make_vec_gives_the_batched_env():
    vec = gymnasium.make_vec(SOLO, num_envs=2, players=5)
    assert isinstance(vec, KingdominoVectorEnv) and vec.rules == royal(5)
    first, _ = vec.reset(seed=2)
    again, _ = KingdominoVectorEnv(2, game="royal_wedding", players=5).reset(seed=2)
    np.testing.assert_array_equal(first, again)


def test_sb3_vec_env_and_maskable_ppo_train_on_team_games():
    pytest.importorskip("sb3_contrib")
    from sb3_contrib import MaskablePPO

    from kingdomino_env.envs.sb3 import SB3VecEnv

    env = SB3VecEnv(KingdominoVectorEnv(4, opponents="greedy", game="royal_wedding", players=6, teams=True))
    assert env.num_envs == 4 and env.action_space.n == royal(6, teams=True).n_actions
    env.seed(0)
    model = MaskablePPO("MlpPolicy", env, n_steps=64, batch_size=64, n_epochs=1, seed=0,
                        policy_kwargs={"net_arch": [32]})
    model.learn(256)
    obs = env.reset()
    rng = np.random.default_rng(0)
    done_seen = False
    for _ in range(120):
        masks = np.stack(env.env_method("action_masks"))
        actions, _ = model.predict(obs, action_masks=masks)
        assert masks[np.arange(4), actions].all()
        obs, _, dones, infos = env.step(actions if rng.random() < 0.5 else core.random_legal_actions(masks, rng))
        for i in np.flatnonzero(dones):
            done_seen = True
            assert "terminal_observation" in infos[i] and "rank" in infos[i]
    assert done_seen
