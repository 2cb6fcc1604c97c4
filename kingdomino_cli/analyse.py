"""`kingdomino analyse`: every decision of a recorded game judged by an advisor (`agents.analysis`)."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table
from rich.text import Text

from agents import AgentSpecError
from agents.advice import ADVISOR_SPECS
from agents.analysis import AnalysisInputError, GameAnalysis, analyse_file
from agents.budget import MAX_SECONDS
from kingdomino_env.files import write_atomic, write_text_atomic

console = Console(emoji=False)


def _table(analysis: GameAnalysis) -> Table:
    table = Table(title=Text(f"Game {analysis.game}, analysed by {analysis.agent}"))
    for column in ("move", "player", "played", "best", "win prob.", "loss"):
        table.add_column(column, justify="right" if column in ("move", "win prob.", "loss") else "left")
    for row in analysis.rows():
        table.add_row(str(row["index"]), Text(row["seat"]), row["played"], row["best"],
                      f"{row['win_probability']:.0%}", f"{row['loss']:.0%}" if row["loss"] > 0 else "")
    return table


def _check_output(path: Path | None, suffix: str, option: str) -> None:
    if path is None:
        return
    if path.exists() and path.is_dir():
        raise typer.BadParameter(f"{path} is a folder; give a {suffix} file", param_hint=option)
    if not path.parent.is_dir():
        raise typer.BadParameter(f"the folder {path.parent} does not exist", param_hint=option)


def _write_plot(analysis: GameAnalysis, path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure = analysis.plot()
    try:
        write_atomic(path, lambda temporary: figure.savefig(temporary, dpi=120, format="png"))
    finally:
        plt.close(figure)


def analyse(
    games_file: Annotated[Path, typer.Argument(
        metavar="FILE", show_default=False,
        help="A tournament's games.jsonl (`kingdomino tournament --out`) or a save file of the play app.")],
    game: Annotated[int, typer.Option(min=0, help="The game of a games.jsonl (its line, from 0); 0 for a save.")] = 0,
    agent: Annotated[str | None, typer.Option(
        metavar="SPEC", show_default=False,
        help=f"The advisor: {ADVISOR_SPECS}. Default: az (its shipped network) in Kingdomino where torch is "
             "installed, else mc (0.5 s per decision).")] = None,
    seconds: Annotated[float | None, typer.Option(
        metavar="SECONDS", show_default=False,
        help="Search time per decision, replacing the advisor's budget. Default: the advisor's budget (az: 200 "
             "simulations; mc: 0.5 s).")] = None,
    seed: Annotated[int, typer.Option(min=0, help="Seed of the advisor's search.")] = 0,
    out: Annotated[Path | None, typer.Option(
        metavar="FILE.json", show_default=False, help="Write the analysis as JSON here. Default: not written.")] = None,
    plot: Annotated[Path | None, typer.Option(
        metavar="FILE.png", show_default=False,
        help="Draw each seat's win probability by move into this PNG. Default: not drawn.")] = None,
    progress: Annotated[bool, typer.Option("--progress/--no-progress", metavar="",
                                           help="Show a progress bar.")] = True,
) -> None:
    """Judge every decision of a recorded game: the move played, the advisor's best move, the mover's estimated
    win probability before the move and the win probability the move lost."""
    if seconds is not None and not (math.isfinite(seconds) and 0 < seconds <= MAX_SECONDS):
        raise typer.BadParameter(f"give a positive number of seconds per decision, at most {MAX_SECONDS:g}, got "
                                 f"{seconds}",
                                 param_hint="'--seconds'")
    _check_output(out, ".json", "'--out'")
    _check_output(plot, ".png", "'--plot'")
    with Progress(TextColumn("[bold]analysing"), BarColumn(), MofNCompleteColumn(), TextColumn("decisions"),
                  TimeElapsedColumn(), console=console, disable=not progress, transient=True) as bar:
        task = bar.add_task("decisions", total=None)
        try:
            analysis = analyse_file(games_file, game, agent, seconds=seconds, seed=seed,
                                    progress=lambda done, total: bar.update(task, completed=done, total=total))
        except AnalysisInputError as err:
            raise typer.BadParameter(str(err), param_hint="FILE / '--game'") from None
        except AgentSpecError as err:
            raise typer.BadParameter(str(err), param_hint="'--agent'") from None
    console.print(_table(analysis))
    for mistake in analysis.mistakes(3):
        console.print(f"move {mistake.index} ({analysis.seat_name(mistake.player)}) lost {mistake.loss:.0%}: played "
                      f"{analysis.label(mistake.played)}, best {analysis.label(mistake.best)}", markup=False,
                      highlight=False)
    written = []
    try:
        if out is not None:
            written.append(write_text_atomic(out, json.dumps(analysis.to_json(), indent=1) + "\n"))
        if plot is not None:
            _write_plot(analysis, plot)
            written.append(plot)
    except OSError as err:
        console.print(f"[red]Could not write {escape(str(err.filename or 'the output'))}:[/red] "
                      f"{escape(str(err.strerror or err))}",
                      highlight=False)
        raise typer.Exit(1) from None
    if written:
        console.print("wrote " + ", ".join(str(p) for p in written), markup=False, highlight=False)
