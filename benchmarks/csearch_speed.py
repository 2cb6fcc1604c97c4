"""Simulations a second of `csearch` over whole games at a time budget a move, by how its leaves are valued.

    python -m benchmarks.csearch_speed                 # a few minutes; writes benchmarks/results/csearch_speed.json
    python -m benchmarks.csearch_speed --variants duel --games 1 --seconds 0.1 --out x.json

`benchmarks.az_speed` times searches of a fixed size from sampled positions; this one times the search as it plays:
`csearch` takes every seat of `--games` whole games per variant (deals 0, 1, ...) at `--seconds` a move, and every
decision with more than one legal action counts (the first one, which may compile kernels, is played untimed).
Leaves are valued three ways: the agent's default (its network mixed with a Full Greedy playout where the variant
has a shipped network, else as `games` says: the heuristic and a playout in Kingdomino, the playout alone in
Queendomino and the Royal Wedding), the network alone, and the playout alone. The process is pinned to one CPU;
time budgets buy fewer simulations on a loaded machine, so the load average is written beside the figures.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

from agents.budget import Budget
from agents.csearch import network
from agents.csearch.agent import CompiledSearchAgent
from kingdomino_env import core
from kingdomino_env.files import write_text_atomic
from training.csearch_net import VARIANTS

from .throughput import machine_info, pin_cpu

OUT = Path(__file__).resolve().parent / "results" / "csearch_speed.json"
#: How a search values its leaves: a name, and the playout mix it is given (None: the agent's default).
LEAVES = {"default": None, "network alone": 0.0, "playout alone": 1.0}
DEFAULT_VARIANTS = ("duel", "2p-bonuses", "4p", "queendomino-2p")


def timed_games(variant: str, mix: float | None, games: int, seconds: float) -> dict[str, Any]:
    """Simulations, decisions and seconds of the search over `games` whole games of `variant`."""
    agent = CompiledSearchAgent(Budget(seconds=seconds), seed=0, shipped=True, playout_mix=mix)
    simulations = decisions = 0
    spent = 0.0
    warm = False
    for deal in range(games):
        state = core.new_games(VARIANTS[variant], [deal])
        while not state.is_over[0]:
            mask = core.legal_action_mask(state)
            choice = bool(mask[0].sum() > 1)
            before, began = agent.simulations, time.perf_counter()
            action = agent.act(state, np.zeros(1, dtype=np.int64), mask, None)
            if choice and warm:
                spent += time.perf_counter() - began
                simulations += agent.simulations - before
                decisions += 1
            warm = warm or choice
            core.step(state, action)
    return {"simulations": simulations, "decisions": decisions, "seconds": spent,
            "simulations_per_s": simulations / spent, "simulations_per_move": simulations / max(decisions, 1)}


def run(variants: list[str], games: int, seconds: float, cpu: int | None) -> dict[str, Any]:
    """Every variant's rows, with the machine and the load."""
    load_before = os.getloadavg()
    rows = []
    for variant in variants:
        shipped = network.shipped_weights(VARIANTS[variant])
        for leaves, mix in LEAVES.items():
            if shipped is None and mix == 0.0:
                continue
            figures = timed_games(variant, mix, games, seconds)
            rows.append({"variant": variant, "leaves": leaves, "playout_mix": mix,
                         "network": shipped.name if shipped is not None and mix != 1.0 else None, **figures})
            print(f"{variant:16} {leaves:14} {figures['simulations_per_s']:>9,.0f} simulations/s "
                  f"{figures['simulations_per_move']:>8,.0f} a move", flush=True)
    return {"date": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
            "seconds_per_move": seconds, "games": games, "load_average_before": list(load_before),
            "load_average_after": list(os.getloadavg()), "machine": machine_info(cpu), "rows": rows}


def build_parser() -> argparse.ArgumentParser:
    """The command line of `python -m benchmarks.csearch_speed`."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variants", default=",".join(DEFAULT_VARIANTS),
                        help=f"comma-separated variants, of {', '.join(VARIANTS)} (default: %(default)s)")
    parser.add_argument("--games", type=int, default=2, help="whole games a variant and leaf valuation "
                                                             "(default: %(default)s)")
    parser.add_argument("--seconds", type=float, default=0.25, help="seconds a move (default: %(default)s)")
    parser.add_argument("--cpu", type=int, default=None, help="CPU to pin to, -1 to not pin (default: the idlest)")
    parser.add_argument("--out", type=Path, default=OUT, help="JSON file to write (default: %(default)s)")
    return parser


def main(argv: list[str] | None = None) -> None:
    parser = build_parser()
    args = parser.parse_args(argv)
    variants = [v for v in args.variants.split(",") if v]
    unknown = [v for v in variants if v not in VARIANTS]
    if unknown or not variants:
        parser.error(f"--variants must name variants of {', '.join(VARIANTS)}, got {args.variants!r}")
    if not 1 <= args.games <= 1000:
        parser.error(f"--games must be from 1 to 1000, got {args.games}")
    if not 0.01 <= args.seconds <= 60:
        parser.error(f"--seconds must be from 0.01 to 60, got {args.seconds}")
    if args.out.is_dir() or not args.out.parent.is_dir():
        parser.error(f"--out must be a file in an existing folder, got {args.out}")
    try:
        cpu = pin_cpu(args.cpu)
    except ValueError as err:
        parser.error(str(err))
    try:
        result = run(variants, args.games, args.seconds, cpu)
    except KeyboardInterrupt:
        print(f"interrupted: {args.out} left as it was; the rows printed above were measured", file=sys.stderr)
        sys.exit(130)
    write_text_atomic(args.out, json.dumps(result, indent=2) + "\n")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
