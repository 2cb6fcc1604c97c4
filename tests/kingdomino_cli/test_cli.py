"""The `kingdomino` command line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from agents.az.files import SHIPPED
from kingdomino_cli.main import app
from kingdomino_env.rules import Rules
from tests.az_files import meta, write_archive
from tests.cli_output import flat

QUEENDOMINO_SHIPPED_BUILDINGS = "kingdomino_env/games/data/queendomino_buildings.csv"

runner = CliRunner(env={"COLUMNS": "200"})
pytestmark = pytest.mark.usefixtures("wide_console")


def test_tournament_writes_its_results(tmp_path):
    out = tmp_path / "run"
    result = runner.invoke(app, ["tournament", "--agents", "random,greedy", "--players", "3", "--games", "6",
                                 "--seed", "1", "--out", str(out), "--no-progress"])
    assert result.exit_code == 0, result.output
    assert "greedy" in result.output
    data = json.loads((out / "results.json").read_text())
    assert data["config"]["players"] == 3 and data["config"]["seed"] == 1
    assert data["agents"]["greedy"]["games"] > 0
    assert (out / "ratings.png").exists() and (out / "games.jsonl").exists()
    shown = runner.invoke(app, ["replay", str(out / "games.jsonl"), "--game", "2"])
    assert shown.exit_code == 0, shown.output
    assert "game over" in shown.output


def test_tournament_shows_agent_specs_as_typed(tmp_path):
    """A spec is shown as written: `:100:` stays text (not an emoji code) and a `[...]` in a path is not markup."""
    model = tmp_path / "run[1]" / "az_2p.az"
    model.parent.mkdir()
    model.write_bytes(Path(SHIPPED[(9, 2)]).read_bytes())
    spec = f"azmc:100:{model}"
    result = runner.invoke(app, ["tournament", "--agents", f"{spec},random", "--games", "2", "--seed", "1",
                                 "--no-progress", "--out", str(tmp_path / "out")])
    assert result.exit_code == 0, result.output
    assert spec in result.output and "\U0001f4af" not in result.output
    assert f"{spec} vs random" in result.output
    assert str(tmp_path / "out" / "results.json") in flat(result.output)


@pytest.mark.parametrize(("args", "message"), [
    (["--players", "5"], "--players"),
    (["--players", "1"], "--players"),
    (["--games", "0"], "--games"),
    (["--agents", "random,foo"], "unknown agent spec 'foo'"),
    (["--agents", "random"], "two agents"),
    (["--quests", "nope"], "nope"),
    (["--random-quests", "18"], "--random-quests"),
    (["--agents", "random,mc:zz"], "bad search budget"),
    (["--players", "3", "--mighty-duel"], "2-player variant"),
    (["--players", "2", "--three-player-36"], "3-player rule"),
    (["--workers", "0"], "--workers"),
])
def test_tournament_rejects_bad_arguments_clearly(args, message):
    result = runner.invoke(app, ["tournament", "--no-progress", *args])
    assert result.exit_code == 2
    assert message in flat(result.output)


@pytest.mark.parametrize(("spec", "message"), [
    ("mc:p99999999999999999999", "playouts per move must be an integer from 1 to 1_000_000, got 99999999999999999999"),
    ("mcts:p99999999999999999999", "playouts per move must be an integer from 1 to 1_000_000"),
    ("csearch:p1000001", "playouts per move must be an integer from 1 to 1_000_000, got 1000001"),
    ("az:p99999999999999999999", "simulations per move must be an integer from 0 to 1_000_000"),
    ("azmc:99999999999999999999", "simulations per move must be an integer from 0 to 1_000_000"),
    ("mc:1e400", "seconds per move must be a positive number of at most 86400, got inf"),
    ("mcts:1e300s", "seconds per move must be a positive number of at most 86400, got 1e+300"),
    ("az:1e300s", "seconds per move must be a positive number of at most 86400"),
    ("azmc:90000s", "seconds per move must be a positive number of at most 86400, got 90000.0"),
])
def test_budgets_beyond_their_bounds_are_refused_before_any_game(spec, message):
    """Budgets too large for the searches' 64-bit counters (or for any sane use) name the allowed range and exit 2,
    with no traceback and no game played."""
    result = runner.invoke(app, ["tournament", "--no-progress", "--games", "1", "--agents", f"{spec},random"])
    assert result.exit_code == 2, result.output
    assert message in flat(result.output) and "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)


@pytest.mark.parametrize(("config", "weights", "message"), [
    (None, b"not a torch file", "its weights.pt is not a torch weights archive"),
    ({"channels": 1024, "blocks": 1024, "hidden": 1024}, None, "an az network file holds at most"),
])
def test_a_damaged_or_absurd_network_is_refused_before_any_game(tmp_path, config, weights, message):
    path = write_archive(tmp_path / "net.az", meta(**({"config": config} if config else {})), weights=weights)
    result = runner.invoke(app, ["tournament", "--no-progress", "--games", "1", "--agents", f"az:2:{path},random",
                                 "--out", str(tmp_path / "out")])
    assert result.exit_code == 2, result.output
    assert message in flat(result.output) and not (tmp_path / "out").exists()


def test_agents_lists_the_specs():
    result = runner.invoke(app, ["agents"])
    assert result.exit_code == 0
    for spec in ("random", "greedy", "gprd", "heuristic", "mcts", "csearch", "ppo"):
        assert spec in result.output
    assert "nothing here" not in flat(result.output)  # every spec pattern names the variants it plays


def test_replay_rejects_a_missing_game(tmp_path):
    games = tmp_path / "games.jsonl"
    games.write_text("")
    result = runner.invoke(app, ["replay", str(games), "--game", "3"])
    assert result.exit_code == 2
    assert "no game 3" in flat(result.output)


@pytest.mark.parametrize(("args", "message"), [
    (["--seat", "greedy"], "give 2 to 8 seats"),
    (["--seat", "human", "--seat", "nobody"], "unknown agent spec 'nobody'"),
    (["--seat", "human", "--seat", "greedy", "--seat", "random", "--mighty-duel"], "2-player variant"),
    (["--seat", "human", "--seat", "greedy", "--pace", "-1"], "--pace"),
])
def test_play_rejects_bad_arguments(args, message):
    result = runner.invoke(app, ["play", *args])
    assert result.exit_code != 0
    assert message in flat(result.output)


def test_play_starts_the_app_with_its_options(monkeypatch):
    import kingdomino_app
    monkeypatch.setenv("KINGDOMINO_ALLOW_HEADLESS", "1")

    calls = []
    monkeypatch.setattr(kingdomino_app, "run", lambda **kwargs: calls.append(kwargs))
    result = runner.invoke(app, ["play", "--seat", "human:Ann", "--seat", "greedy", "--seed", "3", "--harmony"])
    assert result.exit_code == 0, result.output
    assert calls == [{"saves_dir": None, "pace": 0.6, "seed": 3, "seats": ["human:Ann", "greedy"],
                      "rules": Rules(players=2, harmony=True), "dynasty": False}]


def test_play_starts_a_royal_wedding_in_teams(monkeypatch):
    import kingdomino_app
    monkeypatch.setenv("KINGDOMINO_ALLOW_HEADLESS", "1")

    calls = []
    monkeypatch.setattr(kingdomino_app, "run", lambda **kwargs: calls.append(kwargs))
    seats = [arg for i in range(6) for arg in ("--seat", "greedy" if i else "human:Ann")]
    result = runner.invoke(app, ["play", *seats, "--game", "royal_wedding", "--teams"])
    assert result.exit_code == 0, result.output
    assert calls[0]["rules"] == Rules(players=6, game="royal_wedding", teams=True)


@pytest.mark.parametrize("env", [{"SDL_VIDEODRIVER": "dummy", "DISPLAY": ":0"},
                                 {"SDL_VIDEODRIVER": "", "DISPLAY": "", "WAYLAND_DISPLAY": ""}])
def test_play_without_a_display_says_so_and_exits_2(monkeypatch, env):
    import kingdomino_app

    monkeypatch.setattr(kingdomino_app, "run", lambda **kwargs: pytest.fail("the app started"))
    monkeypatch.setattr("sys.platform", "linux")
    monkeypatch.delenv("KINGDOMINO_ALLOW_HEADLESS", raising=False)
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    result = runner.invoke(app, ["play", "--seat", "human", "--seat", "greedy"])
    assert result.exit_code == 2, result.output
    assert "Cannot open the game window" in flat(result.output) and "KINGDOMINO_ALLOW_HEADLESS=1" in flat(result.output)
    assert "Traceback" not in result.output


@pytest.fixture
def no_games(monkeypatch):
    """Fail the test if a tournament starts playing."""
    import kingdomino_cli.main as cli

    def refuse(*args, **kwargs):
        raise AssertionError("a game was played")
    monkeypatch.setattr(cli, "run_tournament", refuse)


@pytest.mark.parametrize(("args", "message"), [
    (["--agents", "ppo,greedy", "--players", "3"], "ppo plays 2-player games without quests on the 5x5 grid"),
    (["--agents", "ppo,greedy", "--mighty-duel"], "this game is a 2-player Mighty Duel game"),
    (["--agents", "ppo,greedy", "--quests", "lost_corner"], "2-player game with quests"),
    (["--agents", "hero=ppo,greedy", "--random-quests", "2"], "agent 'hero': ppo plays 2-player games"),
    (["--games", "100000000000"], "from 1 to 200000 games"),
    (["--games", "100000", "--dynasty"], "from 1 to 66666 matches"),
    (["--seed", "-1"], "from 0 to 9223372036854775807"),
    (["--seed", str(10**30)], "from 0 to 9223372036854775807"),
    (["--workers", str(10**9)], "workers must be an integer from 1 to"),
    (["--agents", ""], "at least two agents"),
    (["--agents", "greedy,greedy"], "entered twice; name copies as NAME=SPEC"),
    (["--agents", "a=,greedy"], "entrant 'a' has no agent spec"),
    (["--agents", "=greedy,random"], "must be letters, digits"),
    (["--agents", "gre edy,random"], "unknown agent spec 'gre edy'; valid: random, greedy"),
    (["--agents", "ppo:/no/such/model.zip,random"], "no model file"),
    (["--game", "queendomino", "--harmony"], "--harmony: Kingdomino option(s), not in Queendomino"),
    (["--game", "queendomino", "--mighty-duel", "--three-player-36"], "--mighty-duel, --three-player-36: Kingdomino"),
    (["--game", "queendomino", "--middle-kingdom"], "the variant options are --players (2-4) and --buildings PATH"),
    (["--game", "queendomino", "--quests", "lost_corner"], "--quests: Kingdomino option(s)"),
    (["--game", "queendomino", "--random-quests", "1"], "--random-quests: Kingdomino option(s)"),
    (["--game", "chess"], "unknown game 'chess'; allowed: kingdomino, queendomino"),
    (["--buildings", QUEENDOMINO_SHIPPED_BUILDINGS], "--buildings is a Queendomino option"),
    (["--game", "queendomino", "--agents", "random,heuristic"], "heuristic plays every Kingdomino variant, not"),
    (["--game", "queendomino", "--agents", "ppo,greedy"], "this game is a 2-player Queendomino game"),
])
def test_tournament_refuses_before_playing(no_games, tmp_path, args, message):
    out = tmp_path / "out"
    result = runner.invoke(app, ["tournament", "--no-progress", "--out", str(out), *args])
    assert result.exit_code == 2, result.output
    assert message in flat(result.output)
    assert not out.exists()


def test_tournament_passes_the_variant_flags_as_one_rules(monkeypatch):
    import kingdomino_cli.main as cli
    from kingdomino_env.rules import Rules

    seen = []

    def capture(config, **kwargs):
        seen.append(config)
        raise SystemExit(0)
    monkeypatch.setattr(cli, "run_tournament", capture)
    result = runner.invoke(app, ["tournament", "--no-progress", "--agents", "random,greedy", "--players", "3",
                                 "--harmony", "--middle-kingdom", "--three-player-36", "--quests", "lost_corner"])
    assert result.exit_code == 0, result.output
    assert [c.rules for c in seen] == [Rules(3, harmony=True, middle_kingdom=True, three_player_36=True,
                                             quests=("lost_corner",))]


def test_tournament_refuses_an_out_that_is_a_file_or_under_one(no_games, tmp_path):
    taken = tmp_path / "results.txt"
    taken.write_text("mine")
    for out, message in ((taken, "is a file; give a folder"), (taken / "sub", "cannot create the folder")):
        result = runner.invoke(app, ["tournament", "--no-progress", "--agents", "random,greedy", "--out", str(out)])
        assert result.exit_code == 2, result.output
        assert "'--out'" in result.output and message in flat(result.output)
    assert taken.read_text() == "mine"


def test_tournament_refuses_an_unwritable_out(no_games, tmp_path):
    import os

    if os.geteuid() == 0:
        pytest.skip("root can write anywhere")
    locked = tmp_path / "locked"
    locked.mkdir(mode=0o500)
    result = runner.invoke(app, ["tournament", "--no-progress", "--out", str(locked / "run")])
    assert result.exit_code == 2 and "cannot create the folder" in flat(result.output)


def test_help_names_every_command_and_flags_take_no_value():
    top = runner.invoke(app, ["--help"])
    commands = [command.name or command.callback.__name__ for command in app.registered_commands]
    assert {"tournament", "agents", "replay", "analyse", "play"} <= set(commands)
    assert top.exit_code == 0 and "--version" in top.output
    assert all(command in flat(top.output) for command in commands)
    for command in commands:
        shown = runner.invoke(app, [command, "--help"])
        assert shown.exit_code == 0 and "--help" in shown.output and "<bool>" not in shown.output, command


def test_version():
    from kingdomino_cli.main import version

    result = runner.invoke(app, ["--version"])
    assert result.exit_code == 0 and result.output.strip() == f"kingdomino {version()}"
    assert version()[0].isdigit()


def test_agents_say_which_variants_they_play():
    result = runner.invoke(app, ["agents"])
    assert "every Kingdomino variant" in flat(result.output)
    assert "2-player games without quests on the 5x5 grid" in flat(result.output)


def a_game_line() -> dict:
    import kingdomino_env

    env = kingdomino_env.env(players=2)
    env.reset(seed=4)
    for _ in env.agent_iter():
        _, _, terminated, truncated, _ = env.last()
        env.step(None if terminated or truncated else int(env.observe(env.agent_selection)["action_mask"].argmax()))
    return {"game": 0, "seats": ["a", "b"], "record": env.unwrapped.record()}


@pytest.mark.parametrize(("mutate", "message"), [
    (lambda g: g.update(seats="ab"), "\"seats\" must be a list of 2 names"),
    (lambda g: g.update(seats=7), "\"seats\" must be a list of 2 names"),
    (lambda g: g.update(seats=[1, 2]), "\"seats\" must be a list of 2 names"),
    (lambda g: g.update(seats=["a", "b", "c"]), "\"seats\" must be a list of 2 names"),
    (lambda g: g["record"]["actions"].__setitem__(3, 10**30), "does not replay"),
    (lambda g: g["record"]["actions"].__setitem__(3, -1), "does not replay"),
    (lambda g: g.pop("record"), "expected a JSON object with a \"record\""),
    (lambda g: g.update(record="x"), "does not replay"),
])
def test_replay_refuses_a_bad_line(tmp_path, mutate, message):
    game = a_game_line()
    mutate(game)
    path = tmp_path / "games.jsonl"
    path.write_text(json.dumps(game) + "\n")
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 2, result.output
    assert message in flat(result.output)


@pytest.mark.parametrize(("content", "args", "message"), [
    (b"\xff\xfe\x00garbage\n", [], "is not text (UTF-8)"),
    (b"[1, 2, 3]\n", [], "expected a JSON object"),
    (b"\"just a string\"\n", [], "expected a JSON object"),
    (b"{not json\n", [], "not JSON"),
    (b"[" * 100000 + b"\n", [], "not a game"),
    (b"", [], "has no game 0: it has no games"),
    (b"{}\n{}\n", ["--game", "5"], "has no game 5: it has 2 games (0 to 1)"),
])
def test_replay_refuses_a_bad_file(tmp_path, content, args, message):
    path = tmp_path / "games.jsonl"
    path.write_bytes(content)
    result = runner.invoke(app, ["replay", str(path), *args])
    assert result.exit_code == 2, result.output
    assert message in flat(result.output)


def test_replay_refuses_a_folder_and_a_fifo(tmp_path):
    import os

    result = runner.invoke(app, ["replay", str(tmp_path)])
    assert result.exit_code == 2
    if hasattr(os, "mkfifo"):
        fifo = tmp_path / "games.jsonl"
        os.mkfifo(fifo)
        result = runner.invoke(app, ["replay", str(fifo)])
        assert result.exit_code == 2 and "is not a regular file" in flat(result.output)


@pytest.mark.parametrize(("args", "message"), [
    (["--seat", "human:Ann", "--seat", "greedy", "--seat", "ppo"], "ppo plays 2-player games without quests"),
    (["--seat", "human", "--seat", "ppo", "--mighty-duel"], "Mighty Duel"),
    (["--seat", "human", "--seat", "greedy", "--pace", "nan"], "from 0 to 60"),
    (["--seat", "human", "--seat", "greedy", "--pace", "inf"], "from 0 to 60"),
    (["--seat", "human", "--seat", "greedy", "--pace", "-0.5"], "from 0 to 60"),
    (["--seat", "human", "--seat", "greedy", "--seed", "-5"], "from 0 to 9223372036854775805"),
    (["--seat", "human", "--seat", "greedy", "--seed", str(2**64)], "from 0 to 9223372036854775805"),
    (["--seat", "a", "--seat", "b", "--seat", "c", "--seat", "d", "--seat", "e"], "players must be 2, 3 or 4"),
    ([arg for _ in range(9) for arg in ("--seat", "greedy")] + ["--game", "royal_wedding"], "give 2 to 8 seats"),
    (["--seat", "human", "--seat", "greedy", "--game", "royal_wedding"], "players must be 3 to 8"),
    ([arg for _ in range(5) for arg in ("--seat", "greedy")] + ["--game", "royal_wedding", "--teams"],
     "6 or 8 players"),
    (["--seat", "human", "--seat", "greedy", "--game", "queendomino", "--harmony"], "no option harmony"),
    (["--seat", "human", "--seat", "greedy", "--game", "chess"], "game must be one of"),
    ([arg for _ in range(3) for arg in ("--seat", "heuristic")] + ["--game", "royal_wedding"], "heuristic plays"),
    (["--seat", "human", "--seat", "mcts:zz"], "bad search budget"),
])
def test_play_refuses_before_opening_a_window(monkeypatch, args, message):
    import kingdomino_app

    monkeypatch.setattr(kingdomino_app, "run", lambda **kwargs: pytest.fail("the app started"))
    result = runner.invoke(app, ["play", *args])
    assert result.exit_code == 2, result.output
    assert message in flat(result.output)


def test_play_refuses_a_saves_file(monkeypatch, tmp_path):
    import kingdomino_app

    monkeypatch.setattr(kingdomino_app, "run", lambda **kwargs: pytest.fail("the app started"))
    taken = tmp_path / "saves"
    taken.write_text("")
    result = runner.invoke(app, ["play", "--saves", str(taken)])
    assert result.exit_code == 2 and "give a folder for the saves" in flat(result.output)


def test_a_queendomino_tournament_runs_and_its_games_replay(tmp_path):
    out = tmp_path / "queen"
    result = runner.invoke(app, ["tournament", "--game", "queendomino", "--agents", "random,greedy,mc:p4",
                                 "--players", "3", "--games", "1", "--seed", "2", "--out", str(out), "--no-progress"])
    assert result.exit_code == 0, result.output
    assert "Queendomino, 3 players" in flat(result.output) and "mc:p4" in result.output
    data = json.loads((out / "results.json").read_text())
    assert data["config"]["rules"] == {"game": "queendomino", "players": 3, "grid": 5, "buildings": None}
    lines = (out / "games.jsonl").read_text().splitlines()
    assert len(lines) == 6  # one deal, every seat permutation of the three agents
    assert all(json.loads(line)["record"]["game"] == "queendomino" for line in lines)
    shown = runner.invoke(app, ["replay", str(out / "games.jsonl"), "--game", "5"])
    assert shown.exit_code == 0, shown.output
    assert "game over" in shown.output and "builders' board" in shown.output


def test_queendomino_tournament_checks_its_buildings_file_before_playing(no_games, tmp_path):
    bad = tmp_path / "bad.csv"
    bad.write_text("tile,name\n1,Statue\n")
    for path, message in ((bad, "the header lacks column(s)"), (tmp_path / "missing.csv", "cannot be read")):
        result = runner.invoke(app, ["tournament", "--no-progress", "--game", "queendomino", "--agents",
                                     "random,greedy", "--buildings", str(path)])
        assert result.exit_code == 2, result.output
        assert "--buildings" in flat(result.output) and message in flat(result.output)


def test_queendomino_tournament_passes_its_rules_and_buildings(monkeypatch, tmp_path):
    import shutil

    import kingdomino_cli.main as cli
    from kingdomino_env.rules import Rules

    seen = []

    def capture(config, **kwargs):
        seen.append(config)
        raise SystemExit(0)
    monkeypatch.setattr(cli, "run_tournament", capture)
    corrected = tmp_path / "corrected.csv"
    shutil.copy(QUEENDOMINO_SHIPPED_BUILDINGS, corrected)
    result = runner.invoke(app, ["tournament", "--no-progress", "--game", "queendomino", "--players", "4",
                                 "--buildings", str(corrected)])
    assert result.exit_code == 0, result.output
    assert [c.rules for c in seen] == [Rules(4, game="queendomino", buildings=str(corrected.resolve()))]
    assert seen[0].specs == tuple(cli.DEFAULT_QUEENDOMINO_AGENTS.split(","))


def test_a_royal_wedding_team_tournament_runs_and_its_games_replay(tmp_path):
    out = tmp_path / "royal"
    result = runner.invoke(app, ["tournament", "--game", "royal_wedding", "--players", "8", "--teams", "--agents",
                                 "gprd,random,greedy", "--games", "4", "--seed", "3", "--out", str(out),
                                 "--no-progress"])
    assert result.exit_code == 0, result.output
    assert "Royal Wedding, 8 players in 4 teams" in flat(result.output)
    data = json.loads((out / "results.json").read_text())
    assert data["config"]["rules"] == {"game": "royal_wedding", "players": 8, "grid": 7, "buildings": None,
                                       "teams": True}
    assert data["config"]["lineups"][0] == ["gprd"] * 2 + ["random"] * 6
    lines = [json.loads(line) for line in (out / "games.jsonl").read_text().splitlines()]
    assert "Asked for 4 games, playing 16 because every agent must play every seat" in flat(result.output)
    assert len(lines) == 16 and {name for line in lines for name in line["seats"]} == {"random", "gprd", "greedy"}
    assert all(line["seats"][0::2] == line["seats"][1::2] for line in lines)
    assert all(line["record"]["rules"]["teams"] for line in lines)
    shown = runner.invoke(app, ["replay", str(out / "games.jsonl"), "--game", "3"])
    assert shown.exit_code == 0, shown.output
    assert "game over" in shown.output


@pytest.mark.parametrize(("args", "message"), [
    (["--game", "royal_wedding", "--players", "7", "--teams"], "teams are a Royal Wedding option for 6 or 8"),
    (["--game", "royal_wedding", "--players", "2"], "players must be 3"),
    (["--game", "royal_wedding", "--players", "9"], "--players"),
    (["--players", "6"], "players must be 2"),
    (["--players", "6", "--teams"], "--teams is a Royal Wedding option"),
    (["--game", "queendomino", "--players", "4", "--teams"], "--teams is a Royal Wedding option"),
    (["--game", "royal_wedding", "--players", "5", "--harmony"],
     "--harmony: Kingdomino option(s), not in the Royal Wedding; with --game royal_wedding the variant options are "
     "--players (3-8), --teams"),
    (["--game", "royal_wedding", "--players", "6", "--teams", "--agents", "random,heuristic"],
     "heuristic plays every Kingdomino variant, not Queendomino or the Royal Wedding"),
    (["--game", "royal_wedding", "--players", "4", "--agents", "ppo,greedy"], "this game is a 4-player Royal Wedding"),
])
def test_royal_wedding_tournament_refuses_bad_combinations_before_playing(no_games, tmp_path, args, message):
    out = tmp_path / "out"
    result = runner.invoke(app, ["tournament", "--no-progress", "--out", str(out), *args])
    assert result.exit_code == 2, result.output
    assert message in flat(result.output)
    assert not out.exists()


def command_flags(name: str) -> dict[str, str]:
    """Each option of a `kingdomino` command and its help text."""
    import typer

    command = typer.main.get_command(app).commands[name]
    return {opt: param.help for param in command.params for opt in param.opts if opt.startswith("--")}


def test_the_variant_flags_are_the_rules_options_with_their_help():
    expected = {"--" + o.name.replace("_", "-"): o for o in Rules.options()}
    tournament, play = command_flags("tournament"), command_flags("play")
    assert {flag for flag in tournament if flag in expected} == set(expected)
    assert {flag for flag in play if flag in expected} == set(expected) - {"--players"}  # players: one per --seat
    for flags in (tournament, play):
        assert all(option.help.rstrip(".")[1:] in flags[flag] for flag, option in expected.items() if flag in flags)
    assert {"--agents", "--games", "--dynasty", "--workers", "--ray", "--ray-address", "--seed", "--out",
            "--progress"} <= set(tournament)


def test_a_new_rules_option_becomes_a_flag_of_every_command_built_from_them(monkeypatch):
    import typer

    import kingdomino_cli.main as cli
    from kingdomino_env.rules import RuleOption

    extra = RuleOption("castle_bonus", bool, False, "+3 for a castle on the edge.", ("kingdomino",))
    options = (*Rules.options(), extra)
    monkeypatch.setattr(cli.Rules, "options", classmethod(lambda cls: options))
    seen = []

    @cli.rule_flags()
    def command(options: dict | None = None) -> None:
        seen.append(options)

    probe = typer.Typer()
    probe.command()(command)
    probe.command("other")(lambda: None)
    result = runner.invoke(probe, ["command", "--castle-bonus", "--players", "3", "--quests", "lost_corner"])
    assert result.exit_code == 0, result.output
    assert seen[0]["castle_bonus"] is True and seen[0]["players"] == 3 and seen[0]["quests"] == ("lost_corner",)
    assert "+3 for a castle on the edge." in flat(runner.invoke(probe, ["command", "--help"]).output)


def test_the_tournament_command_takes_at_most_fifteen_parameters():
    import inspect

    from kingdomino_cli.main import play, tournament

    for command in (tournament, play):
        assert len(inspect.signature(command.__wrapped__).parameters) <= 15
