"""Hand-built kingdoms: each placement rule, each bonus, tie-breaks and forced discards, through the core."""

from __future__ import annotations

import numpy as np
import pytest

from kingdomino_env import core
from kingdomino_env.games.kingdomino import kernels
from kingdomino_env.rules import Rules
from tests.boards import place_kingdom, placing_state, score

R2 = Rules(2)
EAST, SOUTH, WEST, NORTH = range(4)


def legal(state: core.State) -> set[int]:
    return set(np.flatnonzero(core.legal_action_mask(state)[0]).tolist())


def is_legal(state: core.State, row: int, col: int, direction: int) -> bool:
    return state.rules.place_action(row, col, direction) in legal(state)


def test_castle_is_wild_and_only_touching_placements_are_legal_on_an_empty_kingdom():
    state = placing_state(R2, 13)  # wheat|forest
    k = R2.castle
    expected = set()
    for r in range(R2.frame):
        for c in range(R2.frame):
            for d, (dr, dc) in enumerate(((0, 1), (1, 0), (0, -1), (-1, 0))):
                r2, c2 = r + dr, c + dc
                if not (0 <= r2 < R2.frame and 0 <= c2 < R2.frame) or (k, k) in ((r, c), (r2, c2)):
                    continue
                if abs(r - k) + abs(c - k) == 1 or abs(r2 - k) + abs(c2 - k) == 1:
                    expected.add(R2.place_action(r, c, d))
    assert legal(state) == expected
    assert len(expected) == 24  # 4 squares beside the castle x 3 free directions x 2 ends of the domino
    assert is_legal(state, k, k + 1, EAST)
    assert not is_legal(state, 0, 0, EAST)


def test_a_square_must_touch_its_own_terrain():
    kingdom = """
    ## W
    """
    state = placing_state(R2, 13, kingdom=kingdom)  # first square wheat, second forest
    k = R2.castle
    # Wheat square directly above the wheat: legal (wheat touches wheat).
    assert is_legal(state, k - 1, k + 1, NORTH)
    # Forest square above the wheat, wheat square above it: nothing matches, nothing touches the castle.
    assert not is_legal(state, k - 2, k + 1, SOUTH)
    # Forest square right of the wheat: forest does not match wheat.
    assert not is_legal(state, k, k + 3, WEST)
    # Wheat square right of the wheat, forest further right: legal.
    assert is_legal(state, k, k + 2, EAST)


def test_touching_counts_for_either_square():
    state = placing_state(R2, 13, kingdom="## F")  # wheat|forest beside a forest square
    k = R2.castle
    # Second square (forest) touches the forest, first square (wheat) touches nothing.
    assert is_legal(state, k - 1, k, EAST)  # the wheat square above the castle touches the castle
    assert is_legal(state, k - 2, k + 1, SOUTH)  # forest at (k-1, k+1) above the forest square
    assert not is_legal(state, k - 2, k + 2, SOUTH)


def test_occupied_squares_cannot_be_covered():
    state = placing_state(R2, 1, kingdom="## W W")  # wheat|wheat
    k = R2.castle
    assert not is_legal(state, k, k + 2, EAST)  # first square on an occupied square
    assert not is_legal(state, k, k + 3, WEST)  # second square on an occupied square
    assert is_legal(state, k, k + 3, EAST)


def test_kingdom_must_stay_within_five_by_five():
    state = placing_state(R2, 1, kingdom="## W W W W")  # 5 wide already
    k = R2.castle
    assert not is_legal(state, k + 1, k - 1, EAST)  # would make it 6 wide
    assert is_legal(state, k + 1, k, EAST)
    assert not is_legal(state, k - 1, k + 4, EAST)  # second square beyond the frame edge
    # Height is still free: 4 rows above and below are allowed, but not a domino spanning 6 rows.
    tall = placing_state(R2, 1, kingdom="W\nW\nW\nW\n##")
    assert is_legal(tall, k - 4, k - 1, WEST)
    assert not is_legal(tall, k + 1, k, SOUTH)  # rows k-4..k+2 = 7 rows
    assert is_legal(tall, k, k - 1, WEST)
    assert is_legal(tall, k, k + 1, EAST)


def test_off_frame_and_out_of_range_actions_are_rejected():
    state = placing_state(R2, 1, kingdom="W\nW\nW\nW\n##")  # wheat reaches row 0 of the frame
    k = R2.castle
    assert is_legal(state, 0, k - 1, WEST)
    assert not is_legal(state, 0, k - 1, NORTH)  # second square would be off the frame
    with pytest.raises(ValueError, match="outside"):
        R2.place_action(R2.frame, 0, EAST)
    with pytest.raises(core.IllegalActionError):
        core.step(state, [R2.n_actions])
    with pytest.raises(core.IllegalActionError):
        core.step(state, [R2.place_action(0, k - 1, NORTH)])


def test_mighty_duel_allows_seven_by_seven():
    md = Rules(2, mighty_duel=True)
    state = placing_state(md, 1, kingdom="## W W W W W")  # 6 wide
    k = md.castle
    assert is_legal(state, k, k + 6, NORTH)  # 7 wide
    assert is_legal(state, k, k - 1, NORTH)  # 7 wide
    assert not is_legal(state, k, k - 1, WEST)  # 8 wide
    assert not is_legal(placing_state(R2, 1, kingdom="## W W W"), 4, 3, WEST)  # the same is 6 wide in 5x5


def test_discard_is_legal_only_when_no_placement_is():
    full = """
    W W F F F
    W W F F F
    L L ## S S
    L L G G S
    L L G G S
    """
    state = placing_state(R2, 13, kingdom=full)
    assert legal(state) == {R2.discard_action}
    core.step(state, [R2.discard_action])
    assert state.discarded[0, 0] == 1

    # Space is left, but the domino matches nothing reachable: a forced discard.
    blocked = """
    L L L L L
    L L L L L
    L L ## L L
    L L L L L
    L L L L .
    """
    state = placing_state(R2, 3, kingdom=blocked)  # forest|forest: one gap only, too small anyway
    assert legal(state) == {R2.discard_action}

    room = """
    L L L L L
    L L L L L
    L L ## L L
    L L L L L
    L L L . .
    """
    state = placing_state(R2, 3, kingdom=room)  # forest|forest fits the gap but touches no forest
    assert legal(state) == {R2.discard_action}
    state = placing_state(R2, 7, kingdom=room)  # lake|lake fits and touches lake
    assert R2.discard_action not in legal(state)
    assert len(legal(state)) == 2
    with pytest.raises(core.IllegalActionError, match="place phase"):
        core.step(state, [R2.discard_action])
    assert state.discarded[0, 0] == 0


def test_placing_updates_the_board_and_the_score():
    state = placing_state(R2, 19, kingdom="## W")  # wheat*1|forest
    k = R2.castle
    core.step(state, [R2.place_action(k, k + 2, EAST)])
    assert state.terrain[0, 0, k, k + 2] == 1 and state.crowns[0, 0, k, k + 2] == 1
    assert state.terrain[0, 0, k, k + 3] == 2
    assert state.scores[0, 0] == 2  # two wheat squares, one crown
    assert tuple(state.bbox[0, 0]) == (k, k, k, k + 3)


def kernel_points(state: core.State) -> int:
    """Player 0's points as the core's scoring kernel computes them."""
    r, s = state.rules, state.rules.frame
    points, _, _ = kernels.score_board(state.terrain[0, 0], state.crowns[0, 0], r.constants, np.zeros((s, s), np.int32),
                                       np.zeros(s * s, np.int64))
    return int(points)


KINGDOM_SCORES = [
    # The rulebook's example: 7 forest squares with 3 crowns score 21; 9 lake squares without crowns score 0.
    ("""
    F1 F F1 F1 L
    F  F F  L  L
    L  L ## L  L
    L  L .  .  .
    """, 21),
    ("""
    W1 W  G2
    ## G  G
    """, 2 + 6),
    ("""
    M3 W
    ## W2
    W  W
    """, 3 + 4 * 2),
]


@pytest.mark.parametrize(("kingdom", "expected"), KINGDOM_SCORES)
def test_territories_score_squares_times_crowns(kingdom, expected):
    assert kernel_points(placing_state(R2, 1, kingdom=kingdom)) == expected


COMPLETE_CENTRED = """
W1 W  F  F  F
W  W  F  F  F
L  L  ## S  S
L  L  G  G  S
L  L  G  G  S
"""
COMPLETE_CORNER = """
## W1 W  F  F
W  W  F  F  F
L  L  L  S  S
L  L  G  G  S
L  L  G  G  S
"""
GAPPY_CENTRED = """
W1 W  .  .  F
.  .  .  .  F
.  .  ## .  .
.  .  .  .  .
L  .  .  .  .
"""


@pytest.mark.parametrize(
    ("kingdom", "harmony", "middle"),
    [(COMPLETE_CENTRED, 5, 10), (COMPLETE_CORNER, 5, 0), (GAPPY_CENTRED, 0, 10), ("## W1 W", 0, 0)],
)
def test_bonuses(kingdom, harmony, middle):
    base = score(*_board(kingdom, Rules(2)), Rules(2))[0]
    for rules, bonus in ((Rules(2, harmony=True), harmony), (Rules(2, middle_kingdom=True), middle),
                         (Rules(2, harmony=True, middle_kingdom=True), harmony + middle)):
        assert kernel_points(placing_state(rules, 1, kingdom=kingdom)) == base + bonus


def _board(kingdom: str, rules: Rules):
    state = placing_state(rules, 1, kingdom=kingdom)
    return state.terrain[0, 0], state.crowns[0, 0]


def test_bonus_applied_by_the_last_placement():
    almost = """
    W1 W  F  F  F
    W  W  F  F  F
    L  L  ## S  S
    L  L  G  G  S
    L  L  G  .  .
    """
    rules = Rules(2, harmony=True, middle_kingdom=True)
    state = placing_state(rules, 10, kingdom=almost)  # grassland|grassland fills the gap
    before = int(state.scores[0, 0])
    k = rules.castle
    core.step(state, [rules.place_action(k + 2, k + 1, EAST)])
    # The crownless grassland grows by 2 squares; the kingdom was already centred (Middle Kingdom counted before),
    # and is now complete: Harmony adds 5.
    assert state.scores[0, 0] == before + 5


def _ranked(kingdoms: list[str]) -> np.ndarray:
    rules = Rules(len(kingdoms))
    state = core.new_games(rules, [0])
    for p, k in enumerate(kingdoms):
        place_kingdom(state, 0, p, k)
    return core.ranks(state)[0]


def test_ranking_score_then_largest_territory_then_crowns_then_shared():
    assert _ranked(["## W1 W", "## W1"]).tolist() == [0, 1]  # 2 points beat 1
    # 2 points each: the larger territory wins, crowns or not (3 lake squares against 2 wheat).
    assert _ranked(["## W1 W .\n.  L  L L", "## W1 W ."]).tolist() == [0, 1]
    two_by_one = "## W1 W\nF1 F  ."  # 2 + 2 = 4 points, largest 2, 2 crowns
    one_by_two = "## W2 W"  # 4 points, largest 2, 2 crowns: the same keys
    three_crowns = "## W1 W\nM2 .  ."  # 2 + 2 = 4 points, largest 2, 3 crowns
    assert _ranked([two_by_one, three_crowns]).tolist() == [1, 0]  # crowns decide
    assert _ranked([two_by_one, one_by_two]).tolist() == [0, 0]  # still tied: shared victory
    assert _ranked([two_by_one, one_by_two, three_crowns, "## W1"]).tolist() == [1, 1, 0, 3]


def test_outcome_rewards_are_zero_sum_with_shared_victories():
    rules = Rules(4)
    state = core.new_games(rules, [0])
    for p, k in enumerate(["## W1 W", "## W2 W", "## W2 W", "## W1"]):
        place_kingdom(state, 0, p, k)
    r = core.rewards(state, "outcome")[0]
    assert r.tolist() == pytest.approx([-1 / 3, 1 / 3, 1 / 3, -1 / 3])
    assert r.sum() == pytest.approx(0, abs=1e-6)
    assert core.rewards(state, "score")[0].tolist() == [2, 4, 4, 1]
    assert core.rewards(state, "margin")[0].tolist() == [-2, 0, 0, -3]
    with pytest.raises(ValueError, match="outcome, score, margin"):
        core.rewards(state, "points")


def test_score_breakdown_itemises_territories_and_bonuses():
    rules = Rules(2, harmony=True, middle_kingdom=True)
    state = placing_state(rules, 1, kingdom=COMPLETE_CENTRED)
    breakdown = core.score_breakdown(state, 0, 0)
    assert breakdown["harmony"] == 5 and breakdown["middle_kingdom"] == 10
    assert breakdown["territories"][0] == {"terrain": "wheat", "squares": 4, "crowns": 1, "points": 4}
    assert sum(t["squares"] for t in breakdown["territories"]) == 24
    assert breakdown["total"] == state.scores[0, 0] == 4 + 15
    assert breakdown["largest"] == 6 and breakdown["crowns"] == 1


def test_rank_by_is_lexicographic_for_any_totals():
    # Match totals can exceed any packing of the keys: 2 crowns more must not outweigh 1 square of territory.
    assert core.rank_by(np.array([90, 90]), np.array([120, 119]), np.array([0, 250])).tolist() == [0, 1]
    assert core.rank_by(np.array([[5, 7, 7, 7]]), np.array([[9, 3, 3, 2]]), np.array([[1, 2, 2, 9]])).tolist() == [
        [3, 0, 0, 2]]
