"""Royal Wedding tournaments: an entrant plays a whole team, the duplicate format permutes teams, statistics are
per seat with each seat credited its team's result, openskill rates teams, records replay."""

from __future__ import annotations

import json

import numpy as np
import pytest

from agents.az.files import SHIPPED_QUEEN
from kingdomino_env import core
from kingdomino_env.record import replay
from kingdomino_env.rules import Rules
from tournament import TournamentConfig, run_tournament, write_all
from tournament.config import kingdom_permutations
from tournament.play import GameResult
from tournament.ratings import rate_games
from tournament.stats import agent_stats, pairing_stats

TEAMS6 = Rules(game="royal_wedding", players=6, teams=True)
TEAMS8 = Rules(game="royal_wedding", players=8, teams=True)


@pytest.fixture(scope="module")
def small():
    return run_tournament(TournamentConfig(agents=("random", "greedy"), rules=TEAMS6, games=6, seed=2))


def test_lineups_seat_each_entrant_as_a_whole_team_and_permute_teams():
    field = TournamentConfig(agents=("a=random", "b=greedy"), rules=TEAMS8, games=4)
    assert field.table_lineups() == [("a",) * 2 + ("b",) * 6, ("b",) * 2 + ("a",) * 6]
    assert field.seat_orders(field.table_lineups()[0]) == [
        ("a", "a", "b", "b", "b", "b", "b", "b"), ("b", "b", "a", "a", "b", "b", "b", "b"),
        ("b", "b", "b", "b", "a", "a", "b", "b"), ("b", "b", "b", "b", "b", "b", "a", "a")]
    robin = TournamentConfig(agents=("a=random", "b=greedy", "c=gprd", "d=random"), rules=TEAMS6, games=6)
    assert robin.table_lineups()[0] == ("a", "a", "b", "b", "c", "c") and len(robin.table_lineups()) == 4
    assert len(robin.seat_orders(robin.table_lineups()[0])) == 6
    assert robin.complete_deals == 3 and robin.total_games == 18  # deal 3, (a, c, d), is the first where c meets d
    mixed = kingdom_permutations(("a", "b", "b", "a"), (0, 0, 1, 1))
    assert mixed == [("a", "b", "b", "a"), ("b", "a", "a", "b")]  # teams move whole, each keeps its seat order
    assert TournamentConfig(agents=("random", "greedy"), rules=Rules(game="royal_wedding", players=3),
                            games=3).seat_orders(("random", "greedy", "greedy"))[0] == ("greedy", "greedy", "random")


def test_deals_are_the_cores_royal_deals(small):
    config = small.config
    deck, kings, _, pile = config.deal(1)
    expected = core.deal(TEAMS6, np.random.default_rng(np.random.SeedSequence([2, 0, 1])))
    for got, want in zip((deck, kings, pile), expected, strict=True):
        assert (got == want).all()
    assert config.to_dict()["rules"] == {"game": "royal_wedding", "players": 6, "grid": 7, "buildings": None,
                                         "teams": True}


def test_games_give_each_seat_its_teams_result_and_replay(small):
    assert len(small.games) == 6
    for game in small.games:
        assert game.seats[0::2] == game.seats[1::2]  # an entrant fills both seats of its team
        state, _ = replay(game.record)
        assert state.is_over[0] and game.record["game"] == "royal_wedding"
        assert game.scores == tuple(int(s) for s in core.seat_scores(state)[0])
        assert game.ranks == tuple(int(r) for r in core.ranks(state)[0])
        assert game.scores[0::2] == game.scores[1::2] and game.ranks[0::2] == game.ranks[1::2]
    stats = small.agents
    # Two teams of one entrant and one of the other per game: 6 games x (2 or 4 seats).
    assert stats["random"]["games"] + stats["greedy"]["games"] == 6 * 6
    assert stats["greedy"]["win_rate"] > stats["random"]["win_rate"]
    assert stats["greedy"]["rating"]["mu"] > stats["random"]["rating"]["mu"]


def test_team_statistics_credit_every_seat_and_exclude_teammates():
    kingdoms = (0, 0, 1, 1, 2, 2)
    games = [GameResult(deal=0, seats=("a", "b", "c", "c", "b", "a"), scores=(50, 50, 40, 40, 50, 50),
                        ranks=(0, 0, 2, 2, 0, 0), record={}),
             GameResult(deal=0, seats=("a", "a", "b", "b", "c", "c"), scores=(30, 30, 60, 60, 10, 10),
                        ranks=(1, 1, 0, 0, 2, 2), record={})]
    stats = agent_stats(["a", "b", "c"], games, kingdoms)
    assert stats["a"]["games"] == 4 and stats["a"]["wins"] == 1.0 and stats["a"]["outright_wins"] == 0
    assert stats["b"]["wins"] == 3.0 and stats["b"]["outright_wins"] == 2
    assert stats["c"]["wins"] == 0.0
    assert stats["a"]["mean_margin"] == (0 + 0 - 30 - 30) / 4  # over the best other team, never the teammate
    assert stats["c"]["mean_margin"] == (-10 - 10 - 50 - 50) / 4
    pairs = {tuple(p["agents"]): p for p in pairing_stats(["a", "b", "c"], games, kingdoms)}
    assert pairs[("a", "b")]["games"] == 2 + 4  # game 1: a and b are teammates in one kingdom only
    assert pairs[("b", "c")]["a_win_rate"] == 1.0


def test_openskill_rates_teams():
    seats = ("a", "a", "b", "b", "c", "c")
    ratings = rate_games(["a", "b", "c"], [(seats, (0, 0, 1, 1, 2, 2))], kingdoms=(0, 0, 1, 1, 2, 2))
    assert ratings["a"]["mu"] > ratings["b"]["mu"] > ratings["c"]["mu"]
    mixed = rate_games(["a", "b"], [(("a", "b", "b", "b"), (0, 0, 1, 1))], kingdoms=(0, 0, 1, 1))
    assert mixed["a"]["mu"] > 25  # a won with its teammate b; b also lost with the other team
    solo = rate_games(["a", "b", "c"], [(seats, (0, 0, 1, 1, 2, 2))])
    assert solo != ratings  # as six players, the same ranks rate otherwise


def test_a_dynasty_with_workers_is_reproducible_and_writes_its_files(tmp_path):
    config = TournamentConfig(agents=("random", "gprd"), rules=TEAMS6, games=3, seed=7, dynasty=True,
                              unit_games=9)
    one = run_tournament(config, workers=1)
    two = run_tournament(config, workers=2)
    assert one.to_dict(timings=False) == two.to_dict(timings=False)
    assert len(one.matches) == 3 and len(one.games) == 9
    for match in one.matches:
        assert match.ranks[0::2] == match.ranks[1::2] and match.decided_by != "crowns"
    write_all(one, tmp_path)
    saved = json.loads((tmp_path / "results.json").read_text())
    assert saved["config"]["rules"]["teams"] is True
    assert "Royal Wedding" in (tmp_path / "results.md").read_text()
    line = json.loads((tmp_path / "games.jsonl").read_text().splitlines()[-1])
    assert replay(line["record"])[0].is_over[0]


def test_agents_that_cannot_play_it_are_refused_before_any_game():
    with pytest.raises(ValueError, match="heuristic plays every Kingdomino variant, not Queendomino or the Royal"):
        TournamentConfig(agents=("random", "heuristic"), rules=TEAMS6)
    with pytest.raises(ValueError, match="agent 'p': ppo plays"):
        TournamentConfig(agents=("random", "p=ppo"), rules=TEAMS8)
    with pytest.raises(ValueError, match="plays every Queendomino variant"):
        TournamentConfig(agents=("random", f"az:{SHIPPED_QUEEN['queendomino']}"), rules=Rules(game="royal_wedding",
                                                                                            players=4))
