"""benchmarks.match: one agent against copies of another on duplicate deals, its figures, the network it keeps and
the inputs it refuses."""

from __future__ import annotations

import hashlib
import json
import os

import pytest

from agents.csearch.network import shipped_weights
from benchmarks import match
from kingdomino_env.rules import Rules


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


class _StopAfterOneUnit:
    """Stands for the progress lines: interrupts the match (as Ctrl-C does) once one work unit has finished."""

    def __init__(self, total: int, label: str) -> None:
        self.calls = 0

    def __call__(self, games: int) -> None:
        self.calls += 1
        if self.calls == 1:
            raise KeyboardInterrupt


def test_an_interrupted_match_keeps_its_games_and_the_same_command_finishes_it(tmp_path, monkeypatch, capsys):
    args = ["greedy", "random", "--players", "3", "--games", "24", "--seed", "4"]
    match.main(args + ["--out", str(tmp_path / "whole.json")])
    out = tmp_path / "cut.json"
    with monkeypatch.context() as patch:
        patch.setattr(match, "GamesProgress", _StopAfterOneUnit)
        with pytest.raises(SystemExit) as stopped:
            match.main(args + ["--out", str(out)])
    assert stopped.value.code == 130
    err = capsys.readouterr().err
    assert "match interrupted after" in err and f"they are kept in {match.games_folder(out)}" in err
    assert not out.exists() and (match.games_folder(out) / "games.jsonl").read_text().count("\n") > 0
    match.main(args + ["--out", str(out)])
    assert "match: 24/24 games" in capsys.readouterr().err
    whole, cut = (json.loads((tmp_path / name).read_text()) for name in ("whole.json", "cut.json"))
    for figures in (whole, cut):
        figures["hero_figures"].pop("seconds_per_move")
        for stats in figures["tournament"]["agents"].values():
            stats.pop("seconds_per_move")
    assert cut["hero_figures"] == whole["hero_figures"]
    assert cut["tournament"]["agents"] == whole["tournament"]["agents"]
    assert cut["tournament"]["pairings"] == whole["tournament"]["pairings"]
    assert not match.games_folder(out).exists()


def test_the_games_folder_of_another_match_or_of_other_files_is_refused_before_any_game(tmp_path, capsys):
    out = tmp_path / "m.json"
    folder = match.games_folder(out)
    folder.mkdir()
    (folder / "notes.txt").write_text("mine")
    with pytest.raises(SystemExit) as err:
        match.main(["greedy", "random", "--games", "2", "--out", str(out)])
    assert err.value.code == 2 and "holds other files and no match; move it away" in capsys.readouterr().err
    assert (folder / "notes.txt").read_text() == "mine"
    (folder / "notes.txt").unlink()
    config = match.TournamentConfig(agents=("hero=greedy", "opponent=random"), games=2, seed=9,
                                    lineups=(("hero", "opponent"),))
    with pytest.raises(match.TournamentInterrupted):
        match.run_tournament(config, out_dir=folder, progress=_StopAfterOneUnit(2, "x"))
    with pytest.raises(SystemExit) as err:
        match.main(["greedy", "random", "--games", "2", "--seed", "3", "--out", str(out)])
    assert err.value.code == 2 and "give another --out, or the options of that match" in capsys.readouterr().err


@pytest.mark.parametrize("kind", ["file", "fifo", "link"])
def test_a_games_folder_that_is_no_folder_is_refused_before_any_game(tmp_path, capsys, kind):
    out = tmp_path / "m.json"
    folder = match.games_folder(out)
    if kind == "file":
        folder.write_text("mine")
    elif kind == "fifo":
        os.mkfifo(folder)
    else:
        (tmp_path / "elsewhere").mkdir()
        folder.symlink_to(tmp_path / "elsewhere")
    with pytest.raises(SystemExit) as err:
        match.main(["greedy", "random", "--games", "2", "--out", str(out)])
    assert err.value.code == 2 and "exists and is not a folder (a file, FIFO or link)" in capsys.readouterr().err
    assert not out.exists()


@pytest.mark.parametrize("damage, message", [
    ({"games.jsonl": '{"deal": 0, "seats": \n'}, "games.jsonl line 1 is damaged"),
    ({"tournament.json": "not json"}, "tournament.json"),
])
def test_a_damaged_games_folder_is_refused_naming_the_file(tmp_path, capsys, damage, message):
    out = tmp_path / "m.json"
    args = ["greedy", "random", "--games", "4", "--seed", "3", "--out", str(out)]
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(match, "GamesProgress", _StopAfterOneUnit)
        with pytest.raises(SystemExit):
            match.main(args)
    capsys.readouterr()
    for name, text in damage.items():
        (match.games_folder(out) / name).write_text(text)
    with pytest.raises(SystemExit) as err:
        match.main(args)
    assert err.value.code == 2 and message in capsys.readouterr().err
    assert not out.exists()


def test_a_kept_network_is_the_copy_played_and_named_with_its_digest(tmp_path, capsys):
    source = tmp_path / "training.npz"
    source.write_bytes(shipped_weights(Rules(players=2)).read_bytes())
    copy, out = tmp_path / "kept.npz", tmp_path / "match.json"
    args = [f"csearch:p3:{source}", "greedy", "--games", "2", "--seed", "1", "--out", str(out),
            "--keep-network", str(copy), "--network-note", "net_3 of a run"]
    match.main(args)
    figures = json.loads(out.read_text())
    assert copy.read_bytes() == source.read_bytes()
    assert figures["hero"] == f"csearch:p3:{copy.as_posix()}"
    assert figures["tournament"]["config"]["agents"]["hero"] == figures["hero"]
    assert figures["hero_network"] == {"file": copy.as_posix(), "source": source.as_posix(), "note": "net_3 of a run",
                                       "sha256": hashlib.sha256(source.read_bytes()).hexdigest()}
    match.main(args)
    assert json.loads(out.read_text())["hero_network"] == figures["hero_network"]
    source.write_bytes(source.read_bytes() + b"\0")
    with pytest.raises(SystemExit):
        match.main(args)
    assert f"--keep-network {copy} exists and holds something other than {source}" in capsys.readouterr().err
    assert json.loads(out.read_text())["hero_network"] == figures["hero_network"]


@pytest.mark.parametrize("hero, extra, message", [
    ("csearch:p3", ["--out", "m.json", "--keep-network", "k.npz"], "names no model file to keep"),
    ("csearch:p3:heuristic", ["--out", "m.json", "--keep-network", "k.npz"], "names no model file to keep"),
    ("csearch:p3:NET", ["--keep-network", "k.npz"], "give --out too"),
    ("csearch:p3:NET", ["--out", "m.json", "--network-note", "x"], "give --keep-network too"),
    ("csearch:p3:NET", ["--out", "m.json", "--keep-network", "missing/k.npz"], "no folder"),
    ("csearch:p3:NET", ["--out", "m.json", "--keep-network", "."], "holds something other than"),
])
def test_a_network_that_cannot_be_kept_is_refused_before_any_game(tmp_path, monkeypatch, capsys, hero, extra,
                                                                  message):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "NET").write_bytes(shipped_weights(Rules(players=2)).read_bytes())
    with pytest.raises(SystemExit) as err:
        match.main([hero, "greedy", "--games", "2", *extra])
    assert err.value.code == 2 and message in capsys.readouterr().err
    assert sorted(path.name for path in tmp_path.iterdir()) == ["NET"]


@pytest.mark.parametrize("kind", ["fifo", "folder", "link"])
def test_a_kept_network_path_that_is_no_regular_file_is_refused_without_blocking(tmp_path, capsys, kind):
    network = tmp_path / "NET.npz"
    network.write_bytes(shipped_weights(Rules(players=2)).read_bytes())
    copy = tmp_path / "kept.npz"
    {"fifo": lambda: os.mkfifo(copy), "folder": copy.mkdir, "link": lambda: copy.symlink_to(network)}[kind]()
    with pytest.raises(SystemExit) as err:
        match.main([f"csearch:p3:{network}", "greedy", "--games", "2", "--out", str(tmp_path / "m.json"),
                    "--keep-network", str(copy)])
    assert err.value.code == 2 and "exists and holds something other than" in capsys.readouterr().err
    assert not (tmp_path / "m.json").exists() and not (tmp_path / "m.json.games").exists()
