"""Reproduce the published 4-player anchors of Gedda, Lagerkvist and Butler, "Monte Carlo Methods for the Game
Kingdomino" (IEEE CIG 2018): one agent against three copies of another, in duplicate format (each deal played
with the hero in each of the four seats).

    python -m benchmarks.anchors                 # everything (about 50 minutes on one busy core)
    python -m benchmarks.anchors --only fast     # the greedy / GPRD / random rows (seconds)
    python -m benchmarks.anchors --only mc       # the Monte Carlo rows
    python -m benchmarks.anchors --only uct      # UCT beside them (not a published anchor)
    python -m benchmarks.anchors --quick         # a smoke run with few games, written nowhere by default

Each row is played under the basic rules and, as the paper's game server scored (its `Scorer` adds the Harmony and
Middle Kingdom bonuses), with both bonuses. Results merge into benchmarks/results/anchors.json (rows of other runs
are kept). Win rate counts a shared
victory as 1/w for each of its w winners (so four equal players have 25% each); the outright rate counts sole
victories only. Margin = hero's score minus the best opponent's score, with a 95% interval over deals (the four
games of a deal share their dominoes, so deals are the independent samples).
"""

from __future__ import annotations

import argparse
import datetime
import json
import math
import os
import platform
import time
from dataclasses import dataclass
from pathlib import Path

from kingdomino_env.rules import Rules
from tournament import TournamentConfig, TournamentResult, run_tournament, wilson_interval
from tournament.progress import GamesProgress

RESULTS = Path(__file__).resolve().parent / "results" / "anchors.json"
SOURCE = "Gedda, Lagerkvist, Butler, Monte Carlo Methods for the Game Kingdomino, IEEE CIG 2018"


@dataclass(frozen=True)
class Anchor:
    """One row: `hero` against three `opponent`s for `games` games, under the basic rules or with the Harmony and
    Middle Kingdom bonuses (`bonuses`, the rules of the paper's game server), and the published figure."""

    key: str
    group: str
    hero: str
    opponent: str
    games: int
    bonuses: bool
    theirs: str
    target: str = ""


_FG = "Full Greedy wins 97.7%"
_GPRD = "GPRD wins 79.4%"
_RANDOM = "random wins 22.3%"
_MC = "MCE-FG/R at 10 s/move: mean margin +9.6"
_MC_TARGET = "mean margin > 0 at <= 1 s/move"

ANCHORS = (
    Anchor("greedy_vs_3_random", "fast", "greedy", "random", 2000, False, _FG, "win rate >= 95%"),
    Anchor("gprd_vs_3_random", "fast", "gprd", "random", 2000, False, _GPRD),
    Anchor("random_vs_3_random", "fast", "random", "random", 2000, False, _RANDOM),
    Anchor("greedy_vs_3_random_bonuses", "fast", "greedy", "random", 2000, True, _FG, "win rate >= 95%"),
    Anchor("gprd_vs_3_random_bonuses", "fast", "gprd", "random", 2000, True, _GPRD),
    Anchor("random_vs_3_random_bonuses", "fast", "random", "random", 2000, True, _RANDOM),
    Anchor("mc_p300_vs_3_greedy", "mc", "mc:p300", "greedy", 200, False, _MC, _MC_TARGET),
    Anchor("mc_p300_vs_3_greedy_bonuses", "mc", "mc:p300", "greedy", 200, True, _MC, _MC_TARGET),
    Anchor("mc_p2500_vs_3_greedy_bonuses", "mc", "mc:p2500", "greedy", 48, True, _MC, _MC_TARGET),
    Anchor("mcts_p300_vs_3_greedy", "uct", "mcts:p300", "greedy", 100, False, "none (UCT beside MCE)"),
)


def _mean_interval(values: list[float]) -> tuple[float, float, float]:
    """Mean and normal 95% interval of the mean (t-free: n is large enough here)."""
    n = len(values)
    mean = sum(values) / n
    if n < 2:
        return mean, float("nan"), float("nan")
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1))
    half = 1.959963984540054 * sd / math.sqrt(n)
    return mean, mean - half, mean + half


def hero_figures(result: TournamentResult) -> dict:
    """The hero's row: games, deals, win rates with Wilson CIs, mean score, margin with its CI over deals."""
    games = result.games
    wins = outright = 0.0
    per_deal: dict[int, list[int]] = {}
    scores = []
    for game in games:
        seat = game.seats.index("hero")
        winners = [i for i, r in enumerate(game.ranks) if r == 0]
        if seat in winners:
            wins += 1 / len(winners)
            outright += len(winners) == 1
        best_other = max(s for i, s in enumerate(game.scores) if i != seat)
        per_deal.setdefault(game.deal, []).append(game.scores[seat] - best_other)
        scores.append(game.scores[seat])
    n = len(games)
    margin, low, high = _mean_interval([sum(m) / len(m) for m in per_deal.values()])
    hero = result.agents["hero"]
    return {
        "games": n, "deals": len(per_deal),
        "win_rate": wins / n, "win_rate_ci": list(wilson_interval(wins, n)),
        "outright_win_rate": outright / n, "outright_win_rate_ci": list(wilson_interval(outright, n)),
        "mean_score": sum(scores) / n, "mean_margin": margin, "mean_margin_ci": [low, high],
        "seconds_per_move": hero["seconds_per_move"], "moves": hero["moves"],
    }


def run_anchor(anchor: Anchor, games: int, seed: int, workers: int) -> dict:
    config = TournamentConfig(agents=(f"hero={anchor.hero}", anchor.opponent), games=games, seed=seed,
                              rules=Rules(players=4, harmony=anchor.bonuses, middle_kingdom=anchor.bonuses),
                              lineups=(("hero", anchor.opponent, anchor.opponent, anchor.opponent),))
    began = time.perf_counter()
    result = run_tournament(config, workers=workers, progress=GamesProgress(config.total_games, anchor.key))
    return {"hero": anchor.hero, "opponents": f"3 x {anchor.opponent}", "seed": seed,
            "rules": "harmony + middle kingdom" if anchor.bonuses else "basic", "theirs": anchor.theirs,
            "target": anchor.target, "ours": hero_figures(result), "wall_seconds": time.perf_counter() - began}


def build_parser() -> argparse.ArgumentParser:
    """The command line of `python -m benchmarks.anchors`."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", choices=("fast", "mc", "uct"), help="run one group of rows (default: all rows)")
    parser.add_argument("--quick", action="store_true",
                        help="few games per row; nothing written unless --out (default: off)")
    parser.add_argument("--workers", type=int, default=1, help="tournament worker processes (default: %(default)s)")
    parser.add_argument("--seed", type=int, default=2018, help="the tournaments' seed (default: %(default)s)")
    parser.add_argument("--out", type=Path, default=None,
                        help=f"JSON to merge into (default: {RESULTS}, none with --quick)")
    return parser


def main(argv: list[str] | None = None) -> None:
    args = build_parser().parse_args(argv)
    out = args.out or (None if args.quick else RESULTS)
    rows = {}
    if out is not None and out.exists():
        rows = json.loads(out.read_text()).get("anchors", {})
    for anchor in ANCHORS:
        if args.only and anchor.group != args.only:
            continue
        games = 8 if args.quick else anchor.games
        print(f"{anchor.key}: {games} games", flush=True)
        row = run_anchor(anchor, games, args.seed, args.workers)
        ours = row["ours"]
        print(f"  win {ours['win_rate']:.1%} {ours['win_rate_ci']}, margin {ours['mean_margin']:+.2f} "
              f"{ours['mean_margin_ci']}, {ours['seconds_per_move']:.4f} s/move", flush=True)
        rows[anchor.key] = row
        if out is not None:
            out.parent.mkdir(parents=True, exist_ok=True)
            out.write_text(json.dumps({
                "source": SOURCE, "anchors": rows, "updated": datetime.datetime.now().isoformat(timespec="seconds"),
                "machine": {"platform": platform.platform(), "python": platform.python_version(),
                            "cpus": os.cpu_count()},
            }, indent=2) + "\n")


if __name__ == "__main__":
    main()
