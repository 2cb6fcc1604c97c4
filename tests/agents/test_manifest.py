"""The models' manifest lists every file in agents/models/ with its digest and size, and every listed file exists;
its entries carry what loads them, what they were trained on and the ratings the rating cards give."""

from __future__ import annotations

import json
import shutil
from dataclasses import replace
from pathlib import Path

import pytest

from agents.manifest import MANIFEST, MODELS, ROOT, check_files, load_manifest, parse_manifest, sha256_of
from training.runs import kept_names, kept_network


def test_every_model_file_is_listed_with_its_digest_and_every_entry_exists():
    entries = load_manifest()
    assert check_files(entries) == []
    listed = {e.path for e in entries}
    assert {f"agents/models/{p.name}" for p in MODELS.iterdir() if p != MANIFEST} <= listed
    assert {f"training/kept/csearch_{name}.npz" for name in kept_names()} <= listed
    for entry in entries:
        assert (ROOT / entry.path).stat().st_size == entry.bytes and sha256_of(ROOT / entry.path) == entry.sha256


def test_the_entries_say_what_made_each_network_and_how_strong_it_measured():
    entries = {e.path: e for e in load_manifest()}
    az = entries["agents/models/az_2p.az"]
    assert az.shipped and az.specs == ["az", "azmc"] and az.trained["iterations"] == 308
    assert [r["card"] for r in az.ratings] == ["docs/leaderboard/cards/2p__az.json"]
    for entry in entries.values():
        for rating in entry.ratings:
            card = json.loads((ROOT / rating["card"]).read_text())
            assert {k: rating[k] for k in ("variant", "spec", "rating", "interval", "mode", "games")} == \
                {k: card[k] for k in ("variant", "spec", "rating", "interval", "mode", "games")}, rating["card"]
    for name in kept_names():
        entry, kept = entries[f"training/kept/csearch_{name}.npz"], kept_network(name)
        assert not entry.shipped and entry.trained["iterations"] == kept.iteration
        assert entry.trained["selfplay_games"] == kept.selfplay_games
    assert entries["agents/models/az_3p.az"].ratings == []


def test_a_changed_missing_or_unlisted_file_is_found(tmp_path):
    models = tmp_path / "agents" / "models"
    models.mkdir(parents=True)
    entries = [e for e in load_manifest() if e.path in ("agents/models/ppo_2p.json", "agents/models/csearch_9_2p.npz")]
    for entry in entries:
        shutil.copyfile(ROOT / entry.path, tmp_path / entry.path)
    assert check_files(entries, tmp_path) == []
    (models / "ppo_2p.json").write_text("{}")
    (models / "extra.az").write_bytes(b"x")
    (models / "csearch_9_2p.npz").unlink()
    found = check_files(entries, tmp_path)
    assert len(found) == 3 and "agents/models/csearch_9_2p.npz: listed, but there is no such file" in found
    assert any(line.startswith("agents/models/ppo_2p.json: 2 bytes with SHA-256") for line in found)
    assert found[-1] == "agents/models/extra.az: in agents/models/ but not in the manifest"


@pytest.mark.parametrize(("change", "message"), [
    (lambda d: {**d, "format": "x"}, "is not a model manifest"),
    (lambda d: {**d, "models": {}}, "models must be a list"),
    (lambda d: {**d, "models": [{**d["models"][0], "sha256": "abc"}]}, "sha256 must be 64 lowercase hex digits"),
    (lambda d: {**d, "models": [{**d["models"][0], "bytes": -1}]}, "bytes must be a whole number"),
    (lambda d: {**d, "models": [{**d["models"][0], "shipped": False}]}, "shipped must be true exactly for files in"),
    (lambda d: {**d, "models": [{**d["models"][0], "path": "../x.az"}]}, "path must be relative"),
    (lambda d: {**d, "models": [d["models"][0], d["models"][0]]}, "listed twice"),
    (lambda d: {**d, "models": [{**d["models"][0], "kind": "dataset"}]}, "kind must be one of"),
    (lambda d: {**d, "models": [{k: v for k, v in d["models"][0].items() if k != "plays"}]}, "has exactly the keys"),
    (lambda d: {**d, "models": [{**d["models"][0], "ratings": [{"variant": "2p", "spec": "az", "rating": 9,
                                                                "interval": [10, 20]}]}]}, "interval around it"),
])
def test_a_damaged_manifest_is_named(change, message):
    data = json.loads(MANIFEST.read_text())
    with pytest.raises(ValueError, match=message):
        parse_manifest(change(data))


def test_a_manifest_file_that_is_no_json_is_refused(tmp_path):
    (tmp_path / "manifest.json").write_text("{")
    with pytest.raises(ValueError, match="manifest.json is not JSON"):
        load_manifest(tmp_path / "manifest.json")
    with pytest.raises(ValueError, match="not a regular file"):
        load_manifest(tmp_path)


def test_an_entry_round_trips_through_the_checks():
    entry = load_manifest()[0]
    assert parse_manifest({"format": "kingdomino-rl model manifest", "version": 1,
                           "models": [dict(vars(replace(entry, ratings=[])))]})[0] == replace(entry, ratings=[])
    assert Path(entry.path).parts[:2] == ("agents", "models")
