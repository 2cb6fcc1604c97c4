"""The Royal Wedding on the core: both boxes, 3-8 players, teams of two on shared kingdoms.

Hand-built positions for what is new (box alternation and line order, team purse and knights, the Queen and the
Dragon per team, 5-8 player lines and discards, team ranks and rewards, the team observation), then properties
over random games of every size (game lengths per player count, rescoring) and records' Royal Wedding fields.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kingdomino_env import core, record
from kingdomino_env.games.queendomino import game as queendomino
from kingdomino_env.games.queendomino.kernels import BUILD, DRAGON, KNIGHT_STEP
from kingdomino_env.observation import QueendominoLayout
from kingdomino_env.rules import Rules
from tests.queendomino_positions import act, at_step, legal, paint, rescore, started
from tests.queendomino_positions import play_random as play

RW3 = Rules(game="royal_wedding", players=3)
RW5 = Rules(game="royal_wedding", players=5)
RW6T = Rules(game="royal_wedding", players=6, teams=True)
RW8T = Rules(game="royal_wedding", players=8, teams=True)
VARIANTS = [Rules(game="royal_wedding", players=p) for p in range(3, 9)] + [RW6T, RW8T]
SEEDS = st.integers(min_value=0, max_value=2**32 - 1)


def test_sizes_per_player_count():
    sizes = {(r.players, r.teams): (r.grid, r.line_size, r.rounds, r.kings, r.kingdoms) for r in VARIANTS}
    assert sizes == {(3, False): (7, 4, 24, 3, 3), (4, False): (7, 4, 24, 4, 4), (5, False): (5, 8, 12, 5, 5),
                     (6, False): (5, 8, 12, 6, 6), (7, False): (5, 8, 12, 7, 7), (8, False): (5, 8, 12, 8, 8),
                     (6, True): (7, 8, 12, 6, 3), (8, True): (7, 8, 12, 8, 4)}
    assert RW8T.seat_kingdoms == (0, 0, 1, 1, 2, 2, 3, 3) and RW8T.kingdom_seats(2) == (4, 5)
    assert RW3.domino_label(0) == ("kingdomino", 1) and RW3.domino_label(95) == ("queendomino", 48)
    assert (RW3.domino_terrain[48:] == Rules(game="queendomino").domino_terrain).all()


@pytest.mark.parametrize("options, message", [
    ({"players": 2}, "players must be 3 to 8"), ({"players": 9}, "players must be 3 to 8"),
    ({"players": 5, "teams": True}, "6 or 8 players"), ({"players": 7, "teams": True}, "6 or 8 players"),
    ({"players": 6, "teams": 1}, "teams must be True or False"), ({"players": 4, "harmony": True}, "no option"),
])
def test_bad_options_are_refused(options, message):
    with pytest.raises(ValueError, match=message):
        Rules(game="royal_wedding", **options)
    with pytest.raises(ValueError, match="Royal Wedding option"):
        Rules(game="queendomino", players=4, teams=True)


@pytest.mark.parametrize("rules", [RW3, RW6T])
def test_lines_alternate_boxes_and_are_sorted_by_number(rules):
    state = core.new_games(rules, [11])
    lines = state.deck[0].reshape(-1, rules.line_size).astype(int)
    assert lines.shape[0] == rules.rounds
    assert ((lines >= 48).all(axis=1) == (np.arange(rules.rounds) % 2 == 0)).all()
    assert sorted(state.deck[0].tolist()) == list(range(96))
    # The starting line is Queendomino's, sorted; the line drawn next is Kingdomino's, sorted.
    assert state.next_line[0].tolist() == sorted(lines[0].tolist()) and (state.next_line[0] >= 48).all()
    for _ in range(rules.kings):
        act(state, rules.pick_action(int(np.flatnonzero(state.next_owner[0] < 0)[0])))
    assert state.next_line[0].tolist() == sorted(lines[1].tolist()) and (state.next_line[0] < 48).all()
    assert (state.cur_line[0] >= 48).all()
    kingdomino_box, queen_box = queendomino.split_royal_deck(state.deck[0])
    assert (queendomino.royal_deck(kingdomino_box, queen_box, rules.line_size) == state.deck[0]).all()


def test_a_deck_that_does_not_alternate_is_refused():
    deck = queendomino.royal_deck(np.arange(48), np.arange(48), 4)[None]
    kings, piles = np.array([[0, 1, 2]]), np.arange(32)[None]
    core.init(RW3, deck, kings, buildings=piles)
    with pytest.raises(ValueError, match="alternate boxes"):
        core.init(RW3, deck[:, ::-1].copy(), kings, buildings=piles)


def test_the_starting_order_is_a_random_order_of_all_kings():
    orders = {tuple(core.new_games(RW8T, [seed]).first_kings[0].tolist()) for seed in range(20)}
    assert len(orders) > 1 and all(sorted(order) == list(range(8)) for order in orders)


def team_started(rules: Rules = RW6T, seed: int = 0):
    """A team game after its starting round; returns (state, seat to move, its kingdom, its teammate)."""
    state = started(rules, seed)
    seat = int(state.current_player[0])
    return state, seat, seat // 2, seat ^ 1


def test_team_games_share_one_kingdom_purse_and_knights():
    state, seat, team, mate = team_started()
    assert state.coins.shape == (1, 3) and (state.coins[0] == 7).all() and (state.knights[0] == 1).all()
    action = int(min(a for a in legal(state) if a < RW6T.n_place_actions))
    act(state, action)
    assert np.count_nonzero(state.terrain[0, team]) == 3  # the castle and the new domino, on the team's kingdom
    assert np.count_nonzero(state.terrain[0]) == 3 + 2  # the other kingdoms hold only their castles
    assert state.phase[0] == KNIGHT_STEP
    act(state, RW6T.knight_action(0))
    assert state.coins[0, team] > 7 and state.knights[0, team] == 0
    # The teammate's turn later this game uses the same purse: no knight is left for either of them.
    state.order_player[0, state.turn[0]] = mate
    assert state.current_player[0] == mate and state.current_kingdom[0] == team
    assert RW6T.knight_action(1) not in legal(state)


def test_the_queen_and_the_dragon_count_a_team_as_one():
    state, seat, team, mate = team_started()
    c = RW6T.castle
    paint(state, team, {(c, c + 1): "T"})
    state.queen[0] = team
    state.coins[0, team] = 0
    rescore(state, team)
    at_step(state, BUILD)
    # The teammate's king gets the host's discount (slot 1 for 0 coins) and may not send the Dragon.
    state.order_player[0, state.turn[0]] = mate
    assert RW6T.build_action(1, c, c + 1) in legal(state) and RW6T.build_action(2, c, c + 1) not in legal(state)
    state.coins[0, team] = 1
    at_step(state, DRAGON)
    assert legal(state) == {RW6T.pass_action}
    state.queen[0] = (team + 1) % 3
    assert RW6T.dragon_action(0) in legal(state)
    act(state, RW6T.dragon_action(0))
    assert state.coins[0, team] == 0 and not state.dragon[0]


def test_five_players_play_lines_of_eight_and_discard_the_three_unpicked():
    state = core.new_games(RW5, [3])
    for _ in range(RW5.kings):
        act(state, RW5.pick_action(int(np.flatnonzero(state.next_owner[0] < 0)[0])))
    assert (state.cur_owner[0] >= 0).sum() == 5 and state.order_slot[0].tolist() == sorted(state.order_slot[0])
    picked = state.cur_line[0][state.cur_owner[0] >= 0].tolist()
    assert len(set(picked)) == 5 and state.next_line[0].shape == (8,)
    # The three unpicked dominoes of the current line are never placed: only the five kings place.
    placed = 0
    while state.round[0] == 1:
        if state.phase[0] == core.PLACE:
            placed += 1
        act(state, int(min(legal(state))))
    assert placed == 5


def finished(rules: Rules, scores: list[int], largest: list[int]):
    state = core.new_games(rules, [0])
    state.phase[0] = core.OVER
    state.scores[0] = scores
    state.largest[0] = largest
    return state


def test_team_ranks_and_rewards_go_to_both_seats():
    state = finished(RW6T, [40, 55, 55], [9, 12, 10])
    assert core.kingdom_ranks(state)[0].tolist() == [2, 0, 1]
    assert core.ranks(state)[0].tolist() == [2, 2, 0, 0, 1, 1]
    assert core.rewards(state)[0].tolist() == [-0.5, -0.5, 1.0, 1.0, -0.5, -0.5]
    assert core.rewards(state, "margin")[0].tolist() == [-15, -15, 0, 0, 0, 0]
    assert core.seat_scores(state)[0].tolist() == [40, 40, 55, 55, 55, 55]
    assert core.win_shares(state)[0].tolist() == [0, 0, 1, 1, 0, 0]
    tied = finished(RW8T, [50, 50, 20, 10], [8, 8, 3, 3])
    assert core.ranks(tied)[0].tolist() == [0, 0, 0, 0, 2, 2, 3, 3]
    assert np.allclose(core.rewards(tied)[0], [1 / 3] * 4 + [-1 / 3] * 4)
    assert np.allclose(core.rewards(tied).sum(axis=1) / 2, 0)  # zero-sum over the teams


def test_the_observation_puts_the_own_kingdom_first_and_marks_the_teammate():
    state, seat, team, mate = team_started(RW8T, seed=5)
    layout = QueendominoLayout(RW8T)
    state.coins[0] = [10, 20, 30, 40]
    for viewer in (seat, mate):
        obs = core.observe(state, np.array([viewer]))[0]
        coins = obs[layout.kingdom_features].reshape(4, -1)[:, 0]
        assert coins.tolist() == [state.coins[0, (team + k) % 4] for k in range(4)]
        owners = obs[layout.current_line].reshape(8, -1)[:, 18:26]
        for slot in np.flatnonzero(state.cur_owner[0] >= 0):
            owner = int(state.cur_owner[0, slot])
            expected = 0 if owner == viewer else 1 if owner // 2 == viewer // 2 else None
            where = int(np.argmax(owners[slot]))
            if expected is None:
                assert where >= 2 and where == 2 * ((owner // 2 - viewer // 2) % 4) + owner % 2
            else:
                assert where == expected
    assert obs.shape == (layout.size,) and obs[layout.unseen].shape == (96,)


@pytest.mark.parametrize("rules", VARIANTS, ids=lambda r: f"{r.players}p{'-teams' if r.teams else ''}")
@settings(max_examples=2, deadline=None)
@given(deal_seed=SEEDS, action_seed=SEEDS)
def test_random_games_end_and_score_exactly(rules, deal_seed, action_seed):
    state, _ = play(rules, [deal_seed, deal_seed + 1], action_seed)
    assert (state.round == rules.rounds).all() and (state.drawn == 96).all()
    kings_per_kingdom = rules.kings // rules.kingdoms
    for b in range(2):
        for k in range(rules.kingdoms):
            assert queendomino.rescore(state, b, k) == (state.scores[b, k], state.largest[b, k],
                                                        state.total_crowns[b, k])
            assert core.score_breakdown(state, b, k)["total"] == state.scores[b, k]
            placed = (np.count_nonzero(state.terrain[b, k]) - 1) // 2
            assert placed + state.discarded[b, k] == rules.rounds * kings_per_kingdom
        assert state.knights_owned[b].sum() <= 22 and state.towers[b].sum() <= 15
    assert set(core.ranks(state)[0].tolist()) >= {0}


def test_a_record_without_its_queen_deck_or_with_a_bad_one_is_refused():
    state, actions = play(RW6T, [1], 2)
    rec = record.make_record(state, 0, [int(a[0]) for a in actions])
    without = {k: v for k, v in rec.items() if k != "queen_deck"}
    with pytest.raises(record.RecordError, match="queen_deck"):
        record.replay(without)
    with pytest.raises(record.RecordError, match="queen_deck"):
        record.replay({**rec, "queen_deck": rec["queen_deck"][:-1]})
    swapped = {**rec, "deck": rec["queen_deck"], "queen_deck": rec["deck"]}
    with pytest.raises(record.RecordError):
        record.replay(swapped)
