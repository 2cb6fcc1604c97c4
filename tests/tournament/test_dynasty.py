"""Dynasty tournaments: matches of three games, ranked by the play app's Dynasty rules, rated per match."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from kingdomino_cli.main import app
from kingdomino_env import dynasty
from kingdomino_env.record import replay
from kingdomino_env.rules import Rules
from tournament import TournamentConfig, run_tournament, write_all
from tournament.matches import group_matches
from tournament.play import GameResult

CONFIG = TournamentConfig(agents=("random", "greedy"), rules=Rules(2), games=12, seed=3, dynasty=True, unit_games=12)


@pytest.fixture(scope="module")
def result():
    return run_tournament(CONFIG)


def test_every_match_is_three_games_with_its_seats_on_three_deals(result):
    res = result
    assert CONFIG.total_matches == 12 and CONFIG.total_games == 36
    assert len(res.matches) == 12 and len(res.games) == 36
    for match in res.matches:
        games = [res.games[i] for i in match.games]
        assert [g.match_game for g in games] == [0, 1, 2] and {g.match for g in games} == {match.match}
        assert {g.seats for g in games} == {match.seats}
        assert len({tuple(g.record["deck"]) for g in games}) == 3
    # duplicate format: the two seat orders of a deal play the same three deals
    by_deal = {}
    for match in res.matches:
        decks = tuple(tuple(res.games[i].record["deck"]) for i in match.games)
        by_deal.setdefault(match.deal, set()).add(decks)
    assert all(len(decks) == 1 for decks in by_deal.values())


def test_match_winners_follow_the_game_scores(result):
    res = result
    for match in res.matches:
        games = [res.games[i] for i in match.games]
        for seat in range(2):
            assert match.scores[seat] == sum(g.scores[seat] for g in games)
            assert match.largest[seat] == sum(g.largest[seat] for g in games)
            assert match.crowns[seat] == sum(g.crowns[seat] for g in games)
        assert match.ranks == dynasty.rank(match.scores, match.largest, match.crowns)
        if match.scores[0] != match.scores[1]:
            assert match.ranks[match.scores.index(max(match.scores))] == 0
    for game in res.games[::5]:
        state, _ = replay(game.record)
        assert tuple(int(s) for s in state.scores[0]) == game.scores


def test_random_rates_below_greedy_by_match(result):
    res = result
    random, greedy = res.agents["random"], res.agents["greedy"]
    assert random["matches"] == greedy["matches"] == 12 and random["games"] == 36
    assert random["rating"]["mu"] < greedy["rating"]["mu"]
    assert random["win_rate"] < greedy["win_rate"]
    assert greedy["wins"] == sum(m.ranks[m.seats.index("greedy")] == 0 for m in res.matches)
    assert 0 <= greedy["per_game"]["win_rate"] <= 1
    assert res.pairings[0]["matches"] == 12 and res.pairings[0]["games"] == 36


def test_a_dynasty_tournament_is_reproducible_for_any_worker_count(result):
    again = run_tournament(CONFIG, workers=2)
    assert len(CONFIG.units()) > 1
    assert again.to_dict(timings=False) == result.to_dict(timings=False)
    assert [m.to_dict() for m in again.matches] == [m.to_dict() for m in result.matches]


def test_ties_are_broken_as_in_the_app():
    def game(match, k, scores, largest, crowns):
        return GameResult(0, ("a", "b"), scores, (0, 1), {}, largest, crowns, match, k)

    games = [game(0, 0, (30, 20), (10, 9), (5, 5)), game(0, 1, (20, 30), (9, 12), (5, 5)),
             game(0, 2, (10, 10), (5, 5), (5, 5)),
             game(1, 0, (10, 10), (5, 5), (4, 5)), game(1, 1, (10, 10), (5, 5), (5, 5)),
             game(1, 2, (10, 10), (5, 5), (5, 5))]
    first, second = group_matches(games)
    assert first.scores == (60, 60) and first.ranks == (1, 0) and first.decided_by == "largest territory"
    assert second.ranks == (1, 0) and second.decided_by == "crowns"


def test_outputs_and_cli(result, tmp_path):
    paths = write_all(result, tmp_path / "out")
    assert "matches.jsonl" in {p.name for p in paths}
    data = json.loads((tmp_path / "out" / "results.json").read_text())
    assert data["dynasty"] is True and data["config"]["dynasty"] is True and data["config"]["matches"] == 12
    assert data["agents"]["greedy"]["matches"] == 12
    games = [json.loads(line) for line in (tmp_path / "out" / "games.jsonl").read_text().splitlines()]
    assert len(games) == 36 and games[4]["match"] == 1 and games[4]["match_game"] == 1
    assert len((tmp_path / "out" / "matches.jsonl").read_text().splitlines()) == 12
    cli = CliRunner(env={"COLUMNS": "200"}).invoke(
        app, ["tournament", "--agents", "random,greedy", "--games", "2", "--dynasty", "--no-progress",
              "--out", str(tmp_path / "cli")])
    assert cli.exit_code == 0, cli.output
    assert "dynasty matches" in cli.output
    assert json.loads((tmp_path / "cli" / "results.json").read_text())["config"]["games"] == 6


def test_tournaments_deal_quests_reproducibly_and_their_records_replay():
    from kingdomino_env.record import replay
    from tournament import TournamentConfig, run_tournament

    config = TournamentConfig(agents=("random", "greedy"), rules=Rules(2, random_quests=2), games=6, seed=5)
    first, again = run_tournament(config), run_tournament(config)
    assert [g.record for g in first.games] == [g.record for g in again.games]
    drawn = {tuple(g.record["quests"]) for g in first.games}
    assert all(len(q) == 2 for q in drawn) and len(drawn) > 1
    for game in first.games:
        state, _ = replay(game.record)
        assert state.scores[0].tolist() == list(game.scores)
    plain = run_tournament(TournamentConfig(agents=("random", "greedy"), games=6, seed=5))
    assert all("quests" not in g.record for g in plain.games)
    assert [g.record["deck"] for g in plain.games] == [g.record["deck"] for g in first.games]
