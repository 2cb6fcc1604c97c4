"""`kingdomino compile`: compile and cache every numba kernel ahead of time (`tournament.precompile`)."""

from __future__ import annotations

import os
from typing import Annotated

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from tournament.precompile import AGENT_SPECS, items, precompile
from tournament.standard import VARIANTS

console = Console(emoji=False)


def _names(text: str | None, allowed: tuple[str, ...], what: str, option: str) -> tuple[str, ...] | None:
    """The comma-separated names of `text` (None: all), each checked against `allowed`."""
    if text is None:
        return None
    names = tuple(name.strip() for name in text.split(",") if name.strip())
    unknown = [name for name in names if name not in allowed]
    if unknown or not names:
        raise typer.BadParameter(f"unknown {what} {', '.join(unknown) or '(none given)'}; choose from "
                                 f"{', '.join(allowed)}", param_hint=option)
    return names


def compile_kernels(
    variants: Annotated[str | None, typer.Option(
        "--variants", metavar="NAMES", show_default="all",
        help=f"Comma-separated standard variants to compile for: {', '.join(VARIANTS)}.")] = None,
    agents: Annotated[str | None, typer.Option(
        "--agents", metavar="SPECS", show_default="all",
        help=f"Comma-separated agents whose kernels to compile: {', '.join(AGENT_SPECS)}.")] = None,
    progress: Annotated[bool, typer.Option("--progress/--no-progress", metavar="",
                                           help="Show a progress bar.")] = True,
) -> None:
    """Compile every numba kernel now and keep it in numba's cache, so that no later game waits for a compile.

    Plays one short game per standard variant with each built-in agent that runs compiled code. Run it once after
    installing (or in a container build); kernels already cached load in a fraction of a second. The cache sits
    next to the installed sources, or in NUMBA_CACHE_DIR when that is set.
    """
    todo = items(_names(variants, tuple(VARIANTS), "variant", "'--variants'"),
                 _names(agents, AGENT_SPECS, "agent", "'--agents'") or AGENT_SPECS)
    cache = os.environ.get("NUMBA_CACHE_DIR") or "next to the sources"
    total = compiled = 0.0
    with Progress(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  console=console, disable=not progress, transient=True) as bar:
        task = bar.add_task("compiling", total=len(todo))
        for done in precompile(todo, lambda item: bar.update(task, description=f"compiling {item}")):
            bar.advance(task)
            total += done.seconds
            compiled += done.compile_seconds
            what = (f"compiled in {done.compile_seconds:.1f} s" if done.compiles else "already cached")
            console.print(f"{done.item}: {what}", markup=False, highlight=False)
    console.print(f"{len(todo)} warm-up games in {total:.1f} s, {compiled:.1f} s of it compiling; the kernels are "
                  f"cached ({cache}).", markup=False, highlight=False)
