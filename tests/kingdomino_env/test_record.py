"""Game records: JSON round trips, step-for-step replay, continuing from a record, and bad records."""

from __future__ import annotations

import copy
import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import kingdomino_env
from kingdomino_env import core
from kingdomino_env.record import FORMAT, RecordError, replay
from tests.kingdomino_env.envs.test_env import play

VARIANTS = [dict(players=2), dict(players=3), dict(players=4), dict(players=2, mighty_duel=True),
            dict(players=3, three_player_36=True, harmony=True, middle_kingdom=True)]


@pytest.mark.parametrize("kwargs", VARIANTS, ids=str)
@settings(max_examples=4, deadline=None)
@given(seed=st.integers(0, 2**31))
def test_record_replays_the_live_game_step_for_step(kwargs, seed):
    env = kingdomino_env.env(**kwargs)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    live_states = [env.unwrapped.state.copy()]
    while not all(env.terminations.values()):
        env.step(int(rng.choice(np.flatnonzero(env.observe(env.agent_selection)["action_mask"]))))
        live_states.append(env.unwrapped.state.copy())
    record = json.loads(json.dumps(env.unwrapped.record()))
    assert record["format"] == FORMAT
    assert record["scores"] == env.unwrapped.state.scores[0].tolist()
    for i, live in enumerate(live_states):
        prefix = dict(record, actions=record["actions"][:i])
        prefix.pop("scores")
        replayed, _ = replay(prefix)
        for name, value in live._arrays().items():
            np.testing.assert_array_equal(getattr(replayed, name), value, err_msg=f"{name} after {i} actions")


def test_record_layout_matches_the_contract():
    env = kingdomino_env.env(players=2)
    actions = play(env, seed=3)
    record = env.unwrapped.record()
    assert set(record) == {"format", "rules", "deck", "first_kings", "actions", "scores"}
    assert record["rules"] == {"players": 2, "grid": 5, "harmony": False, "middle_kingdom": False,
                               "mighty_duel": False, "three_player_36": False}
    assert len(record["deck"]) == 24 and all(1 <= d <= 48 for d in record["deck"])
    assert sorted(record["first_kings"]) == [0, 0, 1, 1]
    assert record["actions"] == actions
    mid = kingdomino_env.env(players=2)
    play(mid, seed=3, until=10)
    assert "scores" not in mid.unwrapped.record()


def test_reset_from_a_mid_game_record_continues_exactly():
    full = kingdomino_env.env(players=3)
    actions = play(full, seed=21, rng_seed=4)
    half = kingdomino_env.env(players=3)
    play(half, seed=21, until=30, rng_seed=4)
    resumed = kingdomino_env.env(players=3)
    resumed.reset(options={"record": half.unwrapped.record()})
    assert resumed.agent_selection == half.agent_selection
    for agent in resumed.agents:
        np.testing.assert_array_equal(resumed.observe(agent)["observation"], half.observe(agent)["observation"])
    for action in actions[30:]:
        resumed.step(action)
    assert resumed.unwrapped.record() == full.unwrapped.record()
    assert resumed.rewards == full.rewards


def test_reset_from_a_finished_record_is_over():
    env = kingdomino_env.env()
    play(env, seed=8)
    again = kingdomino_env.env()
    again.reset(options={"record": env.unwrapped.record()})
    assert all(again.terminations.values())
    assert again.rewards == env.rewards


def _finished_record() -> dict:
    env = kingdomino_env.env()
    play(env, seed=5)
    return env.unwrapped.record()


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (lambda r: r.update(format="kingdomino-record/0"), "format"),
        (lambda r: r.pop("deck"), "lacks"),
        (lambda r: r.update(extra=1), "unknown keys"),
        (lambda r: r["rules"].update(players=7), "players must be 2, 3 or 4"),
        (lambda r: r["rules"].update(grid=7), "grid"),
        (lambda r: r["deck"].__setitem__(1, r["deck"][0]), "distinct"),
        (lambda r: r["deck"].pop(), "24 distinct"),
        (lambda r: r.update(first_kings=[0, 0, 0, 1]), "first_kings"),
        (lambda r: r["actions"].__setitem__(5, 10_000), r"record\['actions'\]\[5\] is 10000; .* integers in 0..328"),
        (lambda r: r["actions"].__setitem__(0, 0), r"action #0 \(0\) is illegal"),
        (lambda r: r["actions"].__setitem__(0, "a"), "list of integers"),
        (lambda r: r["actions"].append(0), "actions"),
        (lambda r: r["scores"].__setitem__(0, r["scores"][0] + 1), "differ"),
        (lambda r: r["actions"].pop(), "do not finish"),
        (lambda r: r["actions"].__setitem__(3, 10**30), r"record\['actions'\]\[3\] is 1000000000000000000000000000000"),
        (lambda r: r["actions"].__setitem__(3, 10**5000), r"\[3\] is an integer of about 5001 digits"),
        (lambda r: r["actions"].__setitem__(3, 325.0), r"\[3\] is 325\.0; .* list of integers"),
        (lambda r: r["actions"].__setitem__(3, True), r"\[3\] is True"),
        (lambda r: r.update(actions=None), r"record\['actions'\] must be a list of integers in 0\.\.328"),
        (lambda r: r["deck"].__setitem__(0, -3), r"record\['deck'\]\[0\] is -3; .* integers in 1\.\.48"),
        (lambda r: r["deck"].__setitem__(0, float("nan")), r"record\['deck'\]\[0\] is nan"),
        (lambda r: r.update(first_kings=[0, 0, 1]), r"record\['first_kings'\] has 3 entries; .* list of 4 integers"),
        (lambda r: r.update(first_kings=[0, 0, 1, 10**30]), r"first_kings'\]\[3\] is 10+; .* integers in 0\.\.1"),
        (lambda r: r.update(scores=None), r"record\['scores'\] must be a list of 2 integers"),
        (lambda r: r.update(scores=r["scores"] * 2), r"record\['scores'\] has 4 entries"),
        (lambda r: r.update(rules="2 players"), "rules must be an object"),
        (lambda r: r.update(format=None), "record format is None"),
        (lambda r: r.update({5: 1}), r"unknown keys \['5'\]"),
        (lambda r: r["rules"].update({"players": 2.0}), "players must be 2, 3 or 4, got 2.0"),
    ],
)
def test_bad_records_raise_clear_errors(edit, message):
    record = copy.deepcopy(_finished_record())
    edit(record)
    with pytest.raises(RecordError, match=message):
        replay(record)
    env = kingdomino_env.env()
    with pytest.raises(ValueError, match=message):
        env.reset(options={"record": record})


def test_a_record_of_other_rules_is_refused_by_the_env():
    with pytest.raises(ValueError, match="make the env with the record's rules"):
        kingdomino_env.env(players=4).reset(options={"record": _finished_record()})
    with pytest.raises(RecordError, match="JSON object"):
        replay([1, 2, 3])


def test_replay_state_matches_core_deal():
    record = _finished_record()
    state, actions = replay(record)
    assert state.is_over[0] and actions == record["actions"]
    assert (state.deck[0] + 1).tolist() == record["deck"]
    assert core.ranks(state).shape == (1, 2)
