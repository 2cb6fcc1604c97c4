"""Running a tournament: work units in this process or in a pool of spawned worker processes, then statistics.

Units are independent and seeded from (seed, unit), and results are gathered in unit order, so a seeded
tournament gives the same games, statistics and ratings for any number of workers (time per move aside, and
provided its agents are seeded: time-budgeted search depends on the machine's speed).

In a dynasty tournament, win rates, scores, margins, pairings and ratings are per match (totals over its three
games, ranked by `kingdomino_env.dynasty`); each entrant also gets "matches", "games" (games played) and
"per_game" (the same statistics over single games); each pairing, "matches" (and the games they hold).

In team games (the Royal Wedding with teams) statistics stay per seat, each seat credited with its team's result,
and openskill rates the teams (`stats`, `ratings`).

With a results folder (`out_dir`), the games are written as their units finish (`journal`); an interrupt (Ctrl-C,
or SIGTERM where the command line turns it into one) stops the workers at once and writes the results of the
finished games; `resume=True` plays only the units the folder lacks and ends with the results an uninterrupted run
gives.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterable
from concurrent.futures import as_completed
from dataclasses import dataclass, field
from pathlib import Path

from .config import TournamentConfig
from .journal import Journal, uninterrupted
from .matches import MatchResult, group_matches
from .outputs import check_out_dir, write_all
from .play import GameResult, UnitResult, first_game, play_unit
from .ratings import rate_games
from .referee import release_processes
from .stats import agent_stats, pairing_stats
from .worker_pool import end_pool, quiet_worker, spawn_pool

#: Called with the number of games just finished.
Progress = Callable[[int], None]
#: Called with each work unit as it finishes.
Finished = Callable[[UnitResult], None]


@dataclass
class TournamentResult:
    """Everything a tournament produced.

    Attributes:
        config: The tournament.
        games: Every game, in schedule order.
        agents: Each entrant's statistics and rating, as in results.json.
        pairings: Each pair of entrants' head-to-head statistics, as in results.json.
        seconds: The tournament's wall-clock time (of this run, when resumed).
        matches: The matches of a dynasty tournament (empty otherwise).
        complete: Whether every game of the schedule was played (False for the results of an interrupted run).
        indices: Each game's index in the schedule (its "game" in games.jsonl): 0, 1, 2, ... when complete.
    """

    config: TournamentConfig
    games: list[GameResult]
    agents: dict[str, dict]
    pairings: list[dict]
    seconds: float
    matches: list[MatchResult] = field(default_factory=list)
    complete: bool = True
    indices: list[int] = field(default_factory=list)

    def to_dict(self, timings: bool = True) -> dict:
        """The content of results.json.

        Args:
            timings: False drops the wall-clock figures (for comparing runs).
        """
        agents = {name: dict(stats) for name, stats in self.agents.items()}
        if not timings:
            for stats in agents.values():
                stats.pop("seconds_per_move", None)
        out = {"config": self.config.to_dict(), "complete": self.complete, "agents": agents,
               "pairings": self.pairings}
        if not self.complete:
            out["games_played"] = len(self.games)
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


class TournamentInterrupted(KeyboardInterrupt):
    """A tournament stopped by an interrupt; `result` holds the games finished before it (`complete` False), which
    are also written to the results folder when there is one."""

    def __init__(self, result: TournamentResult):
        super().__init__(f"tournament interrupted after {len(result.games)} of {result.config.total_games} games")
        self.result = result


def _play_units(config: TournamentConfig, units: list[int], workers: int, finished: Finished) -> None:
    if workers <= 1 or len(units) <= 1:
        for unit in units:
            finished(play_unit(config, unit))
        return
    pool = spawn_pool(min(workers, len(units)), quiet_worker)
    try:
        futures = [pool.submit(play_unit, config, unit) for unit in units]
        for future in as_completed(futures):
            finished(future.result())
    except BaseException:
        end_pool(pool)
        raise
    pool.shutdown()


def summarise(config: TournamentConfig, units: Iterable[UnitResult], seconds: float,
              complete: bool = True) -> TournamentResult:
    """The statistics, ratings and pairings of finished work units (all of them, or those played before an
    interrupt: `complete` False)."""
    units = sorted(units, key=lambda u: u.unit)
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
        thinking = sum(u.seconds.get(name, 0.0) for u in units)
        moves = sum(u.moves.get(name, 0) for u in units)
        stats[name]["rating"] = ratings[name]
        stats[name]["moves"] = moves
        stats[name]["seconds_per_move"] = thinking / moves if moves else None
        stats[name]["forfeits"] = sum(1 for g in games if g.forfeit is not None and g.forfeit.agent == name)
    pairings = pairing_stats(names, matches if config.dynasty else games, kingdoms)
    if config.dynasty:
        for pairing in pairings:
            pairing["matches"] = pairing.pop("games")
            pairing["games"] = pairing["matches"] * config.games_per_match
    indices = [first_game(config, unit.unit) + i for unit in units for i in range(len(unit.games))]
    return TournamentResult(config=config, games=games, agents=stats, pairings=pairings, seconds=seconds,
                            matches=matches, complete=complete, indices=indices)


def _journal(config: TournamentConfig, out_dir: str | Path | None, resume: bool) -> Journal | None:
    if out_dir is None:
        if resume:
            raise ValueError("resume=True needs the out_dir of the tournament to resume")
        return None
    if resume:
        return Journal.open(out_dir, config)
    return Journal.create(check_out_dir(out_dir), config)


def run_tournament(config: TournamentConfig, workers: int = 1, progress: Progress | None = None,
                   ray: bool | str = False, out_dir: str | Path | None = None,
                   resume: bool = False) -> TournamentResult:
    """Play every game of a tournament and compute statistics and ratings.

    The results do not depend on how the games are spread over processes or Ray tasks, nor on interruptions
    resumed.

    Args:
        config: The tournament.
        workers: Processes to play on, 1 to `max_workers()`.
        progress: Called with the number of games each finished work unit played (at the start of a resumed
            run, with the number already played).
        ray: True to play as Ray tasks (local Ray or `RAY_ADDRESS`), or a cluster address (`tournament.ray_runner`;
            the `scale` extra); False for local processes.
        out_dir: A results folder: the games are written there as they finish, and every output at the end
            (`outputs.write_all`); a folder that holds a tournament already is refused unless resumed. None: nothing
            is written.
        resume: Resume the tournament in `out_dir` (its stored config must equal `config`): play only the games
            it lacks.

    Returns:
        The games, statistics, ratings and pairings.

    Raises:
        ValueError: A bad worker count or results folder, or (`journal.JournalError`) a folder that holds another
            tournament, no tournament to resume, or damaged files.
        TournamentInterrupted: An interrupt (KeyboardInterrupt) stopped the tournament; it carries the results of
            the games finished before it, written to `out_dir` as well.
    """
    check_workers(workers)
    journal = _journal(config, out_dir, resume)
    done: dict[int, UnitResult] = dict(journal.done) if journal is not None else {}
    if progress and done:
        progress(sum(len(u.games) for u in done.values()))

    def finished(result: UnitResult) -> None:
        with uninterrupted():
            if journal is not None:
                journal.append(result)
            done[result.unit] = result
        if progress:
            progress(len(result.games))

    todo = [unit for unit in range(config.n_units) if unit not in done]
    began = time.perf_counter()
    try:
        if ray is not False and todo:
            from .ray_runner import play_units

            play_units(config, None if ray is True else ray or None, finished=finished, units=todo)
        else:
            _play_units(config, todo, workers, finished)
    except KeyboardInterrupt:
        release_processes(kill=True)
        if journal is not None:  # what is on disk, whole, wherever the interrupt came
            done = Journal.open(journal.folder, config, check_files=False).done
        partial = summarise(config, done.values(), time.perf_counter() - began, complete=False)
        if journal is not None:
            write_all(partial, journal.folder, plot=False)
        raise TournamentInterrupted(partial) from None
    finally:
        release_processes()
    result = summarise(config, done.values(), time.perf_counter() - began)
    if journal is not None:
        write_all(result, journal.folder)
    return result
