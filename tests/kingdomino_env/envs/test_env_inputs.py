"""Bad input to the envs: non-integer actions, refused records and reset arguments leave every env as it was."""

from __future__ import annotations

import copy
from typing import Any

import gymnasium
import numpy as np
import pytest
from pettingzoo.utils.wrappers import TerminateIllegalWrapper

import kingdomino_env
from kingdomino_env import KingdominoVectorEnv
from kingdomino_env.envs.aec import queendomino_env, royal_wedding_env
from kingdomino_env.gym_env import KingdominoSoloEnv
from kingdomino_env.record import RecordError, replay
from tests.kingdomino_env.envs.test_env import play

NON_INTEGER_ACTIONS = [325.7, "325", True, False, np.True_, np.float32(325), np.float64(325.0), None, [325],
                       np.array([325]), np.array(325.0), {"action": 325}, b"325", 325 + 0j]


def snapshot(env: Any) -> dict[str, Any]:
    """Everything a refused reset must leave as it was: state arrays, game bookkeeping, generator, observations."""
    raw = env.unwrapped
    out: dict[str, Any] = {
        "agents": list(raw.agents), "agent_selection": raw.agent_selection, "actions": list(raw.actions),
        "rewards": dict(raw.rewards), "cumulative": dict(raw._cumulative_rewards),
        "terminations": dict(raw.terminations), "truncations": dict(raw.truncations),
        "infos": copy.deepcopy(raw.infos), "rng": copy.deepcopy(raw._rng.bit_generator.state),
        "spaces": {a: raw.observation_space(a) for a in raw.possible_agents},
        "rules": raw.rules, "record": copy.deepcopy(raw.record()),
        "state": {k: v.copy() for k, v in raw.state._arrays().items()},
        "observations": {a: raw.observe(a) for a in raw.agents},
    }
    if isinstance(getattr(env, "env", None), TerminateIllegalWrapper):  # inside env()
        out["wrapper_terminated"] = env.env._terminated
    return out


def assert_same(before: dict[str, Any], after: dict[str, Any]) -> None:
    assert before.keys() == after.keys()
    for key in before:
        if key in ("state", "observations"):
            assert before[key].keys() == after[key].keys(), key
            for name, value in before[key].items():
                if isinstance(value, dict):
                    for part in value:
                        np.testing.assert_array_equal(value[part], after[key][name][part], err_msg=f"{key} {name}")
                else:
                    np.testing.assert_array_equal(value, after[key][name], err_msg=f"{key} {name}")
        else:
            assert before[key] == after[key], key


def _finished_record(**kwargs: Any) -> dict:
    env = kingdomino_env.env(**kwargs)
    play(env, seed=5)
    return env.unwrapped.record()


# Actions.
@pytest.mark.parametrize("action", NON_INTEGER_ACTIONS, ids=repr)
@pytest.mark.parametrize("make", [kingdomino_env.raw_env, kingdomino_env.env], ids=["raw_env", "env"])
def test_only_integers_are_actions(make, action):
    env = make()
    env.reset(seed=1)
    before = snapshot(env)
    with pytest.raises(ValueError, match=r"illegal action .*an action must be an integer id in 0\.\.328.* in the pick "
                                         r"phase; the 4 legal action\(s\): 325 \(pick line position 1\)"):
        env.step(action)
    assert_same(before, snapshot(env))


@pytest.mark.parametrize("action", [-1, 329, 10**30, np.int64(-5), np.uint64(2**63 + 5)], ids=repr)
@pytest.mark.parametrize("make", [kingdomino_env.raw_env, kingdomino_env.env], ids=["raw_env", "env"])
def test_out_of_range_actions_raise_value_error(make, action):
    env = make()
    env.reset(seed=1)
    before = snapshot(env)
    with pytest.raises(ValueError, match=r"out of range 0\.\.328\).* pick phase"):
        env.step(action)
    assert_same(before, snapshot(env))


@pytest.mark.parametrize("action", [325, np.int64(325), np.int16(325), np.uint16(325),
                                    np.array(325)], ids=repr)
def test_python_and_numpy_integers_are_actions(action):
    for make in (kingdomino_env.raw_env, kingdomino_env.env):
        env = make()
        env.reset(seed=1)
        env.step(action)
        assert env.unwrapped.actions == [325] and isinstance(env.unwrapped.actions[0], int)


def test_an_illegal_integer_still_ends_the_wrapped_game_and_none_passes_for_done_agents():
    env = kingdomino_env.env()
    env.reset(seed=1)
    env.step(0)  # legal range, illegal now: the offender loses
    assert all(env.terminations.values())
    assert sorted(env.rewards.values()) == [-1, 0]
    for agent in env.agent_iter():
        assert env.terminations[agent]
        with pytest.raises(ValueError, match="only valid action is None"):
            env.step(3)
        env.step(None)
    assert env.agents == []


def test_none_is_refused_for_an_agent_to_move_and_taken_for_a_done_one():
    env = kingdomino_env.raw_env()
    play(env, seed=2)
    assert all(env.terminations.values())
    for _ in env.possible_agents:
        env.step(None)
    assert env.agents == []


@pytest.mark.parametrize("action", [325.0, True, np.True_, "325", [325], np.array([325]), None], ids=repr)
def test_solo_gym_env_takes_only_integer_actions(action):
    env = gymnasium.make("kingdomino/KingdominoSolo-v0", learner_seat=0)
    env.reset(seed=1)
    steps = env.unwrapped.state.n_steps.copy()
    with pytest.raises(ValueError, match=r"action must be an integer in 0\.\.328"):
        env.step(action)
    np.testing.assert_array_equal(env.unwrapped.state.n_steps, steps)
    legal = int(np.flatnonzero(env.unwrapped.action_masks())[0])
    env.step(np.int32(legal))  # the episode goes on


@pytest.mark.parametrize("action", [-1, 329, 10**30])
def test_solo_gym_env_refuses_out_of_range_ids(action):
    env = KingdominoSoloEnv(learner_seat=0)
    env.reset(seed=1)
    with pytest.raises(ValueError, match=r"action must be an integer in 0\.\.328"):
        env.step(action)
    assert env.action_masks().any()


@pytest.mark.parametrize("actions", [
    [325.0, 325.0], [True, True], ["325", "325"], [[325], [325, 326]], [10**30, 325], [None, None], 325,
    np.zeros((2, 1), dtype=np.int64), np.array([2**63 + 5, 325], dtype=np.uint64), [325, -1],
], ids=repr)
def test_vector_env_refuses_bad_actions_before_changing_any_game(actions):
    vec = KingdominoVectorEnv(2, learner_seat=0)
    vec.reset(seed=0)
    before = {k: v.copy() for k, v in vec.state._arrays().items()}
    with pytest.raises(ValueError, match="actions must be 2 integers|illegal action"):
        vec.step(actions)
    for name, value in before.items():
        np.testing.assert_array_equal(getattr(vec.state, name), value, err_msg=name)


def test_vector_env_reports_a_huge_unsigned_action_as_given():
    vec = KingdominoVectorEnv(2, learner_seat=0)
    vec.reset(seed=0)
    with pytest.raises(ValueError, match=f"slot 0 .* sent {2**63 + 5} \\(out of range\\)"):
        vec.step(np.array([2**63 + 5, 325], dtype=np.uint64))


# Resets.
def test_overflowing_record_action_raises_record_error_and_leaves_the_env():
    record = _finished_record()
    record["actions"][3] = 10**30
    with pytest.raises(RecordError, match=r"record\['actions'\]\[3\] is 1000000000000000000000000000000; "
                                          r"record\['actions'\] must be a list of integers in 0\.\.328"):
        replay(record)
    env = kingdomino_env.env()
    play(env, seed=3, until=7)
    before = snapshot(env)
    with pytest.raises(RecordError, match=r"actions'\]\[3\]"):
        env.reset(options={"record": record})
    assert_same(before, snapshot(env))


@pytest.mark.parametrize("make", [kingdomino_env.raw_env, kingdomino_env.env], ids=["raw_env", "env"])
def test_a_four_player_record_in_a_two_player_env_leaves_the_env_as_it_was(make):
    record = _finished_record(players=4)
    env = make(players=2)
    play(env, seed=3, until=9)
    before = snapshot(env)
    with pytest.raises(RecordError, match="make the env with the record's rules"):
        env.reset(seed=11, options={"record": record})
    after = snapshot(env)
    assert_same(before, after)
    for agent in env.agents:
        assert env.observation_space(agent)["observation"].contains(after["observations"][agent]["observation"])
    env.step(int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0]))  # the game goes on


def test_a_refused_record_after_an_illegal_move_keeps_the_wrapped_game_over():
    env = kingdomino_env.env()
    env.reset(seed=1)
    env.step(0)
    before = snapshot(env)
    assert before["wrapper_terminated"]
    with pytest.raises(RecordError):
        env.reset(options={"record": {"format": "kingdomino-record/1"}})
    assert_same(before, snapshot(env))


def test_a_refused_first_reset_leaves_the_env_unstarted():
    env = kingdomino_env.env()
    with pytest.raises(RecordError):
        env.reset(options={"record": [1, 2]})
    with pytest.raises(Exception, match="reset"):  # PettingZoo's order check, still in force
        env.step(325)
    env.reset(seed=0)
    env.step(325)


@pytest.mark.parametrize("make", [kingdomino_env.raw_env, kingdomino_env.env, queendomino_env,
                                  royal_wedding_env])
def test_record_observe_and_step_before_reset_say_to_reset(make):
    """No game exists before the first reset: asking for its record (or observing, stepping the raw env) raises a
    RuntimeError that says so, not an AttributeError from inside; a refused first reset changes nothing."""
    env = make()
    with pytest.raises(RuntimeError, match=r"call reset\(\) before record\(\): no game has been dealt yet"):
        env.unwrapped.record()
    with pytest.raises(RecordError):
        env.reset(options={"record": [1, 2]})
    with pytest.raises(RuntimeError, match=r"call reset\(\) before record\(\)"):
        env.unwrapped.record()
    raw = env.unwrapped
    with pytest.raises(RuntimeError, match=r"call reset\(\) before observe\(\)"):
        raw.observe("player_0")
    with pytest.raises(RuntimeError, match=r"call reset\(\) before step\(\)"):
        raw.step(0)
    env.reset(seed=0)
    assert env.unwrapped.record()["actions"] == []


@pytest.mark.parametrize(("seed", "options", "message"), [
    (-5, None, "seed must be None or an integer >= 0, got -5"),
    (1.5, None, "seed must be None or an integer >= 0, got 1.5"),
    ("7", None, "seed must be None or an integer >= 0, got '7'"),
    (True, None, "seed must be None or an integer >= 0, got True"),
    (None, "record", "options must be None or a dict"),
    (None, [("record", None)], "options must be None or a dict"),
    (None, {5: 1}, "reset option names must be strings"),
    (None, {"records": {}}, "unknown reset option 'records'; did you mean 'record'"),
    (None, {"Record": {}}, "unknown reset option 'Record'; did you mean 'record'"),
    (None, {"record": "my_save.json"}, "a record must be a JSON object, got str"),
    (None, {"record": 5}, "a record must be a JSON object, got int"),
])
@pytest.mark.parametrize("make", [kingdomino_env.raw_env, kingdomino_env.env], ids=["raw_env", "env"])
def test_bad_reset_arguments_raise_and_change_nothing(make, seed, options, message):
    env = make()
    play(env, seed=4, until=5)
    before = snapshot(env)
    with pytest.raises(ValueError, match=message):
        env.reset(seed=seed, options=options)
    assert_same(before, snapshot(env))


def test_reset_takes_numpy_seeds_and_ignores_unrelated_options():
    a, b = kingdomino_env.env(), kingdomino_env.env()
    a.reset(seed=np.int64(9), options={"options": 1})  # PettingZoo's api_test passes an unrelated option
    b.reset(seed=9, options={"record": None})
    assert a.unwrapped.record() == b.unwrapped.record()


@pytest.mark.parametrize(("seed", "options", "message"), [
    (-1, None, "seed must be None or an integer >= 0"), ("x", None, "seed must be None or an integer >= 0"),
    (1.0, None, "seed must be None or an integer >= 0"), (None, {"record": {}}, "reset takes no options"),
    (None, "x", "reset takes no options, got 'x'"), (None, {5: 1}, r"reset takes no options, got \['5'\]"),
])
def test_gymnasium_envs_refuse_bad_reset_arguments(seed, options, message):
    solo = KingdominoSoloEnv(learner_seat=0)
    solo.reset(seed=3)
    obs_before = solo._observe()
    with pytest.raises(ValueError, match=message):
        solo.reset(seed=seed, options=options)
    np.testing.assert_array_equal(solo._observe(), obs_before)
    vec = KingdominoVectorEnv(2, learner_seat=0)
    vec.reset(seed=3)
    vec_before = vec._observe()
    with pytest.raises(ValueError, match="seed must be|reset takes no options"):
        vec.reset(seed=seed, options=options)
    np.testing.assert_array_equal(vec._observe(), vec_before)


def test_solo_gym_env_takes_numpy_seeds():
    a, b = KingdominoSoloEnv(), KingdominoSoloEnv()
    np.testing.assert_array_equal(a.reset(seed=np.int64(4))[0], b.reset(seed=4)[0])
