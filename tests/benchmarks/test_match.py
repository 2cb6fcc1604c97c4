"""benchmarks.match: one agent against copies of another on duplicate deals, its figures and the inputs it refuses."""

from __future__ import annotations

import json
import os

import pytest

from benchmarks import match


def test_the_hero_plays_every_seat_against_copies_of_the_opponent(tmp_path, capsys):
    out = tmp_path / "four.json"
    match.main(["greedy", "random", "--players", "4", "--games", "8", "--seed", "2", "--out", str(out)])
    figures = json.loads(out.read_text())
    assert figures["lineup"] == ["hero", "opponent", "opponent", "opponent"]
    hero = figures["hero_figures"]
    assert hero["games"] == 8 and hero["deals"] == 2
    assert hero["win_rate"] > 0.5 and hero["mean_margin"] > 0
    assert figures["tournament"]["agents"]["hero"]["games"] == 8
    assert figures["rules"]["players"] == 4 and len(figures["load_before"]) == 3
    assert "greedy against 3 x random" in capsys.readouterr().out


def test_the_same_seed_gives_the_same_games(tmp_path):
    runs = []
    for name in ("a.json", "b.json"):
        match.main(["greedy", "mc:p20", "--mighty-duel", "--games", "2", "--seed", "5", "--out", str(tmp_path / name)])
        figures = json.loads((tmp_path / name).read_text())["hero_figures"]
        figures.pop("seconds_per_move")
        runs.append(figures)
    assert runs[0] == runs[1]


@pytest.mark.parametrize("args, message", [
    (["greedy", "nosuch"], "unknown agent spec 'nosuch'"),
    (["heuristic", "greedy", "--game", "queendomino"], "not Queendomino"),
    (["csearch:p10:heuristic", "greedy", "--game", "royal_wedding", "--players", "4"],
     "the heuristic values Kingdomino positions only"),
    (["greedy", "random", "--games", "0"], "argument --games: must be at least 1, got 0"),
    (["greedy", "random", "--games", "many"], "argument --games: must be a whole number of games, got 'many'"),
    (["greedy", "random", "--players", "9"], "players must be 2, 3 or 4"),
    (["greedy", "random", "--workers", "0"], "workers must be an integer"),
    (["greedy", "random", "--games", "1000000000000"], "games must be an integer from 1 to"),
    (["greedy", "random", "--seed", "-1"], "seed must be an integer from 0"),
    (["greedy", "random", "--seed", "abc"], "argument --seed: invalid int value"),
])
def test_bad_input_is_refused_before_any_game(args, message, capsys):
    with pytest.raises(SystemExit) as err:
        match.main(args)
    assert err.value.code == 2 and message in capsys.readouterr().err


def test_an_output_that_cannot_be_written_is_refused_before_any_game(tmp_path, capsys):
    fifo = tmp_path / "fifo.json"
    os.mkfifo(fifo)
    for out, message in [(tmp_path, "is a folder"), (tmp_path / "missing" / "x.json", "no folder"),
                         (fifo, "is not a regular file")]:
        with pytest.raises(SystemExit):
            match.main(["greedy", "random", "--out", str(out)])
        assert message in capsys.readouterr().err
