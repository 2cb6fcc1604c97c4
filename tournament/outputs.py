"""Writing a tournament's results: results.json, results.csv, results.md, ratings.png and games.jsonl.

games.jsonl holds one game per line: {"game", "deal", "seats", "scores", "ranks", "record"}; the record replays
with `kingdomino_env.record.replay(line["record"])`. A dynasty tournament's games also carry "match" (its index),
"match_game" (0, 1, 2), "largest" and "crowns", results.csv a "matches" column, and matches.jsonl holds one match
a line: {"match", "deal", "seats", "scores", "largest", "crowns", "ranks", "decided_by", "games"} (totals over
its games, whose indices in games.jsonl are "games").
"""

from __future__ import annotations

import csv
import json
import math
import os
import tempfile
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import IO, TYPE_CHECKING

from kingdomino_env.files import write_atomic
from kingdomino_env.rules import Rules

from .journal import game_line

if TYPE_CHECKING:
    from .runner import TournamentResult

#: The files `write_all` writes (matches.jsonl only in a dynasty tournament).
OUTPUT_NAMES = ("results.json", "results.csv", "results.md", "ratings.png", "games.jsonl", "matches.jsonl")

#: Columns of results.csv, per entrant.
CSV_COLUMNS = ("agent", "spec", "games", "wins", "outright_wins", "win_rate", "win_rate_ci_low", "win_rate_ci_high",
               "mean_score", "mean_margin", "rating_mu", "rating_sigma", "rating_ordinal", "moves",
               "seconds_per_move", "forfeits")


#: How tables, results.md and ratings.png show an undefined statistic (None; see `tournament.stats`).
UNDEFINED = "n/a"


def shown(value: float | None, spec: str) -> str:
    """`value` formatted by `spec` (a format spec such as ".1%"), or UNDEFINED when it is None."""
    return UNDEFINED if value is None else format(value, spec)


def _clean(value: object) -> object:
    """JSON has no NaN: write null instead."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {k: _clean(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_clean(v) for v in value]
    return value


def ranked_names(result: TournamentResult) -> list[str]:
    """Entrants by rating ordinal, best first (ties in entrant order)."""
    return sorted(result.agents, key=lambda n: -result.agents[n]["rating"]["ordinal"])


def csv_rows(result: TournamentResult) -> list[dict[str, object]]:
    rows = []
    for name in ranked_names(result):
        s = result.agents[name]
        rows.append({
            "agent": name, "spec": result.config.spec_of(name), "games": s["games"], "wins": s["wins"],
            "outright_wins": s["outright_wins"], "win_rate": s["win_rate"], "win_rate_ci_low": s["win_rate_ci"][0],
            "win_rate_ci_high": s["win_rate_ci"][1], "mean_score": s["mean_score"], "mean_margin": s["mean_margin"],
            "rating_mu": s["rating"]["mu"], "rating_sigma": s["rating"]["sigma"],
            "rating_ordinal": s["rating"]["ordinal"], "moves": s["moves"], "seconds_per_move": s["seconds_per_move"],
            "forfeits": s["forfeits"],
        })
        if result.config.dynasty:
            rows[-1]["matches"] = s["matches"]
    return rows


def markdown(result: TournamentResult) -> str:
    """The agent table and the pairing table in GitHub markdown (results.md).

    Args:
        result: A finished tournament.
    """
    cfg = result.config
    rules = cfg.rules
    variant = [f"{rules.players} players"] + [flag for flag in ("mighty_duel", "harmony", "middle_kingdom",
                                                                  "three_player_36") if getattr(rules, flag)]
    if rules.title != Rules().title:  # the default game goes unnamed
        variant.insert(0, rules.title)
    if rules.shared_kingdoms:
        variant.append(f"{rules.kingdoms} teams of two (statistics per seat, ratings of teams)")
    unit = "matches" if cfg.dynasty else "games"
    played = (f"{len(result.matches)} dynasty matches of 3 games ({len(result.games)} games, "
              f"{len(cfg.schedule()) * cfg.games_per_match} deals, duplicate format; scores are match totals)"
              if cfg.dynasty else f"{len(result.games)} games ({len(cfg.schedule())} deals, duplicate format)")
    lines = [
        f"Tournament: {played}, {', '.join(variant)}, seed {cfg.seed}.",
        "",
        f"| agent | {unit} | win rate (95% CI) | mean score | mean margin | rating mu ± sigma | s/move |",
        "|---|---:|---|---:|---:|---|---:|",
    ]
    for name in ranked_names(result):
        s = result.agents[name]
        low, high = s["win_rate_ci"]
        lines.append(f"| {name} | {s[unit]} | {shown(s['win_rate'], '.1%')} ({low:.1%}–{high:.1%}) "
                     f"| {shown(s['mean_score'], '.1f')} | {shown(s['mean_margin'], '+.1f')} "
                     f"| {s['rating']['mu']:.1f} ± {s['rating']['sigma']:.1f} "
                     f"| {shown(s['seconds_per_move'], '.4f')} |")
    lines += ["", f"| pairing | {unit} | first wins (95% CI) | mean scores | first's margin |",
              "|---|---:|---|---|---:|"]
    for p in result.pairings:
        a, b = p["agents"]
        low, high = p["a_win_rate_ci"]
        lines.append(f"| {a} vs {b} | {p[unit]} | {p['a_win_rate']:.1%} ({low:.1%}–{high:.1%}) "
                     f"| {p['a_mean_score']:.1f} – {p['b_mean_score']:.1f} | {p['a_mean_margin']:+.1f} |")
    return "\n".join(lines) + "\n"


def draw(result: TournamentResult, path: Path) -> None:
    """ratings.png: win rate with its 95% CI and rating mu ± 2 sigma, per entrant."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    ranked = ranked_names(result)[::-1]
    stats = [result.agents[n] for n in ranked]
    names = [name if s["win_rate"] is not None else f"{name} (win rate {UNDEFINED})"
             for name, s in zip(ranked, stats, strict=True)]
    fig, (left, right) = plt.subplots(1, 2, figsize=(10, 1.2 + 0.5 * len(names)), sharey=True)
    rates = [s["win_rate"] or 0.0 for s in stats]
    errors = [[max(0.0, r - s["win_rate_ci"][0]) for r, s in zip(rates, stats, strict=True)],
              [max(0.0, s["win_rate_ci"][1] - r) for r, s in zip(rates, stats, strict=True)]]
    left.barh(names, rates, xerr=errors, color="#4c72b0", capsize=3)
    left.axvline(1 / result.config.rules.kingdoms, color="grey", linestyle=":", linewidth=1)
    left.set_xlabel("win rate (95% CI)")
    left.set_xlim(0, 1)
    mus = [s["rating"]["mu"] for s in stats]
    right.errorbar(mus, names, xerr=[2 * s["rating"]["sigma"] for s in stats], fmt="o", color="#dd8452", capsize=3)
    right.set_xlabel("openskill rating (mu ± 2 sigma)")
    played = f"{len(result.matches)} dynasty matches" if result.config.dynasty else f"{len(result.games)} games"
    fig.suptitle(f"{played}, {result.config.players} players")
    fig.tight_layout()
    fig.savefig(path, dpi=120, format="png")
    plt.close(fig)


def check_out_dir(out_dir: str | Path) -> Path:
    """Create the results folder if needed and check that the results can be written there.

    Called before a tournament plays, so a bad folder fails at once instead of after every game.

    Args:
        out_dir: The results folder.

    Returns:
        The folder, `~` expanded.

    Raises:
        ValueError: The folder cannot be created or written, or a result's name is taken by a folder; says why.
    """
    out = Path(out_dir).expanduser()
    if out.exists() and not out.is_dir():
        raise ValueError(f"{str(out)!r} is a file; give a folder for the results (it is created if missing)")
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise ValueError(f"cannot create the folder {str(out)!r}: {err.strerror or err}") from None
    for name in OUTPUT_NAMES:
        if (out / name).is_dir():
            raise ValueError(f"{str(out / name)!r} is a folder, where the results would write the file {name}")
    try:
        handle, probe = tempfile.mkstemp(dir=out, prefix=".write-check-")
        os.close(handle)
        os.unlink(probe)
    except OSError as err:
        raise ValueError(f"cannot write in {str(out)!r}: {err.strerror or err}") from None
    return out


def _write_atomic(path: Path, write: Callable[[IO[str]], None]) -> None:
    """Write the text file `path` by `write(file)` through a temporary file renamed over it (`files.write_atomic`),
    so an interrupted write leaves the old file whole."""

    def fill(temporary: Path) -> None:
        with temporary.open("w", newline="", encoding="utf-8") as f:
            write(f)

    write_atomic(path, fill)


def write_all(result: TournamentResult, out_dir: str | Path, plot: bool = True) -> list[Path]:
    """Write every output: results.json, results.csv, results.md, ratings.png, games.jsonl (and matches.jsonl).

    Each file is written to a temporary file and renamed, so a failed write never leaves a half-written result.

    Args:
        result: A tournament, finished or (`result.complete` False) interrupted.
        out_dir: The results folder, created if needed (see `check_out_dir`).
        plot: Draw ratings.png (an interrupted tournament's results are written without it, at once).

    Returns:
        The paths written.
    """
    out = check_out_dir(out_dir)
    paths = [out / n for n in OUTPUT_NAMES[:5] if plot or n != "ratings.png"]
    _write_atomic(paths[0], lambda f: f.write(json.dumps(_clean(result.to_dict()), indent=2) + "\n"))

    def write_csv(f: IO[str]) -> None:
        writer = csv.DictWriter(f, fieldnames=CSV_COLUMNS + (("matches",) if result.config.dynasty else ()))
        writer.writeheader()
        writer.writerows(csv_rows(result))

    _write_atomic(paths[1], write_csv)
    _write_atomic(paths[2], lambda f: f.write(markdown(result)))
    if plot:
        write_atomic(paths[3], lambda temporary: draw(result, temporary))

    def write_lines(f: IO[str], rows: Iterable[dict]) -> None:
        for row in rows:
            f.write(json.dumps(row) + "\n")

    index = result.indices or list(range(len(result.games)))  # games' places in the schedule
    _write_atomic(out / "games.jsonl", lambda f: write_lines(f, (game_line(index[i], g)
                                                                 for i, g in enumerate(result.games))))
    if result.config.dynasty:
        paths.append(out / OUTPUT_NAMES[5])
        _write_atomic(paths[-1], lambda f: write_lines(f, ({**m.to_dict(), "games": [index[g] for g in m.games]}
                                                           for m in result.matches)))
    return paths
