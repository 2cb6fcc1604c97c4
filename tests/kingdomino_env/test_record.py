"""Game records of every game of the table: JSON round trips, step-for-step replay, restoring finished and
half-played games, records refused by an env of other rules; Kingdomino's record layout and bad records."""

from __future__ import annotations

import copy
import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import kingdomino_env
from kingdomino_env import core, record
from kingdomino_env.record import FORMAT, RecordError, replay
from tests.games_table import GAMES, RULES, assert_same_state, every_game, play


def other_rules(game: str) -> list[str]:
    """Rows whose env must refuse a record of `game`: the next row of the table, and one of another game."""
    names = list(GAMES)
    return [names[(names.index(game) + 1) % len(names)], "queendomino-2p" if RULES[game].game == "kingdomino" else "2p"]


@every_game()
@settings(max_examples=2, deadline=None)
@given(seed=st.integers(0, 2**31))
def test_record_replays_the_live_game_step_for_step(game, seed):
    """A finished game's JSON record replays to the live state after each of its actions (in games of at most 100
    actions; after every (max_actions // 16)-th in longer ones) and at the end."""
    env = kingdomino_env.env(**GAMES[game])
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    max_actions = RULES[game].max_actions
    stride = 1 if max_actions <= 100 else max_actions // 16
    live_states = {0: env.unwrapped.state.copy()}
    done = 0
    while not all(env.terminations.values()):
        env.step(int(rng.choice(np.flatnonzero(env.observe(env.agent_selection)["action_mask"]))))
        done += 1
        if done % stride == 0 or all(env.terminations.values()):
            live_states[done] = env.unwrapped.state.copy()
    made = json.loads(json.dumps(env.unwrapped.record()))
    assert made["format"] == FORMAT and len(made["actions"]) == done
    assert made["scores"] == env.unwrapped.state.scores[0].tolist()
    for i, live in live_states.items():
        prefix = dict(made, actions=made["actions"][:i])
        prefix.pop("scores")
        replayed, actions = replay(prefix)
        assert actions == prefix["actions"]
        assert_same_state(live, replayed, f"after {i} actions")


@every_game()
def test_records_restore_finished_and_half_played_games(game):
    """The env's record names the game and holds its decks and replays to the state that makes it again; an env
    reset from a finished record is over with the same state and rewards; one reset from a half-played game's
    record continues it exactly; an env of other rules refuses it."""
    rules = RULES[game]
    full = kingdomino_env.env(**GAMES[game])
    actions = play(full, seed=21, rng_seed=4)
    made = full.unwrapped.record()
    assert made.get("game", "kingdomino") == rules.game and ("game" in made) == rules.is_queendomino
    assert made["rules"].get("teams", False) is rules.teams
    assert made["actions"] == actions and len(made["scores"]) == rules.kingdoms
    assert len(made["deck"]) == min(rules.deck_size, 48) and len(set(made["deck"])) == len(made["deck"])
    assert all(1 <= d <= 48 for d in made["deck"])
    assert ("queen_deck" in made) == rules.is_royal_wedding and ("buildings" in made) == rules.has_buildings
    if rules.is_royal_wedding:
        assert sorted(made["deck"]) == sorted(made["queen_deck"]) == list(range(1, 49))
    if rules.has_buildings:
        assert sorted(made["buildings"]) == list(range(1, 33))
    state, replayed = replay(copy.deepcopy(made))
    assert state.is_over[0] and replayed == actions and state.rules == rules
    assert core.ranks(state).shape == (1, rules.players)
    assert record.make_record(state, 0, replayed) == made
    over = kingdomino_env.env(**GAMES[game])
    over.reset(options={"record": made})
    assert all(over.terminations.values()) and over.rewards == full.rewards
    assert over.unwrapped.record() == made
    assert_same_state(full.unwrapped.state, over.unwrapped.state)

    half = kingdomino_env.env(**GAMES[game])
    middle = len(actions) // 2
    play(half, seed=21, until=middle, rng_seed=4)
    assert "scores" not in half.unwrapped.record()
    resumed = kingdomino_env.env(**GAMES[game])
    resumed.reset(options={"record": half.unwrapped.record()})
    assert resumed.agent_selection == half.agent_selection
    for agent in resumed.agents:
        np.testing.assert_array_equal(resumed.observe(agent)["observation"], half.observe(agent)["observation"])
    for action in actions[middle:]:
        resumed.step(action)
    assert resumed.unwrapped.record() == made
    assert resumed.rewards == full.rewards
    for other in other_rules(game):
        with pytest.raises(RecordError, match="make the env with the record's rules"):
            kingdomino_env.env(**GAMES[other]).reset(options={"record": made})


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


def test_a_record_must_be_a_json_object():
    with pytest.raises(RecordError, match="JSON object"):
        replay([1, 2, 3])
