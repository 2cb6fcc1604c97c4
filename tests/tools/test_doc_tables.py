"""The documentation's generated figures: the committed pages match their result files, a changed result file is
caught, bad markers are refused with what is wrong, and the user-guide pages stay within their size limits."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tools import doc_tables
from tools.doc_tables import Context, DocTableError

ROOT = Path(__file__).resolve().parents[2]

#: The most bytes each page may hold (1 KB = 1024 bytes): user guides, with the research in its own page.
PAGE_LIMITS = {
    "README.md": 10 * 1024,
    "docs/agents.md": 30 * 1024,
    "docs/training.md": 26 * 1024,
    "docs/research-notes.md": 16 * 1024,
    "docs/research-csearch.md": 40 * 1024,
}


def test_the_committed_pages_are_up_to_date():
    assert doc_tables.stale_pages(ROOT) == []


def test_check_from_the_command_line_passes_on_the_committed_pages():
    done = subprocess.run([sys.executable, "-m", "tools.doc_tables", "--check"], cwd=ROOT, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.mark.parametrize("page, limit", PAGE_LIMITS.items())
def test_pages_stay_within_their_size_limits(page: str, limit: int):
    size = (ROOT / page).stat().st_size
    assert size <= limit, f"{page} has {size} bytes, at most {limit} allowed"


@pytest.mark.parametrize("page", ["README.md", "docs/agents.md", "docs/training.md", "docs/research-notes.md",
                                  "docs/research-csearch.md"])
def test_the_guide_pages_have_generated_tables(page: str):
    assert doc_tables.START.search((ROOT / page).read_text(encoding="utf-8")), f"{page} has no generated table"


def _slug(heading: str) -> str:
    """The anchor mkdocs gives a heading (its default toc slugify)."""
    text = re.sub(r"[`*]", "", heading).strip().lower()
    text = re.sub(r"[^\w\s-]", "", text)
    return re.sub(r"[-\s]+", "-", text).strip("-")


def test_every_agent_anchor_the_which_agent_table_links_is_a_heading_of_the_agents_page():
    headings = {_slug(line.lstrip("#")) for line in (ROOT / "docs" / "agents.md").read_text(encoding="utf-8")
                .splitlines() if line.startswith("#")}
    assert set(doc_tables.AGENT_ANCHORS.values()) - headings == set()


def _mini_repo(tmp_path: Path) -> Path:
    """A repository root with the real rating cards, a ladder and a page holding one block of each."""
    cards = tmp_path / "docs" / "leaderboard" / "cards"
    shutil.copytree(ROOT / "docs" / "leaderboard" / "cards", cards)
    (tmp_path / "results").mkdir()
    shutil.copy(ROOT / "docs" / "csearch" / "ladder_duel_last_third.json", tmp_path / "results" / "ladder.json")
    (tmp_path / "README.md").write_text(
        "# Title\n\nProse.\n\n<!-- table: docs/leaderboard/cards/*.json -->\n<!-- /table -->\n\nMore prose.\n\n"
        "<!-- table: results/ladder.json -->\nstale text\n<!-- /table -->\n", encoding="utf-8")
    assert doc_tables.main(["--root", str(tmp_path)]) == 0
    return tmp_path


def test_writing_fills_the_blocks_and_keeps_the_prose(tmp_path: Path):
    root = _mini_repo(tmp_path)
    text = (root / "README.md").read_text(encoding="utf-8")
    assert "stale text" not in text
    assert text.startswith("# Title\n\nProse.\n\n<!-- table: docs/leaderboard/cards/*.json -->\n| variant")
    assert "\n\nMore prose.\n\n" in text and text.endswith("<!-- /table -->\n")
    assert "`csearch:p200`" in text and "iteration 223" in text and "**flat**" in text
    assert (root / "docs" / "leaderboard.md").is_file()
    assert doc_tables.stale_pages(root) == []
    assert doc_tables.main(["--root", str(root), "--check"]) == 0


def test_a_changed_rating_card_makes_check_fail_naming_the_page(tmp_path: Path, capsys):
    root = _mini_repo(tmp_path)
    card_path = root / "docs" / "leaderboard" / "cards" / "duel__csearch-p200.json"
    card = json.loads(card_path.read_text(encoding="utf-8"))
    card["rating"] += 37
    card_path.write_text(json.dumps(card), encoding="utf-8")
    assert set(doc_tables.stale_pages(root)) == {root / "README.md", root / "docs" / "leaderboard.md"}
    assert doc_tables.main(["--root", str(root), "--check"]) == 1
    out = capsys.readouterr().out
    assert "out of date: README.md" in out and "out of date: docs/leaderboard.md" in out
    doc_tables.main(["--root", str(root)])
    assert f"{card['rating']:.0f}" in (root / "README.md").read_text(encoding="utf-8")
    assert doc_tables.stale_pages(root) == []


def test_a_changed_ladder_makes_check_fail(tmp_path: Path):
    root = _mini_repo(tmp_path)
    ladder_path = root / "results" / "ladder.json"
    ladder = json.loads(ladder_path.read_text(encoding="utf-8"))
    ladder["last_third"]["verdict"] = "rising"
    ladder_path.write_text(json.dumps(ladder), encoding="utf-8")
    assert doc_tables.stale_pages(root) == [root / "README.md"]


def test_a_hand_edit_inside_a_block_makes_check_fail(tmp_path: Path):
    root = _mini_repo(tmp_path)
    page = root / "README.md"
    rating = json.loads((root / "docs" / "leaderboard" / "cards" / "duel__csearch-p200.json").read_text())["rating"]
    text, cell = page.read_text(encoding="utf-8"), f"| {rating:.0f} ("
    assert cell in text
    page.write_text(text.replace(cell, f"| {rating + 50:.0f} ("), encoding="utf-8")
    assert doc_tables.stale_pages(root) == [page]


def _block(tmp_path: Path, spec: str) -> str:
    return doc_tables.render_block(spec, Context(tmp_path, tmp_path / "README.md"))


def test_a_marker_naming_a_missing_file_is_a_clear_error(tmp_path: Path):
    with pytest.raises(DocTableError, match=r"results/nothing\.json: no such result file"):
        _block(tmp_path, "results/nothing.json")
    with pytest.raises(DocTableError, match="no such result file"):
        _block(tmp_path, "results/*.json")


def test_an_unknown_kind_is_a_clear_error_listing_the_kinds(tmp_path: Path):
    (tmp_path / "r.json").write_text("{}", encoding="utf-8")
    with pytest.raises(DocTableError, match=r"unknown kind 'histogram'; kinds: cards, ladder"):
        _block(tmp_path, "r.json kind=histogram")
    with pytest.raises(DocTableError, match=r"no renderer knows this result file; name one with kind=KIND"):
        _block(tmp_path, "r.json")


def test_an_unknown_option_or_bad_marker_is_refused(tmp_path: Path):
    shutil.copy(ROOT / "docs" / "csearch" / "ladder_4p_last_third.json", tmp_path / "l.json")
    with pytest.raises(DocTableError, match="kind ladder takes no option colour; its options: none"):
        _block(tmp_path, "l.json colour=red")
    with pytest.raises(DocTableError, match="names no result file"):
        _block(tmp_path, "kind=ladder")
    with pytest.raises(DocTableError, match="labels= gives 2 labels for 1 rows"):
        _block(tmp_path, "l.json kind=ladder_trends 'labels=a;b'")
    with pytest.raises(DocTableError, match="l.json: not a match result file"):
        _block(tmp_path, "l.json kind=match")
    with pytest.raises(DocTableError, match="cannot be read as kind throughput: missing or bad field 'core'"):
        _block(tmp_path, "l.json kind=throughput")


def test_a_ladder_trend_row_spans_every_rated_network_not_only_the_last_third(tmp_path: Path):
    ladder = json.loads((ROOT / "docs" / "csearch" / "ladder_3p_last_third.json").read_text())
    nets = [e for e in ladder["entrants"] if e["kind"] == "checkpoint"]
    for k, entrant in enumerate(nets):
        entrant["selfplay_games"] = 1000 * (k + 1)
    ladder["last_third"] = {**ladder["last_third"], "from_games": 2000, "to_games": 1000 * len(nets)}
    (tmp_path / "l.json").write_text(json.dumps(ladder))
    row = _block(tmp_path, "l.json kind=ladder_trends labels=run").splitlines()[-1]
    assert row.startswith(f"| run | {len(nets)} (1,000 to {1000 * len(nets):,}) |")


def test_an_unclosed_block_is_refused_with_its_page_and_line(tmp_path: Path):
    shutil.copy(ROOT / "docs" / "csearch" / "ladder_4p_last_third.json", tmp_path / "l.json")
    page = tmp_path / "README.md"
    page.write_text("# T\n\n<!-- table: l.json -->\n| old |\n", encoding="utf-8")
    with pytest.raises(DocTableError, match=r"README\.md:3: the block has no <!-- /table -->"):
        doc_tables.stale_pages(tmp_path)
    assert doc_tables.main(["--root", str(tmp_path), "--check"]) == 2


def test_a_match_row_pools_its_files_with_a_wilson_interval(tmp_path: Path):
    spec = ('"benchmarks/results/csearch/duel_vs_mc_0.25s_new_net_seed*.json" '
            '"labels=the shipped duel network"')
    row = doc_tables.render_block(spec, Context(ROOT, ROOT / "README.md")).splitlines()[2]
    wins = [doc_tables.read_match(p).wins for p in sorted((ROOT / "benchmarks" / "results" / "csearch")
                                                            .glob("duel_vs_mc_0.25s_new_net_seed*.json"))]
    from tournament.stats import wilson_interval

    low, high = wilson_interval(sum(wins), 160)
    assert row.startswith("| the shipped duel network | `mc:0.25` | Mighty Duel, both bonuses | ")
    assert f"of 160 | {100 * sum(wins) / 160:.1f}% ({100 * low:.1f}–{100 * high:.1f}%)" in row


def _match_file(path: Path, games: int, wins: float, margin: float) -> None:
    path.write_text(json.dumps({"hero": "csearch:0.25s", "opponent": "mc:0.25s", "rules": {"players": 2},
                                "hero_figures": {"games": games, "win_rate": wins / games, "mean_margin": margin}}),
                    encoding="utf-8")


def test_a_target_row_shows_the_measured_figure_less_its_target(tmp_path: Path):
    _match_file(tmp_path / "a.json", 200, 170, 12.0)
    _match_file(tmp_path / "b.json", 100, 100, 55.0)
    rows = _block(tmp_path, "a.json b.json 'targets=80%;+80' 'labels=duel;2p'").splitlines()
    assert rows[0].startswith("| variant | against | games | won (95% interval) | margin | target |")
    assert rows[2].startswith("| duel | `mc:0.25s` | 200 | 85.0% (")
    assert rows[2].endswith("| +12.0 | won ≥ 80% | +5.0 (met) |")
    assert rows[3].endswith("| +55.0 | margin ≥ +80 | −25.0 (missed) |")


@pytest.mark.parametrize("targets, message", [
    ("80%", "targets= gives 1 targets for 2 rows"),
    ("80%;eighty", "'eighty' is neither a win rate from 0% to 100% such as 85% nor a margin from +0 to +1000"),
    ("80%;120%", "'120%' is neither a win rate"),
    ("80%;-5%", "'-5%' is neither a win rate"),
    ("80%;1e400%", "'1e400%' is neither a win rate"),
    ("80%;nan%", "'nan%' is neither a win rate"),
    ("80%;80", "'80' is neither a win rate"),
    ("80%;-80", "'-80' is neither a win rate"),
    ("80%;+1e400", "'+1e400' is neither a win rate"),
    ("80%;+5000", "'+5000' is neither a win rate"),
    ("80%;+nan", "'+nan' is neither a win rate"),
    ("80%;", "'' is neither a win rate"),
])
def test_bad_targets_are_refused_saying_what_is_allowed(tmp_path: Path, targets: str, message: str):
    _match_file(tmp_path / "a.json", 10, 5, 0.0)
    _match_file(tmp_path / "b.json", 10, 5, 0.0)
    with pytest.raises(DocTableError, match=re.escape(message)):
        _block(tmp_path, f"a.json b.json 'targets={targets}'")


def test_the_kept_networks_table_follows_their_metadata(tmp_path: Path):
    root = tmp_path / "repo"
    kept = root / "training" / "kept"
    kept.mkdir(parents=True)
    for name in ("duel", "queendomino_2p"):
        shutil.copyfile(ROOT / "training" / "kept" / f"csearch_{name}.json", kept / f"csearch_{name}.json")
    (kept / "README.md").write_text('Kept.\n\n<!-- table: "training/kept/csearch_*.json" -->\n<!-- /table -->\n')
    assert doc_tables.write_pages(root) == [kept / "README.md"]
    rows = [line for line in (kept / "README.md").read_text().splitlines() if line.startswith("| `")]
    assert rows == ["| `duel` | `duel` | net_223 | 89,200 | 400 | 200 | 12 iterations | 8 | outcome | – |",
                    "| `queendomino_2p` | `queendomino-2p` | net_125 | 9,000 | 120 | 100 | 12 iterations | 4 | "
                    "outcome | – |"]
    meta = json.loads((kept / "csearch_duel.json").read_text())
    varied = {"playouts": 32, "fast_share": 0.75, "fast_simulations": 50, "past_share": 0.25}
    (kept / "csearch_duel.json").write_text(json.dumps({**meta, "settings": {**meta["settings"], **varied}}))
    doc_tables.write_pages(root)
    assert ("| 12 iterations | 8 | mean of 32 playouts | 75.0% of decisions at 50 simulations; an earlier network "
            "in 25.0% of games |") in (kept / "README.md").read_text()
    meta = json.loads((kept / "csearch_duel.json").read_text())
    (kept / "csearch_duel.json").write_text(json.dumps({**meta, "iteration": 224}))
    assert doc_tables.stale_pages(root) == [kept / "README.md"]


def test_a_csearch_log_table_reads_both_log_layouts_orders_runs_by_name_and_sums_their_self_play_time(tmp_path: Path):
    def line(iteration: int, games: int, cpu: float | None) -> str:
        return json.dumps({"iteration": iteration, "selfplay_games": games, "selfplay_cpu_seconds": cpu,
                           "epoch": 0, "holdout_win_bce": 0.5, "holdout_margin_mse": 0.04})

    (tmp_path / "log_a.jsonl").write_text("".join(line(k, 400 * (k + 1), 1800.0) + "\n" for k in range(3)))
    (tmp_path / "log_b_to_9.jsonl").write_text(line(8, 90, None) + "\n" + line(9, 100, 360.0) + "\n")
    (tmp_path / "log_b_squares.jsonl").write_text(line(12, 300, 0.0) + "\n")
    (tmp_path / "log_c.csv").write_text("iteration,selfplay_games_before,holdout_win_bce,holdout_margin_mse\n"
                                        "7,2800,0.51234,0.04321\n")
    (tmp_path / "README.md").write_text('<!-- table: "log_*" -->\n<!-- /table -->\n')
    doc_tables.write_pages(tmp_path)
    rows = [line for line in (tmp_path / "README.md").read_text().splitlines() if line.startswith("| ")][1:]
    assert rows == ["| a | net_3 | 1,200 | 0.5000 | 0.0400 | 1.50 |",
                    "| b | net_10 | 100 | 0.5000 | 0.0400 | 0.10 (1 of 2 iterations) |",
                    "| b_squares | net_13 | 300 | 0.5000 | 0.0400 | 0.00 |",
                    "| c | net_7 | 2,800 | 0.5123 | 0.0432 | – |"]
    assert "1.60 self-play core-hours recorded in all." in (tmp_path / "README.md").read_text()
    (tmp_path / "log_a.jsonl").write_text(line(0, 400, 1.0) + "\n[1, 2]\n")
    with pytest.raises(DocTableError, match="log_a.jsonl: every line of a JSON-lines result file must be a JSON"):
        doc_tables.write_pages(tmp_path)


def test_a_value_fit_table_shows_each_network_and_the_references(tmp_path: Path):
    fit = {"format": "kingdomino-rl csearch value fit", "variant": "duel", "data": ["held.npz"], "positions": 1200,
           "games": 15, "reference": {
               "constant": {"win_mse_vs_outcome": 0.25, "margin_mae_vs_outcome": 17.2, "win_mse_vs_playouts": 0.11,
                            "margin_mae_vs_playouts": 12.0},
               "playouts": {"win_mse_vs_outcome": 0.15, "margin_mae_vs_outcome": 12.2}},
           "networks": [{"file": "a/net.npz", "sha256": "0" * 64, "games": 3000, "positions": 240000,
                         "squares": True, "target": "playouts", "win_mse_vs_outcome": 0.17612,
                         "margin_mae_vs_outcome": 13.04, "win_mse_vs_playouts": 0.0468,
                         "margin_mae_vs_playouts": 9.21}]}
    (tmp_path / "fit.json").write_text(json.dumps(fit))
    (tmp_path / "README.md").write_text('<!-- table: fit.json "labels=distilled" -->\n<!-- /table -->\n')
    assert doc_tables.write_pages(tmp_path) == [tmp_path / "README.md"]
    rows = [line for line in (tmp_path / "README.md").read_text().splitlines() if line.startswith("| ")][1:]
    assert rows == ["| distilled | squares and dense inputs, playouts targets, 3,000 games | 0.1761 | 0.0468 | 13.0 "
                    "| 9.2 |",
                    "| the data's mean (a constant) | – | 0.2500 | 0.1100 | 17.2 | 12.0 |",
                    "| the playouts' means | – | 0.1500 | – | 12.2 | – |"]
    fit["networks"][0]["win_mse_vs_playouts"] = 0.05
    (tmp_path / "fit.json").write_text(json.dumps(fit))
    assert doc_tables.stale_pages(tmp_path) == [tmp_path / "README.md"]


def test_a_csearch_speed_table_shows_each_variant_and_leaf_valuation(tmp_path: Path):
    speed = {"date": "2026-12-06T04:00:00+00:00", "seconds_per_move": 0.25, "games": 2,
             "load_average_before": [0.4, 0.5, 0.6], "load_average_after": [1.0, 1.0, 1.0],
             "machine": {"cpu": "AMD EPYC", "logical_cpus": 2},
             "rows": [{"variant": "duel", "leaves": "default", "playout_mix": None, "network": "csearch_13_2p.npz",
                       "simulations": 400000, "decisions": 150, "seconds": 31.2, "simulations_per_s": 12820.5,
                       "simulations_per_move": 2666.7},
                      {"variant": "duel", "leaves": "playout alone", "playout_mix": 1.0, "network": None,
                       "simulations": 300000, "decisions": 150, "seconds": 31.0, "simulations_per_s": 9677.4,
                       "simulations_per_move": 2000.0}]}
    (tmp_path / "speed.json").write_text(json.dumps(speed))
    (tmp_path / "README.md").write_text("<!-- table: speed.json -->\n<!-- /table -->\n")
    assert doc_tables.write_pages(tmp_path) == [tmp_path / "README.md"]
    text = (tmp_path / "README.md").read_text()
    assert "| `duel` | default (`csearch_13_2p.npz`) | 12,820 | 2,667 | 150 |" in text
    assert "| `duel` | playout alone | 9,677 | 2,000 | 150 |" in text
    assert "2 whole games a row at 0.25 s a move" in text and "load average 0.4 before" in text


def test_a_priors_fit_table_shows_each_variant_with_the_hand_set_and_fitted_figures(tmp_path: Path):
    fitted = {"format": "kingdomino-rl csearch priors", "weights": {}, "variant": "duel", "data": ["v.npz"],
              "games": 150, "decisions": 11800, "held_out_games": 15,
              "held_out_cross_entropy": {"hand": 1.8123, "fitted": 1.7004},
              "held_out_chosen_prior": {"hand": 0.2514, "fitted": 0.3019}}
    (tmp_path / "p.json").write_text(json.dumps(fitted))
    (tmp_path / "README.md").write_text("<!-- table: p.json -->\n<!-- /table -->\n")
    assert doc_tables.write_pages(tmp_path) == [tmp_path / "README.md"]
    assert "| `duel` | 150 | 11,800 | 15 | 1.812 | 1.700 | 0.251 | 0.302 |" in (tmp_path / "README.md").read_text()


@pytest.mark.parametrize("kind, content", [
    ("priors_fit", {"format": "kingdomino-rl csearch priors", "variant": "duel", "games": 3}),
    ("value_fit", {"format": "kingdomino-rl csearch value fit", "networks": []}),
    ("value_fit", {"format": "kingdomino-rl csearch value fit", "networks": [{"file": "a.npz"}],
                   "reference": {"constant": {}}, "positions": 1, "games": 1}),
    ("csearch_speed", {"rows": [{"variant": "duel"}], "seconds_per_move": 0.25}),
])
def test_a_damaged_result_file_of_the_new_kinds_is_named(tmp_path: Path, kind: str, content: dict):
    (tmp_path / "r.json").write_text(json.dumps(content))
    (tmp_path / "README.md").write_text("<!-- table: r.json -->\n<!-- /table -->\n")
    with pytest.raises(doc_tables.DocTableError, match=f"r.json cannot be read as kind {kind}: missing or bad field"):
        doc_tables.write_pages(tmp_path)
