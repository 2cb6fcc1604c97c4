"""`kingdomino rate SPEC --variant V`: an agent's standard rating on a variant's fixed Elo scale (`tournament.rate`)."""

from __future__ import annotations

import json
from importlib import util
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn
from rich.table import Table
from rich.text import Text

from agents import AgentSpecError, check_supports
from kingdomino_env.compilation import watch_compiles
from tournament.rate import MODE_GAMES, deals_per_anchor, rate_spec, rating_config
from tournament.runner import check_workers
from tournament.standard import VARIANTS, UnknownVariantError, anchor_ratings, variant

console = Console(emoji=False)
#: The variants as `--help` lists them.
VARIANT_HELP = "; ".join(f"{v.name}: {v.description}" for v in VARIANTS.values())


def _check_out(out: Path | None) -> None:
    """Refuse an --out that exists, is a folder or sits in a missing folder: nothing a user saved is overwritten."""
    if out is None:
        return
    if out.is_dir():
        raise typer.BadParameter(f"{out} is a folder; give the path of a new .json file", param_hint="'--out'")
    if out.exists() or out.is_symlink():
        raise typer.BadParameter(f"{out} exists; rate refuses to overwrite a file: give a new path",
                                 param_hint="'--out'")
    if not out.parent.is_dir():
        raise typer.BadParameter(f"the folder {out.parent} does not exist; create it or give another path",
                                 param_hint="'--out'")


def _card_table(card: dict) -> Table:
    table = Table(title=Text(f"{card['spec']} on {card['variant']}: per anchor"))
    for column in ("anchor", "anchor rating", "games", "score rate (95% CI)", "mean margin"):
        table.add_column(column, justify="left" if column == "anchor" else "right")
    for row in card["anchors"]:
        low, high = row["score_rate_interval"]
        table.add_row(Text(row["anchor"]), f"{row['anchor_rating']:.0f}", str(row["games"]),
                      f"{row['score_rate']:.0%} ({low:.0%}–{high:.0%})", f"{row['mean_margin']:+.1f}")
    return table


def rate(
    spec: Annotated[str, typer.Argument(metavar="SPEC", show_default=False,
                                        help="The agent to rate: an agent spec (see `kingdomino agents`).")],
    variant_name: Annotated[str, typer.Option(
        "--variant", "-v", metavar="VARIANT", show_default=False,
        help=f"The standard variant (required). {VARIANT_HELP}")],
    quick: Annotated[bool, typer.Option(
        "--quick", metavar="", show_default="off",
        help=f"{MODE_GAMES['quick']} games against each anchor instead of {MODE_GAMES['full']} (whole deals: a deal "
             "is one game per seat).")] = False,
    workers: Annotated[int, typer.Option(help="Worker processes (results do not depend on it).")] = 1,
    ray: Annotated[bool, typer.Option(
        "--ray", metavar="", show_default="off",
        help="Play as Ray tasks (the scale extra; RAY_ADDRESS or Ray on this machine).")] = False,
    out: Annotated[Path | None, typer.Option(
        metavar="FILE.json", show_default="none: the card is only shown",
        help="Write the rating card here (a new file: an existing one is never overwritten).")] = None,
    progress: Annotated[bool, typer.Option("--progress/--no-progress", metavar="",
                                           help="Show a progress bar.")] = True,
) -> None:
    """Rate an agent on a standard variant's fixed Elo scale (Full Greedy = 1000).

    The agent plays the variant's standard deals against every anchor (random up to a compiled search at a fixed
    number of simulations), duplicate format with every seat, and is rated by maximum likelihood against the
    anchors' frozen ratings, with a 95% interval. The deals and the agents' seeds are fixed, so a deterministic
    agent gets the same card every time. See the leaderboard page of the documentation.
    """
    try:
        var = variant(variant_name)
    except UnknownVariantError as err:
        raise typer.BadParameter(str(err), param_hint="'--variant'") from None
    try:
        check_supports(spec, var.rules)
    except AgentSpecError as err:
        raise typer.BadParameter(f"{err} (variant {var.name})", param_hint="SPEC") from None
    try:
        check_workers(workers)
    except ValueError as err:
        raise typer.BadParameter(str(err), param_hint="'--workers'") from None
    if ray and util.find_spec("ray") is None:
        raise typer.BadParameter("Ray is not installed; install the scale extra: pip install -e '.[scale]'",
                                 param_hint="'--ray'")
    _check_out(out)
    try:
        anchor_ratings(var.name)
    except ValueError as err:
        raise typer.BadParameter(str(err), param_hint="'--variant'") from None
    mode = "quick" if quick else "full"
    try:
        config = rating_config(spec, var, deals_per_anchor(var, mode))
    except ValueError as err:
        raise typer.BadParameter(str(err), param_hint="SPEC") from None
    with Progress(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(), TextColumn("games"),
                  TimeElapsedColumn(), TimeRemainingColumn(), console=console, disable=not progress,
                  transient=False) as bar:
        task = bar.add_task(f"rating on {var.name}", total=config.total_games)
        with watch_compiles(lambda _: bar.update(task, description="compiling (first run only)"),
                            lambda: bar.update(task, description=f"rating on {var.name}")):
            try:
                card = rate_spec(spec, var, mode, workers=workers, ray=ray, progress=lambda n: bar.advance(task, n))
            except KeyboardInterrupt:
                console.print("Interrupted: no card was written (a rating needs every game).", markup=False,
                              highlight=False)
                raise typer.Exit(130) from None
    console.print(_card_table(card))
    low, high = card["interval"]
    spm = card["seconds_per_move"]
    pace = "" if spm is None else f", {spm * 1000:.3g} ms a move"
    forfeits = f", {card['forfeits']} games forfeited" if card["forfeits"] else ""
    console.print(f"{spec} on {var.name} ({mode}, {card['games']} games): rating {card['rating']:.0f} "
                  f"(95% {low:.0f} to {high:.0f}){pace}{forfeits}", markup=False, highlight=False)
    if out is not None:
        try:
            with out.open("x", encoding="utf-8") as f:
                f.write(json.dumps(card, indent=1) + "\n")
        except FileExistsError:
            console.print(f"[red]{escape(str(out))} appeared while rating; not overwritten.[/red] The card:",
                          highlight=False)
            console.print(json.dumps(card), markup=False, highlight=False)
            raise typer.Exit(2) from None
        except OSError as err:
            console.print(f"[red]Could not write {escape(str(out))}:[/red] {escape(str(err.strerror or err))}",
                          highlight=False)
            raise typer.Exit(1) from None
        console.print(f"wrote {out}", markup=False, highlight=False)
