"""Self-play tournaments: duplicate-format games between agents, statistics, openskill ratings and reports.

    from kingdomino_env.rules import Rules
    from tournament import TournamentConfig, run_tournament
    config = TournamentConfig(agents=("random", "greedy"), rules=Rules(players=2), games=100, seed=0)
    result = run_tournament(config, out_dir="out/")     # games written as they finish; resume=True to go on

Entrants may be outside agents (specs or Python objects); a faulty agent forfeits its game (`Forfeit`), and an
interrupt raises `TournamentInterrupted` with the finished games' results.
"""

from __future__ import annotations

from .config import TournamentConfig
from .journal import JournalError
from .outputs import check_out_dir, markdown, write_all
from .play import GameResult
from .referee import Forfeit
from .runner import TournamentInterrupted, TournamentResult, check_workers, max_workers, run_tournament
from .stats import wilson_interval

__all__ = ["Forfeit", "GameResult", "JournalError", "TournamentConfig", "TournamentInterrupted", "TournamentResult",
           "check_out_dir", "check_workers", "markdown", "max_workers", "run_tournament", "wilson_interval",
           "write_all"]
