"""Every game of the table (tests/games_table.py) in every env: PettingZoo's own tests, the registered ids, spaces,
masks, lengths and rewards of whole games, seeds, and the single-game Gymnasium env, the batched vector env and the
SB3 adapter playing the AEC env's games for the same seeds."""

from __future__ import annotations

import warnings

import gymnasium
import numpy as np
import pettingzoo
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, seed_test

import kingdomino_env
from kingdomino_env import core, record
from kingdomino_env.env import raw_env
from kingdomino_env.gym_env import KingdominoSoloEnv
from kingdomino_env.vector_env import KingdominoVectorEnv
from tests.games_table import AEC_IDS, GAMES, RULES, SOLO_IDS, every_game, options, play


class FirstLegal:
    """Deterministic opponent: the lowest legal action id."""

    needs_observation = False

    def act(self, state, games, mask, obs):
        return mask.argmax(axis=1)


def aec_to_kingdom(aec: raw_env, kingdom: int) -> None:
    """Play the lowest legal action for the AEC game's seats of other kingdoms until a seat of `kingdom` is to move
    or the game is over."""
    while not all(aec.terminations.values()) and (
            aec.rules.seat_kingdoms[aec.agent_name_mapping[aec.agent_selection]] != kingdom):
        aec.step(int(np.flatnonzero(aec.observe(aec.agent_selection)["action_mask"])[0]))


@every_game()
def test_pettingzoo_api_and_seed_tests(game):
    """PettingZoo's conformance tests (its render_test's checks are in rendering/test_every_game_renders.py)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(kingdomino_env.env(**GAMES[game]), num_cycles=100)
        seed_test(lambda: kingdomino_env.env(**GAMES[game]), num_cycles=60)


@every_game()
def test_the_registered_ids_make_the_game(game):
    rules = RULES[game]
    env = pettingzoo.make("aec", AEC_IDS[rules.game], **options(game))
    env.reset(seed=0)
    assert env.unwrapped.rules == rules and env.unwrapped.metadata["name"] == f"{rules.game}_v0"
    assert env.possible_agents == [f"player_{i}" for i in range(rules.players)]
    default = pettingzoo.make("aec", AEC_IDS[rules.game]).unwrapped.rules
    assert (default.game, default.players) == (rules.game, 3 if rules.is_royal_wedding else 2)
    solo = gymnasium.make(SOLO_IDS[rules.game], **options(game))
    assert solo.unwrapped.rules == rules


@every_game()
def test_a_random_game_keeps_spaces_and_masks_and_pays_every_reward_mode(game):
    """Before the end only the agent to move has a mask (each step checks another agent, in turn), observations lie
    in the space and rewards are 0; the game lasts as the rules say; at the end each seat has its kingdom's score
    and rank and the reward of each mode: outcome zero-sum over kingdoms with the winners' share, score, margin over
    the best other kingdom."""
    rules = RULES[game]
    env = kingdomino_env.env(**GAMES[game])
    env.reset(seed=rules.players)
    rng = np.random.default_rng(rules.players)
    steps = dict.fromkeys(env.possible_agents, 0)
    finals = {}
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        if terminated or truncated:
            finals[agent] = (reward, info)
            env.step(None)
            continue
        assert reward == 0 and not truncated
        assert env.observation_space(agent).contains(obs) and obs["action_mask"].any()
        other = env.agents[(env.agents.index(agent) + 1 + sum(steps.values())) % len(env.agents)]
        assert other == agent or not env.observe(other)["action_mask"].any()
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        steps[agent] += 1
    state = env.unwrapped.state
    assert sorted(finals) == sorted(env.possible_agents)
    total = sum(steps.values())
    if rules.has_buildings:
        kings = rules.kings
        assert kings + rules.rounds * kings + (rules.rounds - 1) * kings <= total <= rules.max_actions
        assert all(n >= 2 * rules.rounds for n in steps.values())
    else:
        assert total == rules.max_actions
    scores = state.scores[0].astype(float)
    ranks = core.kingdom_ranks(state)[0]
    kingdoms = rules.kingdoms
    won = ranks == 0
    assert scores[won].min() == scores.max()
    modes = {"outcome": {a: r for a, (r, _) in finals.items()}}
    made = env.unwrapped.record()
    for mode in ("score", "margin"):
        again = kingdomino_env.env(reward=mode, **GAMES[game])
        again.reset(options={"record": made})
        modes[mode] = dict(again.rewards)
    for p, seat in enumerate(env.possible_agents):
        k = rules.seat_kingdoms[p]
        assert finals[seat][1] == {"score": int(scores[k]), "rank": int(ranks[k])}
        expected = (kingdoms / won.sum() - 1) / (kingdoms - 1) if won[k] else -1 / (kingdoms - 1)
        assert modes["outcome"][seat] == pytest.approx(expected)
        assert modes["score"][seat] == scores[k]
        assert modes["margin"][seat] == scores[k] - np.delete(scores, k).max()
    assert sum(modes["outcome"].values()) == pytest.approx(0, abs=1e-6)


@every_game()
def test_the_wrapped_env_ends_the_game_on_an_illegal_action(game):
    env = kingdomino_env.env(**GAMES[game])
    env.reset(seed=1)
    offender = env.agent_selection
    env.step(int(np.flatnonzero(env.observe(offender)["action_mask"] == 0)[0]))
    assert all(env.terminations.values())
    assert env.rewards[offender] == -1


@every_game()
def test_the_same_seed_deals_and_plays_the_same_game(game):
    a, b = kingdomino_env.env(**GAMES[game]), kingdomino_env.env(**GAMES[game])
    assert play(a, seed=9, until=40) == play(b, seed=9, until=40)
    assert a.unwrapped.record() == b.unwrapped.record()
    for agent in a.possible_agents:
        np.testing.assert_array_equal(a.observe(agent)["observation"], b.observe(agent)["observation"])
    play(b, seed=10, until=1)
    assert a.unwrapped.record()["deck"] != b.unwrapped.record()["deck"]
    dealt = record.make_record(core.new_games(RULES[game], [9]), 0, [])
    assert dealt == {**a.unwrapped.record(), "actions": []}  # the AEC env deals as the core does


#: Opponents, render mode and reward of the single-game env in `check_env`, per row (default: none of them).
SOLO_OPTIONS = {
    "4p": {"opponents": ("greedy", "random", "gprd"), "render_mode": "ansi"},
    "3p-36": {"reward": "margin", "render_mode": "rgb_array"},
    "queendomino-3p": {"opponents": ("greedy", "gprd"), "render_mode": "ansi"},
    "queendomino-4p": {"opponents": "greedy", "reward": "margin"},
    "royal-wedding-6p-teams": {"opponents": "greedy", "render_mode": "ansi"},
}


@every_game()
def test_the_solo_env_passes_gymnasiums_check_env(game):
    env = gymnasium.make(SOLO_IDS[RULES[game].game], **options(game), **SOLO_OPTIONS.get(game, {}))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(env.unwrapped)
    # The only remark: the AEC env's observation Box leaves the scores unbounded above.
    assert all("maximum value is infinity" in str(w.message) for w in caught), [str(w.message) for w in caught]


@every_game()
def test_the_solo_env_plays_the_aec_game_of_the_same_seed(game):
    """With a deterministic opponent, the learner (seat 1: in team games its team's two seats) sees the AEC
    game's observations and masks, in a whole seeded episode and then the first decisions of the next (a reset
    without a seed continues the generator)."""
    rules = RULES[game]
    env = gymnasium.make(SOLO_IDS[rules.game], **options(game), opponents=FirstLegal(), learner_seat=1,
                         reward="score")
    aec = raw_env(**GAMES[game], reward="score")
    kingdom = rules.seat_kingdoms[1]
    for seed, decisions in ((21, None), (None, 6)):
        obs, info = env.reset(seed=seed)
        aec.reset(seed=seed)
        seats, steps = set(), 0
        while steps != decisions:
            aec_to_kingdom(aec, kingdom)
            if all(aec.terminations.values()):
                break
            seat = aec.agent_name_mapping[aec.agent_selection]
            seats.add(seat)
            assert info["learner_seat"] == seat
            seen = aec.observe(aec.agent_selection)
            mask = env.unwrapped.action_masks()
            assert mask.dtype == np.bool_
            np.testing.assert_array_equal(obs, seen["observation"])
            np.testing.assert_array_equal(mask, seen["action_mask"].astype(bool))
            np.testing.assert_array_equal(info["action_mask"], mask)
            action = int(np.flatnonzero(mask)[-1])
            aec.step(action)
            obs, reward, terminated, truncated, info = env.step(action)
            steps += 1
            assert not truncated and obs in env.observation_space and (terminated or reward == 0)
        if decisions:
            continue
        assert seats == set(rules.kingdom_seats(kingdom))
        assert terminated and reward == info["score"] == aec.state.scores[0, kingdom]
        assert all(aec.rewards[f"player_{p}"] == reward for p in seats)
        assert info["rank"] == aec.infos["player_1"]["rank"]
        if not rules.has_buildings:
            assert steps == rules.max_actions // rules.players
        assert not env.unwrapped.action_masks().any()
        with pytest.raises(RuntimeError, match="call reset"):
            env.step(0)


@every_game()
def test_the_solo_env_ends_the_episode_on_an_illegal_action(game):
    env = gymnasium.make(SOLO_IDS[RULES[game].game], **options(game), illegal_reward=-2)
    env.reset(seed=0)
    with pytest.raises(ValueError, match="action must be an integer"):
        env.step(1.0)
    illegal = int(np.flatnonzero(~env.unwrapped.action_masks())[0])
    _, reward, terminated, truncated, info = env.step(illegal)
    assert (reward, terminated, truncated, info["illegal_action"]) == (-2.0, True, False, True)
    assert not info["action_mask"].any()


@every_game()
def test_the_solo_env_seed_fixes_seats_opponents_and_games(game):
    """Same seed, same seat, opponents' moves and game, and the same seat and deal after a reset without a seed;
    outcome rewards are 0 before the end, then -1 / (K - 1) for a loss and at least 0 for a (shared) win."""
    rules = RULES[game]
    opponents = (("random", "gprd") * 4)[:rules.players - rules.players // rules.kingdoms]

    def run(seed):
        env = KingdominoSoloEnv(**GAMES[game], opponents=opponents)
        obs, info = env.reset(seed=seed)
        rng = np.random.default_rng(1)
        out = [obs, info["learner_seat"]]
        done = False
        while not done:
            obs, reward, done, _, info = env.step(int(rng.choice(np.flatnonzero(env.action_masks()))))
            out.append(obs)
            assert done or reward == 0
        if info["rank"] > 0:
            assert reward == pytest.approx(-1 / (rules.kingdoms - 1))
        else:
            assert 0 <= reward <= 1
        obs, info = env.reset()
        return [*out, reward, obs, info["learner_seat"]]

    first, again, other = run(8), run(8), run(9)
    assert all(np.array_equal(a, b) for a, b in zip(first, again, strict=True))
    assert len(first) != len(other) or not all(np.array_equal(a, b) for a, b in zip(first, other, strict=True))


@every_game()
def test_make_vec_gives_the_batched_env_dealing_each_seed(game):
    rules = RULES[game]
    vec = gymnasium.make_vec(SOLO_IDS[rules.game], num_envs=3, **options(game), opponents="gprd")
    assert isinstance(vec, KingdominoVectorEnv) and vec.rules == rules and vec.num_envs == 3
    assert kingdomino_env.KingdominoVectorEnv is KingdominoVectorEnv
    first, _ = vec.reset(seed=9)
    again, _ = KingdominoVectorEnv(3, **GAMES[game]).reset(seed=9)
    np.testing.assert_array_equal(first, again)
    assert first in vec.observation_space
    for b in range(3):
        dealt = core.deal(rules, np.random.default_rng(9 + b))
        np.testing.assert_array_equal(vec.state.deck[b], dealt[0])
        np.testing.assert_array_equal(vec.state.first_kings[b], dealt[1])
        if rules.has_buildings:
            np.testing.assert_array_equal(vec.state.pile[b], dealt[2])


#: The reward of the self-play env per row (default: outcome).
SELF_PLAY_REWARD = {"3p": "score", "bonuses": "margin", "royal-wedding-5p": "margin"}


@every_game()
def test_self_play_equals_aec_games(game):
    """Every slot sees its seat's AEC observation; movers have the AEC mask, waiting slots only the pass action;
    rewards and terminations match, until every game has ended and a step after (AEC envs reset without a seed
    continue their generator)."""
    kwargs = {**GAMES[game], "reward": SELF_PLAY_REWARD.get(game, "outcome")}
    games = 1 if RULES[game].players >= 5 else 2
    vec = KingdominoVectorEnv(games, self_play=True, **kwargs)
    assert vec.num_envs == vec.rules.players * games
    obs, info = vec.reset(seed=11)
    aecs = [raw_env(**kwargs) for _ in range(games)]
    for b, aec in enumerate(aecs):
        aec.reset(seed=11 + b)
    players = vec.rules.players
    rng = np.random.default_rng(0)
    ended = np.zeros(games, dtype=bool)
    extra = 1
    for _ in range(2 * vec.rules.max_actions):
        masks = vec.action_masks()
        movers = [aec.agent_name_mapping[aec.agent_selection] for aec in aecs]
        np.testing.assert_array_equal(info["to_move"].reshape(players, games).argmax(axis=0), movers)
        for b, aec in enumerate(aecs):
            for p in range(players):
                slot = p * games + b
                seen = aec.observe(f"player_{p}")
                np.testing.assert_array_equal(obs[slot], seen["observation"])
                if p == movers[b]:
                    np.testing.assert_array_equal(masks[slot], seen["action_mask"].astype(bool))
                else:
                    assert np.flatnonzero(masks[slot]).tolist() == [vec.pass_action]
        actions = core.random_legal_actions(masks, rng)
        for b, aec in enumerate(aecs):
            aec.step(int(actions[movers[b] * games + b]))
        obs, rewards, terminated, truncated, info = vec.step(actions)
        assert not truncated.any()
        for b, aec in enumerate(aecs):
            done = all(aec.terminations.values())
            slots = np.arange(players) * games + b
            assert (terminated[slots] == done).all()
            if not done:
                assert (rewards[slots] == 0).all()
                continue
            ended[b] = True
            expected = [aec.rewards[f"player_{p}"] for p in range(players)]
            np.testing.assert_allclose(rewards[slots], expected)
            for p, slot in enumerate(slots):
                np.testing.assert_array_equal(info["final_obs"][slot], aec.observe(f"player_{p}")["observation"])
                assert info["final_info"]["score"][slot] == aec.infos[f"player_{p}"]["score"]
                assert info["final_info"]["rank"][slot] == aec.infos[f"player_{p}"]["rank"]
            if kwargs["reward"] == "outcome":
                assert abs(rewards[slots].sum()) < 1e-6
            aec.reset()
        if ended.all():
            if not extra:
                break
            extra -= 1
    assert ended.all()


@every_game()
def test_the_learner_env_equals_aec_games(game):
    """With a deterministic opponent each game is the AEC game of its seed: the learner's (or its team's) seats see
    the AEC observations and masks, rewards and terminations agree, until every game has ended and steps after;
    spec-string opponents play legally (the env raises otherwise)."""
    rules = RULES[game]
    players = rules.players
    games = 1 if players >= 5 else 2
    learner_seat = [players - 1, players // 2][:games]
    vec = KingdominoVectorEnv(games, opponents=FirstLegal(), learner_seat=learner_seat, **GAMES[game])
    assert vec.single_observation_space == raw_env(**GAMES[game]).observation_space("player_0")["observation"]
    assert vec.single_action_space.n == rules.n_actions and vec.num_envs == games
    obs, info = vec.reset(seed=100)
    kingdoms = [rules.seat_kingdoms[s] for s in learner_seat]
    assert [rules.seat_kingdoms[s] for s in info["learner_seat"]] == kingdoms
    aecs = [raw_env(**GAMES[game]) for _ in range(games)]
    for b, aec in enumerate(aecs):
        aec.reset(seed=100 + b)
        aec_to_kingdom(aec, kingdoms[b])
    rng = np.random.default_rng(1)
    seen_seats: list[set[int]] = [set() for _ in range(games)]
    ended = np.zeros(games, dtype=bool)
    per_game = rules.max_actions // players
    extra = 3
    for t in range(1, 2 * rules.max_actions):
        masks = vec.action_masks()
        for b, aec in enumerate(aecs):
            seat = aec.agent_name_mapping[aec.agent_selection]
            assert info["learner_seat"][b] == seat and rules.seat_kingdoms[seat] == kingdoms[b]
            seen_seats[b].add(seat)
            seen = aec.observe(aec.agent_selection)
            np.testing.assert_array_equal(obs[b], seen["observation"])
            np.testing.assert_array_equal(masks[b], seen["action_mask"].astype(bool))
        actions = core.random_legal_actions(masks, rng)
        obs, rewards, terminated, _, info = vec.step(actions)
        if not rules.has_buildings:
            assert terminated.tolist() == [t % per_game == 0] * games
        for b, aec in enumerate(aecs):
            aec.step(int(actions[b]))
            aec_to_kingdom(aec, kingdoms[b])
            assert all(aec.terminations.values()) == terminated[b]
            if not terminated[b]:
                assert rewards[b] == 0.0
                continue
            ended[b] = True
            seats = rules.kingdom_seats(kingdoms[b])
            assert all(rewards[b] == aec.rewards[f"player_{p}"] for p in seats)
            assert info["final_info"]["learner_seat"][b] in seats
            assert info["final_info"]["score"][b] == aec.state.scores[0, kingdoms[b]]
            assert seen_seats[b] == set(seats)
            aec.reset()
        for b, aec in enumerate(aecs):
            aec_to_kingdom(aec, kingdoms[b])
        if ended.all():
            if not extra:
                break
            extra -= 1
    assert ended.all()
    opponents = (("gprd", "random", "greedy") * 3)[:players - players // rules.kingdoms] if players > 2 else "greedy"
    spec = KingdominoVectorEnv(2, opponents=opponents, **GAMES[game])
    spec.reset(seed=0)
    for _ in range(40):
        spec.step(core.random_legal_actions(spec.action_masks(), rng))  # raises if an opponent plays illegally


@every_game()
def test_the_sb3_adapter_steps_self_play(game):
    pytest.importorskip("stable_baselines3")
    from kingdomino_env.envs.sb3 import SB3VecEnv

    rules = RULES[game]
    env = SB3VecEnv(KingdominoVectorEnv(2, self_play=True, **GAMES[game]))
    assert env.num_envs == 2 * rules.players and env.action_space.n == rules.n_actions
    env.seed(3)
    env.reset()
    rng = np.random.default_rng(0)
    for _ in range(rules.max_actions):
        masks = np.stack(env.env_method("action_masks"))
        obs, rewards, dones, infos = env.step(core.random_legal_actions(masks, rng))
        assert obs.shape == (env.num_envs, env.observation_space.shape[0])
        for i in np.flatnonzero(dones):
            assert {"terminal_observation", "score", "rank"} <= set(infos[i])
        if dones.any():
            break
    assert dones.any()
