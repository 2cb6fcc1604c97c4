"""openskill (Plackett-Luce) ratings from game rankings, updated game by game in schedule order."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from openskill.models import PlackettLuce


def rate_games(names: Sequence[str], games: Iterable[tuple[Sequence[str], Sequence[int]]]) -> dict[str, dict]:
    """{name: {"mu", "sigma", "ordinal"}} after rating every (seats, ranks) game in order, from openskill's default
    prior (mu 25, sigma 25/3). ordinal = mu - 3 sigma, a conservative skill estimate.

    An entrant in several seats of one game (one-against-the-field lineups) is rated as separate players with its
    current rating, and takes the mean of their updated mu and sigma.
    """
    model = PlackettLuce()
    current = {name: (model.mu, model.sigma) for name in names}
    for seats, ranks in games:
        teams = [[model.rating(mu=current[name][0], sigma=current[name][1])] for name in seats]
        updated = model.rate(teams, ranks=list(ranks))
        collected: dict[str, list[tuple[float, float]]] = {}
        for name, (rating,) in zip(seats, updated, strict=True):
            collected.setdefault(name, []).append((rating.mu, rating.sigma))
        for name, values in collected.items():
            current[name] = (sum(v[0] for v in values) / len(values), sum(v[1] for v in values) / len(values))
    return {name: {"mu": mu, "sigma": sigma, "ordinal": mu - 3 * sigma} for name, (mu, sigma) in current.items()}
