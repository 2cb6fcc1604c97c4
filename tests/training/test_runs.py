"""Run folders lie outside the checkout by default, a file in a run folder's way is refused, and the kept networks'
metadata agrees with their files (damaged metadata is named)."""

import json
import shutil
from pathlib import Path

import pytest

from training.runs import KEPT, check_run_dir, default_run_dir, kept_names, kept_network, runs_root

ROOT = Path(__file__).resolve().parents[2]


def test_the_runs_folder_follows_the_variables_and_lies_outside_the_checkout(monkeypatch, tmp_path):
    monkeypatch.delenv("KINGDOMINO_RUNS", raising=False)
    monkeypatch.delenv("XDG_DATA_HOME", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert runs_root() == tmp_path / "home" / ".local" / "share" / "kingdomino-rl" / "runs"
    monkeypatch.setenv("XDG_DATA_HOME", "relative/data")  # the XDG specification: a relative path is ignored
    assert runs_root() == tmp_path / "home" / ".local" / "share" / "kingdomino-rl" / "runs"
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    assert runs_root() == tmp_path / "data" / "kingdomino-rl" / "runs"
    monkeypatch.setenv("KINGDOMINO_RUNS", str(tmp_path / "runs"))
    assert default_run_dir("csearch_duel") == tmp_path / "runs" / "csearch_duel"
    assert ROOT not in default_run_dir("az").parents
    for bad in ("", "a/b", ".."):
        with pytest.raises(ValueError, match="a run name is one folder name"):
            default_run_dir(bad)


def test_a_file_in_a_run_folders_way_is_refused_and_kept(tmp_path):
    taken = tmp_path / "notes.txt"
    taken.write_text("mine")
    with pytest.raises(ValueError, match="notes.txt is a file, not a run folder"):
        check_run_dir(taken)
    with pytest.raises(ValueError, match="lies under .*notes.txt, which is a file, not a folder"):
        check_run_dir(taken / "run")
    assert taken.read_text() == "mine"
    assert check_run_dir(tmp_path / "new" / "run") == tmp_path / "new" / "run" and not (tmp_path / "new").exists()


def test_every_kept_network_agrees_with_its_metadata():
    assert kept_names() == ["2p_basic", "2p_bonuses", "4p", "duel", "queendomino_2p", "royal_wedding_4p"]
    counters = {name: (kept_network(name).variant, kept_network(name).iteration, kept_network(name).selfplay_games)
                for name in kept_names()}
    assert counters == {"duel": ("duel", 223, 89200), "2p_bonuses": ("2p-bonuses", 262, 104800),
                        "2p_basic": ("2p", 267, 106800), "4p": ("4p", 129, 51600),
                        "queendomino_2p": ("queendomino-2p", 52, 3120),
                        "royal_wedding_4p": ("royal-wedding-4p", 22, 528)}


@pytest.mark.parametrize(("change", "message"), [
    (lambda meta: "{", "is damaged: not JSON"),
    (lambda meta: json.dumps({**meta, "format": "other"}), "not the metadata of a kept network"),
    (lambda meta: json.dumps({**meta, "iteration": "223"}), "iteration must be a whole number of at least 1"),
    (lambda meta: json.dumps({**meta, "settings": {"games": 400}}), "settings must give games, simulations, window"),
    (lambda meta: json.dumps({**meta, "settings": {**meta["settings"], "window": 0}}), "window must be a whole"),
    (lambda meta: json.dumps({**meta, "variant": 4}), "variant must be a variant's name"),
    (lambda meta: json.dumps({**meta, "selfplay_games": 5}), "gives selfplay_games 5, but .* itself 89200"),
])
def test_damaged_kept_metadata_is_named(tmp_path, change, message):
    for suffix in (".json", ".npz"):
        shutil.copyfile(KEPT / f"csearch_duel{suffix}", tmp_path / f"csearch_duel{suffix}")
    meta = json.loads((tmp_path / "csearch_duel.json").read_text())
    (tmp_path / "csearch_duel.json").write_text(change(meta))
    with pytest.raises(ValueError, match=message):
        kept_network("duel", tmp_path)


def test_a_kept_network_whose_file_is_gone_is_named(tmp_path):
    shutil.copyfile(KEPT / "csearch_duel.json", tmp_path / "csearch_duel.json")
    with pytest.raises(ValueError, match="csearch_duel.npz"):
        kept_network("duel", tmp_path)
    with pytest.raises(ValueError, match="no kept network named '4p'; kept: duel"):
        kept_network("4p", tmp_path)
