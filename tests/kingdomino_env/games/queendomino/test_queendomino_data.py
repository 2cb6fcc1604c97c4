"""Queendomino's data, rules object, building CSVs and records' Queendomino fields."""

from __future__ import annotations

import copy
import os

import pytest

from kingdomino_env import core, record
from kingdomino_env.games.dominoes import QUEEN_DOMINO_CROWNS, QUEEN_DOMINO_TERRAIN, TOWN
from kingdomino_env.games.queendomino import buildings
from kingdomino_env.rules import Rules
from tests.kingdomino_env.games.queendomino.test_queendomino_core import test_the_rulebook_scoring_example_scores_71

SHIPPED = buildings.load()
HEADER = "tile,name,name_source,crowns,points,points_per,knights,towers,tax_bonus,effects_source"


def shipped_rows() -> list[str]:
    from importlib import resources

    text = resources.files("kingdomino_env").joinpath("games/data/queendomino_buildings.csv").read_text()
    return text.strip().splitlines()


def write_deck(tmp_path, rows: list[str]) -> str:
    path = tmp_path / "buildings.csv"
    path.write_text("\n".join(rows) + "\n")
    return str(path)


def test_dominoes_match_the_rulebook_totals():
    squares = {t: int((QUEEN_DOMINO_TERRAIN == t).sum()) for t in (1, 2, 3, 4, 5, 6, TOWN)}
    assert squares == {1: 19, 2: 17, 3: 14, 4: 12, 5: 8, 6: 6, TOWN: 20}
    assert [int(QUEEN_DOMINO_CROWNS[QUEEN_DOMINO_TERRAIN == t].sum()) for t in (1, 2, 3, 4, 5, 6, TOWN)] == [
        5, 6, 6, 6, 6, 10, 0]


def test_the_shipped_building_deck_is_data():
    assert len(SHIPPED.names) == 32 and SHIPPED.table.shape == (32, 7)
    assert SHIPPED.points_per[12] == "territory:forest" and SHIPPED.points_per[21] == "tower"
    assert int(SHIPPED.table[:, buildings.TOWERS].sum()) > 0 and int(SHIPPED.table[:, buildings.KNIGHTS].sum()) > 0


def test_rules_sizes_actions_and_round_trip():
    q2, q4 = Rules(game="queendomino", players=2), Rules(game="queendomino", players=4)
    assert (q2.frame, q2.first_knight_action, q2.first_build_action, q2.first_dragon_action, q2.pass_action,
            q2.n_actions) == (13, 681, 683, 1697, 1703, 1704)
    assert (q4.frame, q4.first_knight_action, q4.n_actions) == (9, 329, 824)
    assert q2.build_action(2, 3, 4) == 683 + 2 * 169 + 3 * 13 + 4
    assert q2.describe_action(q2.build_action(2, 3, 4)) == "build slot 2 at row 4, column 5"
    assert q2.describe_action(q2.dragon_action(5)) == "dragon burns slot 5"
    assert q2.describe_action(q2.knight_action(1)) == "knight on the second square"
    assert q2.describe_action(q2.pass_action) == "pass"
    for rules in (q2, q4, Rules(), Rules(players=3, three_player_36=True)):
        assert Rules.from_dict(rules.to_dict()) == rules
    assert "game" not in Rules().to_dict() and "buildings" not in Rules().to_dict()
    assert Rules.from_dict({"game": "kingdomino", "players": 2}) == Rules()
    with pytest.raises(ValueError, match="exist only in Queendomino"):
        Rules().knight_action(0)


@pytest.mark.parametrize("option", ["mighty_duel", "harmony", "middle_kingdom"])
def test_kingdomino_options_are_refused(option):
    with pytest.raises(ValueError, match=f"Queendomino has no option {option}"):
        Rules(game="queendomino", players=2, **{option: True})
    with pytest.raises(ValueError, match="random_quests"):
        Rules(game="queendomino", random_quests=2)
    with pytest.raises(ValueError, match="Kingdomino has no buildings"):
        Rules(buildings="x.csv")


@pytest.mark.parametrize("row, field, allowed", [
    ("23,Statue,rulebook,0,5,tavern,0,0,,provisional", "points_per", "territory:wheat"),
    ("23,Statue,rulebook,0,-5,,0,0,,provisional", "points", "0..99"),
    ("23,Statue,rulebook,x,5,,0,0,,provisional", "crowns", "0..9"),
    ("23,Statue,rulebook,0,5,,0,99,,provisional", "towers", "0..15"),
    ("23,Statue,rulebook,0,5,,0,0,coins,provisional", "tax_bonus", "'knight'"),
    ("22,Statue,rulebook,0,5,,0,0,,provisional", "tile", "each of 1..32 once"),
    ("33,Statue,rulebook,0,5,,0,0,,provisional", "tile", "1..32"),
])
def test_a_malformed_buildings_file_names_row_field_and_allowed(tmp_path, row, field, allowed):
    rows = shipped_rows()
    rows[23] = row
    path = write_deck(tmp_path, rows)
    with pytest.raises(ValueError, match="row 23") as err:
        Rules(game="queendomino", buildings=path)
    assert f"field '{field}'" in str(err.value) and allowed in str(err.value)


def test_buildings_file_shape_errors(tmp_path):
    with pytest.raises(ValueError, match="exactly 32 rows"):
        Rules(game="queendomino", buildings=write_deck(tmp_path, shipped_rows()[:-1]))
    with pytest.raises(ValueError, match="lacks column"):
        Rules(game="queendomino", buildings=write_deck(tmp_path, ["tile,name"] + ["1,a"]))
    with pytest.raises(ValueError, match="cannot be read"):
        Rules(game="queendomino", buildings=str(tmp_path / "missing.csv"))


@pytest.mark.parametrize(("column", "value", "message"), [
    (4, "9" * 5000, "field 'points' has 5000 characters; allowed: at most 200"),
    (4, "1" + "0" * 100, "field 'points' is '1000"),
    (3, "\u00b2", "field 'crowns' is '\u00b2'; allowed: an integer in 0..9"),
    (1, "x" * 41, "field 'name' has 41 characters; allowed: a name of at most 40"),
    (9, "y" * 300_000, "has 3"),
])
def test_an_oversized_or_odd_field_is_refused_naming_it(tmp_path, column, value, message):
    rows = shipped_rows()
    fields = rows[23].split(",")
    fields[column] = value
    rows[23] = ",".join(fields)
    with pytest.raises(ValueError, match=message):
        Rules(game="queendomino", buildings=write_deck(tmp_path, rows))


def test_a_buildings_path_that_is_no_regular_file_is_refused_without_blocking(tmp_path):
    """A FIFO would block a reader forever; a folder or an oversized file is no deck. Each is refused at once."""
    fifo = tmp_path / "deck.csv"
    os.mkfifo(fifo)
    with pytest.raises(ValueError, match="cannot be read: the buildings file .*deck.csv is not a regular file: it is a "
                                         "FIFO"):
        Rules(game="queendomino", buildings=str(fifo))
    with pytest.raises(ValueError, match="it is a folder"):
        Rules(game="royal_wedding", players=4, buildings=str(tmp_path))
    big = tmp_path / "big.csv"
    big.write_text("\n".join(shipped_rows()) + "\n" + "#" * buildings.MAX_BYTES)
    with pytest.raises(ValueError, match=f"at most {buildings.MAX_BYTES} are read"):
        Rules(game="queendomino", buildings=str(big))


def test_a_record_naming_a_fifo_as_its_deck_is_refused_without_blocking(tmp_path):
    """Saves and games.jsonl lines name their deck's path: replaying one whose path is a FIFO fails at once."""
    fifo = tmp_path / "deck.csv"
    os.mkfifo(fifo)
    made = record.make_record(core.new_games(Rules(game="queendomino"), [1]), 0, [])
    made["rules"]["buildings"] = str(fifo)
    with pytest.raises(record.RecordError, match="it is a FIFO"):
        record.replay(made)


def test_a_corrected_buildings_file_changes_the_game(tmp_path, monkeypatch):
    rows = shipped_rows()
    rows[23] = "23,Statue,rulebook,0,7,,0,0,,corrected"  # the Statue's points, 5 -> 7
    path = write_deck(tmp_path, rows)
    corrected = Rules(game="queendomino", players=4, buildings=path)
    assert corrected != Rules(game="queendomino", players=4)
    assert corrected.to_dict()["buildings"] == path
    from tests import queendomino_positions

    monkeypatch.setattr(queendomino_positions, "Q4", corrected)
    import tests.kingdomino_env.games.queendomino.test_queendomino_core as rule_tests

    monkeypatch.setattr(rule_tests, "Q4", corrected)
    with pytest.raises(AssertionError, match="73"):
        test_the_rulebook_scoring_example_scores_71()


def test_records_are_checked_field_by_field():
    state = core.new_games(Rules(game="queendomino", players=3), [2])
    good = record.make_record(state, 0, [])
    assert record.replay(good)[0].rules.is_queendomino
    bad_cases = [
        ({"game": "queen"}, "record\\['game'\\]"),
        ({"buildings": list(range(1, 32)) + [1]}, "each tile number"),
        ({"buildings": [0] * 32}, "record\\['buildings'\\]\\[0\\]"),
        ({"buildings": "x"}, "record\\['buildings'\\]"),
        ({"rules": {**good["rules"], "game": "kingdomino"}}, "record\\['rules'\\]\\['game'\\]"),
        ({"actions": [10**30]}, "record\\['actions'\\]"),
        ({"actions": [0]}, "action #0"),
        ({"first_kings": [0, 0, 1]}, "first_kings"),
    ]
    for change, message in bad_cases:
        with pytest.raises(record.RecordError, match=message):
            record.replay({**copy.deepcopy(good), **change})
    without = {k: v for k, v in good.items() if k != "buildings"}
    with pytest.raises(record.RecordError, match="buildings"):
        record.replay(without)
    kingdomino = record.make_record(core.new_games(Rules(), [0]), 0, [])
    assert "game" not in kingdomino
    assert record.replay({**kingdomino, "game": "kingdomino"})[0].rules == Rules()
    with pytest.raises(record.RecordError, match="buildings"):
        record.replay({**kingdomino, "buildings": good["buildings"]})
    two = record.make_record(core.new_games(Rules(game="queendomino"), [0]), 0, [])
    with pytest.raises(record.RecordError, match="A, B, B, A"):
        record.replay({**two, "first_kings": [0, 1, 0, 1]})
