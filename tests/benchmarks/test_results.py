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


def networks_played(result: dict) -> set[str]:
    """The network files the agent specs of a result file name (the spec's last field): in its configuration, or
    in a match's hero, opponent and tournament (`benchmarks.match`)."""
    found = set()

    def walk(node: object) -> None:
        if isinstance(node, dict):
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)
        elif isinstance(node, str) and node.endswith(".npz"):
            found.add(node.rsplit(":", 1)[-1])

    walk({key: result[key] for key in ("config", "configuration", "hero", "opponent", "tournament") if key in result})
    return found


def test_a_result_that_played_an_unshipped_network_says_which_one():
    for path in sorted(RESULTS.glob("*.json")):
        result = json.loads(path.read_text())
        unshipped = {file for file in networks_played(result) if not file.startswith("agents/models/")}
        if unshipped:
            hero = result.get("hero_network")
            assert hero and (hero.get("file") or hero.get("note")), (path.name, sorted(unshipped))


def test_every_kept_network_is_named_by_a_result():
    kept = {path.relative_to(ROOT).as_posix() for path in (RESULTS / "networks").glob("*.npz")}
    assert kept == set(named_networks())


def test_a_match_file_naming_a_network_outside_the_package_is_seen():
    result = {"hero": "csearch:0.25s:training/kept/x.npz", "opponent": "mc:0.25s",
              "tournament": {"config": {"agents": ["hero=csearch:0.25s:training/kept/x.npz", "opponent=mc:0.25s"]}}}
    assert networks_played(result) == {"training/kept/x.npz"}
