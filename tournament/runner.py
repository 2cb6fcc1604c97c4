"""Running a tournament: work units in this process or in a pool of spawned worker processes, then statistics.

Units are independent and seeded from (seed, unit), and results are gathered in unit order, so a seeded
tournament gives the same games, statistics and ratings for any number of workers (time per move aside, and
provided its agents are seeded: time-budgeted search depends on the machine's speed).

In a dynasty tournament, win rates, scores, margins, pairings and ratings are per match (totals over its three
games, ranked by `kingdomino_env.dynasty`); each entrant also gets "matches", "games" (games played) and
"per_game" (the same statistics over single games); each pairing, "matches" (and the games they hold).

In team games (the Royal Wedding with teams) statistics stay per seat, each seat credited with its team's result,
and openskill rates the teams (`stats`, `ratings`).
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from concurrent.futures import as_completed
from dataclasses import dataclass, field

from .config import TournamentConfig
from .matches import MatchResult, group_matches
from .play import GameResult, UnitResult, play_unit
from .ratings import rate_games
from .stats import agent_stats, pairing_stats
from .worker_pool import spawn_pool

#: Called with the number of games just finished.
Progress = Callable[[int], None]


@dataclass
class TournamentResult:
    """Everything a tournament produced.

    Attributes:
        config: The tournament.
        games: Every game, in schedule order.
        agents: Each entrant's statistics and rating, as in results.json.
        pairings: Each pair of entrants' head-to-head statistics, as in results.json.
        seconds: The tournament's wall-clock time.
        matches: The matches of a dynasty tournament (empty otherwise).
    """

    config: TournamentConfig
    games: list[GameResult]
    agents: dict[str, dict]
    pairings: list[dict]
    seconds: float
    matches: list[MatchResult] = field(default_factory=list)

    def to_dict(self, timings: bool = True) -> dict:
        """The content of results.json.

        Args:
            timings: False drops the wall-clock figures (for comparing runs).
        """
        agents = {name: dict(stats) for name, stats in self.agents.items()}
        if not timings:
            for stats in agents.values():
                stats.pop("seconds_per_move", None)
        out = {"config": self.config.to_dict(), "agents": agents, "pairings": self.pairings}
        if self.config.dynasty:
            out["dynasty"] = True
        if timings:
            out["seconds"] = self.seconds
        return out


def max_workers() -> int:
    """The most worker processes a tournament starts: a few per core (more only add processes and memory)."""
    return max(4, 4 * (os.cpu_count() or 1))


def check_workers(workers: int) -> int:
    """Check a worker count.

    Args:
        workers: The count to check.

    Returns:
        `workers`, an integer from 1 to `max_workers()`.

    Raises:
        ValueError: Anything else, saying what is allowed.
    """
    limit = max_workers()
    if not isinstance(workers, int) or isinstance(workers, bool) or not 1 <= workers <= limit:
        raise ValueError(f"workers must be an integer from 1 to {limit} (4 per core here), got {workers!r}")
    return workers


def _worker_init() -> None:
    os.environ.setdefault("OMP_NUM_THREADS", "1")


def _play_units(config: TournamentConfig, workers: int, progress: Progress | None) -> list[UnitResult]:
    n_units = config.n_units
    results: list[UnitResult] = []
    if workers <= 1 or n_units <= 1:
        for unit in range(n_units):
            results.append(play_unit(config, unit))
            if progress:
                progress(len(results[-1].games))
        return results
    with spawn_pool(min(workers, n_units), _worker_init) as pool:
        futures = [pool.submit(play_unit, config, unit) for unit in range(n_units)]
        for future in as_completed(futures):
            result = future.result()
            results.append(result)
            if progress:
                progress(len(result.games))
    return sorted(results, key=lambda r: r.unit)


def run_tournament(config: TournamentConfig, workers: int = 1, progress: Progress | None = None,
                   ray: bool | str = False) -> TournamentResult:
    """Play every game of a tournament and compute statistics and ratings.

    The results do not depend on how the games are spread over processes or Ray tasks.

    Args:
        config: The tournament.
        workers: Processes to play on, 1 to `max_workers()`.
        progress: Called with the number of games each finished work unit played.
        ray: True to play as Ray tasks (local Ray or `RAY_ADDRESS`), or a cluster address (`tournament.ray_runner`;
            the `scale` extra); False for local processes.

    Returns:
        The games, statistics, ratings and pairings.

    Raises:
        ValueError: A bad worker count.
    """
    check_workers(workers)
    began = time.perf_counter()
    if ray is not False:
        from .ray_runner import play_units

        units = play_units(config, None if ray is True else ray or None, progress)
    else:
        units = _play_units(config, workers, progress)
    games = [game for unit in units for game in unit.games]
    names = list(config.names)
    matches = group_matches(games) if config.dynasty else []
    kingdoms = config.kingdoms
    if config.dynasty:
        stats = agent_stats(names, matches, kingdoms)
        per_game = agent_stats(names, games, kingdoms)
        for name in names:
            stats[name]["matches"] = stats[name]["games"]
            stats[name]["games"] = per_game[name].pop("games")
            stats[name]["per_game"] = per_game[name]
    else:
        stats = agent_stats(names, games, kingdoms)
    ratings = rate_games(names, ((g.seats, g.ranks) for g in (matches if config.dynasty else games)), kingdoms)
    for name in names:
        seconds = sum(u.seconds.get(name, 0.0) for u in units)
        moves = sum(u.moves.get(name, 0) for u in units)
        stats[name]["rating"] = ratings[name]
        stats[name]["moves"] = moves
        stats[name]["seconds_per_move"] = seconds / moves if moves else None
    pairings = pairing_stats(names, matches if config.dynasty else games, kingdoms)
    if config.dynasty:
        for pairing in pairings:
            pairing["matches"] = pairing.pop("games")
            pairing["games"] = pairing["matches"] * config.games_per_match
    return TournamentResult(config=config, games=games, agents=stats, pairings=pairings,
                            seconds=time.perf_counter() - began, matches=matches)
