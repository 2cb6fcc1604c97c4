"""`az` (or `azmc`, or `csearch`) against the benchmark's target rows: tournaments in the duplicate format (seats
rotated), one row each.

    python -m benchmarks.az_targets                       # every row (long: the docs' agents page has the times)
    python -m benchmarks.az_targets --only duel_bonuses_vs_greedy,two_basic_az0_vs_greedy --workers 2
    python -m benchmarks.az_targets --quick               # a smoke run with few games, written nowhere by default
    python -m benchmarks.az_targets --hero azmc --only two_basic_vs_mc --out azmc.json   # the same rows for azmc
    python -m benchmarks.az_targets --hero csearch --only four_vs_3_mc --out csearch.json   # or for csearch

Rows against Full Greedy use `az:SIMS` (a fixed number of simulations per move, so the games are reproducible)
and report the seconds per move it took; rows against `mc` give both the same seconds per move (`az:T` against
`mc:T`). `--hero azmc` plays the same rows with `azmc` (the same networks, judged by playouts: SIMS is then
playouts per move; `--hero csearch` plays `csearch:pSIMS`); the network-alone row stays `az:0`. The hero's figures
are those of `benchmarks.anchors.hero_figures`: win rate (a shared victory counts 1/w), Wilson 95% interval, mean
margin (hero minus the best opponent) with its interval over deals. Results merge into
benchmarks/results/az_targets.json (rows of other runs are kept: the file is read again before each row is written,
so runs of different rows can go on side by side).
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import time
from dataclasses import dataclass
from pathlib import Path

from kingdomino_env.files import write_text_atomic
from kingdomino_env.rules import Rules
from tournament import TournamentConfig, run_tournament

from .anchors import hero_figures

RESULTS = Path(__file__).resolve().parent / "results" / "az_targets.json"

_DUEL_BONUSES = Rules(2, mighty_duel=True, harmony=True, middle_kingdom=True)
_TWO_BONUSES = Rules(2, harmony=True, middle_kingdom=True)


@dataclass(frozen=True)
class Target:
    """One row: `hero` ("search": az or azmc with --sims; "timed": with --seconds; "policy": az:0) against
    `opponents` (1 or 3 copies of `opponent`; "mc" means mc with the hero's seconds), the row's target."""

    key: str
    rules: Rules
    hero: str
    opponent: str
    games: int
    target: str


_QUEENDOMINO = Rules(game="queendomino", players=2)
_ROYAL_WEDDING = Rules(game="royal_wedding", players=4)

TARGETS = (
    Target("duel_bonuses_vs_greedy", _DUEL_BONUSES, "search", "greedy", 400, ">= 98% wins, mean margin >= +40"),
    Target("duel_bonuses_vs_mc", _DUEL_BONUSES, "timed", "mc", 100, ">= 70%"),
    Target("two_basic_vs_greedy", Rules(2), "search", "greedy", 400, ">= 95%"),
    Target("two_bonuses_vs_greedy", _TWO_BONUSES, "search", "greedy", 400, ">= 95%"),
    Target("two_basic_vs_mc", Rules(2), "timed", "mc", 100, ">= 65%"),
    Target("two_bonuses_vs_mc", _TWO_BONUSES, "timed", "mc", 100, ">= 65%"),
    Target("four_vs_3_greedy", Rules(4), "search", "greedy", 200, ">= 60%"),
    Target("four_vs_3_mc", Rules(4), "timed", "mc", 48, ">= 35%"),
    Target("two_basic_az0_vs_greedy", Rules(2), "policy", "greedy", 400, ">= 75%"),
    Target("queendomino_vs_greedy", _QUEENDOMINO, "search", "greedy", 200, ">= 90%"),
    Target("queendomino_vs_mc", _QUEENDOMINO, "timed", "mc", 48, ">= 60%"),
    Target("royal_wedding_four_vs_3_mc", _ROYAL_WEDDING, "timed", "mc", 24, ">= 35%"),
)


#: The hero kinds `--hero` takes.
HEROES = ("az", "azmc", "csearch")


def specs(target: Target, sims: int, seconds: float, kind: str = "az") -> tuple[str, str]:
    """(hero spec, opponent spec) of a row, the hero of kind `kind` (`HEROES`)."""
    count = f"p{sims}" if kind == "csearch" else str(sims)  # csearch's budget grammar is mc's: pN or seconds
    hero = {"search": f"{kind}:{count}", "timed": f"{kind}:{seconds}s", "policy": "az:0"}[target.hero]
    opponent = f"mc:{seconds}s" if target.opponent == "mc" else target.opponent
    return hero, opponent


def run_target(target: Target, games: int, seed: int, workers: int, sims: int, seconds: float,
               kind: str = "az") -> dict:
    hero, opponent = specs(target, sims, seconds, kind)
    players = target.rules.players
    config = TournamentConfig(agents=(f"hero={hero}", f"opponent={opponent}"), rules=target.rules, games=games,
                              seed=seed, lineups=(("hero",) + ("opponent",) * (players - 1),))
    began = time.perf_counter()
    result = run_tournament(config, workers=workers)
    return {"hero": hero, "opponents": f"{players - 1} x {opponent}", "rules": target.rules.to_dict(),
            "seed": seed, "target": target.target, "ours": hero_figures(result),
            "opponent_seconds_per_move": result.agents["opponent"]["seconds_per_move"],
            "wall_seconds": time.perf_counter() - began}


def build_parser() -> argparse.ArgumentParser:
    """The command line of `python -m benchmarks.az_targets`."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", help="comma-separated row keys: " + ", ".join(t.key for t in TARGETS)
                        + " (default: every row)")
    parser.add_argument("--quick", action="store_true",
                        help="4 games per row; nothing written unless --out (default: off)")
    parser.add_argument("--games", type=int, help="games per row instead of each row's count (default: the row's)")
    parser.add_argument("--hero", choices=HEROES, default="az",
                        help="the agent kind measured (default: %(default)s)")
    parser.add_argument("--sims", type=int, default=200,
                        help="simulations (azmc: playouts) per move against greedy (default: %(default)s)")
    parser.add_argument("--seconds", type=float, default=0.25,
                        help="seconds per move of az and mc against mc (default: %(default)s)")
    parser.add_argument("--workers", type=int, default=1, help="tournament worker processes (default: %(default)s)")
    parser.add_argument("--seed", type=int, default=2026, help="the tournaments' seed (default: %(default)s)")
    parser.add_argument("--out", type=Path, default=None,
                        help=f"JSON to merge into (default: {RESULTS}, none with --quick)")
    return parser


def main(argv: list[str] | None = None) -> None:
    parser = build_parser()
    args = parser.parse_args(argv)
    keys = {t.key for t in TARGETS}
    only = set(args.only.split(",")) if args.only else keys
    if only - keys:
        parser.error(f"unknown row(s) {', '.join(sorted(only - keys))}; rows: {', '.join(sorted(keys))}")
    out = args.out or (None if args.quick else RESULTS)
    for target in TARGETS:
        if target.key not in only:
            continue
        games = 4 if args.quick else args.games or target.games
        print(f"{target.key}: {games} games", flush=True)
        row = run_target(target, games, args.seed, args.workers, args.sims, args.seconds, args.hero)
        ours = row["ours"]
        low, high = ours["win_rate_ci"]
        print(f"  {row['hero']} vs {row['opponents']}: win {ours['win_rate']:.1%} ({low:.1%}-{high:.1%}), margin "
              f"{ours['mean_margin']:+.1f}, {ours['seconds_per_move']:.3f} s/move; target {target.target}; "
              f"{row['wall_seconds']:.0f} s", flush=True)
        if out is not None:
            rows = json.loads(out.read_text()).get("rows", {}) if out.exists() else {}
            rows[target.key] = row
            write_text_atomic(out, json.dumps({
                "rows": rows, "updated": datetime.datetime.now().isoformat(timespec="seconds"),
                "machine": {"platform": platform.platform(), "python": platform.python_version(),
                            "cpus": os.cpu_count()},
            }, indent=2) + "\n")


if __name__ == "__main__":
    main()
