"""A standard rating: one agent against every anchor of a standard variant, rated on the variant's frozen scale.

The candidate (entrant `candidate`) plays the variant's standard deals (seed `Variant.seed`, so every agent meets
the same dominoes), duplicate format: in 2-player games each deal once in each seat; in games of more players, the
candidate against `players - 1` copies of one anchor, in every seat. Deal i goes to anchor i mod (number of
anchors). A game gives one pairwise outcome per opponent seat (1 win, 0.5 tie, 0 loss by rank), and the rating is
the maximum-likelihood one against the anchors' frozen ratings (`tournament.elo.rate_against`), with one virtual
draw against Full Greedy (1000) as a weak prior and a 95% profile-likelihood interval.

The agents' seeds come from the variant's seed too, so a deterministic agent gets the same card every time
(timing, date and load aside).
"""

from __future__ import annotations

import datetime
import math
import os
import platform
from collections.abc import Callable
from typing import Any

import kingdomino_env
from kingdomino_env.record import FORMAT as RECORD_FORMAT

from .config import TournamentConfig, seat_order_count
from .elo import PIN_RATING, PRIOR_GAMES, pairwise_outcomes, rate_against
from .runner import run_tournament
from .standard import PIN_AGENT, Variant, anchor_name, anchor_ratings, table_digest
from .stats import wilson_interval

#: Format of a rating card.
CARD_FORMAT = "kingdomino-rating-card/1"
#: The candidate's entrant name.
CANDIDATE = "candidate"
#: Games against each anchor, by mode (rounded up to whole deals: a deal is `players` games).
MODE_GAMES = {"quick": 8, "full": 32}
#: What the interval is.
INTERVAL_METHOD = "95% profile likelihood (log-likelihood within 1.92 of its maximum), prior included"
#: The card fields that depend on the machine or the moment, not on the games.
TIMING_FIELDS = ("seconds_per_move", "seconds", "date", "load", "machine")


def deals_per_anchor(var: Variant, mode: str) -> int:
    """Deals against each anchor in `mode` ("quick" or "full")."""
    if mode not in MODE_GAMES:
        raise ValueError(f"mode must be one of {', '.join(MODE_GAMES)}, got {mode!r}")
    return math.ceil(MODE_GAMES[mode] / var.rules.players)


def rating_config(spec: str, var: Variant, deals: int) -> TournamentConfig:
    """The tournament of a rating: the candidate against each anchor on `deals` deals each."""
    players = var.rules.players
    lineups = tuple((CANDIDATE,) + (anchor_name(a),) * (players - 1) for a in var.anchors)
    games = deals * sum(seat_order_count(lineup) for lineup in lineups)
    entrants = (f"{CANDIDATE}={spec}",) + tuple(f"{anchor_name(a)}={a}" for a in var.anchors)
    return TournamentConfig(agents=entrants, rules=var.rules, games=games, seed=var.seed, lineups=lineups)


def rate_spec(spec: str, var: Variant, mode: str = "quick", workers: int = 1, ray: bool | str = False,
              progress: Callable[[int], None] | None = None, deals: int | None = None,
              table: dict[str, Any] | None = None) -> dict[str, Any]:
    """Rate agent `spec` on variant `var`'s standard scale and return its rating card.

    Args:
        spec: The agent spec (`agents.load`).
        var: The standard variant.
        mode: "quick" or "full" (`MODE_GAMES` games against each anchor).
        workers: Worker processes.
        ray: Play as Ray tasks (as `run_tournament`).
        progress: Called with the number of games each finished work unit played.
        deals: Deals per anchor instead of the mode's (for tests; the card says so).
        table: An anchor table instead of the shipped one (for tests).

    Returns:
        The card: spec, variant, mode, games, rating and interval, per-anchor results, seconds per move, the games
        the agent forfeited (each counts as a loss), the project's version, the rules, the record format, the anchor
        table's digest, seed and date.

    Raises:
        ValueError: A spec that cannot play the variant, a bad worker count, or a variant with no frozen anchors.
    """
    frozen = anchor_ratings(var.name, table)
    per_anchor = deals_per_anchor(var, mode) if deals is None else deals
    config = rating_config(spec, var, per_anchor)
    load_before = os.getloadavg()
    result = run_tournament(config, workers=workers, progress=progress, ray=ray)
    rows: dict[str, dict[str, float]] = {a: {"games": 0, "outcomes": 0, "score": 0.0, "margin": 0.0}
                                         for a in var.anchors}
    spec_of = {anchor_name(a): a for a in var.anchors}
    for game in result.games:
        seat = game.seats.index(CANDIDATE)
        anchor = spec_of[next(name for name in game.seats if name != CANDIDATE)]
        row = rows[anchor]
        row["games"] += 1
        row["margin"] += game.scores[seat] - max(s for i, s in enumerate(game.scores) if i != seat)
        for a, _, score in pairwise_outcomes(game.seats, game.ranks):
            row["outcomes"] += 1
            row["score"] += score if a == CANDIDATE else 1.0 - score
    estimate = rate_against([(frozen[a], r["outcomes"], r["score"]) for a, r in rows.items()])
    anchors = []
    for a, r in rows.items():
        low, high = wilson_interval(r["score"], int(r["outcomes"]))
        anchors.append({"anchor": a, "anchor_rating": frozen[a], "games": int(r["games"]),
                        "outcomes": int(r["outcomes"]), "score_rate": r["score"] / r["outcomes"],
                        "score_rate_interval": [low, high], "mean_margin": r["margin"] / r["games"]})
    return {
        "format": CARD_FORMAT, "spec": spec, "variant": var.name,
        "mode": mode if deals is None else f"{mode} ({deals} deals per anchor)",
        "games": len(result.games), "outcomes": int(estimate.games),
        "rating": round(estimate.rating, 1), "interval": [round(estimate.low, 1), round(estimate.high, 1)],
        "interval_method": INTERVAL_METHOD,
        "prior": f"{PRIOR_GAMES:g} virtual draw against {PIN_AGENT} at {PIN_RATING:g}",
        "anchors": anchors, "seconds_per_move": result.agents[CANDIDATE]["seconds_per_move"],
        "forfeits": result.agents[CANDIDATE]["forfeits"],
        "project_version": kingdomino_env.__version__, "rules": var.rules.to_dict(), "record_format": RECORD_FORMAT,
        "anchor_table_digest": table_digest(var.name, table), "seed": var.seed, "deals_per_anchor": per_anchor,
        "date": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        "seconds": round(result.seconds, 1),
        "load": {"before": [round(x, 2) for x in load_before], "after": [round(x, 2) for x in os.getloadavg()]},
        "machine": {"platform": platform.platform(), "cpus": os.cpu_count(), "workers": workers,
                    "ray": bool(ray)},
    }
