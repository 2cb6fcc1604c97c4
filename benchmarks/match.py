"""One agent against copies of another, in the duplicate format: the strength measurements of the agents docs.

    python -m benchmarks.match csearch:0.25s mc:0.25 --mighty-duel --harmony --middle-kingdom --games 40 --seed 3
    python -m benchmarks.match csearch:0.25s mc:0.25 --players 4 --games 48 --seed 4 --out four.json   # one vs three

Each deal is played with the hero in every seat and the opponent's copies in the others (with 4 players, one
against three), the seats rotated as `kingdomino tournament` rotates them. The variant is given by the same flags as
`kingdomino tournament` (one per `Rules` option). The hero's figures are those of `benchmarks.anchors.hero_figures`:
win rate (a shared victory counts 1/w) with its Wilson 95% interval, mean margin over the best opponent with its
interval over deals, seconds per move. Time budgets buy fewer simulations on a loaded machine, so the load average
before and after the games is written beside them. `--out` writes the figures and the tournament's results.json
content to a JSON file; without it they are printed only. `--keep-network FILE` copies the model file the hero spec
names (a csearch value network, an az or ppo model) to FILE before the first game, plays the copy, and records it in
the JSON as `hero_network` (path, SHA-256, the file it was copied from, `--network-note`): the result names the very
bytes it measured, though a training run goes on rewriting the original.

With `--out FILE`, the games are kept as they finish in the folder FILE.games beside it (a tournament folder), so
that an interrupted match (Ctrl-C) loses no finished game: the same command run again plays only the games it
lacks. The folder goes once FILE is written. Progress lines go to stderr.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import platform
import shutil
import sys
import time
from pathlib import Path

from agents import AgentSpecError, check_supports
from agents.registry import parse_spec
from kingdomino_env.files import write_atomic, write_text_atomic
from tournament import JournalError, TournamentConfig, TournamentInterrupted, run_tournament
from tournament.journal import Journal
from tournament.progress import GamesProgress
from tournament.runner import check_workers
from training.evaluate import add_rules_arguments, add_tournament_arguments, rules_from_arguments

from .anchors import hero_figures

#: The hero's and the opponent's names in the tournament.
HERO, OPPONENT = "hero", "opponent"


def games_folder(out: Path) -> Path:
    """Where a match written to `out` keeps its games while it plays: FILE.games beside it."""
    return out.with_name(out.name + ".games")


def keep_network(spec: str, copy: Path, note: str = "") -> tuple[str, dict]:
    """Copy the model file `spec` names to `copy` (left as it is where it holds those bytes already, as when an
    interrupted match is run again) and return the spec reading the copy with its `hero_network` record.

    Raises:
        ValueError: `spec` names no model file, or `copy` cannot take it (another file, no folder).
    """
    parsed = parse_spec(spec)
    source = parsed.model_file
    if source is None:
        raise ValueError(f"--keep-network: the hero {spec} names no model file to keep; give a spec ending in :PATH")
    if not copy.parent.is_dir():
        raise ValueError(f"--keep-network {copy}: no folder {copy.parent} to write it in")
    data = source.read_bytes()
    if copy.exists() or copy.is_symlink():
        if copy.is_symlink() or not copy.is_file() or copy.read_bytes() != data:
            raise ValueError(f"--keep-network {copy} exists and holds something other than {source}; move it away "
                             "or give another name")
    else:
        write_atomic(copy, lambda path: path.write_bytes(data))
    record = {"file": copy.as_posix(), "sha256": hashlib.sha256(data).hexdigest(), "source": source.as_posix()}
    if note:
        record["note"] = note
    return parsed.with_model(copy.as_posix()), record


def play(hero: str, opponent: str, config: TournamentConfig, workers: int = 1, games: Path | None = None) -> dict:
    """Play the tournament `config` (whose entrants are `HERO` and `OPPONENT`) and return the figures written.
    games: a folder to keep the games in as they finish, resumed where it holds this match already.

    Raises:
        TournamentInterrupted: An interrupt; the finished games are in `games` where one is given.
        JournalError: `games` holds another tournament, or damaged files.
    """
    load_before = os.getloadavg()
    began = time.perf_counter()
    resume = games is not None and Journal.holds_tournament(games)
    result = run_tournament(config, workers=workers, progress=GamesProgress(config.total_games, "match"),
                            out_dir=games, resume=resume)
    return {
        "hero": hero, "opponent": opponent, "rules": config.rules.to_dict(), "seed": config.seed,
        "lineup": list(config.lineups[0]),
        "hero_figures": hero_figures(result),
        "opponent_seconds_per_move": result.agents[OPPONENT]["seconds_per_move"],
        "load_before": list(load_before), "load_after": list(os.getloadavg()),
        "wall_seconds": time.perf_counter() - began, "workers": workers,
        "machine": {"cpus": os.cpu_count(), "python": platform.python_version(), "platform": platform.platform()},
        "tournament": result.to_dict(),
    }


def line(figures: dict) -> str:
    """The figures in one line."""
    hero = figures["hero_figures"]
    low, high = hero["win_rate_ci"]
    return (f"{figures['hero']} against {len(figures['lineup']) - 1} x {figures['opponent']}: "
            f"{hero['win_rate'] * hero['games']:g} of {hero['games']} ({hero['win_rate']:.1%}, {low:.1%}-{high:.1%}), "
            f"margin {hero['mean_margin']:+.1f}, {hero['seconds_per_move']:.3f} s a move against "
            f"{figures['opponent_seconds_per_move']:.3f}; load {figures['load_before'][0]:.1f} -> "
            f"{figures['load_after'][0]:.1f}")


def build_parser() -> argparse.ArgumentParser:
    """The command line of `python -m benchmarks.match`."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks.match", description=__doc__.split("\n\n")[0])
    parser.add_argument("hero", help="the measured agent's spec (see `kingdomino agents`)")
    parser.add_argument("opponent", help="the spec of the agent in every other seat")
    add_rules_arguments(parser)
    add_tournament_arguments(parser, games=40)
    parser.add_argument("--out", type=Path, default=None, help="a JSON file for the figures (default: print only)")
    parser.add_argument("--keep-network", type=Path, default=None, metavar="FILE",
                        help="copy the model file the hero spec names to FILE, play the copy and name it in --out "
                             "(default: play the file itself)")
    parser.add_argument("--network-note", default="", metavar="TEXT",
                        help="a line on the kept network (which run and iteration), written beside it in --out "
                             "(default: none)")
    return parser


def main(argv: list[str] | None = None) -> None:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.out is not None and args.out.is_dir():
        parser.error(f"--out {args.out} is a folder; give a file name such as {args.out / 'match.json'}")
    if args.out is not None and args.out.exists() and not args.out.is_file():
        parser.error(f"--out {args.out} exists and is not a regular file (a FIFO, socket or device); give a file name")
    if args.out is not None and not args.out.parent.is_dir():
        parser.error(f"--out {args.out}: no folder {args.out.parent} to write it in")
    if args.keep_network is not None and args.out is None:
        parser.error("--keep-network records the copy in the --out file: give --out too")
    if args.network_note and args.keep_network is None:
        parser.error("--network-note describes the network --keep-network keeps: give --keep-network too")
    games = None if args.out is None else games_folder(args.out)
    if games is not None and (games.is_symlink() or games.exists()):
        if games.is_symlink() or not games.is_dir():
            parser.error(f"--out {args.out}: {games}, where the match keeps its games, exists and is not a folder "
                         "(a file, FIFO or link); move it away or give another --out")
        if not Journal.holds_tournament(games) and any(games.iterdir()):
            parser.error(f"--out {args.out}: {games}, where the match keeps its games, holds other files and no "
                         "match; move it away or give another --out")
    try:
        check_workers(args.workers)
        rules = rules_from_arguments(args)
        for spec in (args.hero, args.opponent):
            check_supports(spec, rules)

        def configured(hero: str) -> TournamentConfig:
            return TournamentConfig(agents=(f"{HERO}={hero}", f"{OPPONENT}={args.opponent}"), rules=rules,
                                    games=args.games, seed=args.seed,
                                    lineups=((HERO,) + (OPPONENT,) * (rules.players - 1),))

        hero, kept = args.hero, None
        config = configured(hero)
        if args.keep_network is not None:
            hero, kept = keep_network(args.hero, args.keep_network, args.network_note)
            config = configured(hero)
    except (AgentSpecError, ValueError) as err:
        parser.error(str(err))
    try:
        figures = play(hero, args.opponent, config, args.workers, games)
    except JournalError as err:
        parser.error(f"{err}. It keeps the games of an interrupted match written to --out {args.out}: give another "
                     "--out, or the options of that match")
    except TournamentInterrupted as stop:
        kept = (f"they are kept in {games}: the same command plays the rest" if games is not None
                else "give --out to keep the finished games of an interrupted match")
        print(f"match interrupted after {len(stop.result.games)} of {config.total_games} games; {kept}",
              file=sys.stderr, flush=True)
        raise SystemExit(130) from None
    if kept is not None:
        figures["hero_network"] = kept
    print(line(figures))
    if args.out is not None:
        write_text_atomic(args.out, json.dumps(figures, indent=1) + "\n")
        shutil.rmtree(games)
        print(f"written to {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
