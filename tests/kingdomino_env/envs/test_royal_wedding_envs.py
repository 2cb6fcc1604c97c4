"""What only the Royal Wedding has in the envs: games of every size (3-8 players, teams) batched in self-play equal
the AEC games and rank teams by score, teammates marked in observations, team opponents, team options refused,
MaskablePPO on team games. What every game does is in test_every_game.py."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import kingdomino_env
from kingdomino_env import core
from kingdomino_env.env import raw_env
from kingdomino_env.games.queendomino.kernels import Q_DOMINO_FEATURES
from kingdomino_env.observation import QueendominoLayout
from kingdomino_env.rules import Rules
from kingdomino_env.vector_env import KingdominoVectorEnv

SOLO = "kingdomino/RoyalWeddingSolo-v0"
#: (players, teams) of every Royal Wedding variant.
VARIANTS = [(3, False), (4, False), (5, False), (6, False), (6, True), (7, False), (8, False), (8, True)]


def royal(players: int, teams: bool = False) -> Rules:
    return Rules(game="royal_wedding", players=players, teams=teams)


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


def test_bad_options_are_refused():
    with pytest.raises(ValueError, match="teams"):
        kingdomino_env.env(game="royal_wedding", players=7, teams=True)
    with pytest.raises(ValueError, match="teams"):
        KingdominoVectorEnv(2, game="queendomino", players=4, teams=True)
    with pytest.raises(ValueError, match="players must be 3"):
        gymnasium.make(SOLO, players=9)


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


@pytest.fixture
def one_torch_thread():
    """Tiny networks run fastest on one thread; two threads on a busy 2-core machine are ~10x slower."""
    torch = pytest.importorskip("torch")
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(threads)


def test_sb3_vec_env_and_maskable_ppo_train_on_team_games(one_torch_thread):
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
