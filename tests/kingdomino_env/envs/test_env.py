"""The PettingZoo AEC environment in Kingdomino: options, errors, the place-then-pick turn, egocentric observation
planes and the terrain letters of the text. What every game does is in test_every_game.py."""

from __future__ import annotations

import numpy as np
import pytest

import kingdomino_env
from kingdomino_env.observation import ObservationLayout
from tests.games_table import play


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


def test_illegal_action_on_raw_env_names_phase_and_legal_choices():
    env = kingdomino_env.raw_env()
    env.reset(seed=1)
    rules = env.rules
    with pytest.raises(ValueError,
                       match=r"player_\d in the pick phase.*4 legal action\(s\): 325 \(pick line position 1\)"):
        env.step(0)
    for _ in range(4):
        env.step(int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0]))
    with pytest.raises(ValueError, match=r"in the place phase; the \d+ legal action\(s\)"):
        env.step(rules.first_pick_action)
    with pytest.raises(ValueError, match="illegal action None"):
        env.step(None)


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


def test_ansi_shows_each_kingdoms_terrain_letters():
    env = kingdomino_env.env(render_mode="ansi")
    play(env, seed=4, until=30)
    text = env.render()
    state = env.unwrapped.state
    for p in range(2):
        letters = {"WFLGSM"[t - 1] for t in np.unique(state.terrain[0, p]) if 1 <= t <= 6}
        assert letters and all(letter in text for letter in letters)
