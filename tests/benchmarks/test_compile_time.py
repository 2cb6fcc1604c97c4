"""The compile-time check: the calibration kernel, the limits in calibration compiles, and what the check says."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from benchmarks import compile_time
from benchmarks.compile_time import CHECKED, LIMITS, ROOT, calibration_kernel, check


def test_the_calibration_kernel_counts_territories():
    terrain = np.array([[1, 1, 0], [0, 1, 2], [2, 2, 2]], dtype=np.int8)
    labels = np.zeros((3, 3), dtype=np.int32)
    assert calibration_kernel(terrain, labels, np.zeros(9, dtype=np.int64)) == (2, 4)
    assert labels[0, 0] == labels[1, 1] != labels[2, 0]


def test_every_checked_variant_has_a_limit():
    assert set(LIMITS) == set(CHECKED)
    assert set(CHECKED) <= set(compile_time.VARIANTS)


def _timed(calibration_s: float, first_game_s: float):
    def run_child(variant, cache_dir, mode="--child"):
        return {"cpu_s": calibration_s} if mode == "--calibrate-child" else {"cpu_s": first_game_s}
    return run_child


def test_a_first_game_within_its_limit_passes_and_one_past_it_fails(monkeypatch):
    monkeypatch.setattr(compile_time, "_run_child", _timed(0.5, 10.0))
    ok, text = check({"Kingdomino 2 players": 25.0})
    assert ok and "20.0 calibration compiles (limit 25): ok" in text
    monkeypatch.setattr(compile_time, "_run_child", _timed(0.5, 15.0))
    ok, text = check({"Kingdomino 2 players": 25.0, "Queendomino 2 players": 40.0})
    assert not ok
    assert "Kingdomino 2 players: cold first game 15.0 CPU s = 30.0 calibration compiles (limit 25): TOO SLOW" in text
    assert "Queendomino 2 players: cold first game 15.0 CPU s = 30.0 calibration compiles (limit 40): ok" in text


def test_the_calibration_compiles_in_a_fresh_process(tmp_path):
    env = compile_time._child_env(str(tmp_path))
    proc = subprocess.run([sys.executable, "-m", "benchmarks.compile_time", "--calibrate-child"], cwd=ROOT, env=env,
                          capture_output=True, text=True, check=True)
    timed = json.loads(proc.stdout.strip().splitlines()[-1])
    assert timed["compile_s"] > 0 and timed["cpu_s"] > 0
    assert any(tmp_path.rglob("*.nbi"))


def test_the_checked_games_kernels_can_be_kept_for_what_runs_next(monkeypatch, tmp_path):
    def run_child(variant, cache_dir, mode="--child"):
        if mode == "--calibrate-child":
            return {"cpu_s": 1.0}
        (Path(cache_dir) / "kernels" / f"{variant}.nbi").parent.mkdir(exist_ok=True)
        (Path(cache_dir) / "kernels" / f"{variant}.nbi").write_text(variant)
        return {"cpu_s": 5.0}

    monkeypatch.setattr(compile_time, "_run_child", run_child)
    keep = tmp_path / "cache"
    ok, _ = check({"Kingdomino 2 players": 10.0, "Queendomino 2 players": 10.0}, keep=keep)
    assert ok
    assert sorted(p.name for p in (keep / "kernels").iterdir()) == ["Kingdomino 2 players.nbi",
                                                                    "Queendomino 2 players.nbi"]


def test_a_keep_cache_that_is_not_a_folder_is_refused_before_any_game(monkeypatch, tmp_path, capsys):
    monkeypatch.setattr(compile_time, "check", lambda *a, **k: pytest.fail("the check ran"))
    (tmp_path / "file").write_text("x")
    os.mkfifo(tmp_path / "fifo")
    for bad, message in ((tmp_path / "file", "is not a folder"), (tmp_path / "fifo", "is not a folder")):
        with pytest.raises(SystemExit) as exit_:
            compile_time.main(["--check", "--keep-cache", str(bad)])
        assert exit_.value.code == 2 and message in capsys.readouterr().err
    with pytest.raises(SystemExit):
        compile_time.main(["--keep-cache", str(tmp_path / "new")])
    assert "goes with --check" in capsys.readouterr().err
