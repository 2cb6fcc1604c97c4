"""`python -m training.az_ladder`: checkpoints chosen from a run, a round robin with anchors, ladder.json and
ladder.png holding every entrant, and a stopped ladder's games kept and resumed."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")

from agents.az.files import save_network  # noqa: E402
from agents.az.network import AZNet, NetConfig  # noqa: E402
from training import az_ladder  # noqa: E402
from training.az_ladder import checkpoint_entry, checkpoints, last_third_trend, main, print_ladder  # noqa: E402


def _run_dir(tmp_path: Path, games: dict[int, int]) -> Path:
    """A fake run: config.json (2 players; the last variant with Harmony) and a tiny checkpoint per iteration."""
    run = tmp_path / "run"
    (run / "checkpoints").mkdir(parents=True)
    (run / "config.json").write_text(json.dumps({"variants": [{"players": 2}, {"players": 2, "harmony": True}]}))
    for iteration, played in games.items():
        torch.manual_seed(iteration)
        save_network(run / "checkpoints" / f"iter_{iteration:04d}.az", AZNet(9, NetConfig(8, 1, 16)), [2],
                     {"games": played})
    return run


def test_ladder_rates_every_checkpoint_and_anchor(tmp_path: Path, capsys):
    run = _run_dir(tmp_path, {0: 0, 4: 8})
    main([str(run), "--games", "2", "--anchors", "random,greedy", "--simulations", "4", "--seed", "3"])
    ladder = json.loads((run / "ladder.json").read_text())
    by_name = {e["name"]: e for e in ladder["entrants"]}
    assert list(by_name) == ["it0000", "it0004", "random", "greedy"]
    assert [(by_name[n]["kind"], by_name[n].get("selfplay_games")) for n in by_name] == [
        ("checkpoint", 0), ("checkpoint", 8), ("anchor", None), ("anchor", None)]
    assert by_name["it0004"]["spec"] == f"az:4:{run / 'checkpoints' / 'iter_0004.az'}"
    assert ladder["rules"]["harmony"] is True and ladder["rules"]["players"] == 2
    # 6 tables of 2 entrants, 2 games each (one deal in both seat orders): each entrant sits at 3 tables.
    assert ladder["games"] == 12 and ladder["games_per_table"] == 2
    for e in ladder["entrants"]:
        assert e["games"] == 6
        assert math.isfinite(e["rating"]["mu"]) and 0 < e["rating"]["sigma"] < 25 / 3
    assert sum(e["win_rate"] * e["games"] for e in ladder["entrants"]) == pytest.approx(12)
    assert (run / "ladder.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert ladder["last_third"] is None  # only it0004 lies in the last third of its 8 self-play games
    assert "greedy" in capsys.readouterr().out


def test_every_kth_checkpoint_and_always_the_newest(tmp_path: Path):
    folder = tmp_path / "checkpoints"
    folder.mkdir()
    for i in (0, 2, 4, 6, 8, 10):
        (folder / f"iter_{i:04d}.az").write_bytes(b"")
    (folder / "notes.az").write_bytes(b"")
    assert [i for i, _ in checkpoints(tmp_path)] == [0, 2, 4, 6, 8, 10]
    assert [i for i, _ in checkpoints(tmp_path, every=2)] == [0, 4, 8, 10]
    assert [i for i, _ in checkpoints(tmp_path, every=5)] == [0, 10]
    assert [i for i, _ in checkpoints(tmp_path, every=3)] == [0, 6, 10]


def test_refuses_a_run_without_checkpoints_or_config(tmp_path: Path, capsys):
    with pytest.raises(SystemExit) as exit_info:
        main([str(tmp_path), "--anchors", "random,greedy"])
    assert exit_info.value.code == 2
    assert "config.json" in capsys.readouterr().err
    (tmp_path / "config.json").write_text(json.dumps({"variants": [{"players": 2}]}))
    with pytest.raises(SystemExit):
        main([str(tmp_path)])
    assert "no checkpoints" in capsys.readouterr().err
    assert not (tmp_path / "ladder.json").exists()


def test_refuses_an_anchor_named_like_a_checkpoint(tmp_path: Path, capsys):
    run = _run_dir(tmp_path, {0: 0})
    with pytest.raises(SystemExit):
        main([str(run), "--anchors", "it0000=greedy"])
    assert "it0000" in capsys.readouterr().err
    assert not (run / "ladder.json").exists()


def _rated(games_and_mu: list[tuple[int, float]], sigma: float = 2.0) -> list[dict]:
    """Checkpoint entrants with these self-play games and ratings, then an anchor rated far above them."""
    out = [{"name": f"it{i:04d}", "kind": "checkpoint", "selfplay_games": games, "rating": {"mu": mu, "sigma": sigma},
            "win_rate": 0.5, "mean_margin": 0.0} for i, (games, mu) in enumerate(games_and_mu)]
    return out + [{"name": "mc", "kind": "anchor", "rating": {"mu": 90.0, "sigma": 0.5}, "win_rate": 0.5,
                   "mean_margin": 0.0}]


def test_last_third_trend_fits_only_the_last_third_of_the_run():
    # A climb until 60 games, then a line rising by 1 every 10 games: the fit sees 60, 75 and 90 only.
    trend = last_third_trend(_rated([(0, 0.0), (30, 20.0), (60, 25.0), (75, 26.5), (90, 28.0)]))
    assert trend["checkpoints"] == ["it0002", "it0003", "it0004"]
    assert (trend["from_games"], trend["to_games"]) == (60, 90)
    assert trend["change"] == pytest.approx(3.0)
    # Three equally weighted points at 0, 1/2 and 1 of the span: the slope's variance is sigma² / sum((x - 1/2)²).
    assert trend["change_sd"] == pytest.approx(2.0 / math.sqrt(0.5))
    assert trend["spread"] == pytest.approx(3.0) and trend["verdict"] == "flat"


@pytest.mark.parametrize(("rise", "verdict"), [(12.0, "rising"), (-12.0, "falling"), (2.0, "flat")])
def test_last_third_trend_verdict_at_two_standard_deviations(rise, verdict):
    points = [(60 + 5 * k, 25.0 + rise * k / 6) for k in range(7)]
    trend = last_third_trend(_rated(points, sigma=1.0))
    assert trend["change"] == pytest.approx(rise)
    assert trend["verdict"] == verdict


def test_last_third_trend_needs_two_checkpoints_at_different_games():
    assert last_third_trend(_rated([(0, 20.0), (10, 30.0)])) is None
    assert last_third_trend(_rated([(0, 20.0), (30, 25.0), (30, 26.0)])) is None
    assert last_third_trend(_rated([])) is None


def test_print_ladder_says_how_the_last_third_moves(tmp_path: Path, capsys):
    entrants = _rated([(0, 10.0), (60, 25.0), (90, 25.5)])
    print_ladder({"entrants": entrants, "last_third": last_third_trend(entrants)}, tmp_path)
    out = capsys.readouterr().out
    assert "last third (60-90 self-play games, 2 checkpoints): flat, fitted change +0.5 ± 2.8" in out


@pytest.mark.parametrize("games", [None, "800", 800.0, True, -1, 10**13])
def test_a_checkpoint_whose_metadata_gives_no_whole_count_of_games_is_refused(games):
    with pytest.raises(ValueError, match=r"checkpoint it0007 \(az:4:run/iter_0007.az\): the self-play games its "
                                         r"metadata gives must be an integer from 0 to 1000000000000, got"):
        checkpoint_entry(7, "az:4:run/iter_0007.az", games)


def test_a_ladder_of_a_checkpoint_with_damaged_metadata_stops_before_playing(tmp_path: Path, capsys):
    run = _run_dir(tmp_path, {0: 0, 4: -8})
    with pytest.raises(SystemExit):
        main([str(run), "--games", "2", "--anchors", "greedy"])
    assert "checkpoint it0004" in capsys.readouterr().err and not (run / "ladder.json").exists()


@pytest.mark.parametrize(("rating", "message"), [
    ({"mu": float("nan"), "sigma": 2.0}, "it0001's rating mu must be a number from -1e+06 to 1e+06"),
    ({"mu": "25", "sigma": 2.0}, "it0001's rating mu must be a number"),
    ({"mu": 1e300, "sigma": 2.0}, "it0001's rating mu must be a number"),
    ({"mu": 25.0, "sigma": 0.0}, "it0001's rating sigma must be a number greater than 0 and at most 1e+06"),
    ({"mu": 25.0, "sigma": float("inf")}, "it0001's rating sigma must be a number greater than 0")])
def test_last_third_trend_refuses_a_rating_that_is_not_a_number_in_range(rating, message):
    entrants = _rated([(60, 25.0), (90, 26.0)])
    entrants[1]["rating"] = rating
    with pytest.raises(ValueError, match=re.escape(message)):
        last_third_trend(entrants)


def test_last_third_trend_of_huge_game_counts_is_finite():
    trend = last_third_trend(_rated([(3 * 10**12, 25.0), (4 * 10**12, 27.0)]))
    assert trend["change"] == pytest.approx(2.0) and math.isfinite(trend["change_sd"])


def test_a_stopped_ladder_keeps_its_games_and_the_same_command_resumes_it(tmp_path: Path, monkeypatch, capsys):
    run = _run_dir(tmp_path, {0: 0, 4: 8})
    argv = [str(run), "--games", "2", "--anchors", "random,greedy", "--simulations", "4", "--seed", "3"]
    whole = _run_dir(tmp_path / "whole", {0: 0, 4: 8})
    main([str(whole), *argv[1:]])
    played = az_ladder.run_tournament
    units = []

    def stopped_after_one_unit(config, **kwargs):
        shown = kwargs["progress"]

        def progress(games: int) -> None:
            shown(games)
            units.append(games)
            if len(units) == 1:
                raise KeyboardInterrupt

        return played(config, **{**kwargs, "progress": progress})

    monkeypatch.setattr(az_ladder, "run_tournament", stopped_after_one_unit)
    with pytest.raises(SystemExit) as exit_:
        main(argv)
    assert exit_.value.code == 130 and not (run / "ladder.json").exists()
    err = capsys.readouterr().err
    kept = int(re.search(r"ladder interrupted after (\d+) of 12 games", err).group(1))
    assert 0 < kept < 12 and "the same command resumes it" in err
    monkeypatch.setattr(az_ladder, "run_tournament", played)
    main(argv)
    assert "resumed in" in capsys.readouterr().out
    ladder, expected = (json.loads((folder / "ladder.json").read_text()) for folder in (run, whole))
    assert [(e["name"], e["rating"], e["win_rate"]) for e in ladder["entrants"]] == \
        [(e["name"], e["rating"], e["win_rate"]) for e in expected["entrants"]]
    assert len(list((run / az_ladder.LADDER_GAMES).iterdir())) == 1
