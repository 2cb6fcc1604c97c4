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
every action and the final scores, so a malformed or inconsistent record fails with a clear message. Every field
is checked for type and range before it is used (a hand-edited save may hold anything: 10**30, NaN, a string,
null), so `replay` raises `RecordError` and nothing else, naming the field and what it may hold.

Queendomino records add `"game": "queendomino"` and `"buildings"` (tile numbers
1..32 in draw-pile order, the first six filling Builders' Board slots 0..5); their "rules" are
{"game", "players", "grid", "buildings"} (buildings: null for the shipped deck, else the CSV path used):

    {"format": "kingdomino-record/1", "game": "queendomino",
     "rules": {"game": "queendomino", "players": 2, "grid": 7, "buildings": null},
     "deck": [48 domino numbers], "buildings": [32 tile numbers], "first_kings": [0, 1, 1, 0],
     "actions": [...], "scores": [...]}

Royal Wedding records have `"game": "royal_wedding"`, "rules" {"game", "players", "grid", "buildings", "teams"},
"deck" holding Kingdomino's box and "queen_deck" Queendomino's box, each as numbers 1..48 in that box's draw
order (the lines alternate boxes, the starting line from Queendomino's; see `games.queendomino.game.royal_deck`), and
one score per kingdom (per team in team games).

Kingdomino records need no "game" key ("game": "kingdomino" is accepted too).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from . import core
from .games.kingdomino import quests as quest_defs
from .games.queendomino.game import royal_deck, split_royal_deck
from .rules import GAMES, Rules, short_repr

FORMAT = "kingdomino-record/1"
_KEYS = {"format", "rules", "deck", "first_kings", "actions", "scores", "quests", "game", "buildings", "queen_deck"}


class RecordError(ValueError):
    """A record that is malformed or does not describe a legal game."""


def make_record(state: core.State, game: int, actions: list[int]) -> dict[str, Any]:
    """The record of one game of a batch: its variant, its deal and the actions played from it.

    Args:
        state: The games.
        game: The game's index in the batch.
        actions: The actions that led from the game's deal to its present position.

    Returns:
        A JSON-ready dict (see the module docstring); a finished game's record also holds its `"scores"`.
    """
    record: dict[str, Any] = {"format": FORMAT}
    rules = state.rules.to_dict()
    if "game" in rules:  # Kingdomino's records name no game
        record["game"] = rules["game"]
    record["rules"] = rules
    if state.rules.two_boxes:
        kingdomino_box, queen_box = split_royal_deck(state.deck[game])
        record["deck"] = [int(d) + 1 for d in kingdomino_box]
        record["queen_deck"] = [int(d) + 1 for d in queen_box]
    else:
        record["deck"] = [int(d) + 1 for d in state.deck[game]]
    record.update({
        "first_kings": [int(k) for k in state.first_kings[game]],
        "actions": [int(a) for a in actions],
    })
    if state.rules.has_buildings:
        record["buildings"] = [int(t) + 1 for t in state.pile[game]]
    if state.is_over[game]:
        record["scores"] = [int(s) for s in state.scores[game]]
    if state.rules.has_quests:
        record["quests"] = quest_defs.names(state.quests[game])
    return record


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _int_list(value: Any, key: str, low: int, high: int, length: int | None = None, what: str = "") -> list[int]:
    """`value` checked to be a list of integers in low..high (of `length` entries when given), else RecordError."""
    allowed = f"a list of {'' if length is None else f'{length} '}integers in {low}..{high}{what}"
    if not isinstance(value, list):
        raise RecordError(f"record['{key}'] must be {allowed}, got {short_repr(value)}")
    for i, v in enumerate(value):
        if not _is_int(v) or not low <= v <= high:
            raise RecordError(f"record['{key}'][{i}] is {short_repr(v)}; record['{key}'] must be {allowed}")
    if length is not None and len(value) != length:
        raise RecordError(f"record['{key}'] has {len(value)} entries; it must be {allowed}")
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
        raise RecordError(f"record['quests'] must be a list of quest names, got {short_repr(value)}")
    try:
        flags = quest_defs.flags(value)
    except ValueError as err:
        raise RecordError(f"record quests are invalid: {err}") from err
    expected = rules.random_quests or len(rules.quests)
    if len(value) != expected or (rules.quests and (flags != quest_defs.flags(rules.quests)).any()):
        raise RecordError(f"record quests {value} do not match its rules ({expected} quests"
                          + (f": {list(rules.quests)})" if rules.quests else ")"))
    return flags


def _first_kings(value: Any, rules: Rules) -> list[int]:
    """The record's starting-round king order: each player's kings, once each (the game checks its own order
    rules, such as 2-player Queendomino's A, B, B, A, when the deal is set up)."""
    kings = _int_list(value, "first_kings", 0, rules.players - 1, rules.kings, " (player index of each king)")
    if any(kings.count(p) != rules.kings_per_player for p in range(rules.players)):
        raise RecordError(f"record['first_kings'] is {kings}; it must list each of the {rules.players} players "
                          f"{rules.kings_per_player} time(s) (the player of each king)")
    return kings


def _box(record: dict[str, Any], key: str, size: int) -> list[int]:
    """record[key] checked to hold `size` distinct domino numbers 1..48."""
    deck = _int_list(record[key], key, 1, 48, what=" (domino numbers)")
    if len(deck) != size or len(set(deck)) != len(deck):
        raise RecordError(f"record['{key}'] must hold {size} distinct domino numbers 1..48, got {len(deck)} "
                          f"with {len(deck) - len(set(deck))} repeated")
    return deck


def replay(record: Any) -> tuple[core.State, list[int]]:
    """Rebuild the game of a record at its end.

    Every field is checked for type and range before it is used.

    Args:
        record: A record (`make_record`, or read from a file).

    Returns:
        The state (a batch of one) after the record's actions, and the list of those actions.

    Raises:
        RecordError: Anything malformed (the only error it raises), naming the field.
    """
    if not isinstance(record, dict):
        raise RecordError(f"a record must be a JSON object, got {type(record).__name__}")
    missing = {"format", "rules", "deck", "first_kings", "actions"} - set(record)
    if missing:
        raise RecordError(f"record lacks {sorted(missing)}")
    unknown = [key for key in record if key not in _KEYS]
    if unknown:
        raise RecordError(f"record has unknown keys {sorted(map(short_repr, unknown))}; allowed: {sorted(_KEYS)}")
    if not isinstance(record["format"], str) or record["format"] != FORMAT:
        raise RecordError(f"record format is {short_repr(record['format'])}, expected {FORMAT!r}")
    game = record.get("game", "kingdomino")
    if not isinstance(game, str) or game not in GAMES:
        raise RecordError(f"record['game'] is {short_repr(game)}; allowed: {', '.join(map(repr, GAMES))} (or no "
                          "'game' key for Kingdomino)")
    rules_dict = record["rules"]
    if not isinstance(rules_dict, dict):
        raise RecordError(f"record rules are invalid: rules must be an object, got {type(rules_dict).__name__}")
    if rules_dict.get("game", game) != game:
        raise RecordError(f"record['rules']['game'] is {short_repr(rules_dict.get('game'))} but record['game'] "
                          f"is {game!r}")
    try:
        rules = Rules.from_dict({**rules_dict, "game": game})
    except (TypeError, ValueError) as err:
        raise RecordError(f"record rules are invalid: {err}") from err
    if rules.has_buildings != ("buildings" in record):
        raise RecordError("record['buildings'] (tile numbers 1..32 in pile order) belongs in Queendomino records "
                          "and only there")
    if rules.two_boxes != ("queen_deck" in record):
        raise RecordError("record['queen_deck'] (Queendomino's box, numbers 1..48 in draw order) belongs in Royal "
                          "Wedding records and only there")
    box_size = 48 if rules.two_boxes else rules.deck_size
    deck = _box(record, "deck", box_size)
    if rules.two_boxes:
        deck = (royal_deck(np.array(deck) - 1, np.array(_box(record, "queen_deck", box_size)) - 1, rules.line_size)
                + 1).tolist()
    kings = _first_kings(record["first_kings"], rules)
    actions = _int_list(record["actions"], "actions", 0, rules.n_actions - 1, what=" (action ids of these rules)")
    if len(actions) > rules.max_actions:
        raise RecordError(f"record has {len(actions)} actions; a game of these rules has {rules.max_actions}")
    scores = None
    if "scores" in record:
        scores = _int_list(record["scores"], "scores", 0, 10**6, rules.kingdoms, " (final score of each kingdom)")
    quests = _quests(record, rules)
    pile = None
    if rules.has_buildings:
        pile = _int_list(record["buildings"], "buildings", 1, 32, 32, " (building tile numbers in pile order)")
        if len(set(pile)) != 32:
            raise RecordError("record['buildings'] must hold each tile number 1..32 once")
        pile = np.array([pile]) - 1
    try:
        state = core.init(rules, np.array([deck]) - 1, np.array([kings]), quests[None] if rules.has_quests else None,
                          pile)
    except ValueError as err:
        if isinstance(err, RecordError):
            raise
        raise RecordError(f"record deal is invalid: {err}") from err
    for i, action in enumerate(actions):
        try:
            core.step(state, [action])
        except core.IllegalActionError as err:
            raise RecordError(f"record action #{i} ({action}) is illegal ({rules.describe_action(action)}): {err}"
                              ) from err
    if scores is not None:
        if not state.is_over[0]:
            raise RecordError("record has final scores but its actions do not finish the game")
        if scores != [int(s) for s in state.scores[0]]:
            raise RecordError(f"record scores {scores} differ from the replayed game's {state.scores[0].tolist()}")
    return state, list(actions)
