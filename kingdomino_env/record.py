"""Game records: the JSON-serialisable history of one game, also the save format.

    {"format": "kingdomino-record/1",
     "rules": {"players": 2, "grid": 5, "harmony": false, "middle_kingdom": false, "mighty_duel": false,
               "three_player_36": false},
     "deck": [domino numbers 1..48 in draw order],
     "first_kings": [player index of each king, in starting-round pick order],
     "actions": [action ids in order],
     "scores": [final scores, once the game is over],
     "quests": [the game's active quest names, in `quests.QUESTS` order; only in variants with quests]}

In variants with quests, "rules" also has "quests" (the fixed quest names) and "random_quests" (k), and the record
has "quests"; records without quests have neither, as before quests existed, and such older records replay.

A record replays deterministically through the core: `replay` rebuilds the state at the record's end and checks
every action and the final scores, so a malformed or inconsistent record fails with a clear message.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from . import core
from . import quests as quest_defs
from .rules import Rules

FORMAT = "kingdomino-record/1"
_KEYS = {"format", "rules", "deck", "first_kings", "actions", "scores", "quests"}


class RecordError(ValueError):
    """A record that is malformed or does not describe a legal game."""


def make_record(state: core.State, game: int, actions: list[int]) -> dict[str, Any]:
    """The record of game `game` of `state`, reached from its deal by `actions`."""
    record: dict[str, Any] = {
        "format": FORMAT,
        "rules": state.rules.to_dict(),
        "deck": [int(d) + 1 for d in state.deck[game]],
        "first_kings": [int(k) for k in state.first_kings[game]],
        "actions": [int(a) for a in actions],
    }
    if state.is_over[game]:
        record["scores"] = [int(s) for s in state.scores[game]]
    if state.rules.has_quests:
        record["quests"] = quest_defs.names(state.quests[game])
    return record


def _int_list(record: dict[str, Any], key: str) -> list[int]:
    value = record[key]
    if not isinstance(value, list) or not all(isinstance(v, int) and not isinstance(v, bool) for v in value):
        raise RecordError(f"record['{key}'] must be a list of integers")
    return value


def _quests(record: dict[str, Any], rules: Rules) -> np.ndarray:
    """(17,) flags of the record's quests, checked against its rules (random quests must be listed)."""
    if "quests" not in record:
        if rules.random_quests:
            raise RecordError(f"record rules draw {rules.random_quests} random quests but the record has no 'quests'")
        return quest_defs.flags(rules.quests)
    value = record["quests"]
    if not rules.has_quests:
        raise RecordError("record has 'quests' but its rules have none")
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise RecordError("record['quests'] must be a list of quest names")
    try:
        flags = quest_defs.flags(value)
    except ValueError as err:
        raise RecordError(f"record quests are invalid: {err}") from err
    expected = rules.random_quests or len(rules.quests)
    if len(value) != expected or (rules.quests and (flags != quest_defs.flags(rules.quests)).any()):
        raise RecordError(f"record quests {value} do not match its rules ({expected} quests"
                          + (f": {list(rules.quests)})" if rules.quests else ")"))
    return flags


def replay(record: Any) -> tuple[core.State, list[int]]:
    """Rebuild (a batch of one) the game of `record` at its end; returns the state and the action list."""
    if not isinstance(record, dict):
        raise RecordError(f"a record must be a JSON object, got {type(record).__name__}")
    missing = {"format", "rules", "deck", "first_kings", "actions"} - set(record)
    if missing:
        raise RecordError(f"record lacks {sorted(missing)}")
    unknown = set(record) - _KEYS
    if unknown:
        raise RecordError(f"record has unknown keys {sorted(unknown)}; allowed: {sorted(_KEYS)}")
    if record["format"] != FORMAT:
        raise RecordError(f"record format is {record['format']!r}, expected {FORMAT!r}")
    try:
        rules = Rules.from_dict(record["rules"])
    except (TypeError, ValueError) as err:
        raise RecordError(f"record rules are invalid: {err}") from err
    deck = _int_list(record, "deck")
    kings = _int_list(record, "first_kings")
    actions = _int_list(record, "actions")
    if len(deck) != rules.deck_size or any(not 1 <= d <= 48 for d in deck) or len(set(deck)) != len(deck):
        raise RecordError(f"record deck must hold {rules.deck_size} distinct domino numbers 1..48")
    quests = _quests(record, rules)
    try:
        state = core.init(rules, np.array([deck]) - 1, np.array([kings]), quests[None])
    except ValueError as err:
        raise RecordError(f"record first_kings are invalid: {err}") from err
    if len(actions) > rules.max_actions:
        raise RecordError(f"record has {len(actions)} actions; a game of these rules has {rules.max_actions}")
    for i, action in enumerate(actions):
        try:
            core.step(state, [action])
        except core.IllegalActionError as err:
            raise RecordError(f"record action #{i} ({action}) is illegal: {err}") from err
    if "scores" in record:
        scores = _int_list(record, "scores")
        if not state.is_over[0]:
            raise RecordError("record has final scores but its actions do not finish the game")
        if scores != [int(s) for s in state.scores[0]]:
            raise RecordError(f"record scores {scores} differ from the replayed game's {state.scores[0].tolist()}")
    return state, list(actions)
