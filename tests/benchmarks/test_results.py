"""benchmarks/results/csearch: every network a result file names is kept, unchanged, and every kept one is named."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
RESULTS = ROOT / "benchmarks" / "results" / "csearch"


def named_networks() -> dict[str, str]:
    """The kept network files the result files name, each with the SHA-256 it was recorded with."""
    named = {}
    for path in sorted(RESULTS.glob("*.json")):
        hero = json.loads(path.read_text()).get("hero_network")
        if hero and hero.get("file"):
            named[hero["file"]] = hero["sha256"]
    return named


def test_named_networks_are_kept_with_the_recorded_digest():
    named = named_networks()
    assert named
    for file, sha256 in named.items():
        assert hashlib.sha256((ROOT / file).read_bytes()).hexdigest() == sha256, file


def test_every_kept_network_is_named_by_a_result():
    kept = {path.relative_to(ROOT).as_posix() for path in (RESULTS / "networks").glob("*.npz")}
    assert kept == set(named_networks())
