"""Ahead-of-time compiling: which warm-up games are played, what each cost, and `kingdomino compile`'s checks."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from kingdomino_cli.main import app
from tests.cli_output import flat
from tournament.precompile import AGENT_SPECS, Item, items, precompile
from tournament.standard import VARIANTS

runner = CliRunner(env={"COLUMNS": "200"})


def test_every_standard_variant_gets_every_agent_that_plays_it():
    todo = items()
    assert {item.variant for item in todo} == set(VARIANTS)
    assert Item("queendomino-2p", "heuristic") not in todo  # the heuristic plays Kingdomino only
    assert Item("2p", "heuristic") in todo and Item("queendomino-2p", "csearch:p4") in todo
    assert all(item.spec in AGENT_SPECS for item in todo)


def test_an_unknown_variant_is_named():
    with pytest.raises(ValueError, match="unknown variant.*nope.*the standard variants are duel"):
        items(("2p", "nope"))


def test_a_warm_up_game_is_played_to_its_end_and_reported():
    begun = []
    done = list(precompile([Item("2p", "random"), Item("queendomino-2p", "random")], begun.append))
    assert begun == [Item("2p", "random"), Item("queendomino-2p", "random")]
    assert [d.item for d in done] == begun
    assert all(d.seconds >= d.compile_seconds >= 0 for d in done)


def test_the_command_reports_each_game_and_where_the_kernels_are_cached():
    result = runner.invoke(app, ["compile", "--variants", "2p", "--agents", "random", "--no-progress"])
    assert result.exit_code == 0, result.output
    out = flat(result.output)
    assert "2p · random:" in out and ("compiled in" in out or "already cached" in out)
    assert "1 warm-up games in" in out and "the kernels are cached" in out


@pytest.mark.parametrize("args, message", [
    (["--variants", "2p,5p"], "unknown variant 5p; choose from duel, 2p"),
    (["--variants", ","], "unknown variant (none given)"),
    (["--agents", "greedy,alphago"], "unknown agent alphago; choose from random, greedy"),
])
def test_unknown_names_are_refused_before_any_game(args, message):
    result = runner.invoke(app, ["compile", *args, "--no-progress"])
    assert result.exit_code == 2
    assert message in flat(result.output)
    assert "warm-up games" not in result.output
