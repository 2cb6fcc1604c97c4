"""SIGTERM ends `kingdomino play` at once, the game in progress kept in the autosave: the app runs in a subprocess
(headless, its HOME and saves folder temporary), a random seat moves once and the human's turn comes, then the
app is sent SIGTERM; it must exit within 2 s with status 130 (an interrupted `kingdomino tournament`'s), and the
autosave must hold the game. In-process: the signal handlers, the line said on stopping, and a failed write."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from kingdomino_app import saves
from kingdomino_app.app import INTERRUPTED_STATUS, STOP_SIGNALS, App, StopSignals, stop_line
from kingdomino_app.match import Match
from kingdomino_app.seats import Seat
from kingdomino_env.rules import Rules

ROOT = Path(__file__).resolve().parents[2]
#: A seed whose starting round has the random seat (seat 1) pick first and the human (seat 2) next.
SEED = 0
#: Seconds the app may take to exit after SIGTERM.
EXIT_LIMIT = 2.0


def test_the_seed_gives_the_random_seat_one_move_before_the_human():
    match = Match([Seat("Random", "random"), Seat("Ann")], Rules(), seed=SEED)
    assert match.mover == 0
    match.play(int(np.flatnonzero(match.mask())[0]))
    assert match.human_to_move()


@pytest.mark.skipif(not hasattr(signal, "SIGTERM") or sys.platform == "win32", reason="POSIX signals")
def test_sigterm_keeps_the_game_in_the_autosave_and_exits_within_2_s(tmp_path):
    home, folder = tmp_path / "home", tmp_path / "saves"
    home.mkdir()
    env = {**os.environ, "HOME": str(home), "KINGDOMINO_SAVES": str(folder), "SDL_VIDEODRIVER": "dummy",
           "SDL_AUDIODRIVER": "dummy", "KINGDOMINO_ALLOW_HEADLESS": "1"}
    command = [sys.executable, "-m", "kingdomino_cli.main", "play", "--seat", "random", "--seat", "human",
               "--seed", str(SEED), "--pace", "0", "--saves", str(folder)]
    process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        autosave = folder / saves.AUTOSAVE_FILE
        began = time.monotonic()
        while not autosave.exists():  # written after the random seat's move: the human's turn has come
            assert process.poll() is None, process.communicate()
            assert time.monotonic() - began < 120, "the app never played the random seat's move"
            time.sleep(0.05)
        autosave.unlink()  # so that the autosave found below is the one written on SIGTERM
        sent = time.monotonic()
        process.send_signal(signal.SIGTERM)
        try:
            _, err = process.communicate(timeout=EXIT_LIMIT)
        except subprocess.TimeoutExpired:
            pytest.fail(f"still running {EXIT_LIMIT} s after SIGTERM")
        took = time.monotonic() - sent
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()
    assert process.returncode == INTERRUPTED_STATUS, err
    assert took < EXIT_LIMIT
    data = saves.read(autosave)
    assert [s.kind for s in data.seats] == ["random", "human"] and data.seed == SEED
    assert len(data.record["actions"]) == 1 and not data.state.is_over[0]
    assert Match.from_save(data, autosave=True).human_to_move()
    assert f"Stopped by SIGTERM; the game is kept as the autosave ({autosave})" in err
    assert sorted(p.name for p in folder.iterdir()) == [saves.AUTOSAVE_FILE]
    assert not (home / ".kingdomino").exists(), "nothing is saved in the user's own folder"


def test_stop_signals_are_handled_then_put_back():
    before = {number: signal.getsignal(number) for number in STOP_SIGNALS}
    stop = StopSignals()
    stop.install()
    try:
        assert all(signal.getsignal(number) == stop._handle for number in STOP_SIGNALS)
        signal.raise_signal(signal.SIGTERM)
        assert stop.received == signal.SIGTERM
    finally:
        stop.restore()
    assert {number: signal.getsignal(number) for number in STOP_SIGNALS} == before


def test_a_signal_the_caller_ignores_stays_ignored():
    stop = StopSignals()
    before = signal.signal(signal.SIGTERM, signal.SIG_IGN)
    try:
        stop.install(ignored=[signal.SIGTERM])
        assert signal.getsignal(signal.SIGTERM) is signal.SIG_IGN
    finally:
        stop.restore()
        signal.signal(signal.SIGTERM, before)


def test_the_stop_line_says_where_the_game_is_kept_or_why_not(tmp_path, monkeypatch):
    app = App(saves_dir=tmp_path / "saves", pace=0, seed=3)
    assert stop_line(app, signal.SIGTERM) == "Stopped by SIGTERM; no game was in progress."
    match = Match([Seat("Ann"), Seat("Random", "random")], Rules(), seed=3, agent_factory=app.agent_factory)
    app.show_play(match)
    assert "the game is kept as the autosave" in stop_line(app, signal.SIGINT)
    assert saves.read(app.autosave_path).record == match.record()

    def full_disk(directory, data):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(saves, "write_autosave", full_disk)
    assert stop_line(app, signal.SIGTERM) == ("Stopped by SIGTERM; the game could not be kept: Autosave failed: "
                                              "[Errno 28] No space left on device")
