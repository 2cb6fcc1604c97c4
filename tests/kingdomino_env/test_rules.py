"""Variants and the action layout contract."""

from __future__ import annotations

import copy

import pytest

from kingdomino_env.games.dominoes import DOMINO_CROWNS, DOMINO_TERRAIN, describe
from kingdomino_env.rules import Rules


@pytest.mark.parametrize(
    ("rules", "sizes"),
    [
        (Rules(2), dict(grid=5, frame=9, deck_size=24, line_size=4, kings=4, rounds=6, n_actions=329)),
        (Rules(3), dict(grid=5, frame=9, deck_size=48, line_size=4, kings=3, rounds=12, n_actions=329)),
        (Rules(3, three_player_36=True), dict(deck_size=36, line_size=3, kings=3, rounds=12, n_actions=328)),
        (Rules(4), dict(grid=5, deck_size=48, line_size=4, kings=4, rounds=12, n_actions=329)),
        (Rules(2, mighty_duel=True), dict(grid=7, frame=13, deck_size=48, kings=4, rounds=12, n_actions=681)),
    ],
)
def test_variant_sizes(rules, sizes):
    for name, value in sizes.items():
        assert getattr(rules, name) == value, name


def test_action_layout():
    r = Rules(2)
    assert r.n_place_actions == 324 and r.discard_action == 324 and r.first_pick_action == 325
    assert r.place_action(4, 5, 0) == (4 * 9 + 5) * 4
    assert r.place_action(0, 0, 3) == 3
    assert r.pick_action(3) == 328
    assert r.describe_action(r.place_action(4, 5, 1)) == "place at row 5, column 6, second half south"
    assert r.describe_action(324) == "discard" and r.describe_action(326) == "pick line position 2"
    md = Rules(2, mighty_duel=True)
    assert md.n_place_actions == 676 and md.castle == 6
    with pytest.raises(ValueError, match="pick index"):
        r.pick_action(4)
    with pytest.raises(ValueError, match="action must be in 0..328"):
        r.describe_action(329)


def test_rules_dict_round_trip_and_errors():
    r = Rules(3, harmony=True)
    assert Rules.from_dict(r.to_dict()) == r
    with pytest.raises(ValueError, match="unknown rules keys"):
        Rules.from_dict({"players": 2, "colour": "red"})
    with pytest.raises(ValueError, match="must be an object"):
        Rules.from_dict([2])


def test_domino_table():
    assert DOMINO_TERRAIN.shape == (48, 2)
    # Square totals from the domino table (sources: the docs' rules page): wheat 26, forest 22, lake 18, grassland 14,
    # swamp 10, mine 6; crowns 39.
    counts = [int((DOMINO_TERRAIN == t).sum()) for t in range(1, 7)]
    assert counts == [26, 22, 18, 14, 10, 6]
    assert int(DOMINO_CROWNS.sum()) == 39
    assert describe(48) == "#48 wheat|mine*3"


@pytest.mark.parametrize(("data", "message"), [
    ({"players": 2, "grid": 5.0}, r"grid=5\.0 but the variant has a 5x5 grid"),
    ({"players": 2, "grid": True}, "grid=True"),
    ({"players": 2, "grid": 10**30}, "grid=1000000000000000000000000000000"),
    ({"players": 10**5000}, "players must be 2, 3 or 4, got an integer of about 5001 digits"),
    ({"players": 2.0}, "players must be 2, 3 or 4, got 2.0"),
    ({"players": None}, "players must be 2, 3 or 4, got None"),
    ({"players": 2, 5: 1}, r"unknown rules keys \['5'\]"),
    ({"players": 2, "harmony": 1}, "harmony must be True or False, got 1"),
    ({"players": 2, "quests": "harmony"}, "quests must be a sequence of quest names"),
    ({"players": 2, "quests": [["harmony"]]}, "unknown quests"),
    ({"players": 2, "quests": ["harmony", "harmony"]}, "must not repeat"),
    ({"players": 2, "random_quests": 2.0}, "random_quests must be an integer in 0..17, got 2.0"),
    ({"players": 2, "random_quests": -(10**30)}, "random_quests must be an integer in 0..17"),
])
def test_rules_from_dict_checks_every_field_type_and_range(data, message):
    with pytest.raises(ValueError, match=message):
        Rules.from_dict(data)


def test_deep_copies_share_the_immutable_rules():
    rules = Rules(3, game="queendomino")
    assert copy.deepcopy(rules) is rules
    assert copy.deepcopy({"rules": rules})["rules"] is rules
