"""Calibrating the standard anchors: play them against each other and freeze their Elo ratings.

    python -m tournament.calibrate                       # every variant, into the shipped table
    python -m tournament.calibrate --variant 2p --deals 8

Each anchor plays its neighbours in the variant's order (weakest first), the next one and the one after (a chain
with skip-one links: pairs far apart would only add foregone results), on the variant's calibration deals,
duplicate format with every seat order. In games of more than two players each lineup is one anchor against
`players - 1` copies of the other, both ways round. All ratings are then fitted at once by maximum likelihood
(`tournament.elo.fit_ratings`), Full Greedy pinned at 1000, and the variant's entry of the table is replaced:
anchors, ratings and standard errors, every pair's tally, games, seed, date, the command, the machine and its load,
and the digest of the anchors' play (`behaviour_digest`): when an anchor plays differently, its frozen rating no
longer holds, and the variant is calibrated again (a test compares the digests with the table).
"""

from __future__ import annotations

import argparse
import datetime
import hashlib
import json
import os
import platform
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

import agents
import kingdomino_env
from kingdomino_env import core
from kingdomino_env.files import write_text_atomic
from kingdomino_env.policies import greedy_actions

from .config import TournamentConfig, seat_order_count
from .elo import fit_ratings, pairwise_outcomes, tally
from .progress import GamesProgress
from .runner import run_tournament
from .standard import PIN_AGENT, TABLE_FORMAT, TABLE_PATH, VARIANTS, Variant, anchor_name, read_table, variant

#: (deals per lineup, reach) by variant, sized from each anchor's measured time per move so that the six variants
#: calibrate in under an hour of one core. Reach: how far apart in the anchor order two anchors still meet (1:
#: neighbours only).
CALIBRATION = {"duel": (12, 2), "2p": (24, 2), "3p": (8, 2), "4p": (4, 2), "queendomino-2p": (8, 2),
               "royal-wedding-4p": (3, 1)}
REACH = 2
#: Positions in which `behaviour_digest` asks every anchor for its move, and the decisions played between them.
PROBES, PROBE_SPACING = 12, 3


def probe_positions(var: Variant) -> list[core.State]:
    """`PROBES` positions of one game of the variant (deal `var.seed`) played by Full Greedy, each a decision
    with more than one legal action, `PROBE_SPACING` decisions apart."""
    state, rng = core.new_games(var.rules, [var.seed]), np.random.default_rng(var.seed)
    positions: list[core.State] = []
    choices = 0
    while len(positions) < PROBES and not state.is_over[0]:
        if core.legal_action_mask(state)[0].sum() > 1:
            if choices % PROBE_SPACING == 0:
                positions.append(state.copy())
            choices += 1
        core.step(state, greedy_actions(state, np.zeros(1, dtype=np.int64), rng))
    return positions


def behaviour_digest(var: Variant) -> str:
    """A digest of what every anchor of the variant makes of each of `probe_positions` (a fresh agent with the
    variant's seed per question): its move, and where it estimates actions (a search), each action's mean win share
    and margin to 4 decimals and its visits. It changes when what an anchor makes of a position changes (its
    network, priors, budget or playouts); a change that shows only over many games, or in positions the probes do
    not reach, goes unseen: calibrating again, into a copy of the table (`--table`), is the full check."""
    moves: dict[str, list[Any]] = {}
    games, positions = np.zeros(1, dtype=np.int64), probe_positions(var)
    for spec in var.anchors:
        moves[spec] = []
        for state in positions:
            agent = agents.load(spec, seed=var.seed)
            obs = core.observe(state) if agent.needs_observation else None
            moves[spec].append(int(agent.act(state, games, core.legal_action_mask(state), obs)[0]))
            searcher = agents.load(spec, seed=var.seed)
            if hasattr(searcher, "estimate"):
                moves[spec].append([np.round(np.asarray(a, dtype=np.float64), 4).tolist()
                                    for a in searcher.estimate(state, 0)])
    return "sha256:" + hashlib.sha256(json.dumps(moves, sort_keys=True).encode()).hexdigest()[:16]


def calibration_pairs(anchors: Sequence[str], reach: int = REACH) -> list[tuple[str, str]]:
    """The pairs of anchors that meet: each with the next `reach` anchors of the (weakest first) order."""
    return [(anchors[i], anchors[j]) for i in range(len(anchors)) for j in range(i + 1, min(i + 1 + reach,
                                                                                          len(anchors)))]


def calibration_config(var: Variant, deals: int, reach: int = REACH) -> TournamentConfig:
    """The tournament of a calibration: every pair's lineups (both ways round in multi-player games), `deals` deals
    per lineup."""
    players = var.rules.players
    lineups: list[tuple[str, ...]] = []
    for a, b in calibration_pairs(var.anchors, reach):
        na, nb = anchor_name(a), anchor_name(b)
        lineups.append((na,) + (nb,) * (players - 1))
        if players > 2:
            lineups.append((nb,) + (na,) * (players - 1))
    games = deals * sum(seat_order_count(lineup) for lineup in lineups)
    entrants = tuple(f"{anchor_name(s)}={s}" for s in var.anchors)
    return TournamentConfig(agents=entrants, rules=var.rules, games=games, seed=var.calibration_seed,
                            lineups=tuple(lineups))


def _machine() -> dict[str, Any]:
    return {"platform": platform.platform(), "python": platform.python_version(), "cpus": os.cpu_count(),
            "processor": platform.processor() or platform.machine()}


def calibrate(var: Variant, deals: int, workers: int = 1, reach: int = REACH, quiet: bool = False
              ) -> dict[str, Any]:
    """Play a variant's calibration and fit its anchors' ratings.

    Args:
        var: The variant.
        deals: Deals per lineup.
        workers: Worker processes.
        reach: How far apart in the anchor order two anchors still meet.
        quiet: No progress lines on stderr.

    Returns:
        The variant's table entry.
    """
    config = calibration_config(var, deals, reach)
    spec_of = {anchor_name(s): s for s in var.anchors}
    began = time.perf_counter()
    load_before = os.getloadavg()
    progress = None if quiet else GamesProgress(config.total_games, var.name)
    result = run_tournament(config, workers=workers, progress=progress)
    tallies = tally(o for g in result.games for o in pairwise_outcomes(g.seats, g.ranks))
    fitted = fit_ratings(tallies, pinned=anchor_name(PIN_AGENT))
    per_anchor: dict[str, dict[str, Any]] = {}
    for spec in var.anchors:
        name = anchor_name(spec)
        played = sum(t.games for t in tallies if name in (t.a, t.b))
        score = sum(t.score if t.a == name else t.games - t.score for t in tallies if name in (t.a, t.b))
        per_anchor[spec] = {"rating": round(fitted[name]["rating"], 1), "se": round(fitted[name]["se"], 1),
                            "outcomes": played, "score": score,
                            "seconds_per_move": result.agents[name]["seconds_per_move"]}
    return {
        "description": var.description, "rules": var.rules.to_dict(), "anchors": per_anchor,
        "pairs": [{"a": spec_of[t.a], "b": spec_of[t.b], "outcomes": t.games, "a_score": t.score} for t in tallies],
        "games": len(result.games), "deals_per_lineup": deals, "reach": reach, "seed": var.calibration_seed,
        "date": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        "command": f"python -m tournament.calibrate --variant {var.name} --deals {deals} --reach {reach}",
        "workers": workers, "seconds": round(time.perf_counter() - began, 1), "machine": _machine(),
        "load": {"before": [round(x, 2) for x in load_before], "after": [round(x, 2) for x in os.getloadavg()]},
        "project_version": kingdomino_env.__version__, "behaviour": behaviour_digest(var),
    }


def write_entry(name: str, entry: dict[str, Any], path: Path = TABLE_PATH) -> None:
    """Replace variant `name`'s entry of the table at `path` (created if missing), keeping the others."""
    table: dict[str, Any] = {"format": TABLE_FORMAT, "pin": {"agent": PIN_AGENT, "rating": 1000.0},
                             "variants": {}}
    if path.exists():
        table = read_table(path)
    table["variants"][name] = entry
    table["variants"] = {n: table["variants"][n] for n in VARIANTS if n in table["variants"]}
    path.parent.mkdir(parents=True, exist_ok=True)
    write_text_atomic(path, json.dumps(table, indent=1) + "\n")


def build_parser() -> argparse.ArgumentParser:
    """The command line of `python -m tournament.calibrate`."""
    parser = argparse.ArgumentParser(prog="python -m tournament.calibrate", description=__doc__.split("\n")[0])
    parser.add_argument("--variant", action="append", choices=list(VARIANTS),
                        help="A variant to calibrate (repeatable; default: every one).")
    parser.add_argument("--deals", type=int, default=None,
                        help="Deals per lineup (default: the variant's, in CALIBRATION).")
    parser.add_argument("--reach", type=int, default=None,
                        help="How far apart in the anchor order anchors meet (default: the variant's, in CALIBRATION).")
    parser.add_argument("--workers", type=int, default=1, help="Worker processes (default: %(default)s).")
    parser.add_argument("--table", type=Path, default=TABLE_PATH,
                        help="The table to update (default: the shipped one, tournament/data/standard_anchors.json).")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.table.exists() or args.table.is_symlink():
        try:  # a table that cannot be updated is refused before any game is played
            read_table(args.table)
        except ValueError as err:
            parser.error(f"--table: {err}")
    for name in args.variant or list(VARIANTS):
        var = variant(name)
        deals, reach = CALIBRATION[name]
        entry = calibrate(var, args.deals or deals, workers=args.workers, reach=args.reach or reach)
        write_entry(name, entry, args.table)
        ratings = ", ".join(f"{s} {v['rating']:.0f}" for s, v in entry["anchors"].items())
        print(f"{name}: {entry['games']} games in {entry['seconds']:.0f} s: {ratings}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
