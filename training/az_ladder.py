"""`python -m training.az_ladder RUN_DIR`: rate an `az` training run's checkpoints against each other and fixed
baselines (anchors), to see whether later networks play better.

The checkpoints `RUN_DIR/checkpoints/iter_NNNN.az` (every one, or with `--every K` the 1st, (K+1)th, ... and always
the newest) enter as `itNNNN=az:SIMS:PATH`, the anchors (`--anchors`, agent specs or NAME=SPEC) as themselves. They
play a round robin (`tournament.run_tournament`: every table of `players` entrants, duplicate deals, seats rotated)
in the run's last variant (`RUN_DIR/config.json`), `--games` games per table (rounded up to whole deals, each played
in every seat order: 2 games with 2 players, 6 with 3, 24 with 4). The openskill rating (mu, sigma) of every
entrant, with its win rate and the self-play games each checkpoint had played (from its metadata), goes to
`RUN_DIR/ladder.json`; `RUN_DIR/ladder.png` plots the checkpoints' ratings by self-play games, the anchors as
horizontal lines (`training.plots.plot_ladder`). Ratings are comparable within one ladder only. Its `last_third`
says whether the checkpoints of the run's last third of self-play games still climb (`last_third_trend`).

A ladder's games are written as they finish to `RUN_DIR/ladder_games/KEY/` (a tournament results folder, KEY named
by the ladder's entrants, rules, games and seed): a ladder stopped by Ctrl-C (or killed) keeps every finished game,
and the same command resumes it, playing only the games it lacks.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import sys
from pathlib import Path
from typing import Any

import numpy as np

from agents.az.files import read_info
from kingdomino_env.files import write_text_atomic
from kingdomino_env.rules import Rules
from tournament.config import TournamentConfig, distinct_permutations, parse_entrant
from tournament.journal import Journal
from tournament.progress import GamesProgress
from tournament.runner import TournamentInterrupted, check_workers, run_tournament

from .config_check import integer, number
from .plots import plot_ladder

DEFAULT_ANCHORS = "greedy,mc:p100"
DEFAULT_SIMULATIONS = 32
DEFAULT_GAMES = 16
TREND_SIGMAS = 2.0
MAX_SELFPLAY_GAMES = 10**12
MAX_RATING = 1e6
_CHECKPOINT = re.compile(r"^iter_(\d+)\.az$")
#: The folder, in a run folder, of the ladders' games (a tournament results folder per ladder).
LADDER_GAMES = "ladder_games"


def checkpoints(run_dir: Path, every: int = 1) -> list[tuple[int, Path]]:
    """(iteration, path) of the run's checkpoints in order: every `every`-th from the first, and the newest."""
    if not isinstance(every, int) or every < 1:
        raise ValueError(f"every must be an integer of at least 1, got {every!r}")
    folder = run_dir / "checkpoints"
    found = sorted((int(m.group(1)), p) for p in folder.glob("iter_*.az") if (m := _CHECKPOINT.match(p.name)))
    if not found:
        raise ValueError(f"no checkpoints (iter_NNNN.az) in {folder}")
    chosen = found[::every]
    if chosen[-1] != found[-1]:
        chosen.append(found[-1])
    return chosen


def run_rules(run_dir: Path) -> Rules:
    """The variant a run was evaluated in: the last of the variants in RUN_DIR/config.json."""
    path = run_dir / "config.json"
    try:
        variants = json.loads(path.read_text())["variants"]
        return Rules.from_dict(variants[-1])
    except OSError as err:
        raise ValueError(f"cannot read the run's config {path}: {err}") from None
    except (json.JSONDecodeError, KeyError, IndexError, TypeError, ValueError) as err:
        raise ValueError(f"{path} does not name the run's variants (a 'variants' list of rules): {err}") from None


def entrants(run_dir: Path, anchors: list[str], simulations: int, every: int = 1) -> list[dict[str, Any]]:
    """The ladder's entrants: each chosen checkpoint (name itNNNN, its iteration and self-play games), then the
    anchors; "entry" is the tournament's entrant string."""
    out = []
    for iteration, path in checkpoints(run_dir, every):
        out.append(checkpoint_entry(iteration, f"az:{simulations}:{path}", read_info(path).trained.get("games")))
    return with_anchors(out, anchors)


def checkpoint_entry(iteration: int, spec: str, selfplay_games: int) -> dict[str, Any]:
    """A ladder entrant for the checkpoint of `iteration` playing as `spec`; ValueError unless its self-play games
    (from the checkpoint's metadata) are a whole number from 0 to MAX_SELFPLAY_GAMES."""
    name = f"it{iteration:04d}"
    integer(0, MAX_SELFPLAY_GAMES)(f"checkpoint {name} ({spec}): the self-play games its metadata gives",
                                   selfplay_games)
    return {"name": name, "spec": spec, "kind": "checkpoint", "iteration": iteration,
            "selfplay_games": selfplay_games, "entry": f"{name}={spec}"}


def with_anchors(out: list[dict[str, Any]], anchors: list[str]) -> list[dict[str, Any]]:
    """`out` (checkpoint entrants) followed by the anchors' entrants."""
    names = {e["name"] for e in out}
    for anchor in anchors:
        name, spec = parse_entrant(anchor)
        if name in names:
            raise ValueError(f"anchor {name!r} has the name of a checkpoint; name it as NAME=SPEC")
        names.add(name)
        out.append({"name": name, "spec": spec, "kind": "anchor", "entry": anchor})
    return out


def ladder(run_dir: str | Path, anchors: list[str], games: int = DEFAULT_GAMES, simulations: int = DEFAULT_SIMULATIONS,
           workers: int = 1, seed: int = 0, every: int = 1) -> dict[str, Any]:
    """Play the ladder's round robin; write RUN_DIR/ladder.json and ladder.png; return what ladder.json holds."""
    run_dir = Path(run_dir)
    if not isinstance(simulations, int) or simulations < 0:
        raise ValueError(f"simulations must be an integer of at least 0, got {simulations!r}")
    rules = run_rules(run_dir)
    return play_ladder(run_dir, rules, entrants(run_dir, anchors, simulations, every), games, workers, seed,
                       title=f"{run_dir.name}: az:{simulations} ladder", simulations=simulations)


def last_third_trend(entrants: list[dict[str, Any]]) -> dict[str, Any] | None:
    """How the ratings of the checkpoints in the last third of the run's self-play games move: a straight line
    fitted to their mu (each weighted by 1/sigma²), read as its change from the first of them to the newest, with
    that change's standard deviation; "flat" unless the change is more than TREND_SIGMAS of them from zero. None
    when fewer than two checkpoints, at different self-play counts, lie in that third; ValueError when a rating is
    not a mu within ±MAX_RATING with a sigma above 0 and at most MAX_RATING."""
    rated = [e for e in entrants if e["kind"] == "checkpoint"]
    for e in rated:
        number(-MAX_RATING, MAX_RATING)(f"{e['name']}'s rating mu", e["rating"]["mu"])
        number(0, MAX_RATING, above=True)(f"{e['name']}'s rating sigma", e["rating"]["sigma"])
    newest = max((e["selfplay_games"] for e in rated), default=0)
    third = [e for e in rated if 3 * e["selfplay_games"] >= 2 * newest]
    games = np.array([e["selfplay_games"] for e in third], dtype=float)
    if len(third) < 2 or np.ptp(games) == 0:
        return None
    mu = np.array([e["rating"]["mu"] for e in third])
    weight = np.array([e["rating"]["sigma"] for e in third]) ** -2.0
    design = np.column_stack([np.ones_like(games), (games - games.min()) / np.ptp(games)])
    covariance = np.linalg.inv(design.T @ (weight[:, None] * design))
    change = float((covariance @ design.T @ (weight * mu))[1])
    change_sd = float(np.sqrt(covariance[1, 1]))
    verdict = "flat" if abs(change) <= TREND_SIGMAS * change_sd else ("rising" if change > 0 else "falling")
    return {"checkpoints": [e["name"] for e in third], "from_games": int(games.min()), "to_games": int(games.max()),
            "change": change, "change_sd": change_sd, "spread": float(np.ptp(mu)), "verdict": verdict}


def play_ladder(run_dir: Path, rules: Rules, entries: list[dict[str, Any]], games: int, workers: int, seed: int,
                title: str, **extra: Any) -> dict[str, Any]:
    """Play a round robin of `entries` (checkpoints and anchors, as `entrants` makes them) in `rules`; write
    RUN_DIR/ladder.json (with `extra`) and ladder.png; return what ladder.json holds."""
    if not isinstance(games, int) or games < 1:
        raise ValueError(f"games (per table) must be an integer of at least 1, got {games!r}")
    check_workers(workers)
    if len(entries) < 2:
        raise ValueError("a ladder needs at least two entrants: give anchors, or a run with more checkpoints")
    agents = tuple(e.pop("entry") for e in entries)
    lineups = TournamentConfig(agents=agents, rules=rules, games=1, seed=seed).table_lineups()
    per_deal = len(distinct_permutations(lineups[0]))
    per_table = -(-games // per_deal) * per_deal
    config = TournamentConfig(agents=agents, rules=rules, games=per_table * len(lineups), seed=seed)
    games_dir = ladder_games_dir(run_dir, config)
    resume = Journal.holds_tournament(games_dir)
    print(f"ladder of {run_dir}: {len(entries)} entrants, {len(lineups)} table lineups of {per_table} games, "
          f"{config.total_games} games, {'resumed' if resume else 'kept as they finish'} in {games_dir}", flush=True)
    try:
        result = run_tournament(config, workers=workers, out_dir=games_dir, resume=resume,
                                progress=GamesProgress(config.total_games, "ladder", stream=sys.stdout))
    except TournamentInterrupted as stop:
        print(f"ladder interrupted after {len(stop.result.games)} of {config.total_games} games, kept in {games_dir}: "
              "the same command resumes it", file=sys.stderr, flush=True)
        raise
    for e in entries:
        stats = result.agents[e["name"]]
        e.update(rating={k: stats["rating"][k] for k in ("mu", "sigma", "ordinal")}, games=stats["games"],
                 win_rate=stats["win_rate"], win_rate_ci=stats["win_rate_ci"], mean_margin=stats["mean_margin"])
    out = {"run": str(run_dir), "rules": rules.to_dict(), **extra, "games_per_table": per_table,
           "games": config.total_games, "seed": seed, "entrants": entries, "last_third": last_third_trend(entries),
           "pairings": result.pairings, "seconds": result.seconds}
    write_text_atomic(run_dir / "ladder.json", json.dumps(out, indent=2) + "\n")
    plot_ladder(run_dir / "ladder.json", run_dir / "ladder.png", title=title)
    return out


def ladder_games_dir(run_dir: Path, config: TournamentConfig) -> Path:
    """Where the ladder `config` keeps its games in `run_dir`: one folder per entrants, rules, games and seed, so that
    the same ladder asked again resumes there and another one starts afresh."""
    key = hashlib.sha256(json.dumps(config.to_dict(), sort_keys=True).encode()).hexdigest()[:16]
    return run_dir / LADDER_GAMES / key


def build_parser() -> argparse.ArgumentParser:
    """The command line of `python -m training.az_ladder`."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("run_dir", type=Path, help="a training run's folder (with config.json and checkpoints/)")
    parser.add_argument("--games", type=int, default=DEFAULT_GAMES,
                        help=f"games per table of entrants, rounded up to whole deals (default {DEFAULT_GAMES})")
    parser.add_argument("--anchors", default=DEFAULT_ANCHORS,
                        help=f"comma-separated baseline agent specs (or NAME=SPEC) (default {DEFAULT_ANCHORS}); "
                             "'' for none")
    parser.add_argument("--simulations", type=int, default=DEFAULT_SIMULATIONS,
                        help=f"simulations per move of the checkpoints (default {DEFAULT_SIMULATIONS})")
    parser.add_argument("--workers", type=int, default=1, help="tournament worker processes (default 1)")
    parser.add_argument("--seed", type=int, default=0, help="the tournament's seed (default 0)")
    parser.add_argument("--every", type=int, default=1,
                        help="take every K-th checkpoint (and the newest) (default 1: all)")
    return parser


def main(argv: list[str] | None = None) -> None:
    parser = build_parser()
    args = parser.parse_args(argv)
    anchors = [a.strip() for a in args.anchors.split(",") if a.strip()]
    try:
        out = ladder(args.run_dir, anchors, args.games, args.simulations, args.workers, args.seed, args.every)
    except ValueError as err:
        parser.error(str(err))
    except KeyboardInterrupt:
        sys.exit(130)
    print_ladder(out, args.run_dir)


def print_ladder(out: dict[str, Any], run_dir: Path) -> None:
    """The ladder's entrants by rating, best first, and the files written."""
    width = max(len(e["name"]) for e in out["entrants"])
    for e in sorted(out["entrants"], key=lambda e: -e["rating"]["mu"]):
        played = f"  {e['selfplay_games']:>7} self-play games" if e["kind"] == "checkpoint" else ""
        print(f"{e['name']:<{width}}  mu {e['rating']['mu']:6.2f} ± {e['rating']['sigma']:5.2f}  win "
              f"{e['win_rate']:.0%}  margin {e['mean_margin']:+.1f}{played}")
    trend = out.get("last_third")
    if trend:
        print(f"last third ({trend['from_games']}-{trend['to_games']} self-play games, {len(trend['checkpoints'])} "
              f"checkpoints): {trend['verdict']}, fitted change {trend['change']:+.1f} ± {trend['change_sd']:.1f}, "
              f"ratings within {trend['spread']:.1f}")
    print(f"wrote {run_dir / 'ladder.json'} and {run_dir / 'ladder.png'}")


if __name__ == "__main__":
    main()
