"""benchmarks.az_speed: what its results file records about the networks it timed."""

from __future__ import annotations

from benchmarks.az_speed import shown_files


def test_a_shipped_network_is_named_by_its_file_and_a_temporary_one_by_none(tmp_path):
    networks = {"duel": {"file": str(tmp_path / "models" / "az_duel.az"), "weights": "shipped", "config": {}},
                "4p": {"file": str(tmp_path / "fresh_13_4p.az"), "weights": "fresh (untrained)", "config": {}}}
    shown = shown_files(networks)
    assert shown["duel"] == {"file": "az_duel.az", "weights": "shipped", "config": {}}
    assert shown["4p"]["file"] is None and shown["4p"]["weights"] == "fresh (untrained)"
    assert networks["duel"]["file"].endswith("models/az_duel.az")
