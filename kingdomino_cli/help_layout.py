"""The `--help` of every `kingdomino` command, laid out to be read whole at any terminal width.

Typer's rich help puts each option in six columns side by side (names, short names, negative names, type, help),
which leaves the help about 20 characters at 80 columns and cuts any longer word (a default agent list, a spec
grammar) with an ellipsis. Here each option is two columns: its names and value, then its help with its default,
which takes the rest of the line; paragraphs are reflowed to the width, and a word longer than its column is
folded onto the next line, never cut.

Commands, contexts and parameters are read through the click API they share in every typer version (typer may
carry its own copy of click), so they are typed `Any` here.
"""

from __future__ import annotations

import inspect
from typing import Any

from rich import box
from rich.console import Console
from rich.padding import Padding
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

#: The names column takes at most this share of the width (it wraps at spaces beyond it).
NAMES_SHARE = 3
#: ... but never less than this many characters.
MIN_NAMES_WIDTH = 16


def paragraphs(text: str) -> list[str]:
    """The paragraphs of a docstring or help text (split at blank lines), each on one line, for the console to wrap
    at its width."""
    return [" ".join(block.split()) for block in inspect.cleandoc(text).split("\n\n") if block.strip()]


def is_argument(param: Any) -> bool:
    """Whether a click parameter is a positional argument (not an option)."""
    return getattr(param, "param_type_name", "") == "argument"


def _described(help_text: str) -> Text:
    """A help text, its trailing "[default: ...]" / "[required]" dimmed; words too long for the column fold."""
    text = Text(overflow="fold")
    body, mark, extra = help_text.rpartition("  [")
    if mark and extra.endswith("]"):
        text.append(body)
        text.append(" [" + extra, style="dim")
    else:
        text.append(help_text)
    return text


def _table(width: int) -> Table:
    """Two columns: names (at most a third of the width) and the help, which takes the rest."""
    table = Table(show_header=False, box=None, expand=True, padding=(0, 1), pad_edge=False)
    table.add_column(style="bold cyan", overflow="fold", max_width=max(MIN_NAMES_WIDTH, width // NAMES_SHARE))
    table.add_column(ratio=1, overflow="fold")
    return table


def _params_panel(title: str, params: list[Any], ctx: Any, width: int) -> Panel | None:
    """The panel of `params` (their click help records: names with value, help with default), None if empty."""
    table = _table(width)
    for param in params:
        record = param.get_help_record(ctx)
        if record is None:  # a hidden option
            continue
        names, help_text = record
        if is_argument(param):  # an argument's name as the usage line writes it: GAMES_FILE
            name, _, value = names.partition(" ")
            names = f"{name.upper()} {value}".strip()
        table.add_row(Text(names, overflow="fold"), _described(help_text))
    if not table.row_count:
        return None
    return Panel(table, title=title, title_align="left", border_style="dim", box=box.ROUNDED)


def _commands_panel(group: Any, ctx: Any, width: int) -> Panel | None:
    """The subcommands of `group` with the first paragraph of each one's help."""
    table = _table(width)
    for name in group.list_commands(ctx):
        command = group.get_command(ctx, name)
        if command is None or command.hidden:
            continue
        summary = paragraphs(command.short_help or command.help or "")
        table.add_row(name, Text(summary[0] if summary else "", overflow="fold"))
    if not table.row_count:
        return None
    return Panel(table, title="Commands", title_align="left", border_style="dim", box=box.ROUNDED)


def print_help(command: Any, ctx: Any) -> None:
    """Print `command`'s help: usage, description, arguments, options and (a group) commands, every word whole."""
    console = Console(highlight=False, emoji=False)
    width = console.width
    console.print(Padding(Text(command.get_usage(ctx), style="bold"), 1))
    for k, paragraph in enumerate(paragraphs(command.help or "")):
        console.print(Padding(Text(paragraph, style="bold" if k == 0 else "", overflow="fold"), (0, 1, 1, 1)))
    params = command.get_params(ctx)
    panels = [_params_panel("Arguments", [p for p in params if is_argument(p)], ctx, width),
              _params_panel("Options", [p for p in params if not is_argument(p)], ctx, width)]
    if hasattr(command, "list_commands"):
        panels.append(_commands_panel(command, ctx, width))
    for panel in panels:
        if panel is not None:
            console.print(panel)
    for paragraph in paragraphs(command.epilog or ""):
        console.print(Padding(Text(paragraph, overflow="fold"), (1, 1, 0, 1)))


__all__ = ["is_argument", "paragraphs", "print_help"]
