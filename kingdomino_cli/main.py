"""The `kingdomino` command line: tournaments between agents, agent specs, game replays and the play app.

Every argument is checked before any game is played or window opened: a bad one exits with status 2 and a message
that says what is allowed.
"""

from __future__ import annotations

import functools
import inspect
import json
import math
import os
import signal
import stat
from collections.abc import Callable
from importlib import metadata, util
from pathlib import Path
from typing import Annotated, Any, get_origin

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn
from rich.table import Table
from rich.text import Text
from typer.core import TyperCommand, TyperGroup

import agents
import kingdomino_env
from agents.budget import BUDGET_GRAMMAR
from agents.external import ENTRY_POINT_GROUP, EXTERNAL_VARIANTS, entry_point_agents
from agents.registry import AZ_GRAMMAR
from kingdomino_cli.analyse import analyse
from kingdomino_cli.help_layout import print_help
from kingdomino_cli.precompile import compile_kernels
from kingdomino_cli.rate import rate
from kingdomino_env.compilation import watch_compiles
from kingdomino_env.games.kingdomino.quests import N_QUESTS
from kingdomino_env.record import replay
from kingdomino_env.rendering.text import ansi
from kingdomino_env.rules import GAMES, RuleOption, Rules
from tournament import TournamentConfig, TournamentResult, check_out_dir, check_workers, run_tournament
from tournament.config import MAX_MOVE_TIMEOUT, OUTSIDE_MOVE_TIMEOUT
from tournament.journal import Journal, JournalError
from tournament.outputs import OUTPUT_NAMES, ranked_names, shown
from tournament.runner import TournamentInterrupted

#: The default tournament: the demo of the set-up commands, about half a minute on a 2-core machine.
DEFAULT_AGENTS = "random,gprd,greedy,heuristic,mc:p150"
#: The default Queendomino (and Royal Wedding) tournament: the same without the heuristic (it plays Kingdomino only).
DEFAULT_QUEENDOMINO_AGENTS = "random,gprd,greedy,mc:p150"
#: Each game's variant flags, as a refusal of another game's flag names them.
VARIANT_FLAGS = {"queendomino": "--players (2-4) and --buildings PATH",
                 "royal_wedding": "--players (3-8), --teams (6 or 8 players) and --buildings PATH"}
#: The refusal of a flag given without the game that takes it, for the flags of one other game.
GAME_FLAG_REFUSALS = {"teams": "--teams is a Royal Wedding option (6 or 8 players); add --game royal_wedding",
                      "buildings": "--buildings is a Queendomino option (the building deck); add --game queendomino"}
#: Where a refused variant points: the flags that set it.
RULES_HINT = {"kingdomino": "'--players' / variant flags"}
DEFAULT_GAMES = 200
#: What the progress bar reads while numba compiles a kernel (a fresh install's first games; cached after).
COMPILING = "compiling the rules and agents (first run only)"
#: The slowest pace `play` accepts, in seconds per agent action.
MAX_PACE = 60.0
#: The help of the whole program (and of `kingdomino --help`).
HELP = ("Kingdomino: play in a window (play), tournaments between agents, agent specs, game replays and game "
        "analysis.")


class _HelpFlag:
    """Shows `--help` as the flag it is, and lays the help out to be read whole at any width (`help_layout`).
    Typer's help prints an option's metavar, else its type, for every option, flags included; the `--help` option
    typer adds has no metavar, so it read `--help <bool>`."""

    def get_help_option(self, ctx: typer.Context) -> Any:
        option = super().get_help_option(ctx)  # type: ignore[misc]
        if option is not None:
            option.metavar = ""
        return option

    def format_help(self, ctx: typer.Context, formatter: Any) -> None:
        print_help(self, ctx)


class _Group(_HelpFlag, TyperGroup):
    """The `kingdomino` command group, with `--help` shown as a flag."""


class _Command(_HelpFlag, TyperCommand):
    """A `kingdomino` command, with `--help` shown as a flag."""


app = typer.Typer(cls=_Group, help=HELP, add_completion=False, no_args_is_help=True)
console = Console(emoji=False)


def _flag(name: str, help: str, show_default: bool | str = "off") -> Any:
    """A boolean option that takes no value (shown in help without a type), with its default shown: "off" in words
    by default (typer shows none for a flag that is off), True for an --on/--off pair (typer names the default)."""
    return typer.Option(name, help=help, metavar="", show_default=show_default)


#: The command line's form of the `Rules` options whose flag is not the generic one (a bool is a flag, another
#: type an option taking that value, a tuple a comma-separated list): typer.Option settings, and "type" and
#: "convert" for a flag whose value is not the option's.
FLAG_FORMS: dict[str, dict[str, Any]] = {
    "players": {"min": 2, "max": 8},
    "random_quests": {"min": 0, "max": N_QUESTS},
    "buildings": {"type": Path | None, "show_default": "the shipped deck",
                  "convert": lambda path: None if path is None else str(path.resolve())},
}


def _split(text: str) -> tuple[str, ...]:
    """The names of a comma-separated list, blanks dropped."""
    return tuple(name.strip() for name in text.split(",") if name.strip())


def rule_flag(option: RuleOption, extra_help: str = "") -> tuple[inspect.Parameter, Callable[[Any], Any]]:
    """The command parameter of a `Rules` option (its flag `--name-with-dashes`, its help text) and the function
    that turns the flag's value into the option's."""
    form = dict(FLAG_FORMS.get(option.name, {}))
    convert = form.pop("convert", lambda value: value)
    kind = form.pop("type", option.type)
    name = "--" + option.name.replace("_", "-")
    text = " ".join(filter(None, (option.help, extra_help)))
    default = option.default
    if kind is bool:
        info = _flag(f"{name}/--no-{name[2:]}", text, True) if default else _flag(name, text)
    elif get_origin(kind) is tuple:
        kind, default, convert = str, ",".join(default), _split
        info = typer.Option(name, help=f"Comma-separated {text[:1].lower()}{text[1:]}",
                            **{"show_default": default or "none", **form})
    else:
        info = typer.Option(name, help=text, **form)
    parameter = inspect.Parameter(option.name, inspect.Parameter.KEYWORD_ONLY, default=default,
                                  annotation=Annotated[kind, info])
    return parameter, convert


def rule_flags(skip: tuple[str, ...] = (), extra_help: dict[str, str] | None = None
               ) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Give a command one flag per `Rules` option (but those in `skip`), built from `Rules.options()` with their
    help text (plus `extra_help`), in the place of its `options` parameter; the command receives them as that one
    dict of option values. So an option added to `Rules` is a flag of every command that sets the variant."""
    def decorate(command: Callable[..., Any]) -> Callable[..., Any]:
        flags = {o.name: rule_flag(o, (extra_help or {}).get(o.name, "")) for o in Rules.options()
                 if o.name not in skip}
        own = inspect.signature(command, eval_str=True)
        parameters = []
        for p in own.parameters.values():
            if p.name == "options":
                parameters += [parameter for parameter, _ in flags.values()]
            else:
                parameters.append(p.replace(kind=inspect.Parameter.KEYWORD_ONLY))

        @functools.wraps(command)
        def run(**kwargs: Any) -> Any:
            options = {name: convert(kwargs.pop(name)) for name, (_, convert) in flags.items()}
            return command(**kwargs, options=options)

        run.__signature__ = own.replace(parameters=parameters)  # type: ignore[attr-defined]
        return run
    return decorate


def version() -> str:
    """The installed package's version (the source's, when run from a checkout that is not installed)."""
    try:
        return metadata.version("kingdomino-rl")
    except metadata.PackageNotFoundError:
        return kingdomino_env.__version__


def _show_version(value: bool) -> None:
    if value:
        console.print(f"kingdomino {version()}", highlight=False)
        raise typer.Exit()


@app.callback(help=HELP)
def main(
    show_version: Annotated[bool, typer.Option(
        "--version", help="Show the version and exit.", callback=_show_version, is_eager=True, metavar="")] = False,
) -> None:
    """The options of the whole program (its help is `HELP`)."""


def _results_table(result: TournamentResult) -> Table:
    cfg = result.config
    unit = "matches" if cfg.dynasty else "games"
    played = f"{len(result.matches)} dynasty matches ({len(result.games)} games)" if cfg.dynasty else \
        f"{len(result.games)} games"
    game = f"{cfg.rules.title}, " if cfg.rules.title != Rules().title else ""  # the default game goes unnamed
    teams = f" in {cfg.rules.kingdoms} teams" if cfg.rules.shared_kingdoms else ""
    partial = "" if result.complete else f" (interrupted: {len(result.games)} of {cfg.total_games} games)"
    table = Table(title=f"{played}, {game}{cfg.players} players{teams}, seed {cfg.seed}{partial}")
    forfeits = any(s["forfeits"] for s in result.agents.values())
    columns = ("agent", unit, "win rate (95% CI)", "score", "margin", "rating", "ms/move") + \
        (("forfeits",) if forfeits else ())
    for column in columns:
        table.add_column(column, justify="left" if column == "agent" else "right",
                         overflow="fold" if column == "agent" else "ellipsis")
    for name in ranked_names(result):
        s = result.agents[name]
        low, high = s["win_rate_ci"]
        per_move = s["seconds_per_move"]
        table.add_row(Text(name), f"{s[unit]:g}", f"{shown(s['win_rate'], '.0%')} ({low:.0%}–{high:.0%})",
                      shown(s["mean_score"], ".1f"), shown(s["mean_margin"], "+.1f"),
                      f"{s['rating']['mu']:.1f}±{s['rating']['sigma']:.1f}",
                      shown(None if per_move is None else 1000 * per_move, ".3g"),
                      *((str(s["forfeits"]),) if forfeits else ()))
    return table


def _pairings_table(result: TournamentResult) -> Table:
    unit = "matches" if result.config.dynasty else "games"
    table = Table(title="Head to head")
    for column in ("pairing", unit, "first wins (95% CI)", "scores", "margin"):
        table.add_column(column, justify="left" if column == "pairing" else "right",
                         overflow="fold" if column == "pairing" else "ellipsis")
    for p in result.pairings:
        low, high = p["a_win_rate_ci"]
        table.add_row(Text(" vs ".join(p["agents"])), str(p[unit]), f"{p['a_win_rate']:.0%} ({low:.0%}–{high:.0%})",
                      f"{p['a_mean_score']:.1f}–{p['b_mean_score']:.1f}", f"{p['a_mean_margin']:+.1f}")
    return table


@app.command(cls=_Command)
@rule_flags(extra_help={"teams": "Each agent plays a whole team, openskill rates teams, statistics are per seat."})
def tournament(
    ctx: typer.Context,
    agent_list: Annotated[str | None, typer.Option(
        "--agents", "-a", show_default=False,
        help="Comma-separated agent specs (NAME=SPEC to rename; MODULE:ATTR or PATH.py:ATTR for your own agent); "
             f"see `kingdomino agents`. Default: {DEFAULT_AGENTS} (Queendomino, the Royal Wedding: "
             f"{DEFAULT_QUEENDOMINO_AGENTS}).",
    )] = None,
    options: dict[str, Any] | None = None,
    games: Annotated[int, typer.Option(
        min=1, help="Games to play at least, rounded up to whole deals and to a complete schedule (every agent "
                    "plays every seat and meets every other one; a line says so when it rounds); with --dynasty, "
                    "matches.")] = DEFAULT_GAMES,
    dynasty: Annotated[bool, _flag(
        "--dynasty", "Play matches of 3 games (same seats, 3 deals; totals decide) and rate by match.")] = False,
    workers: Annotated[int, typer.Option(help="Worker processes (results do not depend on it).")] = 1,
    ray: Annotated[bool, _flag(
        "--ray", "Play the work units as Ray tasks (the scale extra): on the cluster RAY_ADDRESS names, else on a "
        "Ray instance on this machine; --workers is then unused. Results do not depend on it.")] = False,
    ray_address: Annotated[str | None, typer.Option(
        metavar="ADDRESS", show_default="RAY_ADDRESS, else Ray on this machine",
        help="With Ray, the cluster to run on: ray://HOST:10001 (Ray Client) or HOST:6379 (implies --ray).")] = None,
    seed: Annotated[int, typer.Option(help="Seed of the deals and the agents, 0 to 2**63 - 1.")] = 0,
    out: Annotated[Path | None, typer.Option(
        show_default="none: results are only shown",
        help="A new folder (or one without a tournament) for results.json, results.csv, results.md, ratings.png "
             "and games.jsonl (and matches.jsonl with --dynasty); games are written as they finish, so an "
             "interrupted tournament can be resumed.")] = None,
    move_timeout: Annotated[float | None, typer.Option(
        metavar="SECONDS", show_default=f"none; {OUTSIDE_MOVE_TIMEOUT:g} s for outside agents",
        help=f"Seconds each decision may take, above 0, at most {MAX_MOVE_TIMEOUT:g}: every agent then plays in a "
             "process of its own, and a slower decision forfeits the game.")] = None,
    resume: Annotated[Path | None, typer.Option(
        metavar="DIR", show_default="none: a new tournament",
        help="Resume the interrupted tournament whose --out folder is DIR: play only its missing games (its "
             "agents, variant, games and seed are read from DIR).")] = None,
    progress: Annotated[bool, _flag("--progress/--no-progress", "Show a progress bar.", True)] = True,
) -> None:
    """Play a duplicate-format tournament: win rates, scores, margins, ratings and time per move.

    Each deal is played in every seat permutation of its table. With --dynasty, each of those games becomes a
    match of three games (three deals, same seats), ranked by total score, then summed largest territories, then
    summed crowns, and statistics and ratings are per match.

    Tables: every combination of agents; with fewer agents than seats, each agent against copies of each other one.

    --game queendomino plays Queendomino (--players 2-4, --buildings PATH; no Kingdomino variant flag).
    --game royal_wedding plays the Royal Wedding (--players 3-8, --teams with 6 or 8, --buildings PATH).

    An agent that raises, returns an illegal action, runs out of time or whose process dies forfeits that game:
    it ranks last there, and the game ends. Ctrl-C stops at once, keeping every finished game (with --out).
    """
    if move_timeout is not None and not (math.isfinite(move_timeout) and 0 < move_timeout <= MAX_MOVE_TIMEOUT):
        raise typer.BadParameter(f"give a number of seconds above 0 and at most {MAX_MOVE_TIMEOUT:g}, got "
                                 f"{move_timeout:g}", param_hint="'--move-timeout'")
    if resume is not None:
        config = _resumed_config(ctx, resume, out, options or {})
        out = resume
    else:
        rules = _tournament_rules(options or {})
        if agent_list is None:
            agent_list = DEFAULT_QUEENDOMINO_AGENTS if rules.has_buildings else DEFAULT_AGENTS
        config = _tournament_config(agent_list, rules, games, seed, dynasty, move_timeout)
    try:
        check_workers(workers)
    except ValueError as err:
        raise typer.BadParameter(str(err), param_hint="'--workers'") from None
    if (ray or ray_address) and util.find_spec("ray") is None:
        raise typer.BadParameter("Ray is not installed; install the scale extra: pip install -e '.[scale]'",
                                 param_hint="'--ray'")
    if out is not None and resume is None:
        try:
            out = check_out_dir(out)
        except ValueError as err:
            raise typer.BadParameter(str(err), param_hint="'--out'") from None
        if Journal.holds_tournament(out):
            raise typer.BadParameter(f"{out} holds a tournament already (never overwritten): resume it with "
                                     f"--resume {out}, or give another folder", param_hint="'--out'")
    if config.rounding:
        console.print(_rounding_line(config), highlight=False)
    result = _play_tournament(config, workers, ray_address or ray, out, resume is not None, progress)
    console.print(_results_table(result))
    console.print(_pairings_table(result))
    console.print(f"{len(result.games)} games in {result.seconds:.1f} s")
    if out is not None:
        written = [str(out / name) for name in OUTPUT_NAMES if (out / name).is_file()]
        console.print("wrote " + ", ".join(written), markup=False, highlight=False)
    if not result.complete:
        console.print(f"Interrupted after {len(result.games)} of {config.total_games} games."
                      + (f" Resume with: kingdomino tournament --resume {out}" if out is not None else ""),
                      markup=False, highlight=False)
        raise typer.Exit(130)


def _exit_now(signum: int, frame: Any) -> None:
    """A second interrupt: end at once (workers and agent processes end with this process; finished games are on
    disk already)."""
    os._exit(130)


def _first_interrupt(signum: int, frame: Any) -> None:
    """The first Ctrl-C (or SIGTERM): stop the tournament; a second one ends the process at once."""
    signal.signal(signal.SIGINT, _exit_now)
    signal.signal(signal.SIGTERM, _exit_now)
    raise KeyboardInterrupt


def _play_tournament(config: TournamentConfig, workers: int, ray: bool | str, out: Path | None, resume: bool,
                     progress: bool) -> TournamentResult:
    """Play with a progress bar; an interrupt gives the results of the finished games (`complete` False)."""
    signals = [s for s in (signal.SIGINT, signal.SIGTERM) if signal.getsignal(s) is not signal.SIG_IGN]
    handlers = {s: signal.signal(s, _first_interrupt) for s in signals}  # a signal ignored by the caller stays so
    try:
        with Progress(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(), TextColumn("games"),
                      TimeElapsedColumn(), TimeRemainingColumn(), console=console, disable=not progress,
                      transient=False) as bar:
            task = bar.add_task("tournament", total=config.total_games)
            with watch_compiles(lambda _: bar.update(task, description=COMPILING),
                                lambda: bar.update(task, description="tournament")):
                return run_tournament(config, workers=workers, progress=lambda n: bar.advance(task, n), ray=ray,
                                      out_dir=out, resume=resume)
    except TournamentInterrupted as stop:
        return stop.result
    except (OSError, JournalError) as err:
        console.print(f"[red]Could not write the results to {escape(str(out))}:[/red] {escape(str(err))}",
                      highlight=False)
        raise typer.Exit(1) from None
    finally:
        for number, handler in handlers.items():
            signal.signal(number, handler)


#: The `tournament` options that make its config, and the config's value each gives (with --resume they must be
#: left out, or equal the stored tournament's).
_CONFIG_OPTIONS: dict[str, Callable[[TournamentConfig], Any]] = {
    "agent_list": lambda c: ",".join(c.agents), "games": lambda c: c.games, "seed": lambda c: c.seed,
    "dynasty": lambda c: c.dynasty, "move_timeout": lambda c: c.move_timeout,
}


def _resumed_config(ctx: typer.Context, folder: Path, out: Path | None, options: dict[str, Any]) -> TournamentConfig:
    """The config stored in a tournament folder; an option given beside --resume must agree with it."""
    try:
        config = Journal.open(folder).config  # its files checked before any game
    except JournalError as err:
        raise typer.BadParameter(str(err), param_hint="'--resume'") from None
    if out is not None and out.expanduser().resolve() != folder.expanduser().resolve():
        raise typer.BadParameter(f"--resume writes into {folder}; leave out --out", param_hint="'--out'")
    given = {name for name in (*_CONFIG_OPTIONS, *options)
             if getattr(ctx.get_parameter_source(name), "name", None) == "COMMANDLINE"}
    differ = []
    for name in sorted(given):
        value = options[name] if name in options else ctx.params[name]
        theirs = _CONFIG_OPTIONS[name](config) if name in _CONFIG_OPTIONS else getattr(config.rules, name)
        if name == "agent_list":
            value = ",".join(s.strip() for s in str(value).split(","))
        if value != theirs:
            differ.append(f"--{name.replace('_', '-').replace('agent-list', 'agents')} {value} (the tournament in "
                          f"{folder} has {theirs})")
    if differ:
        raise typer.BadParameter("the tournament to resume is stored in its folder; leave out options that "
                                 f"differ: {'; '.join(differ)}", param_hint="'--resume'")
    return config


def _rounding_line(config: TournamentConfig) -> str:
    """The line that says why a tournament plays more games (matches) than `--games` asked for."""
    if config.dynasty:
        return (f"Asked for {config.games} matches, playing {config.total_matches} ({config.total_games} games) "
                f"because {config.rounding}.")
    return f"Asked for {config.games} games, playing {config.total_games} because {config.rounding}."


def _tournament_rules(options: dict[str, Any]) -> Rules:
    """The checked variant of the `tournament` options (BadParameter naming the option at fault)."""
    game = options.get("game", Rules().game)
    if game not in GAMES:
        raise typer.BadParameter(f"unknown game {game!r}; allowed: {', '.join(GAMES)}", param_hint="'--game'")
    refused = [o.name for o in Rules.options() if o.name in options and options[o.name] != o.default
               and game not in o.games]
    for name, message in GAME_FLAG_REFUSALS.items():
        if name in refused:
            raise typer.BadParameter(message, param_hint=f"'--{name}'")
    if refused:
        flags = ", ".join("--" + name.replace("_", "-") for name in refused)
        title = Rules(players=3, game=game).title_in_text  # every game takes 3 players
        raise typer.BadParameter(f"{flags}: Kingdomino option(s), not in {title}; with --game {game} the variant "
                                 f"options are {VARIANT_FLAGS[game]}", param_hint="'--game'")
    try:
        return Rules.make(**options)
    except ValueError as err:
        hint = "'--buildings'" if options.get("buildings") else RULES_HINT.get(game, "'--players'")
        raise typer.BadParameter(str(err), param_hint=hint) from None


def _tournament_config(agent_list: str, rules: Rules, games: int, seed: int, dynasty: bool,
                       move_timeout: float | None = None) -> TournamentConfig:
    """The checked config of the `tournament` options (BadParameter naming the option at fault)."""
    specs = tuple(s.strip() for s in agent_list.split(","))
    if specs == ("",):
        specs = ()
    try:
        return TournamentConfig(agents=specs, rules=rules, games=games, seed=seed, dynasty=dynasty,
                                move_timeout=move_timeout)
    except ValueError as err:
        message = str(err)
        hint = next((f"'--{name}'" for name in ("games", "seed") if message.startswith(f"{name} ")), "'--agents'")
        raise typer.BadParameter(message, param_hint=hint) from None


def _plays(spec: str) -> str:
    """The variants the agents of a spec pattern play, for `kingdomino agents`."""
    if spec == "ppo:PATH":
        return "the variant it was trained for (its observation and action sizes)"
    if agents.is_external(spec):
        return EXTERNAL_VARIANTS
    try:
        return agents.supported_variants(spec.split("[", 1)[0])
    except agents.AgentSpecError as err:
        return f"nothing here: {err}"


@app.command("agents", cls=_Command)
def list_agents() -> None:
    """List the agent specs that `--agents` and `agents.load` accept, and the agents installed packages add."""
    table = Table(title="Agent specs")
    table.add_column("spec")
    table.add_column("agent")
    table.add_column("plays")
    for spec, what in agents.SPECS.items():
        table.add_row(spec, what, _plays(spec))
    console.print(table)
    console.print("BUDGET: " + BUDGET_GRAMMAR)
    console.print("SEARCH: " + AZ_GRAMMAR)
    installed = entry_point_agents()
    if not installed:
        console.print(f"No installed package adds agents (entry point group {ENTRY_POINT_GROUP}).", highlight=False)
        return
    plugins = Table(title=f"Agents of installed packages (entry point group {ENTRY_POINT_GROUP})")
    for column in ("spec", "object", "package", "version"):
        plugins.add_column(column)
    for entry in installed:
        spec = f"{entry.name}[:ARG]" if agents.is_external(entry.name) else f"{entry.name} (hidden by the built-in)"
        plugins.add_row(Text(spec), Text(entry.value), Text(entry.package), Text(entry.version))
    console.print(plugins)


def _read_game_line(games_file: Path, game: int) -> str:
    """Line `game` of `games_file`, which must be a regular file of UTF-8 text (BadParameter otherwise)."""
    try:
        mode = games_file.stat().st_mode
    except OSError as err:
        raise typer.BadParameter(f"cannot read {games_file}: {err.strerror or err}", param_hint="GAMES_FILE") from None
    if not stat.S_ISREG(mode):
        raise typer.BadParameter(f"{games_file} is not a regular file; give a games.jsonl written by "
                                 "`kingdomino tournament --out`", param_hint="GAMES_FILE")
    count = 0
    try:
        with games_file.open("rb") as f:
            for count, raw in enumerate(f, start=1):
                if count - 1 == game:
                    return raw.decode("utf-8")
    except UnicodeDecodeError:
        raise typer.BadParameter(f"line {game} of {games_file} is not text (UTF-8); give a games.jsonl written by "
                                 "`kingdomino tournament --out`", param_hint="GAMES_FILE") from None
    except OSError as err:
        raise typer.BadParameter(f"cannot read {games_file}: {err.strerror or err}", param_hint="GAMES_FILE") from None
    held = f"has {count} game{'s' if count != 1 else ''} (0 to {count - 1})" if count else "has no games"
    raise typer.BadParameter(f"{games_file} has no game {game}: it {held}", param_hint="'--game'")


def _parse_game(line: str, where: str) -> tuple[Any, list[str] | None]:
    """The final state of a games.jsonl line and its seat names (None if the line names none)."""
    def bad(reason: str) -> typer.BadParameter:
        return typer.BadParameter(f"{where} is not a game: {reason}", param_hint="GAMES_FILE")

    try:
        entry = json.loads(line)
    except (json.JSONDecodeError, RecursionError) as err:
        raise bad(f"not JSON ({err})") from None
    if not isinstance(entry, dict) or "record" not in entry:
        raise bad(f"expected a JSON object with a \"record\" (and \"seats\"), got {type(entry).__name__}")
    try:
        state, _ = replay(entry["record"])
    except (ValueError, TypeError, KeyError, IndexError, OverflowError, AttributeError, RecursionError) as err:
        raise bad(f"its record does not replay ({err})") from None
    seats = entry.get("seats")
    if seats is None:
        return state, None
    if not isinstance(seats, list) or not all(isinstance(n, str) for n in seats) \
            or len(seats) != state.rules.players:
        raise bad(f"\"seats\" must be a list of {state.rules.players} names (strings), got {seats!r:.80}")
    return state, seats


@app.command("replay", cls=_Command)
def replay_game(
    games_file: Annotated[Path, typer.Argument(exists=True, dir_okay=False, help="A games.jsonl of a tournament.")],
    game: Annotated[int, typer.Option(min=0, help="The game number (its line, from 0).")] = 0,
) -> None:
    """Replay one game of a tournament's games.jsonl and show its final position."""
    line = _read_game_line(games_file, game)
    state, seats = _parse_game(line, f"line {game} of {games_file}")
    names = [f"player_{i} ({name})" for i, name in enumerate(seats)] if seats else None
    console.print(ansi(state, 0, names=names), markup=False, highlight=False)


app.command("analyse", cls=_Command)(analyse)
app.command("rate", cls=_Command)(rate)
app.command("compile", cls=_Command)(compile_kernels)


@app.command(cls=_Command)
@rule_flags(skip=("players",))
def play(
    seat: Annotated[list[str] | None, typer.Option(
        "--seat", show_default="none: the main menu",
        help="Start a game at once, one --seat per player: human, human:NAME or an agent spec (greedy, mcts:0.5, "
             "ppo; see `kingdomino agents`). Without --seat the main menu opens.")] = None,
    pace: Annotated[float, typer.Option(help=f"Seconds per agent action, 0 to {MAX_PACE:g}.")] = 0.6,
    seed: Annotated[int | None, typer.Option(
        show_default="a new random seed per game",
        help="Seed of the deals, 0 to 2**63 - 3 (same seed and moves, same game).")] = None,
    saves: Annotated[Path | None, typer.Option(
        help="Folder of saved games (default $KINGDOMINO_SAVES or ~/.kingdomino/saves).")] = None,
    options: dict[str, Any] | None = None,
    dynasty: Annotated[bool, _flag("--dynasty", "Three games in a row; totals decide.")] = False,
) -> None:
    """Play Kingdomino, Queendomino or the Royal Wedding in a window (pygame): humans and agents, save and load."""
    from kingdomino_app.saves import MAX_SEED as MAX_GAME_SEED
    from kingdomino_app.seats import parse_seat

    if not (math.isfinite(pace) and 0 <= pace <= MAX_PACE):
        raise typer.BadParameter(f"the pace must be a number of seconds from 0 to {MAX_PACE:g}, got {pace}",
                                 param_hint="'--pace'")
    if seed is not None and not 0 <= seed <= MAX_GAME_SEED:
        raise typer.BadParameter(f"the seed must be an integer from 0 to {MAX_GAME_SEED} (2**63 - 3: game k of a "
                                 f"Dynasty is dealt with seed + k), got {seed}", param_hint="'--seed'")
    if saves is not None and saves.exists() and not saves.is_dir():
        raise typer.BadParameter(f"{saves} is a file; give a folder for the saves (created if missing)",
                                 param_hint="'--saves'")
    seats = seat or []
    if seats:
        if not 2 <= len(seats) <= 8:
            raise typer.BadParameter(f"give 2 to 8 seats (one --seat per player; 2-4 in Kingdomino and Queendomino, "
                                     f"3-8 in the Royal Wedding), got {len(seats)}", param_hint="--seat")
        try:
            rules = Rules.make(players=len(seats), **(options or {}))
        except ValueError as err:
            raise typer.BadParameter(str(err), param_hint="--seat / --game / variant flags") from None
        for i, text in enumerate(seats):
            try:
                parsed = parse_seat(text, i)
                if not parsed.is_human:
                    agents.check_supports(parsed.kind, rules)
            except ValueError as err:
                raise typer.BadParameter(f"seat {i + 1} ({text!r}): {err}", param_hint="--seat") from None
    from kingdomino_app.window import display_problem, no_display_message

    problem = display_problem()
    if problem is not None:
        typer.echo(f"Error: {no_display_message(problem)}", err=True)
        raise typer.Exit(2)
    from kingdomino_app import run

    run(saves_dir=saves, pace=pace, seed=seed, seats=seats or None, rules=rules if seats else None, dynasty=dynasty)


if __name__ == "__main__":
    app()
