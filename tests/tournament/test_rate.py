"""Standard ratings: the Elo fits, the frozen anchor table, a tiny real rating run and its card, `kingdomino rate`'s
refusals, and the leaderboard page regenerated from cards."""

from __future__ import annotations

import copy
import dataclasses
import json
import os

import pytest
from typer.testing import CliRunner

from kingdomino_cli import rate as rate_cli
from kingdomino_cli.main import app
from tests.cli_output import flat
from tournament import elo, leaderboard
from tournament.calibrate import calibration_config, calibration_pairs
from tournament.rate import CARD_FORMAT, TIMING_FIELDS, rate_spec
from tournament.standard import PIN_AGENT, VARIANTS, read_table, table_digest, variant

runner = CliRunner(env={"COLUMNS": "200"})


@pytest.fixture(autouse=True)
def wide(monkeypatch):
    monkeypatch.setattr(rate_cli.console, "width", 200)




# --- the fits ---------------------------------------------------------------------------------------------------


def rows_at(true: float, anchors: list[float], games: int) -> list[tuple[float, float, float]]:
    """Rows whose scores are exactly the expected scores of a player rated `true` (the MLE is then `true`)."""
    return [(r, games, games * elo.expected(true, r)) for r in anchors]


def test_rate_against_recovers_a_known_rating():
    estimate = elo.rate_against(rows_at(1234.0, [800, 1000, 1200, 1400], 400), prior_games=0)
    assert estimate.rating == pytest.approx(1234.0, abs=0.01)
    assert estimate.low < 1234.0 < estimate.high


def test_the_prior_keeps_all_wins_and_all_losses_finite():
    wins = elo.rate_against([(1000.0, 50, 50.0), (1400.0, 50, 50.0)])
    losses = elo.rate_against([(1000.0, 50, 0.0)])
    assert 1400 < wins.rating < 5000 and wins.low < wins.rating < wins.high
    assert -3000 < losses.rating < 1000


def test_the_interval_contains_the_estimate_and_narrows_with_more_games():
    few = elo.rate_against(rows_at(1100.0, [1000, 1200], 10))
    many = elo.rate_against(rows_at(1100.0, [1000, 1200], 1000))
    for e in (few, many):
        assert e.low < e.rating < e.high
    assert many.high - many.low < (few.high - few.low) / 5


def test_fit_ratings_recovers_a_chain_with_the_pin_held():
    true = {"a": 600.0, "greedy": 1000.0, "c": 1300.0}
    tallies = [elo.PairTally(x, y, 1000, 1000 * elo.expected(true[x], true[y]))
               for x, y in (("a", "greedy"), ("greedy", "c"), ("a", "c"))]
    fitted = elo.fit_ratings(tallies, pinned="greedy", prior_games=0)
    assert fitted["greedy"] == {"rating": 1000.0, "se": 0.0}
    for name in ("a", "c"):
        assert fitted[name]["rating"] == pytest.approx(true[name], abs=0.1)
        assert 0 < fitted[name]["se"] < 50


def test_pairwise_outcomes_give_one_per_opponent_seat():
    outcomes = elo.pairwise_outcomes(("x", "y", "y", "y"), (1, 0, 1, 2))
    assert sorted(outcomes) == [("x", "y", 0.0), ("x", "y", 0.5), ("x", "y", 1.0)]
    tallied = elo.tally(outcomes + [("y", "x", 1.0)])
    assert tallied == [elo.PairTally("x", "y", 4, 1.5)]


# --- the variants and the frozen table --------------------------------------------------------------------------


def test_every_variant_has_frozen_anchors_with_greedy_at_1000_and_random_below():
    table = read_table()
    for name, var in VARIANTS.items():
        entry = table["variants"][name]
        ratings = {spec: v["rating"] for spec, v in entry["anchors"].items()}
        assert list(ratings) == list(var.anchors)
        assert ratings[PIN_AGENT] == 1000.0
        assert ratings["random"] < 1000.0
        assert entry["rules"] == var.rules.to_dict()
        assert {"games", "seed", "date", "command", "load", "machine"} <= set(entry)
        assert table_digest(name, table).startswith("sha256:")


def test_anchors_play_at_fixed_counts_and_calibration_meets_neighbours():
    for var in VARIANTS.values():
        assert var.anchors[0] == "random" and PIN_AGENT in var.anchors
        assert all(":" not in a or a.split(":")[1].startswith("p") for a in var.anchors)
    pairs = calibration_pairs(("a", "b", "c", "d"), reach=2)
    assert pairs == [("a", "b"), ("a", "c"), ("b", "c"), ("b", "d"), ("c", "d")]
    config = calibration_config(VARIANTS["4p"], deals=1)
    assert config.total_games == 4 * 2 * len(calibration_pairs(VARIANTS["4p"].anchors))


def test_an_unknown_variant_suggests_the_closest():
    with pytest.raises(ValueError, match="did you mean 'duel'"):
        variant("deul")


# --- a tiny real rating run ---------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def small():
    """The 2-player variant with its three fast anchors only (their shipped ratings), so a run takes a second."""
    table = copy.deepcopy(read_table())
    entry = table["variants"]["2p"]
    keep = ("random", "gprd", "greedy")
    entry["anchors"] = {a: entry["anchors"][a] for a in keep}
    return dataclasses.replace(VARIANTS["2p"], anchors=keep), table


def test_random_rates_below_1000_on_a_card_with_every_field(small):
    var, table = small
    card = rate_spec("random", var, deals=2, table=table)
    assert card["format"] == CARD_FORMAT
    assert {"spec", "variant", "mode", "games", "rating", "interval", "anchors", "seconds_per_move",
            "project_version", "rules", "record_format", "anchor_table_digest", "seed", "date"} <= set(card)
    assert card["spec"] == "random" and card["variant"] == "2p" and card["games"] == 3 * 2 * 2
    assert card["rating"] < 1000
    low, high = card["interval"]
    assert low < card["rating"] < high
    for row in card["anchors"]:
        assert {"anchor", "anchor_rating", "games", "score_rate", "score_rate_interval", "mean_margin"} <= set(row)
        assert row["games"] == 4 and row["score_rate_interval"][0] <= row["score_rate"] <= row["score_rate_interval"][1]


def test_the_same_deterministic_agent_gets_the_same_card(small):
    var, table = small
    cards = [rate_spec("greedy", var, deals=1, table=table) for _ in range(2)]
    for card in cards:
        for name in TIMING_FIELDS:
            card.pop(name)
    assert cards[0] == cards[1]


# --- the command line -----------------------------------------------------------------------------------------------


def test_help_lists_every_variant():
    shown = runner.invoke(app, ["rate", "--help"])
    assert shown.exit_code == 0
    for name, var in VARIANTS.items():
        assert f"{name}: {var.description}" in flat(shown.output)


@pytest.mark.parametrize(("args", "message"), [
    (["greedy", "--variant", "dual"], "unknown variant 'dual'; did you mean 'duel'?"),
    (["grredy", "--variant", "2p"], "unknown agent spec 'grredy'"),
    (["mc:xx", "--variant", "2p"], "bad search budget 'xx'"),
    (["heuristic", "--variant", "queendomino-2p"], "heuristic plays every Kingdomino variant, not Queendomino"),
    (["greedy", "--variant", "2p", "--workers", "0"], "workers must be an integer from 1"),
])
def test_bad_input_is_refused_with_a_reason(args, message):
    result = runner.invoke(app, ["rate", *args, "--no-progress"])
    assert result.exit_code == 2, result.output
    assert message in flat(result.output)


def test_an_out_file_is_never_overwritten_nor_put_where_it_cannot_go(tmp_path):
    saved = tmp_path / "card.json"
    saved.write_text("mine")
    cases = [(saved, "exists; rate refuses to overwrite"), (tmp_path, "is a folder"),
             (tmp_path / "missing" / "card.json", "does not exist")]
    for out, message in cases:
        result = runner.invoke(app, ["rate", "greedy", "--variant", "2p", "--out", str(out), "--no-progress"])
        assert result.exit_code == 2, result.output
        assert message in flat(result.output)
    assert saved.read_text() == "mine"


def test_a_rating_is_shown_and_its_card_written_once(small, tmp_path, monkeypatch):
    var, _ = small
    monkeypatch.setattr(rate_cli, "variant", lambda name: var)
    monkeypatch.setattr("tournament.rate.MODE_GAMES", {"quick": 2, "full": 2})
    out = tmp_path / "card.json"
    result = runner.invoke(app, ["rate", "greedy", "--variant", "2p", "--quick", "--out", str(out), "--no-progress"])
    assert result.exit_code == 0, result.output
    assert "greedy on 2p (quick, 6 games): rating" in flat(result.output)
    card = json.loads(out.read_text())
    assert card["spec"] == "greedy" and card["mode"] == "quick" and card["games"] == 6
    again = runner.invoke(app, ["rate", "greedy", "--variant", "2p", "--quick", "--out", str(out), "--no-progress"])
    assert again.exit_code == 2 and json.loads(out.read_text()) == card


# --- the leaderboard --------------------------------------------------------------------------------------------------


def test_the_leaderboard_page_is_regenerated_from_cards(small, tmp_path):
    var, table = small
    cards = tmp_path / "cards"
    cards.mkdir()
    for spec in ("random", "greedy"):
        card = rate_spec(spec, var, deals=1, table=table)
        (cards / leaderboard.card_name(spec, "2p")).write_text(json.dumps(card))
    page, plot = tmp_path / "leaderboard.md", tmp_path / "leaderboard" / "plot.png"
    written = leaderboard.build(cards, page, plot)
    assert written == [page, plot] and plot.stat().st_size > 0
    text = page.read_text()
    assert "| 1 | `greedy` |" in text and "| 2 | `random` |" in text
    assert "](leaderboard/plot.png)" in text
    assert "## duel" in text and "No card yet." in text and "Not rated yet:" in text


def _fifo(path):
    os.mkfifo(path)


@pytest.mark.parametrize(("make", "message"), [
    (lambda path: path.mkdir(), "is a folder"),
    (_fifo, "FIFO"),
    (lambda path: path.write_text("{not json"), "is not JSON"),
    (lambda path: path.write_text("[1, 2]"), "is not an anchor table"),
    (lambda path: path.write_text('{"format": "other"}'), "is not an anchor table"),
])
def test_a_bad_anchor_table_is_refused_before_any_game(tmp_path, capsys, make, message):
    from tournament import calibrate

    make(tmp_path / "table.json")
    with pytest.raises(SystemExit) as stopped:
        calibrate.main(["--variant", "2p", "--table", str(tmp_path / "table.json")])
    assert stopped.value.code == 2 and message in capsys.readouterr().err


@pytest.mark.parametrize(("make", "message"), [
    (lambda path: path.mkdir(), "is a folder"),
    (_fifo, "FIFO"),
    (lambda path: path.write_text("{not json"), "is not JSON"),
    (lambda path: path.write_text('{"format": "other"}'), "is not a rating card"),
])
def test_a_bad_rating_card_is_refused_by_the_leaderboard(tmp_path, capsys, make, message):
    make(tmp_path / "card.json")
    with pytest.raises(SystemExit) as stopped:
        leaderboard.main(["--cards", str(tmp_path), "--page", str(tmp_path / "page.md"),
                          "--plot", str(tmp_path / "plot.png")])
    assert stopped.value.code == 2 and message in capsys.readouterr().err
    assert not (tmp_path / "page.md").exists()
