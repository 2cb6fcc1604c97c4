"""Plots of `az` training runs: the learning curve (win rate of each checkpoint against the evaluation opponents,
by self-play games) and the ladder (openskill ratings of checkpoints and baselines, `training.az_ladder`)."""

from __future__ import annotations

import csv
import json
from pathlib import Path

from kingdomino_env.files import write_atomic


def _pyplot():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def plot_learning_curve(eval_csv: Path, path: Path, title: str | None = None) -> None:
    """Win rate (with its 95% interval) against each opponent, by self-play games played; from `eval.csv`."""
    with Path(eval_csv).open(newline="") as f:
        rows = list(csv.DictReader(f))
    if not rows:
        return
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(6, 3.5))
    for opponent in dict.fromkeys(r["opponent"] for r in rows):
        mine = [r for r in rows if r["opponent"] == opponent]
        games = [int(r["games_played"]) for r in mine]
        ax.plot(games, [float(r["win_rate"]) for r in mine], marker="o", label=f"vs {opponent}")
        ax.fill_between(games, [float(r["win_rate_low"]) for r in mine], [float(r["win_rate_high"]) for r in mine],
                        alpha=0.2)
    ax.axhline(0.5, color="grey", lw=0.8, ls="--")
    ax.set_xlabel("self-play games (0 = after the greedy warm start)")
    ax.set_ylabel("win rate")
    ax.set_ylim(0, 1)
    ax.grid(alpha=0.3)
    ax.legend(loc="lower right")
    if title:
        ax.set_title(title)
    fig.tight_layout()
    write_atomic(path, lambda tmp: fig.savefig(tmp, dpi=120, format="png"), suffix=".png")
    plt.close(fig)


def plot_ladder(ladder_json: Path, path: Path, title: str | None = None) -> None:
    """Rating mu ± sigma of each checkpoint by self-play games played, the anchors as horizontal lines (± sigma
    shaded); from `ladder.json` (`training.az_ladder`)."""
    entrants = json.loads(Path(ladder_json).read_text())["entrants"]
    points = sorted((e for e in entrants if e["kind"] == "checkpoint"), key=lambda e: e["selfplay_games"])
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(6, 3.5))
    if points:
        ax.errorbar([e["selfplay_games"] for e in points], [e["rating"]["mu"] for e in points],
                    yerr=[e["rating"]["sigma"] for e in points], marker="o", capsize=3, label="checkpoints")
    colors = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    for k, anchor in enumerate(e for e in entrants if e["kind"] == "anchor"):
        mu, sigma = anchor["rating"]["mu"], anchor["rating"]["sigma"]
        color = colors[(k + 1) % len(colors)]
        ax.axhline(mu, color=color, lw=1, ls="--", label=anchor["name"])
        ax.axhspan(mu - sigma, mu + sigma, color=color, alpha=0.12)
    ax.set_xlabel("self-play games (0 = after the greedy warm start)")
    ax.set_ylabel("rating (openskill mu ± sigma)")
    ax.grid(alpha=0.3)
    ax.legend(loc="best", fontsize="small")
    if title:
        ax.set_title(title)
    fig.tight_layout()
    write_atomic(path, lambda tmp: fig.savefig(tmp, dpi=120, format="png"), suffix=".png")
    plt.close(fig)
