"""KingdominoVectorEnv in Kingdomino: auto-reset, seeding, opponents, errors. The vector env playing the AEC games
of the same seeds in every game is in test_every_game.py."""

from __future__ import annotations

import numpy as np
import pytest
from gymnasium.vector import AutoresetMode

from kingdomino_env import core
from kingdomino_env.core import IllegalActionError
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
