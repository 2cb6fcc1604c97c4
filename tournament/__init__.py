"""Self-play tournaments: duplicate-format games between agents, statistics, openskill ratings and reports.

    from kingdomino_env.rules import Rules
    from tournament import TournamentConfig, run_tournament, write_all
    result = run_tournament(TournamentConfig(agents=("random", "greedy"), rules=Rules(players=2), games=100, seed=0))
    write_all(result, "out/")
"""

from __future__ import annotations

from .config import TournamentConfig
from .outputs import check_out_dir, markdown, write_all
from .play import GameResult
from .runner import TournamentResult, check_workers, max_workers, run_tournament
from .stats import wilson_interval

__all__ = ["GameResult", "TournamentConfig", "TournamentResult", "check_out_dir", "check_workers", "markdown",
           "max_workers", "run_tournament", "wilson_interval", "write_all"]
