"""The PettingZoo AEC environment: PettingZoo's own test suite, options, errors, observations, rewards."""

from __future__ import annotations

import os

import numpy as np
import pettingzoo
import pytest
from pettingzoo.test import api_test, render_test, seed_test

import kingdomino_env
from kingdomino_env import core
from kingdomino_env.observation import ObservationLayout

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")  # render_test opens the "human" window

CONFIGS = [dict(players=2), dict(players=3), dict(players=4), dict(players=2, mighty_duel=True)]


@pytest.mark.parametrize("kwargs", CONFIGS, ids=lambda k: "-".join(f"{a}={b}" for a, b in k.items()))
def test_pettingzoo_suite(kwargs):
    api_test(kingdomino_env.env(**kwargs), num_cycles=100)
    seed_test(lambda: kingdomino_env.env(**kwargs), num_cycles=100)
    render_test(lambda render_mode=None: kingdomino_env.env(render_mode=render_mode, **kwargs))


def test_registered_with_pettingzoo():
    env = pettingzoo.make("aec", "kingdomino/Kingdomino-v0", players=4, harmony=True)
    env.reset(seed=0)
    assert env.possible_agents == ["player_0", "player_1", "player_2", "player_3"]
    assert env.unwrapped.rules.harmony


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        (dict(players=5), "players must be 2, 3 or 4"),
        (dict(players=3, mighty_duel=True), "mighty_duel is a 2-player variant"),
        (dict(players=2, three_player_36=True), "three_player_36 is a 3-player rule"),
        (dict(reward="points"), "allowed: outcome, score, margin"),
        (dict(render_mode="video"), "unknown render_mode"),
        (dict(harmony="yes"), "harmony must be True or False"),
    ],
)
def test_invalid_options_raise_clear_errors(kwargs, message):
    with pytest.raises(ValueError, match=message):
        kingdomino_env.env(**kwargs)


def play(env, seed: int, until: int | None = None, rng_seed: int = 0) -> list[int]:
    """Play random legal actions (from the observation's mask) until the end or `until` actions."""
    rng = np.random.default_rng(rng_seed)
    env.reset(seed=seed)
    actions = []
    while not all(env.terminations.values()) and (until is None or len(actions) < until):
        obs = env.observe(env.agent_selection)
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        env.step(action)
        actions.append(action)
    return actions


def test_illegal_action_on_raw_env_names_phase_and_legal_choices():
    env = kingdomino_env.raw_env()
    env.reset(seed=1)
    rules = env.rules
    with pytest.raises(ValueError, match=r"player_\d in the pick phase.*4 legal action\(s\): 325 \(pick 0\)"):
        env.step(0)
    for _ in range(4):
        env.step(int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0]))
    with pytest.raises(ValueError, match=r"in the place phase; the \d+ legal action\(s\)"):
        env.step(rules.first_pick_action)
    with pytest.raises(ValueError, match="illegal action None"):
        env.step(None)


def test_wrapped_env_ends_the_game_on_an_illegal_action():
    env = kingdomino_env.env()
    env.reset(seed=1)
    offender = env.agent_selection
    env.step(0)
    assert all(env.terminations.values())
    assert env.rewards[offender] == -1


def test_only_the_agent_to_move_has_a_mask_and_actions_alternate_place_then_pick():
    env = kingdomino_env.env(players=4)
    env.reset(seed=3)
    rules = env.unwrapped.rules
    for _ in range(4):  # starting round: picks only
        for agent in env.agents:
            mask = env.observe(agent)["action_mask"]
            assert mask.any() == (agent == env.agent_selection)
        assert np.flatnonzero(env.observe(env.agent_selection)["action_mask"]).min() >= rules.first_pick_action
        env.step(int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0]))
    placer = env.agent_selection
    mask = env.observe(placer)["action_mask"]
    assert np.flatnonzero(mask).max() < rules.first_pick_action  # place phase
    env.step(int(np.flatnonzero(mask)[0]))
    assert env.agent_selection == placer  # the same agent now picks
    assert np.flatnonzero(env.observe(placer)["action_mask"]).min() >= rules.first_pick_action


def test_observation_is_egocentric():
    env = kingdomino_env.env(players=3)
    play(env, seed=5, until=20)
    layout = ObservationLayout(env.unwrapped.rules)
    state = env.unwrapped.state
    for i, agent in enumerate(env.possible_agents):
        planes = layout.kingdom_planes(env.observe(agent)["observation"])
        for k in range(3):
            owner = (i + k) % 3
            # Plane 7 is crowns; planes 0-5 the one-hot terrains; the castle plane 6.
            np.testing.assert_array_equal(planes[k, 7], state.crowns[0, owner])
            terrain = state.terrain[0, owner]
            for t in range(6):
                np.testing.assert_array_equal(planes[k, t], terrain == t + 1)
            np.testing.assert_array_equal(planes[k, 6], terrain == 7)
        counters = env.observe(agent)["observation"][layout.counters]
        assert counters[4:].tolist() == [state.scores[0, (i + k) % 3] for k in range(3)]
        assert env.observation_space(agent).contains(env.observe(agent))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_rewards_at_the_end(players):
    results = {}
    for mode in ("outcome", "score", "margin"):
        env = kingdomino_env.env(players=players, reward=mode)
        play(env, seed=11)
        results[mode] = {a: env.rewards[a] for a in env.agents}
        scores = {a: env.infos[a]["score"] for a in env.agents}
    assert results["score"] == {a: float(s) for a, s in scores.items()}
    for a in scores:
        best_other = max(s for b, s in scores.items() if b != a)
        assert results["margin"][a] == scores[a] - best_other
    outcome = results["outcome"]
    assert sum(outcome.values()) == pytest.approx(0, abs=1e-6)
    winners = [a for a, v in outcome.items() if v > 0]
    assert winners and all(scores[w] == max(scores.values()) for w in winners)


def test_rewards_are_zero_before_the_end():
    env = kingdomino_env.env()
    env.reset(seed=2)
    for _ in range(30):
        agent = env.agent_selection
        _, reward, terminated, _, _ = env.last()
        assert reward == 0 and not terminated
        env.step(int(np.flatnonzero(env.observe(agent)["action_mask"])[-1]))


def test_same_seed_same_game():
    a, b = kingdomino_env.env(), kingdomino_env.env()
    assert play(a, seed=9) == play(b, seed=9)
    assert a.unwrapped.record() == b.unwrapped.record()
    play(b, seed=10)
    assert a.unwrapped.record()["deck"] != b.unwrapped.record()["deck"]
    # The AEC env's deal equals the core's for the same seed.
    state = core.new_games(a.unwrapped.rules, [9])
    assert a.unwrapped.record()["deck"] == (state.deck[0] + 1).tolist()


def test_ansi_and_rgb_renderings():
    env = kingdomino_env.env(render_mode="ansi")
    play(env, seed=4, until=30)
    text = env.render()
    assert "Round" in text and "player_0" in text and "##" in text
    state = env.unwrapped.state
    for p in range(2):
        letters = {"WFLGSM"[t - 1] for t in np.unique(state.terrain[0, p]) if 1 <= t <= 6}
        assert letters and all(letter in text for letter in letters)
    rgb = kingdomino_env.env(render_mode="rgb_array")
    play(rgb, seed=4, until=30)
    image = rgb.render()
    assert image.dtype == np.uint8 and image.ndim == 3 and image.shape[2] == 3
    assert len(np.unique(image.reshape(-1, 3), axis=0)) > 5
