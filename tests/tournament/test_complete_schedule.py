"""`--games` rounds up to a complete schedule: every entrant plays every seat its lineups can give it and meets every
entrant they can seat against it, for every lineup kind; undefined statistics never show as nan."""

from __future__ import annotations

import itertools
import json
import re

import pytest
from typer.testing import CliRunner

from kingdomino_cli.main import _rounding_line, app
from kingdomino_env.rules import Rules
from tournament import TournamentConfig, run_tournament, write_all
from tournament.config import MAX_GAMES, distinct_permutations, kingdom_permutations, seat_order_count
from tournament.outputs import CSV_COLUMNS, UNDEFINED, markdown, shown
from tournament.stats import agent_stats

runner = CliRunner(env={"COLUMNS": "200"})
TEAMS8 = Rules(game="royal_wedding", players=8, teams=True)


def played(config: TournamentConfig, deals: int | None = None) -> tuple[set[tuple[str, int]], set[tuple[str, str]]]:
    """(entrant, seat) held and pairs of entrants that played against each other, over the seat orders that the
    schedule's first `deals` deals (all by default) really play (teammates do not play against each other)."""
    kingdoms = config.kingdoms or range(config.players)
    seats, pairs = set(), set()
    for _, lineup in config.schedule()[:deals]:
        for order in config.seat_orders(lineup):
            seats |= set((name, seat) for seat, name in enumerate(order))
            pairs |= {tuple(sorted((order[i], order[j]))) for i, j in itertools.combinations(range(len(order)), 2)
                      if order[i] != order[j] and kingdoms[i] != kingdoms[j]}
    return seats, pairs


def everyone(config: TournamentConfig) -> tuple[set[tuple[str, int]], set[tuple[str, str]]]:
    return ({(name, seat) for name in config.names for seat in range(config.players)},
            set(itertools.combinations(sorted(config.names), 2)))


@pytest.mark.parametrize(("config", "games"), [
    # one against the field: (r, g, g, g), (r, m, m, m), (g, r, r, r), (g, m, m, m) are the first to meet all pairs
    (TournamentConfig(agents=("r=random", "g=greedy", "m=gprd"), rules=Rules(4), games=4), 16),
    # round-robin of tables: (a, b, c), (a, b, d), then (a, c, d), where c first meets d
    (TournamentConfig(agents=("a=random", "b=greedy", "c=gprd", "d=random"), rules=Rules(3), games=1), 18),
    # the Royal Wedding, 8 players, one against the field
    (TournamentConfig(agents=("a=random", "b=greedy", "c=gprd"), rules=Rules(game="royal_wedding", players=8),
                      games=8), 32),
    # teams: each entrant a whole team, (a | b b b), (a | c c c), (b | a a a), (b | c c c)
    (TournamentConfig(agents=("a=random", "b=greedy", "c=gprd"), rules=TEAMS8, games=4), 16),
    # a dynasty counts matches: the round-robin above as matches of three games
    (TournamentConfig(agents=("a=random", "b=greedy", "c=gprd", "d=random"), rules=Rules(3), games=1, dynasty=True),
     18),
])
def test_too_few_games_round_up_to_the_smallest_complete_schedule(config, games):
    assert config.total_matches == games and config.total_games == games * config.games_per_match
    assert played(config) == everyone(config)
    assert config.complete_deals == len(config.schedule())
    assert config.rounding.startswith("every agent must play every seat and meet every agent it can meet")
    assert f"{config.complete_deals} deals" in config.rounding
    # one deal fewer leaves an entrant out of a seat or two entrants that never met
    assert played(config, config.complete_deals - 1) != everyone(config)


def test_explicit_lineups_need_only_the_meetings_they_make_possible():
    config = TournamentConfig(agents=("a=random", "b=greedy", "c=gprd"), rules=Rules(3), games=1,
                              lineups=(("a", "b", "b"), ("a", "c", "c")))
    assert config.total_games == 6 and config.complete_deals == 2
    seats, pairs = played(config)
    assert pairs == {("a", "b"), ("a", "c")}  # b and c never share a table in these lineups
    assert seats == {(name, seat) for name in "abc" for seat in range(3)}
    mixed = TournamentConfig(agents=("a=random", "b=greedy"), rules=Rules(game="royal_wedding", players=6,
                                                                         teams=True),
                             games=1, lineups=(("a", "b", "b", "b", "b", "b"), ("a", "a", "b", "b", "b", "b")))
    assert mixed.complete_deals == 2  # the first lineup seats a only first in its team


def test_every_entrant_must_sit_in_a_lineup():
    with pytest.raises(ValueError, match="agent.s. c sit in no lineup"):
        TournamentConfig(agents=("a=random", "b=greedy", "c=gprd"), rules=Rules(2), lineups=(("a", "b"),))


def test_complete_schedules_are_played_as_before():
    two = TournamentConfig(agents=("random", "greedy"), rules=Rules(2), games=5)
    assert two.total_games == 6 and two.complete_deals == 1
    assert two.rounding == "games come in whole deals, each played in every seat order of its table"
    exact = TournamentConfig(agents=("random", "greedy", "gprd"), rules=Rules(2), games=12)
    assert exact.rounding is None and len(exact.schedule()) == 6
    assert [lineup for _, lineup in exact.schedule()] == exact.table_lineups() * 2


def test_a_schedule_that_cannot_fit_is_refused_naming_what_would():
    eight = tuple(f"a{i}=random" for i in range(10))
    with pytest.raises(ValueError, match=r"need at least 241920 games .*6 deals.*enter fewer agents"):
        TournamentConfig(agents=eight, rules=Rules(game="royal_wedding", players=8), games=1)
    with pytest.raises(ValueError, match=rf"rounds up to {MAX_GAMES + 4} games .* ask for at most {MAX_GAMES - 2}"):
        TournamentConfig(agents=("random", "greedy", "gprd"), rules=Rules(3), games=MAX_GAMES)


@pytest.mark.parametrize(("lineup", "seat_kingdoms"), [
    (("a", "b", "c", "d"), None), (("a", "b", "b", "b"), (0, 1, 2, 3)),
    (("a", "a", "b", "b", "c", "c", "c", "c"), None), (("a", "a", "b", "b", "b", "b"), (0, 0, 1, 1, 2, 2)),
    (("a", "b", "b", "a"), (0, 0, 1, 1)), (("a", "b", "a", "b", "c", "c"), (0, 0, 1, 1, 2, 2)),
])
def test_seat_order_count_counts_the_seat_orders(lineup, seat_kingdoms):
    orders = kingdom_permutations(lineup, seat_kingdoms)
    if len(set(seat_kingdoms or range(len(lineup)))) == len(lineup):
        assert orders == distinct_permutations(lineup)
    assert seat_order_count(lineup, seat_kingdoms) == len(orders)


def no_nan(text: str) -> bool:
    return re.search(r"\bnan\b", text, re.IGNORECASE) is None


@pytest.mark.parametrize(("args", "total", "agents"), [
    (["--agents", "random,greedy,mc:p20", "--players", "4", "--games", "4"], 16, ("random", "greedy", "mc:p20")),
    (["--game", "royal_wedding", "--players", "8", "--agents", "random,greedy,gprd", "--games", "4"], 32,
     ("random", "greedy", "gprd")),
])
def test_the_cli_rounds_up_says_so_and_writes_no_nan(tmp_path, args, total, agents):
    result = runner.invoke(app, ["tournament", *args, "--no-progress", "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert f"Asked for 4 games, playing {total} because every agent must play every seat" in result.output
    data = json.loads((tmp_path / "results.json").read_text())
    assert data["config"]["games"] == total and data["config"]["games_requested"] == 4
    assert all(data["agents"][name]["games"] > 0 for name in agents)
    assert {tuple(p["agents"]) for p in data["pairings"]} == set(itertools.combinations(agents, 2))
    for name in ("results.json", "results.csv", "results.md"):
        assert no_nan((tmp_path / name).read_text()), name
    assert no_nan(result.output)


def test_the_line_of_a_dynasty_counts_matches_and_games():
    config = TournamentConfig(agents=("random", "greedy", "gprd", "heuristic"), rules=Rules(3), games=1, dynasty=True)
    assert _rounding_line(config).startswith("Asked for 1 matches, playing 18 (54 games) because every agent must")


def test_the_cli_refuses_a_schedule_that_cannot_fit():
    agents = ",".join(f"a{i}=random" for i in range(10))
    result = runner.invoke(app, ["tournament", "--game", "royal_wedding", "--players", "8", "--agents", agents,
                                 "--games", "1", "--no-progress"])
    assert result.exit_code == 2 and "need at least 241920 games" in " ".join(result.output.split())


def test_undefined_statistics_are_none_and_shown_as_such(tmp_path):
    result = run_tournament(TournamentConfig(agents=("random", "greedy"), rules=Rules(2), games=2, seed=1))
    idle = agent_stats(["random"], [])["random"]
    assert idle["games"] == 0 and idle["win_rate"] is None and idle["mean_score"] is None
    assert idle["mean_margin"] is None and idle["win_rate_ci"] == [0.0, 1.0]
    result.agents["random"].update(idle, seconds_per_move=None)
    assert shown(None, ".1%") == UNDEFINED and shown(0.25, ".1%") == "25.0%"
    assert f"| random | 0 | {UNDEFINED} (0.0%–100.0%) | {UNDEFINED} | {UNDEFINED} |" in markdown(result)
    write_all(result, tmp_path)
    row = next(line for line in (tmp_path / "results.csv").read_text().splitlines() if line.startswith("random,"))
    cells = row.split(",")
    assert cells[5] == "" and cells[8] == "" and cells[9] == "" and cells[CSV_COLUMNS.index("seconds_per_move")] == ""
    data = json.loads((tmp_path / "results.json").read_text())
    assert data["agents"]["random"]["win_rate"] is None and (tmp_path / "ratings.png").stat().st_size > 0
