"""The `kingdomino` command line."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from kingdomino_cli.main import app

runner = CliRunner(env={"COLUMNS": "200"})


def flat(text: str) -> str:
    """Output without rich's box drawing and line wrapping."""
    return " ".join(text.replace("│", " ").split())


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


def test_agents_lists_the_specs():
    result = runner.invoke(app, ["agents"])
    assert result.exit_code == 0
    for spec in ("random", "greedy", "gprd", "heuristic", "mcts", "ppo"):
        assert spec in result.output


def test_replay_rejects_a_missing_game(tmp_path):
    games = tmp_path / "games.jsonl"
    games.write_text("")
    result = runner.invoke(app, ["replay", str(games), "--game", "3"])
    assert result.exit_code == 2
    assert "no game 3" in flat(result.output)


@pytest.mark.parametrize(("args", "message"), [
    (["--seat", "greedy"], "give 2 to 4 seats"),
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

    calls = []
    monkeypatch.setattr(kingdomino_app, "run", lambda **kwargs: calls.append(kwargs))
    result = runner.invoke(app, ["play", "--seat", "human:Ann", "--seat", "greedy", "--seed", "3", "--harmony"])
    assert result.exit_code == 0, result.output
    assert calls == [{"saves_dir": None, "pace": 0.6, "seed": 3, "seats": ["human:Ann", "greedy"],
                      "mighty_duel": False, "harmony": True, "middle_kingdom": False, "dynasty": False}]
