"""`kingdomino analyse`: a tournament's games.jsonl and a play-app save analysed, the JSON and PNG written, and
every bad input refused with exit code 2 and a reason."""

from __future__ import annotations

import json
import os

import numpy as np
import pytest
from typer.testing import CliRunner

from agents import load
from agents.analysis import GameAnalysis
from kingdomino_app import saves
from kingdomino_cli.main import app
from kingdomino_env import core
from kingdomino_env.record import make_record
from kingdomino_env.rules import Rules
from tests.cli_output import flat

runner = CliRunner(env={"COLUMNS": "200"})
pytestmark = pytest.mark.usefixtures("wide_console")




@pytest.fixture(scope="module")
def games_file(tmp_path_factory):
    out = tmp_path_factory.mktemp("tournament")
    result = runner.invoke(app, ["tournament", "--agents", "random,greedy", "--games", "2", "--seed", "3",
                                 "--out", str(out), "--no-progress"])
    assert result.exit_code == 0, result.output
    return out / "games.jsonl"


def test_a_tournament_game_is_analysed_into_a_table_json_and_plot(games_file, tmp_path):
    out, plot = tmp_path / "analysis.json", tmp_path / "analysis.png"
    result = runner.invoke(app, ["analyse", str(games_file), "--game", "1", "--agent", "mc:p20", "--out", str(out),
                                 "--plot", str(plot), "--no-progress"])
    assert result.exit_code == 0, result.output
    data = json.loads(out.read_text())
    assert data["game"] == 1 and data["agent"] == "mc:p20" and data["decisions"]
    record = json.loads(games_file.read_text().splitlines()[1])["record"]
    for row in data["decisions"]:
        assert set(row) == {"index", "player", "played", "best", "win_probability", "loss"}
        assert row["played"] == record["actions"][row["index"]] and row["loss"] >= 0
    text = flat(result.output)
    first = data["decisions"][0]
    rules = Rules.from_dict(record["rules"])
    assert f"{rules.describe_action(first['played'])} [{first['played']}]" in text
    assert plot.read_bytes().startswith(b"\x89PNG")
    again = runner.invoke(app, ["analyse", str(games_file), "--game", "1", "--agent", "mc:p20", "--out", str(out),
                                "--no-progress"])
    assert again.exit_code == 0 and json.loads(out.read_text()) == data


def test_the_table_mistakes_and_plot_name_the_seats_as_the_games_file_does(games_file, tmp_path, monkeypatch):
    figures = []
    plot = GameAnalysis.plot
    monkeypatch.setattr(GameAnalysis, "plot", lambda self, ax=None: figures.append(plot(self, ax)) or figures[-1])
    out = tmp_path / "analysis.json"
    result = runner.invoke(app, ["analyse", str(games_file), "--game", "1", "--agent", "mc:p20", "--out", str(out),
                                 "--plot", str(tmp_path / "a.png"), "--no-progress"])
    assert result.exit_code == 0, result.output
    seats = json.loads(games_file.read_text().splitlines()[1])["seats"]
    assert sorted(seats) == ["greedy", "random"]
    data = json.loads(out.read_text())
    assert data["seats"] == seats
    lines = result.output.splitlines()
    rows = {flat(line).split()[0]: flat(line).split()[1] for line in lines if flat(line)[:1].isdigit()}
    assert {int(index): name for index, name in rows.items()} == {
        row["index"]: seats[row["player"]] for row in data["decisions"]}
    mistakes = [line for line in lines if line.startswith("move ")]
    assert mistakes and all(f"({seats[0]})" in line or f"({seats[1]})" in line for line in mistakes)
    assert "player" not in " ".join(mistakes)
    legend = [text.get_text() for text in figures[0].axes[0].get_legend().get_texts()]
    assert sorted(legend) == sorted(seats)


def test_a_save_of_the_play_app_is_analysed(tmp_path):
    rules = Rules(2, game="queendomino")
    state = core.new_games(rules, [5])
    greedy, played = load("greedy", 0), []
    for _ in range(14):
        action = int(greedy.act(state, np.zeros(1, dtype=np.int64), core.legal_action_mask(state), None)[0])
        core.step(state, [action])
        played.append(action)
    path = saves.write(tmp_path, {
        "format": saves.FORMAT, "name": "half a game", "saved_at": "2026-01-01T10:00:00+00:00",
        "seats": [{"name": "Ann", "kind": "human"}, {"name": "Bot", "kind": "greedy"}], "seed": 5,
        "dynasty": None, "record": make_record(state, 0, played)})
    out = tmp_path / "a.json"
    result = runner.invoke(app, ["analyse", str(path), "--agent", "mc:p20", "--out", str(out), "--no-progress"])
    assert result.exit_code == 0, result.output
    data = json.loads(out.read_text())
    assert data["game"] == 0 and all(row["index"] < 14 for row in data["decisions"]) and data["decisions"]
    assert data["seats"] == ["Ann", "Bot"] and {"Ann", "Bot"} & set(flat(result.output).split())


@pytest.mark.parametrize(("args", "message"), [
    (["--game", "9"], "has no game 9: it has 2 games (0 to 1)"),
    (["--game", "-1"], "--game"),
    (["--agent", "greedy"], "cannot advise"),
    (["--agent", "nope"], "unknown agent spec"),
    (["--agent", "az:0"], "policy alone"),
    (["--seconds", "0"], "positive number of seconds"),
    (["--seconds", "nan"], "positive number of seconds"),
    (["--seconds", "1e300"], "positive number of seconds per decision, at most 86400"),
    (["--agent", "mc:p99999999999999999999"], "playouts per move must be an integer from 1 to 1_000_000"),
    (["--agent", "az:p99999999999999999999"], "simulations per move must be an integer from 0 to 1_000_000"),
    (["--agent", "mcts:1e400"], "seconds per move must be a positive number of at most 86400"),
])
def test_bad_options_are_refused(games_file, args, message):
    result = runner.invoke(app, ["analyse", str(games_file), "--no-progress", *args])
    assert result.exit_code == 2, result.output
    assert message in flat(result.output)


@pytest.mark.parametrize(("content", "message"), [
    (None, "cannot read"),
    (b"", "is empty"),
    (b"\xff\xfe garbage\n", "not UTF-8"),
    (b"{not json\n", "not JSON"),
    (b'{"format": "kingdomino-save/1", "name": "x"}', "without a game record"),
    (b'{"game": 0, "seats": ["a", "b"]}\n', "not a game"),
    (b'{"record": {"format": "kingdomino-record/1"}}\n', "does not replay"),
    (b'{"seats": [1, 2], "record": {}}\n', "has \"seats\" that are not a list of names"),
    (b'{"seats": "greedy", "record": {}}\n', "has \"seats\" that are not a list of names"),
])
def test_bad_files_are_refused(tmp_path, content, message):
    path = tmp_path / "games.jsonl"
    if content is not None:
        path.write_bytes(content)
    result = runner.invoke(app, ["analyse", str(path), "--agent", "mc:p10", "--no-progress"])
    assert result.exit_code == 2, result.output
    assert message in flat(result.output)


def test_a_games_file_naming_too_few_seats_is_refused(games_file, tmp_path):
    line = json.loads(games_file.read_text().splitlines()[0])
    path = tmp_path / "games.jsonl"
    path.write_text(json.dumps({**line, "seats": line["seats"][:1]}) + "\n")
    result = runner.invoke(app, ["analyse", str(path), "--agent", "mc:p10", "--no-progress"])
    assert result.exit_code == 2, result.output
    assert "names 1 seats, but its game has 2" in flat(result.output)


def test_a_folder_is_refused_as_file_and_as_outputs(games_file, tmp_path):
    assert "not a regular file" in flat(runner.invoke(app, ["analyse", str(tmp_path)]).output)
    for option in ("--out", "--plot"):
        result = runner.invoke(app, ["analyse", str(games_file), option, str(tmp_path), "--no-progress"])
        assert result.exit_code == 2 and "is a folder" in flat(result.output)
        result = runner.invoke(app, ["analyse", str(games_file), option, str(tmp_path / "no" / "x"),
                                     "--no-progress"])
        assert result.exit_code == 2 and "does not exist" in flat(result.output)


def test_a_fifo_as_the_file_or_as_its_games_deck_is_refused_without_blocking(tmp_path):
    """Neither the games file nor the buildings deck its record names is opened when it is a FIFO."""
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    result = runner.invoke(app, ["analyse", str(fifo), "--agent", "mc:p10", "--no-progress"])
    assert result.exit_code == 2 and "not a regular file: it is a FIFO" in flat(result.output), result.output
    record = make_record(core.new_games(Rules(game="queendomino"), [1]), 0, [])
    record["rules"]["buildings"] = str(fifo)
    games = tmp_path / "games.jsonl"
    games.write_text(json.dumps({"record": record}) + "\n")
    result = runner.invoke(app, ["analyse", str(games), "--agent", "mc:p10", "--no-progress"])
    assert result.exit_code == 2, result.output
    assert "does not replay" in flat(result.output) and "it is a FIFO" in flat(result.output)
