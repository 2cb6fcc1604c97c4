"""KingdominoVectorEnv: equal to AEC games fed the same seeds and actions, auto-reset, seeding, opponents, errors."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest
from gymnasium.vector import AutoresetMode

import kingdomino_env
from kingdomino_env import core
from kingdomino_env.core import IllegalActionError
from kingdomino_env.env import raw_env
from kingdomino_env.policies import GreedyPolicy, RandomPolicy
from kingdomino_env.vector_env import KingdominoVectorEnv


class FirstLegal:
    """Deterministic opponent: the lowest legal action id."""

    needs_observation = False

    def act(self, state, games, mask, obs):
        return mask.argmax(axis=1)


class Recorder:
    """First legal action; records the deck and the player to move of every game it acts in, and checks that the
    observations it gets are the mover's."""

    needs_observation = True

    def __init__(self):
        self.seen: list[tuple[bytes, int]] = []

    def act(self, state, games, mask, obs):
        sub = state.take(games)
        np.testing.assert_array_equal(obs, core.observe(sub))
        self.seen += [(d.tobytes(), int(p)) for d, p in zip(sub.deck, sub.current_player, strict=True)]
        return mask.argmax(axis=1)


def _aec_to_learner(aec: raw_env, seat: int) -> None:
    """Play FirstLegal for the AEC game's other seats until `seat` is to move or the game is over."""
    while not all(aec.terminations.values()) and aec.agent_name_mapping[aec.agent_selection] != seat:
        aec.step(int(np.flatnonzero(aec.observe(aec.agent_selection)["action_mask"])[0]))


@pytest.mark.parametrize(("options", "games", "steps"), [
    ({}, 3, 110),
    ({"players": 4, "harmony": True, "middle_kingdom": True, "reward": "margin"}, 2, 200),
    ({"players": 3, "reward": "score"}, 2, 80),
    ({"mighty_duel": True}, 2, 100),
    ({"game": "queendomino"}, 2, 260),
    ({"game": "queendomino", "players": 3}, 2, 200),
    ({"game": "royal_wedding", "players": 6, "teams": True}, 2, 230),
    ({"game": "royal_wedding", "players": 5, "reward": "margin"}, 1, 230),
])
def test_self_play_equals_aec_games(options, games, steps):
    """Every slot sees its seat's AEC observation; movers have the AEC mask, waiting slots only the pass action;
    rewards and terminations match, across auto-resets (AEC envs reset without a seed continue their generator)."""
    vec = KingdominoVectorEnv(games, self_play=True, **options)
    obs, info = vec.reset(seed=11)
    aecs = [raw_env(**options) for _ in range(games)]
    for b, aec in enumerate(aecs):
        aec.reset(seed=11 + b)
    players = vec.rules.players
    rng = np.random.default_rng(0)
    ended = 0
    for _ in range(steps):
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
            ended += 1
            expected = [aec.rewards[f"player_{p}"] for p in range(players)]
            np.testing.assert_allclose(rewards[slots], expected)
            for p, slot in enumerate(slots):
                np.testing.assert_array_equal(info["final_obs"][slot], aec.observe(f"player_{p}")["observation"])
                assert info["final_info"]["score"][slot] == aec.infos[f"player_{p}"]["score"]
                assert info["final_info"]["rank"][slot] == aec.infos[f"player_{p}"]["rank"]
            if options.get("reward", "outcome") == "outcome":
                assert abs(rewards[slots].sum()) < 1e-6
            aec.reset()
    assert ended >= games  # every game ended at least once, so auto-reset was compared too


@pytest.mark.parametrize(("options", "learner_seat"), [({}, "random"), ({"players": 4}, [3, 0, 2])])
def test_learner_env_equals_aec_games(options, learner_seat):
    """With a deterministic opponent, each game is the AEC game of its seed: the learner's observations, masks,
    rewards and terminations agree, episode after episode."""
    games = 3
    vec = KingdominoVectorEnv(games, opponents=FirstLegal(), learner_seat=learner_seat, **options)
    obs, info = vec.reset(seed=100)
    aecs = [raw_env(**options) for _ in range(games)]
    seats = info["learner_seat"]
    if learner_seat != "random":
        assert seats.tolist() == learner_seat
    for b, aec in enumerate(aecs):
        aec.reset(seed=100 + b)
        _aec_to_learner(aec, seats[b])
    rng = np.random.default_rng(1)
    per_game = vec.rules.max_actions // vec.rules.players
    for t in range(2 * per_game + 3):
        masks = vec.action_masks()
        for b, aec in enumerate(aecs):
            assert aec.agent_selection == f"player_{seats[b]}"
            seen = aec.observe(aec.agent_selection)
            np.testing.assert_array_equal(obs[b], seen["observation"])
            np.testing.assert_array_equal(masks[b], seen["action_mask"].astype(bool))
        actions = core.random_legal_actions(masks, rng)
        obs, rewards, terminated, _, info = vec.step(actions)
        assert terminated.tolist() == [(t + 1) % per_game == 0] * games
        for b, aec in enumerate(aecs):
            aec.step(int(actions[b]))
            _aec_to_learner(aec, seats[b])
            assert all(aec.terminations.values()) == terminated[b]
            assert rewards[b] == (aec.rewards[f"player_{seats[b]}"] if terminated[b] else 0.0)
            if terminated[b]:
                assert info["final_info"]["learner_seat"][b] == seats[b]
                aec.reset()
        seats = info["learner_seat"]
        for b, aec in enumerate(aecs):
            _aec_to_learner(aec, seats[b])


def test_auto_reset_same_step():
    vec = KingdominoVectorEnv(4, opponents="greedy")
    assert vec.metadata["autoreset_mode"] == AutoresetMode.SAME_STEP
    obs, info = vec.reset(seed=3)
    assert obs.shape == (4, vec.single_observation_space.shape[0]) and obs in vec.observation_space
    rng = np.random.default_rng(0)
    per_game = vec.rules.max_actions // vec.rules.players
    for t in range(per_game):
        mask = vec.action_masks()
        assert mask.shape == (4, vec.rules.n_actions) and mask.dtype == np.bool_ and mask.any(axis=1).all()
        old_seats = info["learner_seat"]
        obs, rewards, terminated, truncated, info = vec.step(core.random_legal_actions(mask, rng))
        assert not truncated.any()
        if t < per_game - 1:
            assert not terminated.any() and (rewards == 0).all() and "final_obs" not in info
    assert terminated.all()
    assert info["_final_obs"].all() and info["final_obs"].dtype == object
    final = info["final_info"]
    assert final["_rank"].all() and final["learner_seat"].tolist() == old_seats.tolist()
    assert ((final["rank"] == 0) == (rewards >= 0)).all()  # 2 players, outcome: win +1, shared 0, loss -1
    assert set(rewards.tolist()) <= {-1.0, 0.0, 1.0}
    for b in range(4):
        assert info["final_obs"][b] in vec.single_observation_space
        assert not np.array_equal(info["final_obs"][b], obs[b])
    # The returned observation is the new game's, from its learner seat, before the learner's first move.
    assert (vec.state.round <= 1).all() and (vec.state.n_steps < vec.rules.kings + 2).all()
    np.testing.assert_array_equal(obs, core.observe(vec.state, viewer=info["learner_seat"]))
    assert (vec.state.current_player == info["learner_seat"]).all()


def test_seeding_is_reproducible():
    mix = ["random", "greedy", "gprd", ("greedy",), "random"]

    def run(seed, steps=60):
        vec = KingdominoVectorEnv(5, opponents=mix)
        obs, info = vec.reset(seed=seed)
        rng = np.random.default_rng(7)
        out = [obs, info["learner_seat"]]
        for _ in range(steps):
            obs, rewards, *_ , info = vec.step(core.random_legal_actions(vec.action_masks(), rng))
            out += [obs, rewards, info["learner_seat"]]
        return out

    first, again, other = run(5), run(5), run(6)
    assert all(np.array_equal(a, b) for a, b in zip(first, again, strict=True))
    assert not all(np.array_equal(a, b) for a, b in zip(first, other, strict=True))


def test_seeds_name_the_games():
    vec = KingdominoVectorEnv(2)
    vec.reset(seed=[5, 9])
    for b, seed in enumerate([5, 9]):
        deck, kings = core.deal(vec.rules, np.random.default_rng(seed))
        assert vec.state.deck[b].tolist() == deck.tolist()
        assert vec.state.first_kings[b].tolist() == kings.tolist()
    decks = vec.state.deck.copy()
    vec.reset()  # continues each game's generator
    assert not (vec.state.deck == decks).all(axis=1).any()
    vec.reset(seed=[5, 9])
    np.testing.assert_array_equal(vec.state.deck, decks)


def test_opponents_mix_per_game():
    rec = Recorder()
    vec = KingdominoVectorEnv(4, opponents=[rec, "greedy", rec, "random"], learner_seat=0)
    vec.reset(seed=0)
    rng = np.random.default_rng(0)
    decks = []
    for _ in range(10):
        decks.append({b: vec.state.deck[b].tobytes() for b in range(4)})
        vec.step(core.random_legal_actions(vec.action_masks(), rng))
    mine = {decks[0][0], decks[0][2]}
    assert rec.seen and {d for d, _ in rec.seen} == mine
    assert {p for _, p in rec.seen} == {1}


def test_opponents_per_seat():
    rec = Recorder()
    vec = KingdominoVectorEnv(3, players=4, opponents=("greedy", rec, "random"))
    _, info = vec.reset(seed=1)
    seat_of = {vec.state.deck[b].tobytes(): int(info["learner_seat"][b]) for b in range(3)}
    rng = np.random.default_rng(0)
    for _ in range(10):
        vec.step(core.random_legal_actions(vec.action_masks(), rng))
    assert rec.seen
    for deck, player in rec.seen:
        assert player == (seat_of[deck] + 2) % 4


def test_make_vec_gives_the_batched_env():
    vec = gymnasium.make_vec("kingdomino/KingdominoSolo-v0", num_envs=3, players=3, opponents="gprd")
    assert isinstance(vec, KingdominoVectorEnv) and vec.num_envs == 3 and vec.rules.players == 3
    assert kingdomino_env.KingdominoVectorEnv is KingdominoVectorEnv


def test_self_play_slots_and_errors():
    vec = KingdominoVectorEnv(2, self_play=True, players=3)
    assert vec.num_envs == 6 and vec.seat.tolist() == [0, 0, 1, 1, 2, 2]
    obs, info = vec.reset(seed=0)
    assert obs.shape == (6, vec.single_observation_space.shape[0])
    assert info["to_move"].reshape(3, 2).sum(axis=0).tolist() == [1, 1]
    actions = core.random_legal_actions(vec.action_masks(), np.random.default_rng(0))
    waiting = int(np.flatnonzero(~info["to_move"])[0])
    bad = actions.copy()
    bad[waiting] = 0
    steps_before = vec.state.n_steps.copy()
    with pytest.raises(ValueError, match="is waiting for seat .* must send the pass action"):
        vec.step(bad)
    np.testing.assert_array_equal(vec.state.n_steps, steps_before)
    vec.step(actions)
    assert (vec.state.n_steps == steps_before + 1).all()


@pytest.mark.parametrize(("options", "message"), [
    ({"num_games": 0}, "num_games must be an int >= 1"),
    ({"players": 5}, "players must be 2, 3 or 4"),
    ({"reward": "win"}, "unknown reward 'win'; allowed: outcome, score, margin"),
    ({"opponents": "smart"}, "unknown opponent 'smart'; allowed: 'random', 'greedy', 'gprd' or a Policy"),
    ({"opponents": 42}, "an opponent must be one of"),
    ({"opponents": ["random"] * 3}, r"one entry per game \(2 games\), got a list of 3"),
    ({"opponents": [("random", "greedy")] * 2}, "lists 2 opponents; a 2-player game has 1"),
    ({"learner_seat": 2}, "learner_seat must be"),
    ({"learner_seat": "first"}, "learner_seat must be"),
    ({"learner_seat": [0, 1, 1]}, "learner_seat must be"),
    ({"self_play": True, "opponents": "greedy"}, "self_play=True makes every seat a learning seat"),
    ({"self_play": "yes"}, "self_play must be True or False"),
    ({"mighty_duel": True, "players": 3}, "mighty_duel is a 2-player variant"),
])
def test_bad_options(options, message):
    options = {"num_games": 2, **options}
    with pytest.raises(ValueError, match=message):
        KingdominoVectorEnv(**options)


def test_bad_calls():
    vec = KingdominoVectorEnv(2, learner_seat=0)
    with pytest.raises(RuntimeError, match="reset"):
        vec.step(np.zeros(2, dtype=np.int64))
    for seed in (-1, [1], "x", 1.5):
        with pytest.raises(ValueError, match="seed must be"):
            vec.reset(seed=seed)
    with pytest.raises(ValueError, match="reset takes no options"):
        vec.reset(options={"record": {}})
    vec.reset(seed=0)
    legal = vec.action_masks().argmax(axis=1)
    with pytest.raises(ValueError, match=r"actions must be 2 integers .* shape \(3,\)"):
        vec.step(np.zeros(3, dtype=np.int64))
    with pytest.raises(ValueError, match="integers"):
        vec.step(legal.astype(np.float32))
    steps_before = vec.state.n_steps.copy()
    with pytest.raises(ValueError, match=r"illegal action\(s\) for 1 slot\(s\), nothing was applied: slot 1"):
        vec.step(np.array([legal[0], vec.rules.n_actions]))
    np.testing.assert_array_equal(vec.state.n_steps, steps_before)


def test_illegal_opponent_is_reported():
    class Bad:
        needs_observation = False

        def act(self, state, games, mask, obs):
            return np.full(len(games), -5)

    vec = KingdominoVectorEnv(2, opponents=Bad(), learner_seat=0)
    with pytest.raises(IllegalActionError, match="opponent Bad chose illegal action"):
        vec.reset(seed=0)
        for _ in range(3):
            vec.step(vec.action_masks().argmax(axis=1))


def test_spec_strings_resolve_to_the_reference_policies():
    vec = KingdominoVectorEnv(4, opponents=["greedy", "gprd", "random", "greedy"])
    greedy, gprd, random_ = vec.opponents.policies
    assert isinstance(greedy, GreedyPolicy) and not greedy.random_draft
    assert isinstance(gprd, GreedyPolicy) and gprd.random_draft
    assert isinstance(random_, RandomPolicy)
    assert vec.opponents.entries[:, 0].tolist() == [0, 1, 2, 0]


def test_greedy_opponents_are_stronger_than_random_ones():
    def learner_win_rate(opponents):
        vec = KingdominoVectorEnv(128, opponents=opponents)
        vec.reset(seed=0)
        rng = np.random.default_rng(0)
        while True:
            _, rewards, terminated, _, _ = vec.step(core.random_legal_actions(vec.action_masks(), rng))
            if terminated.all():
                return float((rewards > 0).mean())

    assert learner_win_rate("greedy") < 0.2
    assert 0.3 < learner_win_rate("random") < 0.7
