"""`kingdomino ... --help` reads whole in an 80-column terminal: no option text or default cut with an ellipsis,
every word of every help line shown whole, no line past the width; narrower, long words fold but nothing is cut."""

from __future__ import annotations

import pytest
import typer
from typer.testing import CliRunner

from kingdomino_cli.main import DEFAULT_AGENTS, DEFAULT_QUEENDOMINO_AGENTS, app


def command_paths() -> list[list[str]]:
    """The command line of every command of the app, the group itself first (`[]`), subcommands at any depth."""
    paths: list[list[str]] = []

    def walk(command, path: list[str]) -> None:
        paths.append(path)
        for name, sub in getattr(command, "commands", {}).items():
            walk(sub, [*path, name])

    walk(typer.main.get_command(app), [])
    return paths


def help_records(path: list[str]) -> list[tuple[str, str]]:
    """The (names, help) records of the options and arguments of the command at `path`."""
    command = typer.main.get_command(app)
    ctx = typer.Context(command, info_name="kingdomino")
    for name in path:
        command = command.commands[name]
        ctx = typer.Context(command, parent=ctx, info_name=name)
    return [record for param in command.get_params(ctx) if (record := param.get_help_record(ctx)) is not None]


def shown_help(path: list[str], columns: int) -> str:
    result = CliRunner(env={"COLUMNS": str(columns), "TERMINAL_WIDTH": None}).invoke(app, [*path, "--help"])
    assert result.exit_code == 0, result.output
    return result.output


def test_every_command_is_checked():
    assert {"tournament", "agents", "replay", "analyse", "rate", "play"} <= {p[-1] for p in command_paths() if p}


@pytest.mark.parametrize("path", command_paths(), ids=lambda p: " ".join(p) or "kingdomino")
def test_help_at_80_columns_is_whole(path):
    output = shown_help(path, 80)
    lines = output.splitlines()
    assert all(len(line) <= 80 for line in lines), [line for line in lines if len(line) > 80]
    assert "…" not in output
    # Click's usage line writes `[ARGS]...` for arguments that repeat; anywhere else "..." would be a cut.
    assert not [line for line in lines if "..." in line and not line.strip().startswith("Usage:")]
    words = {word.lower() for line in lines for word in line.replace("│", " ").split()}  # arguments: GAMES_FILE
    for names, text in help_records(path):
        missing = [word for word in f"{names} {text}".split() if word.lower() not in words]
        assert not missing, f"{names}: {missing} not shown whole"


def test_the_tournament_default_agent_lists_appear_in_full():
    output = shown_help(["tournament"], 80)
    assert DEFAULT_AGENTS in output and DEFAULT_QUEENDOMINO_AGENTS in output


def test_narrower_than_its_longest_word_help_folds_and_cuts_nothing():
    output = shown_help(["analyse"], 40)
    assert "…" not in output and "..." not in output
    assert all(len(line) <= 40 for line in output.splitlines())
    joined = "".join(line.replace("│", "").strip() for line in output.splitlines())
    assert "csearch-margin[:BUDGET[:PATH]]" in joined, "a word longer than its column is folded, not cut"
