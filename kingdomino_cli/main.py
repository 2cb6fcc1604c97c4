"""The `kingdomino` command line: tournaments between agents, agent specs, game replays and the play app."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn
from rich.table import Table

import agents
from agents.budget import BUDGET_GRAMMAR
from kingdomino_env.record import RecordError, replay
from kingdomino_env.render import ansi
from kingdomino_env.rules import Rules
from tournament import TournamentConfig, TournamentResult, run_tournament, write_all
from tournament.outputs import ranked_names

#: The default tournament: the README's demo, about a minute on a 2-core laptop.
DEFAULT_AGENTS = "random,gprd,greedy,heuristic,mc:p150"
DEFAULT_GAMES = 200

app = typer.Typer(help="Kingdomino agents: tournaments, agent specs and game replays.", add_completion=False,
                  no_args_is_help=True)
console = Console()


@app.callback()
def main() -> None:
    """Kingdomino agents: tournaments, agent specs and game replays."""


def _results_table(result: TournamentResult) -> Table:
    cfg = result.config
    unit = "matches" if cfg.dynasty else "games"
    played = f"{len(result.matches)} dynasty matches ({len(result.games)} games)" if cfg.dynasty else \
        f"{len(result.games)} games"
    table = Table(title=f"{played}, {cfg.players} players, seed {cfg.seed}")
    for column in ("agent", unit, "win rate (95% CI)", "score", "margin", "rating", "ms/move"):
        table.add_column(column, justify="left" if column == "agent" else "right")
    for name in ranked_names(result):
        s = result.agents[name]
        low, high = s["win_rate_ci"]
        table.add_row(name, f"{s[unit]:g}", f"{s['win_rate']:.0%} ({low:.0%}–{high:.0%})", f"{s['mean_score']:.1f}",
                      f"{s['mean_margin']:+.1f}", f"{s['rating']['mu']:.1f}±{s['rating']['sigma']:.1f}",
                      f"{1000 * s['seconds_per_move']:.3g}")
    return table


def _pairings_table(result: TournamentResult) -> Table:
    unit = "matches" if result.config.dynasty else "games"
    table = Table(title="Head to head")
    for column in ("pairing", unit, "first wins (95% CI)", "scores", "margin"):
        table.add_column(column, justify="left" if column == "pairing" else "right")
    for p in result.pairings:
        low, high = p["a_win_rate_ci"]
        table.add_row(" vs ".join(p["agents"]), str(p[unit]), f"{p['a_win_rate']:.0%} ({low:.0%}–{high:.0%})",
                      f"{p['a_mean_score']:.1f}–{p['b_mean_score']:.1f}", f"{p['a_mean_margin']:+.1f}")
    return table


@app.command()
def tournament(
    agent_list: Annotated[str, typer.Option(
        "--agents", "-a", help="Comma-separated agent specs (NAME=SPEC to rename); see `kingdomino agents`.",
    )] = DEFAULT_AGENTS,
    players: Annotated[int, typer.Option(min=2, max=4, help="Players per game.")] = 2,
    games: Annotated[int, typer.Option(
        min=1, help="Games to play at least (rounded up to whole deals); with --dynasty, matches.")] = DEFAULT_GAMES,
    mighty_duel: Annotated[bool, typer.Option("--mighty-duel", help="7x7 kingdoms, all 48 dominoes (2 players).")] =
    False,
    harmony: Annotated[bool, typer.Option("--harmony", help="+5 for a complete kingdom.")] = False,
    middle_kingdom: Annotated[bool, typer.Option("--middle-kingdom", help="+10 for a centred castle.")] = False,
    three_player_36: Annotated[bool, typer.Option(
        "--three-player-36", help="The older 3-player rule: 36 dominoes, lines of 3.")] = False,
    dynasty: Annotated[bool, typer.Option(
        "--dynasty", help="Play matches of 3 games (same seats, 3 deals; totals decide) and rate by match.")] = False,
    quests: Annotated[str, typer.Option(
        help="Comma-separated quests active in every game (see README 'Quests'), e.g. lost_corner,bleak_king.")] = "",
    random_quests: Annotated[int, typer.Option(
        min=0, max=17, help="Quests drawn at random per deal (the mod deals 2).")] = 0,
    workers: Annotated[int, typer.Option(min=1, help="Worker processes (results do not depend on it).")] = 1,
    seed: Annotated[int, typer.Option(min=0, help="Seed of the deals and the agents.")] = 0,
    out: Annotated[Path | None, typer.Option(
        help="Write results.json, results.csv, results.md, ratings.png and games.jsonl here.")] = None,
    progress: Annotated[bool, typer.Option(help="Show a progress bar.")] = True,
) -> None:
    """Play a duplicate-format tournament: win rates, scores, margins, ratings and time per move.

    Each deal is played in every seat permutation of its table. With --dynasty, each of those games becomes a
    match of three games (three deals, same seats), ranked by total score, then summed largest territories, then
    summed crowns, and statistics and ratings are per match.
    Tables: every combination of agents; with fewer agents than seats, each agent against copies of each other one.
    """
    specs = tuple(s.strip() for s in agent_list.split(",") if s.strip())
    quest_names = tuple(q.strip() for q in quests.split(",") if q.strip())
    try:
        Rules(players=players, mighty_duel=mighty_duel, harmony=harmony, middle_kingdom=middle_kingdom,
              three_player_36=three_player_36, quests=quest_names, random_quests=random_quests)
    except ValueError as err:
        raise typer.BadParameter(str(err), param_hint="'--players' / variant flags") from None
    try:
        config = TournamentConfig(agents=specs, players=players, games=games, mighty_duel=mighty_duel,
                                  harmony=harmony, middle_kingdom=middle_kingdom, three_player_36=three_player_36,
                                  quests=quest_names, random_quests=random_quests, seed=seed, dynasty=dynasty)
    except ValueError as err:
        raise typer.BadParameter(str(err), param_hint="'--agents'") from None
    with Progress(TextColumn("[bold]tournament"), BarColumn(), MofNCompleteColumn(), TextColumn("games"),
                  TimeElapsedColumn(), TimeRemainingColumn(), console=console, disable=not progress,
                  transient=False) as bar:
        task = bar.add_task("games", total=config.total_games)
        result = run_tournament(config, workers=workers, progress=lambda n: bar.advance(task, n))
    console.print(_results_table(result))
    console.print(_pairings_table(result))
    console.print(f"{len(result.games)} games in {result.seconds:.1f} s")
    if out is not None:
        paths = write_all(result, out)
        console.print("wrote " + ", ".join(str(p) for p in paths))


@app.command("agents")
def list_agents() -> None:
    """List the agent specs that `--agents` and `agents.load` accept."""
    table = Table(title="Agent specs")
    table.add_column("spec")
    table.add_column("agent")
    for spec, what in agents.SPECS.items():
        table.add_row(spec, what)
    console.print(table)
    console.print("BUDGET: " + BUDGET_GRAMMAR)


@app.command("replay")
def replay_game(
    games_file: Annotated[Path, typer.Argument(exists=True, dir_okay=False, help="A games.jsonl of a tournament.")],
    game: Annotated[int, typer.Option(min=0, help="The game number (its line, from 0).")] = 0,
) -> None:
    """Replay one game of a tournament's games.jsonl and show its final position."""
    with games_file.open() as f:
        line = next((text for i, text in enumerate(f) if i == game), None)
    if line is None:
        raise typer.BadParameter(f"{games_file} has no game {game}", param_hint="'--game'")
    try:
        entry = json.loads(line)
        state, _ = replay(entry["record"])
    except (json.JSONDecodeError, KeyError, TypeError, RecordError) as err:
        raise typer.BadParameter(f"line {game} of {games_file} is not a game: {err}", param_hint="GAMES_FILE") from None
    names = [f"player_{i} ({name})" for i, name in enumerate(entry.get("seats", []))] or None
    console.print(ansi(state, 0, names=names), markup=False, highlight=False)


@app.command()
def play(
    seat: Annotated[list[str] | None, typer.Option(
        "--seat", help="Start a game at once, one --seat per player: human, human:NAME or an agent spec "
                       "(greedy, mcts:0.5, ppo, ...). Without --seat the main menu opens.")] = None,
    pace: Annotated[float, typer.Option(min=0.0, help="Seconds per agent action.")] = 0.6,
    seed: Annotated[int | None, typer.Option(min=0, help="Seed of the deals (same seed and moves, same game).")] =
    None,
    saves: Annotated[Path | None, typer.Option(
        help="Folder of saved games (default $KINGDOMINO_SAVES or ~/.kingdomino/saves).")] = None,
    mighty_duel: Annotated[bool, typer.Option("--mighty-duel", help="7x7 kingdoms, all 48 dominoes.")] = False,
    harmony: Annotated[bool, typer.Option("--harmony", help="+5 for a complete kingdom.")] = False,
    middle_kingdom: Annotated[bool, typer.Option("--middle-kingdom", help="+10 for a centred castle.")] = False,
    dynasty: Annotated[bool, typer.Option("--dynasty", help="Three games in a row; totals decide.")] = False,
) -> None:
    """Play Kingdomino in a window (pygame): humans and agents at one table, with save and load."""
    from kingdomino_app.seats import AgentUnavailable, make_agent, parse_seat

    seats = seat or []
    if seats:
        if not 2 <= len(seats) <= 4:
            raise typer.BadParameter(f"give 2 to 4 seats, got {len(seats)}", param_hint="--seat")
        try:
            Rules(players=len(seats), mighty_duel=mighty_duel)
            for i, text in enumerate(seats):
                parsed = parse_seat(text, i)
                if not parsed.is_human:
                    make_agent(parsed.kind, seed=0)
        except (ValueError, AgentUnavailable) as err:
            raise typer.BadParameter(str(err), param_hint="--seat") from None
    from kingdomino_app import run

    run(saves_dir=saves, pace=pace, seed=seed, seats=seats or None, mighty_duel=mighty_duel, harmony=harmony,
        middle_kingdom=middle_kingdom, dynasty=dynasty)
