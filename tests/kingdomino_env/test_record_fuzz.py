"""Fuzzing records of every game of the table: any mutation of a real record replays or raises RecordError, and a
refused one changes no env."""

from __future__ import annotations

import copy
import math
from functools import cache
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import kingdomino_env
from kingdomino_env.record import RecordError, replay
from tests.games_table import GAMES, play
from tests.kingdomino_env.envs.test_env_inputs import assert_same, snapshot

VARIANTS = list(GAMES.values())

#: Values a hand edit might put anywhere: huge and negative integers, NaN, strings, lists, dicts, null, bools.
ODD_VALUES = st.one_of(
    st.sampled_from([10**30, -(10**30), 2**63, 2**64 + 1, -1, 0, 1, 48, 329, 10**4, math.nan, math.inf, -0.0,
                     2.0, 325.5, "", "325", "kingdomino-record/1", "harmony", None, True, False, [], {}, [None],
                     [10**30], {"players": 2}, [[]]]),
    st.integers(), st.floats(), st.text(max_size=8),
    st.lists(st.integers(-3, 400), max_size=5), st.dictionaries(st.text(max_size=5), st.integers(), max_size=2),
)


@cache
def _records() -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """(env options, record) of finished and half-played games of every variant."""
    out = []
    for i, kwargs in enumerate(VARIANTS):
        env = kingdomino_env.env(**kwargs)
        play(env, seed=i)
        out.append((kwargs, env.unwrapped.record()))
        play(env, seed=i + 100, until=13)
        out.append((kwargs, env.unwrapped.record()))
    return out


@cache
def _env(index: int) -> Any:
    """A wrapped env, mid-game, of the variant of record `index` (reused across examples)."""
    kwargs, _ = _records()[index]
    env = kingdomino_env.env(**kwargs)
    play(env, seed=7, until=6)
    return env


def _paths(node: Any, path: tuple = ()) -> list[tuple]:
    """The paths of every node below the root (keys of dicts, indices of lists)."""
    out = []
    items = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
    for key, child in items:
        out.append((*path, key))
        out.extend(_paths(child, (*path, key)))
    return out


def _get(node: Any, path: tuple) -> Any:
    for key in path:
        node = node[key]
    return node


@st.composite
def mutated_records(draw: st.DrawFn) -> tuple[int, dict[str, Any]]:
    index = draw(st.integers(0, len(_records()) - 1))
    record = copy.deepcopy(_records()[index][1])
    for _ in range(draw(st.sampled_from([1, 1, 1, 2, 3]))):
        paths = _paths(record)
        if paths:  # a top-level field first, so that the long action list does not take every draw
            top = draw(st.sampled_from(sorted({p[0] for p in paths}, key=repr)))
            path = draw(st.sampled_from([p for p in paths if p[0] == top]))
        else:
            path = ()
        parent, key = _get(record, path[:-1]), path[-1] if path else None
        if not path:
            record = copy.deepcopy(draw(ODD_VALUES))
            break
        node = parent[key]
        kind = draw(st.sampled_from(["replace", "delete", "cut", "repeat"]))
        if kind == "delete" and isinstance(parent, dict):
            del parent[key]
        elif kind == "cut" and isinstance(node, list):
            parent[key] = node[:draw(st.integers(0, max(len(node) - 1, 0)))]
        elif kind == "repeat" and isinstance(node, list) and node:
            start = draw(st.integers(0, len(node) - 1))
            parent[key] = node[:start + 1] + node[start:] if draw(st.booleans()) else node * 2
        else:
            parent[key] = copy.deepcopy(draw(ODD_VALUES))  # sampled values are shared objects
    return index, record


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=mutated_records())
def test_mutated_records_replay_or_raise_record_error_and_leave_the_env(case):
    index, record = case
    try:
        state, actions = replay(record)
    except RecordError:
        refused = True
    else:
        refused = False
        assert len(actions) == int(state.n_steps[0])
    env = _env(index)
    before = snapshot(env)
    try:
        env.reset(options={"record": record})
    except RecordError:
        assert_same(before, snapshot(env))
    else:
        assert not refused
        assert env.unwrapped.record()["actions"] == record["actions"]


@pytest.mark.parametrize("index", range(len(VARIANTS) * 2),
                         ids=[f"{name}-{part}" for name in GAMES for part in ("finished", "half")])
def test_the_fuzzed_records_are_valid_before_mutation(index):
    kwargs, record = _records()[index]
    state, actions = replay(copy.deepcopy(record))
    assert actions == record["actions"] and state.rules == kingdomino_env.env(**kwargs).unwrapped.rules
    assert ("scores" in record) == bool(state.is_over[0])
    if "quests" in record:
        assert np.flatnonzero(state.quests[0]).size == len(record["quests"])
