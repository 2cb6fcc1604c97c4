"""Queendomino's rules on hand-built positions, through the batched core (the docs' rules page)."""

from __future__ import annotations

import numpy as np
import pytest

from kingdomino_env import core
from kingdomino_env.games.queendomino.kernels import BUILD, DRAGON, KNIGHT_STEP
from tests.queendomino_positions import Q2, Q3, Q4, act, at_step, give_domino, legal, mover, paint, rescore, started

# Building tiles of the shipped deck (0-based ids) used below.
TRAINING_CAMP, SAFE, GUARDTOWER, BIG_TAVERN, STATUE, SAWMILL, CHURCH, TRAVELLING = 16, 27, 19, 14, 22, 12, 5, 21


def wheat_row(state, p):
    """Three wheat squares east of the castle (2-player frame, castle at (6, 6))."""
    paint(state, p, {(6, 7): "W", (6, 8): "W", (6, 9): "W"})


def test_a_knight_collects_the_squares_of_its_territory():
    state = started(Q2)
    p = mover(state)
    wheat_row(state, p)
    give_domino(state, 1)  # wheat | wheat
    act(state, Q2.place_action(5, 7, 0))  # on (5, 7), (5, 8): a wheat territory of 5
    assert state.phase[0] == KNIGHT_STEP
    assert legal(state) == {Q2.knight_action(0), Q2.knight_action(1), Q2.pass_action}
    act(state, Q2.knight_action(1))
    assert state.coins[0, p] == 7 + 5
    assert state.knights[0, p] == 0 and state.knights_owned[0, p] == 1
    assert state.knight_board[0, p, 5, 8] == 1
    assert state.phase[0] != KNIGHT_STEP  # no knight left: the step ends without a PASS
    assert state.scores[0, p] == 12 // 3


def test_tax_bonuses_count_owned_knights_and_towers():
    state = started(Q2)
    p = mover(state)
    wheat_row(state, p)
    paint(state, p, {(7, 6): "T", (8, 6): "T", (9, 6): "T"})
    state.building_board[0, p, 7, 6] = TRAINING_CAMP  # tax bonus: knights owned
    state.building_board[0, p, 8, 6] = TRAINING_CAMP
    state.building_board[0, p, 9, 6] = SAFE  # tax bonus: towers
    state.knights[0, p], state.knights_owned[0, p], state.towers[0, p] = 2, 3, 4
    give_domino(state, 1)
    act(state, Q2.place_action(5, 7, 0))
    act(state, Q2.knight_action(0))
    assert state.coins[0, p] == 7 + 5 + 2 * 3 + 4
    act(state, Q2.knight_action(1))  # at most one knight per square: this is the second square
    assert state.coins[0, p] == 7 + 2 * (5 + 2 * 3 + 4)
    assert state.knights[0, p] == 0 and state.knights_owned[0, p] == 3


def test_at_most_one_knight_per_square_and_pass_ends_the_step():
    state = started(Q2)
    p = mover(state)
    state.knights[0, p] = state.knights_owned[0, p] = 5
    wheat_row(state, p)
    give_domino(state, 1)
    act(state, Q2.place_action(5, 7, 0))
    act(state, Q2.knight_action(0))
    assert legal(state) == {Q2.knight_action(1), Q2.pass_action}
    with pytest.raises(core.IllegalActionError):
        core.step(state, [Q2.knight_action(0)])
    act(state, Q2.pass_action)
    assert state.phase[0] != KNIGHT_STEP and state.knights[0, p] == 4


def test_no_knights_after_a_discard():
    state = started(Q2)
    p = mover(state)
    paint(state, p, {(r, c): "S" for r in range(3, 10) for c in range(3, 10) if (r, c) != (6, 6)})
    give_domino(state, 1)
    assert legal(state) == {Q2.discard_action}
    act(state, Q2.discard_action)
    assert state.phase[0] != KNIGHT_STEP and state.knights[0, p] == 1
    assert state.discarded[0, p] == 1


def test_optional_steps_without_a_legal_action_are_skipped():
    state = started(Q2)
    p = mover(state)
    state.knights[0, p] = state.knights_owned[0, p] = 0
    state.coins[0, p] = 0
    wheat_row(state, p)
    give_domino(state, 1)
    act(state, Q2.place_action(5, 7, 0))
    # No knight, no town square, no coin for the Dragon: straight to the pick.
    assert state.phase[0] == core.PICK and mover(state) == p
    state = started(Q2)
    p = mover(state)
    wheat_row(state, p)
    give_domino(state, 1)
    act(state, Q2.place_action(5, 7, 0))
    act(state, Q2.pass_action)  # knights
    assert state.phase[0] == DRAGON  # no open town square: no build step
    assert legal(state) == {Q2.dragon_action(k) for k in range(6)} | {Q2.pass_action}


def build_position(rules, coins, host=False):
    state = started(rules)
    p = mover(state)
    c = rules.castle
    paint(state, p, {(c, c + 1): "T", (c, c + 2): "T"})
    state.coins[0, p] = coins
    state.queen[0] = p if host else -1
    rescore(state, p)
    at_step(state, BUILD)
    return state, p


def affordable_slots(state, rules):
    ss = rules.frame * rules.frame
    return {(a - rules.first_build_action) // ss for a in legal(state) if rules.first_build_action <= a
            < rules.first_dragon_action}


def test_slot_k_costs_k_and_the_queen_takes_one_off():
    state, p = build_position(Q4, coins=3)
    assert affordable_slots(state, Q4) == {0, 1, 2, 3}
    state, p = build_position(Q4, coins=3, host=True)
    assert affordable_slots(state, Q4) == {0, 1, 2, 3, 4}
    state, p = build_position(Q4, coins=0, host=True)
    assert affordable_slots(state, Q4) == {0, 1}  # never below 0
    c = Q4.castle
    tile = int(state.slots[0, 1])
    act(state, Q4.build_action(1, c, c + 2))
    assert state.coins[0, p] == 0 and state.building_board[0, p, c, c + 2] == tile and state.slots[0, 1] == -1
    # Only on open town squares: the other town square is still open, the built one is not.
    assert all(Q4.build_action(k, c, c + 2) not in legal(state) for k in range(6))


def test_build_once_per_turn_then_the_dragon():
    state, p = build_position(Q4, coins=20)
    c = Q4.castle
    act(state, Q4.build_action(0, c, c + 1))
    assert state.phase[0] == DRAGON  # one town square is still open, but one build per turn
    assert state.coins[0, p] == 20


def test_a_build_takes_its_knights_and_towers_and_wins_the_queen():
    state, p = build_position(Q4, coins=10)
    c = Q4.castle
    state.slots[0, 2] = GUARDTOWER  # 2 towers
    state.slots[0, 3] = BIG_TAVERN  # 1 knight
    act(state, Q4.build_action(2, c, c + 1))
    assert state.coins[0, p] == 8  # not discounted: the Queen came with this build
    assert state.towers[0, p] == 2 and state.queen[0] == p
    assert state.scores[0, p] == 8 // 3 + 3 + 2  # wealth, Guardtower, the Queen on the 2-square town
    state.knights[0, p] = 0
    at_step(state, BUILD)
    act(state, Q4.build_action(3, c, c + 2))
    assert state.coins[0, p] == 6  # slot 3, 1 off for the Queen's host
    assert state.knights[0, p] == 1 and state.knights_owned[0, p] == 2


def test_the_queen_moves_on_a_tie_and_stays_on_a_smaller_count():
    for others, moves in ((2, True), (3, False)):
        state, p = build_position(Q4, coins=10)
        other = (p + 1) % 4
        c = Q4.castle
        paint(state, other, {(c, c + 1): "W", (c, c + 2): "W"})
        state.towers[0, other] = others
        state.queen[0] = other
        rescore(state, other)
        assert state.scores[0, other] == 2 + 2  # wealth, the Queen on the 2-square wheat field
        state.slots[0, 2] = GUARDTOWER
        act(state, Q4.build_action(2, c, c + 1))
        assert state.towers[0, p] == 2
        assert state.queen[0] == (p if moves else other)
        assert state.scores[0, other] == (2 if moves else 4)
        assert state.scores[0, p] == 8 // 3 + 3 + (2 if moves else 0)


def test_supply_limits_give_what_is_left():
    state, p = build_position(Q4, coins=10)
    c = Q4.castle
    state.knights_owned[0] = [6, 6, 6, 3]  # 21 of the 22 knights handed out
    state.towers[0] = [4, 4, 4, 2]  # 14 of the 15 towers placed
    state.slots[0, :3] = [BIG_TAVERN, GUARDTOWER, BIG_TAVERN]
    owned, towers = int(state.knights_owned[0, p]), int(state.towers[0, p])
    act(state, Q4.build_action(0, c, c + 1))  # 1 knight: the last one
    assert state.knights_owned[0, p] == owned + 1 and state.knights_owned[0].sum() == 22
    at_step(state, BUILD)
    act(state, Q4.build_action(1, c, c + 2))  # 2 towers, 1 left in the supply
    assert state.towers[0, p] == towers + 1 and state.towers[0].sum() == 15
    at_step(state, BUILD)
    paint(state, p, {(c + 1, c): "T"})
    act(state, Q4.build_action(2, c + 1, c))  # 1 knight, none left
    assert state.knights_owned[0, p] == owned + 1 and state.knights_owned[0].sum() == 22


def dragon_position(rules, coins=3):
    state = started(rules)
    p = mover(state)
    state.coins[0, p] = coins
    at_step(state, DRAGON)
    return state, p


def test_the_dragon_burns_a_tile_once_per_round():
    state, p = dragon_position(Q4)
    tile = int(state.slots[0, 4])
    act(state, Q4.dragon_action(4))
    assert state.coins[0, p] == 2 and state.slots[0, 4] == -1 and not state.dragon[0]
    assert tile not in state.slots[0] and tile not in state.pile[0, state.pile_pos[0]:]
    assert state.phase[0] == core.PICK
    act(state, Q4.pick_action(int(np.flatnonzero(state.next_owner[0] < 0)[0])))
    # The next king: its Dragon step is skipped (the Dragon has left its cave this round).
    q = mover(state)
    at_step(state, DRAGON)
    state.coins[0, q] = 5
    assert Q4.dragon_action(0) not in legal(state)


def test_the_dragon_needs_a_coin_a_tile_and_no_queen():
    state, p = dragon_position(Q4, coins=0)
    assert legal(state) == {Q4.pass_action}
    state, p = dragon_position(Q4)
    state.queen[0] = p
    assert legal(state) == {Q4.pass_action}
    state, p = dragon_position(Q4)
    state.slots[0] = -1
    assert legal(state) == {Q4.pass_action}
    state, p = dragon_position(Q4)
    state.slots[0] = [-1, -1, 7, -1, -1, -1]
    assert legal(state) == {Q4.dragon_action(2), Q4.pass_action}


def test_end_of_round_dragon_back_slide_and_refill():
    state = started(Q4)
    state.dragon[0] = False
    state.slots[0] = [-1, 5, -1, 7, 8, -1]
    state.pile_pos[0] = 30
    pile_left = state.pile[0, 30:].tolist()
    state.turn[0] = Q4.kings - 1
    state.phase[0] = core.PICK
    act(state, Q4.pick_action(int(np.flatnonzero(state.next_owner[0] < 0)[0])))
    assert state.round[0] == 2 and state.dragon[0]
    assert state.slots[0].tolist() == [5, 7, 8, *pile_left, -1]
    assert state.pile_pos[0] == 32


def test_no_pick_in_the_last_round_and_the_game_ends():
    state = core.new_games(Q3, [5])
    rng = np.random.default_rng(5)
    while not state.is_over[0]:
        if state.round[0] == Q3.rounds:
            assert state.phase[0] != core.PICK
            assert not any(Q3.first_pick_action <= a < Q3.first_knight_action for a in legal(state))
        core.step(state, core.random_legal_actions(core.legal_action_mask(state), rng))
    assert state.round[0] == Q3.rounds


def test_three_players_discard_the_unpicked_domino():
    state = core.new_games(Q3, [11])
    rng = np.random.default_rng(11)
    while not state.is_over[0]:
        if state.phase[0] == core.PLACE and state.turn[0] == 0:
            assert (state.cur_owner[0] < 0).sum() == 1
        core.step(state, core.random_legal_actions(core.legal_action_mask(state), rng))
    placed = sum((np.count_nonzero(state.terrain[0, p]) - 1) // 2 + state.discarded[0, p] for p in range(3))
    assert placed == 36 and state.drawn[0] == 48


def test_two_players_open_a_b_b_a():
    for seed in range(20):
        kings = core.new_games(Q2, [seed]).first_kings[0].tolist()
        assert kings[0] == kings[3] != kings[1] == kings[2]
    state = core.new_games(Q2, [3])
    a = int(state.first_kings[0, 0])
    movers = []
    while state.round[0] == 0:
        movers.append(mover(state))
        core.step(state, [int(np.flatnonzero(core.legal_action_mask(state)[0])[-1])])
    assert movers == [a, 1 - a, 1 - a, a]
    with pytest.raises(ValueError, match="A, B, B, A"):
        core.init(Q2, state.deck, np.array([[0, 1, 0, 1]]), buildings=state.pile)


def test_set_up_coins_knights_board_and_sizes():
    for rules, grid, kings in ((Q2, 7, 4), (Q3, 5, 3), (Q4, 5, 4)):
        state = core.new_games(rules, [1])
        assert rules.grid == grid and rules.kings == kings and rules.rounds == 12 and rules.deck_size == 48
        assert (state.coins[0] == 7).all() and (state.knights[0] == 1).all() and (state.towers[0] == 0).all()
        assert state.slots[0].tolist() == state.pile[0, :6].tolist() and state.pile_pos[0] == 6
        assert state.dragon[0] and state.queen[0] == -1
        assert (state.scores[0] == 2).all()  # 7 coins are 2 points of wealth


def test_the_rulebook_scoring_example_scores_71():
    """The rulebook's example kingdom (3 towers, the Queen, 11 coins), finished by its last domino and a build in
    the last round: 3 wealth + 41 territories (16 for the grasslands with the Queen) + 27 for the buildings."""
    state = started(Q4)
    state.round[0] = Q4.rounds
    state.turn[0] = Q4.kings - 1
    state.next_line[0] = -1
    state.next_owner[0] = -1
    state.drawn[0] = 48
    p = mover(state)
    grid = ["G3 G G G T", "W1 W W T F1", "L2 L . M4 F", "L T S1 M M", "F1 T . . T"]
    cells = {}
    for r, row in enumerate(grid):
        for c, text in enumerate(row.split()):
            if text != ".":
                cells[(r + 2, c + 2)] = text
    paint(state, p, cells)
    for (r, c), tile in {(0, 4): SAWMILL, (1, 3): CHURCH, (3, 1): TRAVELLING, (4, 1): BIG_TAVERN,
                         (4, 4): STATUE}.items():
        state.building_board[0, p, r + 2, c + 2] = tile
    state.towers[0, p] = 1  # the Travelling Castle's
    state.knights[0, p] = 0
    state.coins[0, p] = 13
    state.slots[0, 2] = GUARDTOWER
    give_domino(state, 36)  # town | forest
    act(state, Q4.place_action(6, 5, 2))  # town at (6, 5), forest at (6, 4)
    assert state.phase[0] == BUILD
    act(state, Q4.build_action(2, 6, 5))  # Guardtower: 2 towers, the Queen; 11 coins left
    assert state.is_over[0]  # the Dragon is not for the Queen's host, and there is no pick in the last round
    assert state.coins[0, p] == 11 and state.towers[0, p] == 3 and state.queen[0] == p
    assert state.scores[0, p] == 71
    breakdown = core.score_breakdown(state, 0, p)
    assert breakdown["total"] == 71 and breakdown["wealth"] == 3 and breakdown["queen"] == 4
    by_terrain = {}
    for t in breakdown["territories"]:
        by_terrain[t["terrain"]] = by_terrain.get(t["terrain"], 0) + t["points"] + (4 if t["queen"] else 0)
    assert by_terrain == {"wheat": 3, "forest": 3, "lake": 6, "grassland": 16, "swamp": 1, "mine": 12, "town": 0}
    points = {b["name"]: b["points"] for b in breakdown["buildings"]}
    assert points == {"Sawmill": 6, "Church": 8, "Travelling Castle": 3, "Big Tavern": 2, "Statue": 5,
                      "Guardtower": 3}
    assert [t["terrain"] for t in breakdown["territories"] if t["queen"]] == ["grassland"]


def test_the_observation_shows_the_new_parts():
    from kingdomino_env.observation import QueendominoLayout

    layout = QueendominoLayout(Q2)
    state = started(Q2)
    p = mover(state)
    wheat_row(state, p)
    paint(state, p, {(7, 6): "T"})
    state.building_board[0, p, 7, 6] = STATUE
    state.towers[0, p] = 2
    state.queen[0] = p
    state.knights[0, p] = state.knights_owned[0, p] = 2
    give_domino(state, 1)
    act(state, Q2.place_action(5, 7, 0))
    act(state, Q2.knight_action(0))
    assert state.phase[0] == KNIGHT_STEP
    obs = core.observe(state, viewer=np.array([p]))[0]
    planes = layout.kingdom_planes(obs)[0]  # the observer's own kingdom first
    assert planes[6, 7, 6] == 1 and planes[9, 7, 6] == 1 and planes[10, 5, 7] == 1  # town, building, knight
    assert planes[0, 5, 7] == 1 and planes[8, 5, 7] == 0 and planes[8, 4, 7] == 1  # wheat, no longer open
    feats = obs[layout.kingdom_features].reshape(2, -1)
    assert feats[0, :6].tolist() == [12, 1, 2, 2, 1, 5]  # coins, knights, owned, towers, Queen, fixed points
    assert feats[1, 0] == 7 and feats[1, 4] == 0
    board = obs[layout.board].reshape(6, -1)
    assert board[:, 17].tolist() == [0, 0, 1, 2, 3, 4]  # the observer hosts the Queen: 1 off
    counters = obs[layout.counters]
    assert counters[1:6].tolist() == [0, 0, 1, 0, 0] and counters[6] == 1  # knights step; the Dragon in its cave
    assert obs[layout.placed][[0, 5, 6]].tolist() == [1, 1, 0]
    other = core.observe(state, viewer=np.array([1 - p]))[0]
    assert (layout.kingdom_planes(other)[1] == planes).all()  # the same kingdom, seen second
    assert other[layout.board].reshape(6, -1)[:, 17].tolist() == [0, 1, 2, 3, 4, 5]
