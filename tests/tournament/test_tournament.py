"""Tournaments: schedule and duplicate format, reproducibility, statistics, ratings and outputs."""

from __future__ import annotations

import csv
import json

import pytest

from kingdomino_env.record import replay
from kingdomino_env.rules import Rules
from tournament import TournamentConfig, run_tournament, wilson_interval, write_all
from tournament.config import distinct_permutations
from tournament.play import GameResult
from tournament.ratings import rate_games
from tournament.stats import agent_stats, pairing_stats

REQUIRED = {"games", "wins", "win_rate", "win_rate_ci", "mean_score", "mean_margin", "rating", "seconds_per_move"}


@pytest.fixture(scope="module")
def small():
    config = TournamentConfig(agents=("random", "greedy", "gprd"), rules=Rules(2), games=60, seed=4)
    return run_tournament(config)


def test_random_rates_below_greedy(small):
    random, greedy = small.agents["random"], small.agents["greedy"]
    assert random["rating"]["mu"] < greedy["rating"]["mu"]
    assert random["win_rate"] < greedy["win_rate"]
    assert random["mean_margin"] < 0 < greedy["mean_margin"]


def test_every_agent_has_the_documented_fields(small):
    for stats in small.agents.values():
        assert REQUIRED <= set(stats)
        low, high = stats["win_rate_ci"]
        assert 0 <= low <= stats["win_rate"] <= high <= 1
        assert set(stats["rating"]) >= {"mu", "sigma"}
        assert stats["seconds_per_move"] > 0
    assert sum(s["games"] for s in small.agents.values()) == 2 * len(small.games)


def test_duplicate_format_replays_each_deal_in_every_seat_permutation(small):
    by_deal: dict[int, list[GameResult]] = {}
    for game in small.games:
        by_deal.setdefault(game.deal, []).append(game)
    assert len(small.games) == 60 and len(by_deal) == 30
    for games in by_deal.values():
        assert sorted(g.seats for g in games) == distinct_permutations(games[0].seats)
        assert len({(tuple(g.record["deck"]), tuple(g.record["first_kings"])) for g in games}) == 1
    lineups = {frozenset(g.seats) for g in small.games}
    assert lineups == {frozenset(p) for p in (("random", "greedy"), ("random", "gprd"), ("greedy", "gprd"))}


def test_records_replay_to_the_reported_scores(small):
    for game in small.games[::7]:
        state, actions = replay(game.record)
        assert state.is_over[0]
        assert tuple(int(s) for s in state.scores[0]) == game.scores


def test_a_tournament_is_reproducible_from_its_seed_for_any_worker_count():
    config = TournamentConfig(agents=("random", "heuristic", "mc:p4"), rules=Rules(3), games=12, seed=9, unit_games=6)
    first = run_tournament(config)
    again = run_tournament(config, workers=2)
    assert json.dumps(first.to_dict(timings=False)) == json.dumps(again.to_dict(timings=False))
    assert [g.record for g in first.games] == [g.record for g in again.games]
    other = run_tournament(TournamentConfig(agents=config.agents, rules=Rules(3), games=12, seed=10, unit_games=6))
    assert [g.record for g in first.games] != [g.record for g in other.games]


def test_lineups_combinations_and_one_against_the_field():
    four = TournamentConfig(agents=("random", "greedy", "gprd", "heuristic"), rules=Rules(3), games=1)
    assert len(four.table_lineups()) == 4
    field = TournamentConfig(agents=("greedy", "random"), rules=Rules(4), games=1)
    assert field.table_lineups() == [("greedy", "random", "random", "random"), ("random", "greedy", "greedy", "greedy")]
    assert len(distinct_permutations(field.table_lineups()[0])) == 4
    assert field.total_games == 4
    assert TournamentConfig(agents=("random", "greedy"), rules=Rules(2), games=5).total_games == 6


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"agents": ("random", "greedy"), "rules": {"players": 4}}, "rules must be a kingdomino_env.rules.Rules"),
    ({"agents": ("random", "greedy"), "rules": None}, r"rules must be a .*Rules\(players=4, harmony=True\), got None"),
    ({"agents": ("random", "greedy"), "rules": Rules(3), "lineups": (("random", "greedy"),)}, "must seat 3 of"),
    ({"agents": ("random", "greedy"), "games": 0}, "games"),
    ({"agents": ("random",)}, "two agents"),
    ({"agents": ("random", "random")}, "twice"),
    ({"agents": ("random", "nope")}, "unknown agent spec"),
    ({"agents": ("a b=random", "greedy")}, "name"),
])
def test_bad_configs_are_refused_clearly(kwargs, message):
    with pytest.raises(ValueError, match=message):
        TournamentConfig(**kwargs)


def test_named_entrants_can_enter_one_spec_twice():
    config = TournamentConfig(agents=("a=greedy", "b=greedy"), rules=Rules(2), games=4, seed=0)
    result = run_tournament(config)
    assert set(result.agents) == {"a", "b"}
    assert config.spec_of("a") == "greedy"


def test_shared_victories_count_one_over_the_number_of_winners():
    games = [GameResult(0, ("a", "b", "c"), (10, 10, 3), (0, 0, 2), {}),
             GameResult(1, ("a", "b", "c"), (20, 4, 3), (0, 1, 2), {})]
    stats = agent_stats(["a", "b", "c"], games)
    assert stats["a"]["wins"] == 1.5 and stats["a"]["outright_wins"] == 1
    assert stats["b"]["wins"] == 0.5 and stats["c"]["wins"] == 0
    assert stats["a"]["mean_margin"] == (0 + 16) / 2
    pairs = {tuple(p["agents"]): p for p in pairing_stats(["a", "b", "c"], games)}
    assert pairs[("a", "b")]["a_wins"] == 1.5 and pairs[("a", "b")]["games"] == 2


def test_wilson_interval():
    low, high = wilson_interval(50, 100)
    assert low == pytest.approx(0.4038, abs=1e-4) and high == pytest.approx(0.5962, abs=1e-4)
    assert wilson_interval(0, 10)[0] == 0.0 and wilson_interval(10, 10)[1] == pytest.approx(1.0)
    assert wilson_interval(0, 0) == (0.0, 1.0)


def test_ratings_order_consistent_winners_and_handle_repeated_seats():
    games = [(("a", "b", "b", "b"), (0, 1, 2, 3))] * 20
    ratings = rate_games(["a", "b"], games)
    assert ratings["a"]["mu"] > 25 > ratings["b"]["mu"]
    assert ratings["a"]["sigma"] < 25 / 3


def test_outputs(small, tmp_path):
    paths = write_all(small, tmp_path / "out")
    assert sorted(p.name for p in paths) == ["games.jsonl", "ratings.png", "results.csv", "results.json",
                                             "results.md"]
    results = json.loads((tmp_path / "out" / "results.json").read_text())
    assert set(results["agents"]) == {"random", "greedy", "gprd"}
    assert all(REQUIRED <= set(s) for s in results["agents"].values())
    assert results["config"]["games"] == 60
    rows = list(csv.DictReader((tmp_path / "out" / "results.csv").open()))
    assert {r["agent"] for r in rows} == {"random", "greedy", "gprd"}
    lines = (tmp_path / "out" / "games.jsonl").read_text().splitlines()
    assert len(lines) == 60
    entry = json.loads(lines[5])
    state, _ = replay(entry["record"])
    assert list(state.scores[0]) == entry["scores"]
    assert (tmp_path / "out" / "ratings.png").read_bytes()[:4] == b"\x89PNG"
    assert "| greedy |" in (tmp_path / "out" / "results.md").read_text()


def test_time_per_move_leaves_out_compiling(monkeypatch):
    """An agent whose first move spends (fake) seconds compiling a kernel is charged only for its moves."""
    import time

    from numba.core import event

    import tournament.play
    from agents import load

    now = [0.0]
    monkeypatch.setattr(time, "perf_counter", lambda: now[0])

    class Dispatcher:
        py_func = test_time_per_move_leaves_out_compiling

    class Compiling:
        def __init__(self, spec: str, seed: int):
            self.agent, self.compiled = load(spec, seed), False
            self.needs_observation = self.agent.needs_observation

        def act(self, state, games, mask, obs):
            if not self.compiled:
                with event.trigger_event("numba:compile", data={"dispatcher": Dispatcher, "args": (),
                                                                 "return_type": None}):
                    now[0] += 100.0
                self.compiled = True
            now[0] += 0.001 * len(games)
            return self.agent.act(state, games, mask, obs)

    config = TournamentConfig(agents=("random", "greedy"), rules=Rules(2), games=2, seed=1)
    unit = tournament.play.play_unit(config, 0, load_agent=Compiling)
    for name in ("random", "greedy"):
        assert unit.seconds[name] == pytest.approx(0.001 * unit.moves[name])
