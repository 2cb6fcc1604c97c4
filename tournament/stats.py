"""Tournament statistics: win rates with Wilson 95% intervals, scores and margins, per entrant and per pairing.

Counting: a game is counted once per seat an entrant holds. A sole winner scores 1 win; a shared victory (equal
score, largest territory and crowns) gives each of its w winners 1/w, so win rates over the seats of a game sum
to 1. `outright_wins` counts sole victories only. Margin = own score minus the best opponent's score. In a pairing
(a, b), a beats b in a game when a ranks ahead of b (a tie counts one half), whoever else sat at the table.

Team games (the Royal Wedding with teams; `kingdoms` gives the kingdom of each seat): statistics stay per seat, each
seat credited with its team's result. A seat wins when its team does (1, or 1/w for w winning teams), so a game's
win rates over its seats sum to 2 (one per seat of the winning team); the margin is over the best other team;
teammates are no pairing (they do not compete).

Undefined statistics: a rate or mean over no games (an entrant that played none, which a schedule built by
`TournamentConfig` never leaves) is None, as is the time per move of an entrant that made no move; the outputs
write it as null (results.json), an empty cell (results.csv) and "n/a" (tables, results.md, ratings.png).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from .play import GameResult

Z95 = 1.959963984540054


def wilson_interval(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion.

    Args:
        successes: The successes (may be fractional: a shared victory counts 1/w).
        n: The trials.
        z: The normal quantile; the default gives a 95% interval.

    Returns:
        `(low, high)`; `(0, 1)` when n is 0.
    """
    if n <= 0:
        return 0.0, 1.0
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def _mean(values: Sequence[float]) -> float | None:
    """The mean of `values`; None (undefined) when there are none."""
    return sum(values) / len(values) if values else None


def _kingdoms_of(seats: int, kingdoms: Sequence[int] | None) -> Sequence[int]:
    """The kingdom of each of `seats` seats: `kingdoms`, or one per seat (no teams)."""
    return range(seats) if kingdoms is None else kingdoms


def agent_stats(names: Sequence[str], games: Sequence[GameResult], kingdoms: Sequence[int] | None = None
                ) -> dict[str, dict]:
    """Per entrant: games, wins, outright_wins, win_rate, win_rate_ci, mean_score, mean_margin (per seat held;
    `kingdoms`: the kingdom of each seat in team games, see the module docstring)."""
    wins = dict.fromkeys(names, 0.0)
    outright = dict.fromkeys(names, 0)
    scores: dict[str, list[int]] = {n: [] for n in names}
    margins: dict[str, list[int]] = {n: [] for n in names}
    for game in games:
        kingdom = _kingdoms_of(len(game.seats), kingdoms)
        winners = {kingdom[seat] for seat, rank in enumerate(game.ranks) if rank == 0}
        for seat, name in enumerate(game.seats):
            best_other = max(s for i, s in enumerate(game.scores) if kingdom[i] != kingdom[seat])
            scores[name].append(game.scores[seat])
            margins[name].append(game.scores[seat] - best_other)
            if kingdom[seat] in winners:
                wins[name] += 1 / len(winners)
                outright[name] += len(winners) == 1
    out = {}
    for name in names:
        n = len(scores[name])
        out[name] = {
            "games": n,
            "wins": wins[name],
            "outright_wins": outright[name],
            "win_rate": wins[name] / n if n else None,
            "win_rate_ci": list(wilson_interval(wins[name], n)),
            "mean_score": _mean(scores[name]),
            "mean_margin": _mean(margins[name]),
        }
    return out


def pairing_stats(names: Sequence[str], games: Sequence[GameResult], kingdoms: Sequence[int] | None = None
                  ) -> list[dict]:
    """Per pair of entrants (in entrant order) that met: head-to-head games, a's win rate over b with its CI, mean
    scores and a's mean margin over b (`kingdoms`: in team games, seats of one kingdom are not paired)."""
    table: dict[tuple[str, str], dict[str, list]] = {}
    for game in games:
        kingdom = _kingdoms_of(len(game.seats), kingdoms)
        for i, a in enumerate(game.seats):
            for j, b in enumerate(game.seats):
                if a == b or names.index(a) > names.index(b) or kingdom[i] == kingdom[j]:
                    continue
                entry = table.setdefault((a, b), {"result": [], "a": [], "b": []})
                ra, rb = game.ranks[i], game.ranks[j]
                entry["result"].append(1.0 if ra < rb else 0.5 if ra == rb else 0.0)
                entry["a"].append(game.scores[i])
                entry["b"].append(game.scores[j])
    out = []
    for (a, b), entry in sorted(table.items(), key=lambda kv: (names.index(kv[0][0]), names.index(kv[0][1]))):
        n = len(entry["result"])
        won = sum(entry["result"])
        out.append({
            "agents": [a, b],
            "games": n,
            "a_wins": won,
            "a_win_rate": won / n,
            "a_win_rate_ci": list(wilson_interval(won, n)),
            "a_mean_score": _mean(entry["a"]),
            "b_mean_score": _mean(entry["b"]),
            "a_mean_margin": _mean([x - y for x, y in zip(entry["a"], entry["b"], strict=True)]),
        })
    return out
