"""Run folders lie outside the checkout by default, a file in a run folder's way is refused, the kept networks'
metadata agrees with their files (damaged metadata is named), and keeping a network writes its files and its manifest
entry (bad input refused before anything is written)."""

import json
import os
import shutil
from pathlib import Path

import pytest

from agents.csearch import network
from agents.manifest import MANIFEST, load_manifest
from kingdomino_env.rules import Rules
from training.runs import KEPT, check_run_dir, default_run_dir, keep_network, kept_names, kept_network, runs_root

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
    from training.csearch_net import VARIANTS

    names = kept_names()
    assert {"2p_basic", "2p_bonuses", "3p", "4p", "duel", "queendomino_2p", "royal_wedding_4p"} <= set(names)
    in_manifest = {entry.path for entry in load_manifest(MANIFEST)}
    for name in names:
        kept = kept_network(name)
        weights, meta = network.load_weights(kept.network)
        assert kept.variant in VARIANTS and (meta["iteration"], meta["selfplay_games"]) == (kept.iteration,
                                                                                            kept.selfplay_games)
        assert kept.selfplay_games > 0 and f"training/kept/csearch_{name}.npz" in in_manifest


@pytest.mark.parametrize(("change", "message"), [
    (lambda meta: "{", "is damaged: not JSON"),
    (lambda meta: json.dumps({**meta, "format": "other"}), "not the metadata of a kept network"),
    (lambda meta: json.dumps({**meta, "iteration": "223"}), "iteration must be a whole number from 1 to"),
    (lambda meta: json.dumps({**meta, "settings": {"games": 400}}), "settings must give games, simulations, window"),
    (lambda meta: json.dumps({**meta, "settings": {**meta["settings"], "window": 0}}), "window must be a whole"),
    (lambda meta: json.dumps({**meta, "settings": {**meta["settings"], "playouts": -1}}),
     "playouts must be an integer from 0 to"),
    (lambda meta: json.dumps({**meta, "settings": {**meta["settings"], "playouts": 10**8}}),
     "playouts must be an integer from 0 to 1000000, got 100000000"),
    (lambda meta: json.dumps({**meta, "settings": {**meta["settings"], "playouts": "32"}}),
     "playouts must be an integer from 0 to 1000000, got '32'"),
    (lambda meta: json.dumps({**meta, "settings": {**meta["settings"], "depth": 3}}), "and may give playouts"),
    (lambda meta: json.dumps({**meta, "settings": {**meta["settings"], "past_share": 2}}),
     "past_share must be a number from 0 to 1, got 2"),
    (lambda meta: json.dumps({**meta, "settings": {**meta["settings"], "fast_share": "half"}}),
     "fast_share must be a number from 0 to 0.95, got 'half'"),
    (lambda meta: json.dumps({**meta, "settings": {**meta["settings"], "fast_simulations": 2.5}}),
     "fast_simulations must be an integer from 0 to 1000000, got 2.5"),
    (lambda meta: json.dumps({**meta, "variant": 4}), "variant must be a variant's name"),
    (lambda meta: json.dumps({**meta, "selfplay_games": 5}), r"gives selfplay_games 5, but .* itself \d+"),
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


QUEENDOMINO = ("queendomino-2p", Rules(game="queendomino", players=2))


def _keeping_place(tmp_path: Path) -> tuple[Path, Path]:
    """(kept folder, manifest) laid out under tmp_path as in the repository, the manifest a copy of the real one."""
    folder = tmp_path / "training" / "kept"
    folder.mkdir(parents=True)
    manifest = tmp_path / "manifest.json"
    shutil.copyfile(MANIFEST, manifest)
    return folder, manifest


def _newer(tmp_path: Path, source: Path, **changes) -> Path:
    """A copy of the network `source` with its metadata changed."""
    weights, meta = network.load_weights(source)
    path = tmp_path / "net_changed.npz"
    network.save_weights(path, weights, {**meta, **changes})
    return path


def test_keeping_a_kept_network_again_writes_the_committed_manifest_entry(tmp_path):
    folder, manifest = _keeping_place(tmp_path)
    committed = kept_network("queendomino_2p")
    kept = keep_network("queendomino_2p", committed.network, *QUEENDOMINO, committed.settings, committed.about,
                        folder=folder, manifest=manifest, root=tmp_path)
    assert (kept.iteration, kept.selfplay_games, kept.settings) == (committed.iteration,
                                                                committed.selfplay_games, committed.settings)
    assert kept.network.read_bytes() == committed.network.read_bytes()
    assert load_manifest(manifest) == load_manifest(MANIFEST)


#: Optional loop settings off their defaults, and what a kept network's description says of them.
OPTIONAL_PHRASES = {
    "to the mean outcome of 32 playouts from each position": {"playouts": 32},
    "75% of its self-play decisions were searched with 50 simulations and not kept": {"fast_share": 0.75,
                                                                                     "fast_simulations": 50},
    "An earlier network played one seat in 25% of its games": {"past_share": 0.25},
}


@pytest.mark.parametrize(("optional", "phrase"), [*((v, k) for k, v in OPTIONAL_PHRASES.items()),
                                                  ({"playouts": 0, "fast_share": 0.0, "past_share": 0.0}, None)])
def test_a_kept_network_records_its_runs_optional_settings_only_where_they_are_not_their_defaults(tmp_path, optional,
                                                                                                 phrase):
    folder, manifest = _keeping_place(tmp_path)
    committed = kept_network("queendomino_2p")
    kept = keep_network("changed", committed.network, *QUEENDOMINO, {**committed.settings, **optional},
                        folder=folder, manifest=manifest, root=tmp_path)
    assert kept_network("changed", folder).settings == {**committed.settings,
                                                        **{k: v for k, v in optional.items() if v}}
    assert [p for p in OPTIONAL_PHRASES if p in kept.about] == ([phrase] if phrase else [])
    assert "squares" not in kept.about


def test_a_kept_network_that_reads_the_squares_says_so(tmp_path):
    folder, manifest = _keeping_place(tmp_path)
    squares = kept_network("duel_squares")
    kept = keep_network("squares", squares.network, "duel", Rules(players=2, mighty_duel=True, harmony=True,
                        middle_kingdom=True), squares.settings, folder=folder, manifest=manifest, root=tmp_path)
    assert kept.about.endswith("It reads each kingdom's squares as well as its dense features.")


def test_a_kept_network_replaced_by_a_later_one_has_one_entry_and_loses_its_ratings(tmp_path):
    folder, manifest = _keeping_place(tmp_path)
    committed = kept_network("queendomino_2p")
    rating = {"variant": "queendomino-2p", "spec": "csearch:p50", "rating": 1500.0, "interval": [1400.0, 1600.0]}
    data = json.loads(manifest.read_text())
    for entry in data["models"]:
        if entry["path"] == "training/kept/csearch_queendomino_2p.npz":
            entry["ratings"] = [rating]
    manifest.write_text(json.dumps(data))
    keep_network("queendomino_2p", committed.network, *QUEENDOMINO, committed.settings, folder=folder,
                 manifest=manifest, root=tmp_path)
    entries = [e for e in load_manifest(manifest) if e.path == "training/kept/csearch_queendomino_2p.npz"]
    assert [e.ratings for e in entries] == [[rating]]  # the same file keeps its ratings
    iteration, games = committed.iteration + 1, committed.selfplay_games + 120
    later = _newer(tmp_path, committed.network, iteration=iteration, selfplay_games=games)
    kept = keep_network("queendomino_2p", later, *QUEENDOMINO, committed.settings, folder=folder,
                        manifest=manifest, root=tmp_path)
    entries = [e for e in load_manifest(manifest) if e.path == "training/kept/csearch_queendomino_2p.npz"]
    assert len(entries) == 1 and entries[0].ratings == [] and entries[0].trained["iterations"] == iteration
    assert (f"net_{iteration} of the queendomino_2p run, after {games} self-play games in all; its loop's latest "
            f"settings: {committed.settings['simulations']} simulations") in kept.about
    keep_network("queendomino_2p_b", later, *QUEENDOMINO, committed.settings, folder=folder, manifest=manifest,
                 root=tmp_path)
    assert kept_names(folder) == ["queendomino_2p", "queendomino_2p_b"]
    assert len(load_manifest(manifest)) == len(load_manifest(MANIFEST)) + 1


@pytest.mark.parametrize(("name", "change", "message"), [
    ("Queendomino", {}, "lower-case letters, digits and underscores"),
    ("a/b", {}, "lower-case letters, digits and underscores"),
    ("", {}, "lower-case letters, digits and underscores"),
    ("q" * 65, {}, "lower-case letters, digits and underscores"),
    ("fresh", {"iteration": None}, "gives no iteration and self-play games"),
    ("fresh", {"selfplay_games": True}, "gives no iteration and self-play games"),
    ("fresh", {"variant": "duel"}, "is a network of duel, not of the run's variant queendomino-2p"),
    ("held", {}, r"already keeps net_\d+ of duel; net_\d+ of queendomino-2p would replace it"),
    ("queendomino_2p", {"iteration": 40}, r"already keeps net_\d+ of queendomino-2p; net_40 of"),
    ("fresh", "damaged", "not a csearch value network"),
    ("fresh", "folder", "is not a regular file"),
    ("fresh", "fifo", "is not a regular file"),
    ("fresh", "about", "--about is 2001 characters long; at most 2000"),
])
def test_keeping_refuses_bad_input_before_writing(tmp_path, name, change, message):
    folder, manifest = _keeping_place(tmp_path)
    for source, target in (("duel", "held"), ("queendomino_2p", "queendomino_2p")):
        for suffix in (".json", ".npz"):
            shutil.copyfile(KEPT / f"csearch_{source}{suffix}", folder / f"csearch_{target}{suffix}")
    committed = kept_network("queendomino_2p")
    source, about = committed.network, ""
    if change == "damaged":
        source = tmp_path / "net_9.npz"
        source.write_bytes(b"not a network")
    elif change == "folder":
        source = tmp_path / "net_9.npz"
        source.mkdir()
    elif change == "fifo":
        source = tmp_path / "net_9.npz"
        os.mkfifo(source)
    elif change == "about":
        about = "x" * 2001
    elif change:
        source = _newer(tmp_path, committed.network, **change)
    before = {path: path.read_bytes() for path in [*folder.iterdir(), manifest]}
    with pytest.raises(ValueError, match=message):
        keep_network(name, source, *QUEENDOMINO, committed.settings, about, folder=folder, manifest=manifest,
                     root=tmp_path)
    assert {path: path.read_bytes() for path in [*folder.iterdir(), manifest]} == before
