"""Without Ray installed, `--ray` is refused before any game is played, saying which extra to install."""

from __future__ import annotations

from typer.testing import CliRunner

import kingdomino_cli.main as cli

runner = CliRunner(env={"COLUMNS": "200"})


def test_ray_options_without_ray_exit_2_naming_the_extra(monkeypatch, tmp_path):
    monkeypatch.setattr(cli.util, "find_spec", lambda name: None if name == "ray" else object())
    for option in (["--ray"], ["--ray-address", "ray://head:10001"]):
        result = runner.invoke(cli.app, ["tournament", "--agents", "random,greedy", "--games", "2", "--no-progress",
                                         "--out", str(tmp_path / "out"), *option])
        assert result.exit_code == 2, result.output
        assert "scale" in result.output and "Ray is not installed" in result.output
        assert not (tmp_path / "out" / "results.json").exists()
