"""The `kingdomino` command line with outside agents: a researcher's own module from the current folder, and the
agents installed packages add."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from kingdomino_cli.main import app
from tests.cli_output import flat
from tests.external_bots import install_plugin, use_bots

runner = CliRunner(env={"COLUMNS": "200"})
pytestmark = pytest.mark.usefixtures("wide_console")




@pytest.fixture
def bots(tmp_path, monkeypatch):
    return use_bots(tmp_path, monkeypatch)


@pytest.mark.parametrize(("workers", "games"), [("1", "4"), ("2", "4"), ("2", "16")])
def test_a_tournament_plays_an_agent_from_the_current_folder(bots, workers, games):
    """16 games make two work units (8 games each where an agent is not known to batch well), so two spawned
    workers play them, each resolving the spec from the current folder."""
    result = runner.invoke(app, ["tournament", "--agents", f"bots:FirstLegal,{bots}:make,greedy", "--games", games,
                                 "--no-progress", "--workers", workers])
    assert result.exit_code == 0, result.output
    assert "bots:FirstLegal" in result.output and " games in " in result.output


def test_a_tournament_refuses_a_missing_attribute_before_any_game(bots):
    result = runner.invoke(app, ["tournament", "--agents", "bots:Missing,greedy", "--games", "2"])
    assert result.exit_code == 2, result.output
    assert "agent spec 'bots:Missing': module 'bots' has no attribute 'Missing'" in flat(result.output)
    assert "Traceback" not in result.output


def test_play_refuses_a_missing_attribute_before_any_window(bots, monkeypatch):
    import kingdomino_app
    from kingdomino_app import window

    monkeypatch.setattr(window, "display_problem", lambda: pytest.fail("a window was asked for"))
    monkeypatch.setattr(kingdomino_app, "run", lambda **kwargs: pytest.fail("the app started"))
    result = runner.invoke(app, ["play", "--seat", "bots:Missing", "--seat", "greedy"])
    assert result.exit_code == 2, result.output
    assert "seat 1 ('bots:Missing'): agent spec 'bots:Missing': module 'bots' has no attribute 'Missing'" in flat(
        result.output)


def test_play_starts_the_app_with_an_outside_agent(bots, monkeypatch):
    import kingdomino_app

    monkeypatch.setenv("KINGDOMINO_ALLOW_HEADLESS", "1")
    calls = []
    monkeypatch.setattr(kingdomino_app, "run", lambda **kwargs: calls.append(kwargs))
    result = runner.invoke(app, ["play", "--seat", "human", "--seat", "bots:FirstLegal", "--seat", f"{bots}:make"])
    assert result.exit_code == 0, result.output
    assert calls[0]["seats"] == ["human", "bots:FirstLegal", f"{bots}:make"]


def test_agents_lists_the_outside_forms_and_the_installed_packages_agents(tmp_path, monkeypatch):
    install_plugin(tmp_path, monkeypatch)
    result = runner.invoke(app, ["agents"])
    assert result.exit_code == 0, result.output
    text = flat(result.output)
    assert "MODULE:ATTR" in text and "PATH.py:ATTR" in text and "nothing here" not in text
    assert "Agents of installed packages (entry point group kingdomino.agents)" in text
    for row in ("first[:ARG] kdplug_agents:FirstLegal kdplug 1.2", "sized[:ARG] kdplug_agents:sized kdplug 1.2",
                "greedy (hidden by the built-in) kdplug_agents:FirstLegal kdplug 1.2"):
        assert row in text, row
    result = runner.invoke(app, ["tournament", "--agents", "sized:big,first,random", "--games", "3",
                                 "--no-progress"])
    assert result.exit_code == 0, result.output


def test_agents_says_when_no_package_adds_agents(monkeypatch):
    monkeypatch.setattr("kingdomino_cli.main.entry_point_agents", lambda: [])
    result = runner.invoke(app, ["agents"])
    assert result.exit_code == 0
    assert "No installed package adds agents (entry point group kingdomino.agents)." in flat(result.output)
