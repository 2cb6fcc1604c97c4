"""Every option of `kingdomino` and of every script with a command line has a help line that shows its default
(or says what stands for it); `--help` itself reads as a flag."""

from __future__ import annotations

import argparse
import importlib
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from kingdomino_cli.main import app

ROOT = Path(__file__).resolve().parent.parent
#: The packages whose modules may be scripts with an argparse command line.
SCRIPT_PACKAGES = ("training", "benchmarks", "kingdomino_app", "tournament", "agents", "kingdomino_env")
#: Scripts that need an optional extra to import, and the module that extra provides.
NEEDS = {"training.rllib_selfplay": "ray.rllib"}
#: Text that marks a module as a script: it makes a parser, or builds one from a shared helper.
SCRIPT_MARKS = ("ArgumentParser(", "\ndef build_parser(")


def script_modules() -> list[str]:
    """Every module with an argparse command line: one that makes a parser or exposes `build_parser()` (each must
    expose it)."""
    return sorted(".".join(path.relative_to(ROOT).with_suffix("").parts)
                  for package in SCRIPT_PACKAGES for path in (ROOT / package).rglob("*.py")
                  if any(mark in path.read_text(encoding="utf-8") for mark in SCRIPT_MARKS))


def test_the_scripts_are_found():
    assert {"training.train_ppo", "training.train_az", "training.evaluate", "training.az_ladder", "training.export",
            "training.rllib_selfplay", "benchmarks.anchors", "benchmarks.az_speed", "benchmarks.az_targets",
            "benchmarks.ray_scaling", "benchmarks.throughput"} <= set(script_modules())


def missing_help(parser: argparse.ArgumentParser) -> list[str]:
    """The arguments of `parser` without a help line, or (optional ones) without a default shown in it."""
    if not parser.description:
        return ["the parser has no description"]
    formatter = parser._get_formatter()
    bad = []
    for action in parser._actions:
        if isinstance(action, argparse._HelpAction) or action.help == argparse.SUPPRESS:
            continue  # -h, and internal arguments hidden from the help
        name = "/".join(action.option_strings) or action.dest
        if not action.help:
            bad.append(f"{name}: no help")
            continue
        text = formatter._expand_help(action)
        required = action.required or (not action.option_strings and action.nargs not in ("?", "*"))
        if not required and ("default" not in text.lower() or "(default: None)" in text):
            bad.append(f"{name}: no default shown in {text!r}")
    return bad


@pytest.mark.parametrize("module", script_modules())
def test_every_script_option_has_help_and_shows_its_default(module):
    if module in NEEDS:
        pytest.importorskip(NEEDS[module])
    parser = importlib.import_module(module).build_parser()
    assert missing_help(parser) == []


def test_the_check_catches_an_option_without_help_or_default():
    parser = argparse.ArgumentParser(description="a script")
    parser.add_argument("--quiet", action="store_true", help="say less")
    parser.add_argument("--count", type=int, default=3)
    parser.add_argument("--name", help="a name (default: %(default)s)")
    parser.add_argument("path", help="where")
    assert missing_help(parser) == ["--quiet: no default shown in 'say less'", "--count: no help",
                                    "--name: no default shown in 'a name (default: None)'"]


def typer_missing_help(command: typer.core.TyperCommand | typer.core.TyperGroup, ctx: typer.Context) -> list[str]:
    """The options and arguments of `command` (and of its subcommands) without help, or (options) without a default
    shown; eager options (`--version`) are actions, not settings, and have none."""
    bad = []
    for param in command.params:
        name = "/".join(param.opts)
        if not param.help:
            bad.append(f"{ctx.info_name} {name}: no help")
        elif isinstance(param, typer.core.TyperOption) and not param.is_eager and not param.required:
            text = param.get_help_record(ctx)[1]
            if "default" not in text.lower():
                bad.append(f"{ctx.info_name} {name}: no default shown in {text!r}")
    for name, sub in getattr(command, "commands", {}).items():
        bad += typer_missing_help(sub, typer.Context(sub, parent=ctx, info_name=name))
    return bad


def test_every_kingdomino_option_has_help_and_shows_its_default():
    command = typer.main.get_command(app)
    assert set(command.commands) >= {"tournament", "agents", "replay", "play"}
    assert typer_missing_help(command, typer.Context(command, info_name="kingdomino")) == []


@pytest.mark.parametrize("command", [[], ["tournament"], ["agents"], ["replay"], ["play"]])
def test_help_shows_help_as_a_flag(command):
    shown = CliRunner(env={"COLUMNS": "200"}).invoke(app, [*command, "--help"])
    assert shown.exit_code == 0
    line = next(text for text in shown.output.splitlines() if "--help" in text)
    assert line.split("--help", 1)[1].split() == ["Show", "this", "message", "and", "exit.", "│"]
