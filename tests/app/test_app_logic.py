"""The app's modules without pygame: placement cursor, score breakdown, match standings, seats and agents."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

import kingdomino_env
from kingdomino_app import placement
from kingdomino_app.breakdown import breakdown
from kingdomino_app.match import Match
from kingdomino_app.seats import MAX_NAME, AgentUnavailable, Seat, distinct_names, make_agent, parse_seat
from kingdomino_env import Rules, core
from kingdomino_env.dynasty import GameResult, rank, standing, tie_break
from kingdomino_env.games.kingdomino.quests import QUESTS


def random_finished(rules: Rules, games: int, seed: int = 0) -> core.State:
    state = core.new_games(rules, range(seed, seed + games))
    rng = np.random.default_rng(seed)
    while not state.is_over.all():
        core.step(state, core.random_legal_actions(core.legal_action_mask(state), rng))
    return state


@pytest.mark.parametrize("rules", [Rules(2), Rules(4, harmony=True, middle_kingdom=True),
                                   Rules(2, mighty_duel=True, middle_kingdom=True), Rules(3, harmony=True)],
                         ids=str)
def test_breakdown_adds_up_to_the_core_scores(rules):
    state = random_finished(rules, 40)
    bonuses = {0} | ({5} if rules.harmony else set()) | ({10} if rules.middle_kingdom else set())
    if rules.harmony and rules.middle_kingdom:
        bonuses.add(15)
    seen = set()
    for g in range(40):
        for p in range(rules.players):
            b = breakdown(state, g, p)
            assert b.total == state.scores[g, p] == b.territory_points + b.bonus
            assert b.bonus in bonuses
            seen.add(b.bonus)
            assert max(t.squares for t in b.territories) == state.largest[g, p]
            assert sum(t.crowns for t in b.territories) == state.total_crowns[g, p]
            assert sum(t.squares for t in b.territories) == (state.terrain[g, p] > 0).sum() - 1
    if rules.middle_kingdom:
        assert seen & {10, 15}, "some kingdoms get the Middle Kingdom bonus"


def test_rank_agrees_with_the_core():
    state = random_finished(Rules(4), 200, seed=3)
    for g in range(200):
        result = GameResult.from_state(state, g)
        assert list(rank(result.scores, result.largest, result.crowns)) == core.ranks(state)[g].tolist()


def test_tie_break_and_match_standing():
    assert tie_break([10, 8], [3, 9], [1, 1]) == "score"
    assert tie_break([10, 10, 4], [3, 5, 9], [1, 1, 1]) == "largest territory"
    assert tie_break([10, 10], [5, 5], [2, 3]) == "crowns"
    assert tie_break([10, 10], [5, 5], [3, 3]) == "shared"
    games = [GameResult((30, 20), (6, 5), (5, 4)), GameResult((10, 20), (4, 7), (3, 4))]
    s = standing(games)
    assert s.scores == (40, 40) and s.largest == (10, 12) and s.crowns == (8, 8)
    assert s.ranks == (1, 0) and s.winners == [1] and s.decided_by == "largest territory"
    assert standing(games[:1]).winners == [0]
    with pytest.raises(ValueError):
        standing([])


def test_cursor_moves_rotates_and_stays_in_the_frame():
    rules = Rules(2)
    c = placement.Cursor(4, 5, 0)
    assert placement.moved(c, 0, 10, rules) == placement.Cursor(4, 7, 0), "the second square stays in the frame"
    assert placement.moved(c, -10, 0, rules) == placement.Cursor(0, 5, 0)
    north = placement.rotated(placement.Cursor(0, 3, 2), rules)
    assert north == placement.Cursor(1, 3, 3)
    assert placement.rotated(c, rules, 4) == c
    assert c.action(rules) == rules.place_action(4, 5, 0) and c.cells() == ((4, 5), (4, 6))


def test_cursor_reads_the_mask():
    state = core.new_games(Rules(2), [1])
    rng = np.random.default_rng(1)
    while state.phase[0] != core.PLACE:
        core.step(state, core.random_legal_actions(core.legal_action_mask(state), rng))
    rules = state.rules
    mask = core.legal_action_mask(state)[0]
    start = placement.start_cursor(mask, rules)
    assert placement.is_legal(start, mask, rules)
    assert abs(start.row - 4) + abs(start.col - 4) == 1
    for d in range(4):
        cells = placement.legal_first_cells(mask, rules, d)
        assert sorted(rules.place_action(r, c, d) for r, c in cells) == [
            a for a in np.flatnonzero(mask[: rules.n_place_actions]) if a % 4 == d]
    assert not placement.must_discard(mask, rules)
    only_discard = np.zeros_like(mask)
    only_discard[rules.discard_action] = True
    assert placement.must_discard(only_discard, rules)
    assert placement.start_cursor(only_discard, rules) == placement.Cursor(4, 5, 0)


def test_parse_seat():
    assert parse_seat("human", 1) == Seat("Player 2", "human")
    assert parse_seat("human:Alice", 0) == Seat("Alice", "human")
    assert parse_seat("mcts:0.5", 2) == Seat("MCTS", "mcts:0.5")
    assert parse_seat("greedy", 3) == Seat("Greedy", "greedy")
    with pytest.raises(ValueError):
        parse_seat("", 0)
    with pytest.raises(ValueError):
        Seat.from_dict({"name": "", "kind": "human"})


def test_seats_of_the_same_name_are_numbered_within_the_name_limit():
    long = "A" * MAX_NAME
    seats = distinct_names([parse_seat("mcts:3", 0), parse_seat("mcts:3", 1), Seat(long), Seat(long), Seat(long)])
    assert [s.name for s in seats] == ["MCTS", "MCTS 2", long, "A" * (MAX_NAME - 2) + " 2", "A" * (MAX_NAME - 2) + " 3"]
    assert [s.kind for s in seats] == ["mcts:3", "mcts:3", "human", "human", "human"]


def test_agents_come_from_the_agents_package():
    with pytest.raises(AgentUnavailable, match="valid"):
        make_agent("no-such-agent")
    assert make_agent("greedy", seed=1).name == "greedy"
    match = Match([Seat("G", "greedy"), Seat("R", "random")], Rules(), seed=5)
    while not match.game_over:
        match.play_agent()
    assert match.record()["scores"] == match.state.scores[0].tolist()


def test_match_rejects_illegal_actions_and_bad_seats():
    match = Match([Seat("A"), Seat("B")], Rules(), seed=1)
    with pytest.raises(ValueError, match="not legal"):
        match.play(0)
    with pytest.raises(ValueError, match="2 to 8 seats"):
        Match([Seat("A")], Rules(players=2))
    with pytest.raises(ValueError, match="2 to 8 seats"):
        Match([Seat(f"P{i}") for i in range(9)], Rules(players=2))
    with pytest.raises(ValueError, match="next game"):
        match.next_game()


def test_match_takes_a_rules_for_as_many_players_as_seats():
    seats = [Seat("A"), Seat("B"), Seat("C")]
    with pytest.raises(ValueError, match="rules are for 2 players but 3 seats"):
        Match(seats, Rules(2))
    with pytest.raises(TypeError, match="rules must be a kingdomino_env.rules.Rules, got dict"):
        Match(seats, {"players": 3})  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="dynasty must be True or False"):
        Match(seats, Rules(3), dynasty=1)  # type: ignore[arg-type]
    rules = Rules(3, harmony=True, three_player_36=True, quests=(QUESTS[0],))
    match = Match(seats, rules, seed=7)
    assert match.rules is rules and match.state.rules == rules and not match.dynasty and match.games_total == 1
    env = kingdomino_env.env(players=3, harmony=True, three_player_36=True, quests=(QUESTS[0],))
    env.reset(seed=7)
    assert match.record() == env.unwrapped.record(), "the match deals game 1 with its seed, as the env does"


def test_modules_without_pygame_import_without_it():
    code = ("import sys; sys.modules['pygame'] = None\n"
            "import kingdomino_env, kingdomino_app\n"
            "from kingdomino_app import breakdown, seats, placement, saves, match, thinking\n"
            "assert 'kingdomino_env.rendering.pygame_drawing' not in sys.modules")
    subprocess.run([sys.executable, "-c", code], check=True)


def test_match_logs_moves_and_knows_the_next_human():
    match = Match([Seat("G", "greedy"), Seat("Ann"), Seat("Bo")], Rules(players=3), seed=2)
    assert match.moves == [] and match.position == (1, 0)
    rng = np.random.default_rng(0)
    for k in range(20):
        human = match.next_human()
        assert human in (1, 2)
        if match.human_to_move():
            assert human == match.mover
        else:
            upcoming = [int(p) for p in match.state.order_player[0, int(match.state.turn[0]):]]
            upcoming += [int(p) for p in match.state.next_owner[0]]
            assert human == next(p for p in upcoming if p in (1, 2))
        if match.human_to_move():
            match.play(int(rng.choice(np.flatnonzero(match.mask()))))
        else:
            match.play_agent()
        assert match.position == (1, k + 1) and match.moves[-1] == match.last_move
    assert len(match.moves) == 20
    assert Match([Seat("G", "greedy"), Seat("R", "random")], Rules(), seed=1).next_human() is None


def test_match_refuses_an_agent_that_cannot_play_the_variant():
    with pytest.raises(AgentUnavailable, match="Nobody"):
        Match([Seat("A"), Seat("Nobody", "no-such-agent")], Rules(), seed=1)
