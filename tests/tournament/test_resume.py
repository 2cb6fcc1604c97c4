"""Interrupt and resume: finished games are on disk as their units finish, an interrupt keeps them with partial
results, a resumed tournament ends as an uninterrupted one, and a folder of another tournament or with damaged
files is refused with what is wrong."""

from __future__ import annotations

import hashlib
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from agents.csearch.network import shipped_weights
from kingdomino_cli.main import app
from kingdomino_env.rules import Rules
from tests.cli_output import flat
from tournament import TournamentConfig, journal, run_tournament, write_all
from tournament.journal import GAMES_NAME, UNITS_NAME, Journal, JournalError
from tournament.play import play_unit
from tournament.runner import TournamentInterrupted, summarise

runner = CliRunner()


def _config(**changes) -> TournamentConfig:
    settings = {"agents": ("random", "greedy", "gprd"), "rules": Rules(2), "games": 24, "seed": 5, "unit_games": 4}
    return TournamentConfig(**{**settings, **changes})


def _interrupt_after(units: int):
    """A progress callback that interrupts the tournament once `units` units have finished."""
    seen = []

    def progress(games: int) -> None:
        seen.append(games)
        if len(seen) >= units:
            raise KeyboardInterrupt

    return progress


@pytest.mark.parametrize("workers", [1, 2])
def test_an_interrupted_tournament_resumes_to_the_uninterrupted_results(tmp_path, workers):
    config = _config()
    whole = run_tournament(config, out_dir=tmp_path / "whole")
    with pytest.raises(TournamentInterrupted) as stopped:
        run_tournament(config, out_dir=tmp_path / "cut", progress=_interrupt_after(2))
    partial = stopped.value.result
    assert not partial.complete and 0 < len(partial.games) < config.total_games
    lines = (tmp_path / "cut" / GAMES_NAME).read_text().splitlines()
    assert len(lines) == len(partial.games)
    saved = json.loads((tmp_path / "cut" / "results.json").read_text())
    assert saved["complete"] is False and saved["games_played"] == len(partial.games)
    resumed = run_tournament(config, out_dir=tmp_path / "cut", resume=True, workers=workers)
    assert resumed.complete
    assert json.dumps(resumed.to_dict(timings=False)) == json.dumps(whole.to_dict(timings=False))
    assert (tmp_path / "cut" / GAMES_NAME).read_bytes() == (tmp_path / "whole" / GAMES_NAME).read_bytes()


def test_partial_results_keep_each_games_place_in_the_schedule(tmp_path):
    """With several workers, a later unit can finish first: its games keep their indices in the schedule."""
    config = _config()
    journal = Journal.create(tmp_path, config)
    journal.append(play_unit(config, 2))
    write_all(summarise(config, journal.done.values(), 0.0, complete=False), tmp_path, plot=False)
    lines = [json.loads(line) for line in (tmp_path / GAMES_NAME).read_text().splitlines()]
    assert [line["game"] for line in lines] == [8, 9, 10, 11]
    resumed = run_tournament(config, out_dir=tmp_path, resume=True)
    assert [g.record for g in resumed.games] == [g.record for g in run_tournament(config).games]


def test_a_tournament_of_python_objects_resumes_from_python(tmp_path):
    from tests.tournament.faulty_agents import FirstLegal, last_legal

    config = _config(agents=(FirstLegal, last_legal, "greedy"), games=4)
    whole = run_tournament(config)
    with pytest.raises(TournamentInterrupted):
        run_tournament(config, out_dir=tmp_path, progress=_interrupt_after(1))
    resumed = run_tournament(_config(agents=(FirstLegal, last_legal, "greedy"), games=4), out_dir=tmp_path,
                             resume=True)
    assert [g.record for g in resumed.games] == [g.record for g in whole.games]
    with pytest.raises(JournalError, match="entered as a Python object"):
        Journal.read_config(tmp_path)


def test_a_cut_last_line_is_played_again_and_a_resumed_complete_tournament_plays_nothing(tmp_path):
    config = _config()
    whole = run_tournament(config, out_dir=tmp_path)
    games = (tmp_path / GAMES_NAME).read_text().splitlines(keepends=True)
    units = (tmp_path / UNITS_NAME).read_text().splitlines(keepends=True)
    (tmp_path / UNITS_NAME).write_text("".join(units[:-1]) + units[-1][:10])
    (tmp_path / GAMES_NAME).write_text("".join(games[:-1]) + games[-1][:20])
    played = []
    resumed = run_tournament(config, out_dir=tmp_path, resume=True, progress=played.append)
    assert played[0] == config.total_games - 4 and sum(played) == config.total_games
    assert [g.record for g in resumed.games] == [g.record for g in whole.games]
    again = []
    run_tournament(config, out_dir=tmp_path, resume=True, progress=again.append)
    assert again == [config.total_games]


def test_a_folder_holding_a_tournament_is_never_overwritten(tmp_path):
    run_tournament(_config(), out_dir=tmp_path)
    before = (tmp_path / GAMES_NAME).read_bytes()
    with pytest.raises(JournalError, match="holds a tournament already"):
        run_tournament(_config(), out_dir=tmp_path)
    assert (tmp_path / GAMES_NAME).read_bytes() == before


@pytest.mark.parametrize(("change", "message"), [
    ({"seed": 6}, "seed: 6 here, 5 there"),
    ({"games": 30}, "games: 30 here, 24 there"),
    ({"agents": ("random", "greedy")}, "agents:"),
])
def test_resuming_another_tournament_is_refused_with_what_differs(tmp_path, change, message):
    run_tournament(_config(), out_dir=tmp_path)
    with pytest.raises(JournalError, match=message):
        run_tournament(_config(**change), out_dir=tmp_path, resume=True)


@pytest.mark.parametrize(("damage", "message"), [
    (lambda lines: lines[:2] + ["{not json\n"] + lines[3:], "games.jsonl line 3 is damaged"),
    (lambda lines: lines[:2] + lines[3:], "lacks game 2"),
    (lambda lines: [line.replace('"deal": 0', '"deal": 7') for line in lines], "this tournament plays deal 0"),
])
def test_a_damaged_games_file_is_refused(tmp_path, damage, message):
    run_tournament(_config(), out_dir=tmp_path)
    lines = (tmp_path / GAMES_NAME).read_text().splitlines(keepends=True)
    (tmp_path / GAMES_NAME).write_text("".join(damage(lines)))
    with pytest.raises(JournalError, match=message):
        run_tournament(_config(), out_dir=tmp_path, resume=True)


def test_resume_needs_a_tournament_folder(tmp_path):
    with pytest.raises(JournalError, match="is not a tournament folder"):
        Journal.open(tmp_path)
    (tmp_path / "tournament.json").write_text("{}")
    with pytest.raises(JournalError, match="is not a tournament config"):
        Journal.open(tmp_path)
    with pytest.raises(ValueError, match="needs the out_dir"):
        run_tournament(_config(), resume=True)


def test_the_command_resumes_and_refuses_clearly(tmp_path):
    out = tmp_path / "t"
    base = ["tournament", "--agents", "random,greedy", "--games", "8", "--seed", "2", "--no-progress"]
    assert runner.invoke(app, [*base, "--out", str(out)]).exit_code == 0
    refused = runner.invoke(app, [*base, "--out", str(out)])
    assert refused.exit_code == 2 and "holds a tournament already" in flat(refused.output)
    again = runner.invoke(app, ["tournament", "--resume", str(out), "--no-progress"])
    assert again.exit_code == 0, again.output
    assert "8 games" in again.output
    differs = runner.invoke(app, ["tournament", "--resume", str(out), "--games", "10", "--players", "3"])
    assert differs.exit_code == 2
    assert "--games 10" in flat(differs.output) and "--players 3" in flat(differs.output)
    nothing = runner.invoke(app, ["tournament", "--resume", str(tmp_path)])
    assert nothing.exit_code == 2 and "not a tournament folder" in flat(nothing.output)
    (out / GAMES_NAME).write_text("{damaged\n" + (out / GAMES_NAME).read_text())
    damaged = runner.invoke(app, ["tournament", "--resume", str(out)])
    assert damaged.exit_code == 2 and "line 1 is damaged" in flat(damaged.output)


@pytest.mark.parametrize("seconds", ["0", "-1", "3601", "nan"])
def test_a_move_timeout_out_of_range_is_refused(seconds):
    result = runner.invoke(app, ["tournament", "--move-timeout", seconds, "--no-progress"])
    assert result.exit_code == 2 and "--move-timeout" in flat(result.output)


def _start(folder: Path, workers: int) -> subprocess.Popen:
    command = [sys.executable, "-m", "kingdomino_cli.main", "tournament", "--agents", "random,mc:p30",
               "--games", "4000", "--workers", str(workers), "--no-progress", "--out", str(folder)]
    return subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            cwd=Path(__file__).resolve().parents[2], preexec_fn=_interruptible)


def _interruptible() -> None:
    """In the child: Ctrl-C as at a terminal, even where the suite runs with SIGINT ignored (a shell's background
    job), which Python would otherwise leave ignored."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _wait_for_a_unit(process: subprocess.Popen, folder: Path, limit: float = 240.0) -> None:
    began = time.monotonic()
    while not (folder / UNITS_NAME).is_file() or not (folder / UNITS_NAME).read_text():
        assert process.poll() is None, process.communicate()[0]
        assert time.monotonic() - began < limit, "no unit finished"
        time.sleep(0.2)


@pytest.mark.parametrize("workers", [1, 2])
def test_ctrl_c_keeps_every_finished_game_and_a_second_one_never_hangs(tmp_path, workers):
    process = _start(tmp_path / "once", workers)
    _wait_for_a_unit(process, tmp_path / "once")
    process.send_signal(signal.SIGINT)
    output, _ = process.communicate(timeout=60)
    assert process.returncode == 130, output
    assert "Traceback" not in output and "Resume with: kingdomino tournament --resume" in output
    results = json.loads((tmp_path / "once" / "results.json").read_text())
    units = (tmp_path / "once" / UNITS_NAME).read_text().splitlines()
    lines = (tmp_path / "once" / GAMES_NAME).read_text().splitlines()
    assert results["complete"] is False and results["games_played"] == len(lines) > 0
    assert sum(json.loads(u)["games"] for u in units) == len(lines)
    twice = _start(tmp_path / "twice", workers)
    _wait_for_a_unit(twice, tmp_path / "twice")
    twice.send_signal(signal.SIGINT)
    twice.send_signal(signal.SIGINT)
    twice.communicate(timeout=60)
    assert twice.returncode == 130
    assert (tmp_path / "twice" / GAMES_NAME).read_text()
    Journal.open(tmp_path / "twice")


def test_sigterm_stops_like_ctrl_c(tmp_path):
    process = _start(tmp_path, 1)
    _wait_for_a_unit(process, tmp_path)
    os.kill(process.pid, signal.SIGTERM)
    output, _ = process.communicate(timeout=60)
    assert process.returncode == 130, output
    assert json.loads((tmp_path / "results.json").read_text())["complete"] is False


def _fifo(path: Path) -> None:
    path.unlink(missing_ok=True)
    os.mkfifo(path)


@pytest.mark.parametrize(("damage", "message"), [
    (lambda folder: (folder / "tournament.json").write_text("{not json"), "tournament.json is damaged"),
    (lambda folder: (folder / "tournament.json").write_bytes(b"\xff\xfe{}"), "is not text"),
    (lambda folder: ((folder / "tournament.json").unlink(), (folder / "tournament.json").mkdir()), "is a folder"),
    (lambda folder: _fifo(folder / "tournament.json"), "FIFO"),
    (lambda folder: _fifo(folder / GAMES_NAME), "FIFO"),
    (lambda folder: _fifo(folder / UNITS_NAME), "FIFO"),
])
def test_a_tournament_folder_with_a_bad_file_is_refused_without_blocking(tmp_path, damage, message):
    run_tournament(_config(games=4), out_dir=tmp_path)
    damage(tmp_path)
    with pytest.raises(JournalError, match=message):
        Journal.open(tmp_path)


def test_a_tournament_file_over_its_size_limit_is_refused(tmp_path, monkeypatch):
    run_tournament(_config(games=4), out_dir=tmp_path)
    monkeypatch.setitem(journal.MAX_BYTES, GAMES_NAME, 100)
    with pytest.raises(JournalError, match="at most 100 are read"):
        Journal.open(tmp_path)


def test_resume_refuses_a_file_where_a_folder_is_needed(tmp_path):
    (tmp_path / "file").write_text("x")
    result = runner.invoke(app, ["tournament", "--resume", str(tmp_path / "file")])
    assert result.exit_code == 2 and "is not a folder" in flat(result.output)


@pytest.mark.parametrize("seconds", ["5", True, float("inf"), -1.0, 0, 10**9])
def test_a_config_refuses_a_move_timeout_that_is_no_number_of_seconds_in_range(seconds):
    with pytest.raises(ValueError, match="move_timeout must be a number of seconds above 0 and at most 3600"):
        _config(move_timeout=seconds)


def test_a_resume_whose_model_file_changed_is_refused_naming_it(tmp_path):
    network = tmp_path / "net.npz"
    network.write_bytes(shipped_weights(Rules(2)).read_bytes())
    config = _config(agents=("greedy", f"mine=csearch:p2:{network}"), games=4, unit_games=2)
    out = tmp_path / "t"
    with pytest.raises(TournamentInterrupted):
        run_tournament(config, out_dir=out, progress=_interrupt_after(1))
    stored = json.loads((out / "tournament.json").read_text())["model_files"]
    assert stored == {"mine": {"file": str(network), "sha256": hashlib.sha256(network.read_bytes()).hexdigest()}}
    games = (out / GAMES_NAME).read_bytes()
    network.write_bytes(network.read_bytes() + b"\0")
    with pytest.raises(JournalError, match=f"mine's model file {network} holds other bytes than when the tournament "
                                           "started"):
        run_tournament(config, out_dir=out, resume=True)
    refused = runner.invoke(app, ["tournament", "--resume", str(out), "--no-progress"])
    assert refused.exit_code == 2 and "put that file back" in flat(refused.output)
    assert (out / GAMES_NAME).read_bytes() == games
    network.write_bytes(network.read_bytes()[:-1])
    assert run_tournament(config, out_dir=out, resume=True).complete


def test_a_folder_written_without_model_files_resumes_unchecked(tmp_path):
    run_tournament(_config(), out_dir=tmp_path)
    stored = json.loads((tmp_path / "tournament.json").read_text())
    assert stored.pop("model_files") == {}
    (tmp_path / "tournament.json").write_text(json.dumps(stored))
    assert run_tournament(_config(), out_dir=tmp_path, resume=True).complete


@pytest.mark.parametrize("damaged", [
    ["net.npz"],
    {"mine": "net.npz"},
    {"mine": {"file": "net.npz"}},
    {"mine": {"file": 3, "sha256": "0" * 64}},
    {"mine": {"file": "net.npz", "sha256": "abc"}},
    {"mine": {"file": "net.npz", "sha256": "z" * 64}},
])
def test_damaged_model_files_in_tournament_json_are_refused_naming_them(tmp_path, damaged):
    run_tournament(_config(), out_dir=tmp_path)
    stored = json.loads((tmp_path / "tournament.json").read_text())
    (tmp_path / "tournament.json").write_text(json.dumps({**stored, "model_files": damaged}))
    with pytest.raises(JournalError, match="tournament.json is damaged: model_files must map each entrant's name"):
        run_tournament(_config(), out_dir=tmp_path, resume=True)
