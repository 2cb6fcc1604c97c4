"""Fuzzing saves: random mutations of valid saves from real games (2 and 4 players, a Dynasty with finished
games, quests) only ever give SaveError, a save still accepted continues, and `list_saves` on a folder holding
the mutated file always returns with the good saves listed."""

from __future__ import annotations

import copy
import functools
import json
import math
from typing import Any

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kingdomino_app import saves
from kingdomino_app.match import Match
from kingdomino_app.seats import Seat
from kingdomino_env.rules import Rules


def played(seats: list[Seat], rules: Rules, actions: int, seed: int, dynasty: bool = False) -> Match:
    match = Match(seats, rules, dynasty=dynasty, seed=seed)
    rng = np.random.default_rng(seed)
    for _ in range(actions):
        if match.game_over:
            match.next_game()
        match.play(int(rng.choice(np.flatnonzero(match.mask()))))
    return match


@functools.cache
def valid_saves() -> tuple[str, ...]:
    """JSON texts of valid saves: 2 players, 4 players, a Dynasty in its second game, quests."""
    two = played([Seat("Ann"), Seat("Greedy", "greedy")], Rules(), 9, 1)
    four = played([Seat("Ann"), Seat("Bob"), Seat("Random", "random"), Seat("Greedy", "greedy")], Rules(4), 30, 2)
    dynasty = played([Seat("Ann"), Seat("Random", "random")], Rules(), 52, 3, dynasty=True)
    quests = played([Seat("Ann"), Seat("Greedy", "greedy"), Seat("Random", "random")],
                    Rules(players=3, harmony=True, random_quests=2), 12, 4)
    assert dynasty.finished, "the Dynasty save holds a finished game"
    return tuple(json.dumps(m.to_save(f"save {i}")) for i, m in enumerate([two, four, dynasty, quests]))


def paths(node: Any, prefix: tuple = ()) -> list[tuple]:
    """The path (keys and indices) of every node of a JSON tree, the root included."""
    out = [prefix]
    if isinstance(node, dict):
        for key, value in node.items():
            out += paths(value, prefix + (key,))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            out += paths(value, prefix + (i,))
    return out


LEAVES = st.one_of(
    st.sampled_from([-5, 10**30, -1, 2**63, -10**30, 2**64, -(2**63) - 1]),
    st.sampled_from([-5, 10**30, -1, 2**63, -10**30, 2**64, -(2**63) - 1]),
    st.sampled_from([0, 1, 48, 2**31, True, False, None, math.nan, math.inf, -math.inf, 1.5, "", "ppo", "human",
                     "mcts:fast", "\x00", "\u200b", "x" * 5000, [], {}, [0] * 50]),
    st.integers(), st.floats(), st.text(max_size=20),
    st.lists(st.integers(min_value=-3, max_value=200), max_size=5),
    st.dictionaries(st.text(max_size=5), st.integers(), max_size=3),
)


def own_field(where: tuple) -> bool:
    """Whether `where` is a field of the save itself rather than inside one of its records."""
    return not where or where[0] not in ("record", "dynasty") or where[:2] in (("dynasty",), ("dynasty", "games"))


@st.composite
def mutated_saves(draw, own_fields_only: bool = False) -> Any:
    data = json.loads(draw(st.sampled_from(valid_saves())))
    for _ in range(draw(st.integers(min_value=1, max_value=3))):
        every = [w for w in paths(data) if own_field(w)] if own_fields_only else paths(data)
        depth = draw(st.sampled_from([1, 1, 2, 3, None]))  # the few shallow nodes more likely than the deep ones
        where = draw(st.sampled_from([w for w in every if depth is None or len(w) <= depth]))
        if not where:
            data = copy.deepcopy(draw(LEAVES))  # a copy: later mutations must not change the strategy's samples
            continue
        parent = data
        for step in where[:-1]:
            parent = parent[step]
        key, node = where[-1], parent[where[-1]]
        op = draw(st.sampled_from(["replace", "delete", "cut", "repeat"]))
        if op == "delete" and isinstance(parent, dict):
            del parent[key]
        elif op == "cut" and isinstance(node, list | str):
            parent[key] = node[:draw(st.integers(min_value=0, max_value=max(0, len(node) - 1)))]
        elif op == "repeat" and isinstance(node, list | str):
            parent[key] = node * draw(st.integers(min_value=2, max_value=3))
        else:
            parent[key] = copy.deepcopy(draw(LEAVES))
        if not isinstance(data, dict | list):
            break
    return data


class StubAgent:
    def act(self, env: Any) -> int:
        raise AssertionError("not asked to move")


def stub_agent(spec: str, seed: int | None) -> StubAgent:
    return StubAgent()


def check_mutated(folder, data: Any) -> None:
    """`check` and `read` give SaveData or SaveError, alike; an accepted save continues; `list_saves` on a folder
    holding the mutated file and a good save returns both, the good one loadable."""
    try:
        checked = saves.check(copy.deepcopy(data))
    except saves.SaveError:
        checked = None
    if checked is not None:
        match = Match.from_save(checked, stub_agent)
        assert match.rules == checked.state.rules and match.record()["actions"] == checked.record["actions"]
    folder.mkdir(exist_ok=True)
    for old in folder.iterdir():
        old.unlink()
    (folder / "a-good.json").write_text(valid_saves()[0])
    (folder / "mutated.json").write_text(json.dumps(data))
    try:
        read = saves.read(folder / "mutated.json")
    except saves.SaveError:
        read = None
    assert (read is None) == (checked is None)
    listed = {s.path.name: s for s in saves.list_saves(folder)}
    assert set(listed) == {"a-good.json", "mutated.json"}
    assert listed["a-good.json"].error is None and listed["a-good.json"].name == "save 0"
    assert (listed["mutated.json"].error is None) == (checked is not None)


FUZZ = settings(max_examples=100, deadline=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])


@FUZZ
@given(data=mutated_saves())
def test_mutated_saves_give_only_save_errors_and_never_hide_the_good_ones(tmp_path, data):
    check_mutated(tmp_path / "fuzz", data)


@FUZZ
@given(data=mutated_saves(own_fields_only=True))
def test_mutated_save_fields_give_only_save_errors(tmp_path, data):
    """The same with the mutations in the save's own fields (name, date, seed, seats, dynasty), not its records."""
    check_mutated(tmp_path / "fuzz", data)
