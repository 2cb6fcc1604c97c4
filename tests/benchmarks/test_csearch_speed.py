"""The csearch speed benchmark times whole games per leaf valuation and refuses bad input with a message."""

import json

import pytest

from benchmarks.csearch_speed import main
from benchmarks.throughput import pin_cpu


def test_it_times_every_leaf_valuation_of_a_variant_with_a_network(tmp_path, capsys):
    main(["--variants", "2p", "--games", "1", "--seconds", "0.01", "--cpu", "-1", "--out", str(tmp_path / "s.json")])
    result = json.loads((tmp_path / "s.json").read_text())
    assert [row["leaves"] for row in result["rows"]] == ["default", "network alone", "playout alone"]
    assert [row["network"] for row in result["rows"]] == ["csearch_9_2p.npz", "csearch_9_2p.npz", None]
    for row in result["rows"]:
        assert row["decisions"] > 10 and row["simulations"] > row["decisions"] and row["seconds"] > 0
        assert row["simulations_per_s"] == pytest.approx(row["simulations"] / row["seconds"])
    assert "simulations/s" in capsys.readouterr().out


@pytest.mark.parametrize("argv, message", [
    (["--variants", "5p"], "--variants must name variants of duel, 2p"),
    (["--variants", ","], "--variants must name variants of"),
    (["--games", "0"], "--games must be from 1 to 1000, got 0"),
    (["--games", "1001"], "--games must be from 1 to 1000, got 1001"),
    (["--games", "two"], "invalid int value: 'two'"),
    (["--seconds", "61"], "--seconds must be from 0.01 to 60, got 61.0"),
    (["--seconds", "-1"], "--seconds must be from 0.01 to 60, got -1.0"),
    (["--cpu", "4096"], "--cpu must be -1 (no pinning) or a CPU this process may run on"),
    (["--cpu", "first"], "invalid int value: 'first'"),
    (["--out", "{tmp}/no/such/folder/s.json"], "--out must be a file in an existing folder"),
    (["--seconds", "0"], "--seconds must be from 0.01 to 60, got 0.0"),
    (["--seconds", "nan"], "--seconds must be from 0.01 to 60, got nan"),
    (["--out", "{tmp}"], "--out must be a file in an existing folder"),
])
def test_bad_input_is_refused_with_a_message(tmp_path, capsys, argv, message):
    with pytest.raises(SystemExit) as exit_:
        main([a.replace("{tmp}", str(tmp_path)) for a in argv])
    assert exit_.value.code == 2 and message in capsys.readouterr().err


def test_pinning_to_a_cpu_this_process_may_not_run_on_is_refused():
    with pytest.raises(ValueError, match=r"--cpu must be -1 \(no pinning\) or a CPU this process may run on"):
        pin_cpu(4096)
    assert pin_cpu(-1) is None
