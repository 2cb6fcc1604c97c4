"""openskill (Plackett-Luce) ratings from game rankings, updated game by game in schedule order."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from openskill.models import PlackettLuce


def rate_games(names: Sequence[str], games: Iterable[tuple[Sequence[str], Sequence[int]]],
               kingdoms: Sequence[int] | None = None) -> dict[str, dict]:
    """{name: {"mu", "sigma", "ordinal"}} after rating every (seats, ranks) game in order, from openskill's default
    prior (mu 25, sigma 25/3). ordinal = mu - 3 sigma, a conservative skill estimate.

    An entrant in several seats of one game (one-against-the-field lineups) is rated as separate players with its
    current rating, and takes the mean of their updated mu and sigma. In team games `kingdoms` gives the kingdom
    of each seat: the seats of a kingdom form one openskill team (ranked by their kingdom's rank), so the rating
    is of teams, each member updated by its team's result.
    """
    model = PlackettLuce()
    current = {name: (model.mu, model.sigma) for name in names}
    for seats, ranks in games:
        kingdom = range(len(seats)) if kingdoms is None else kingdoms
        members: dict[int, list[int]] = {}
        for seat, k in enumerate(kingdom):
            members.setdefault(k, []).append(seat)
        order = sorted(members)
        teams = [[model.rating(mu=current[seats[s]][0], sigma=current[seats[s]][1]) for s in members[k]]
                 for k in order]
        updated = model.rate(teams, ranks=[ranks[members[k][0]] for k in order])
        collected: dict[str, list[tuple[float, float]]] = {}
        for k, team in zip(order, updated, strict=True):
            for seat, rating in zip(members[k], team, strict=True):
                collected.setdefault(seats[seat], []).append((rating.mu, rating.sigma))
        for name, values in collected.items():
            current[name] = (sum(v[0] for v in values) / len(values), sum(v[1] for v in values) / len(values))
    return {name: {"mu": mu, "sigma": sigma, "ordinal": mu - 3 * sigma} for name, (mu, sigma) in current.items()}
