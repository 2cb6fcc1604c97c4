"""Elo ratings by maximum likelihood from pairwise outcomes (Bradley–Terry on the Elo scale).

The expected score of a against b is ``1 / (1 + 10 ** ((Rb - Ra) / 400))``. A game gives one pairwise outcome for
every two seats held by different entrants (1 a win, 0.5 a tie, 0 a loss, by rank), so a multi-player game of one
agent against copies of another gives one outcome per opponent seat. Outcomes are treated as independent, which
they are not quite within one game: intervals of multi-player ratings are somewhat too narrow.

Two fits:

* `fit_ratings`: every entrant's rating at once (the anchor calibration), one entrant pinned (Full Greedy at 1000);
* `rate_against`: one rating against frozen ratings (a candidate against the anchors), by 1-D Newton, with a
  profile-likelihood 95% interval.

Both add a weak prior, `PRIOR_GAMES` virtual draws against the pinned entrant, so that an entrant that wins or
loses every game still gets a finite rating (pulled towards the pin by about as much as one game weighs).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

#: Natural-log slope of the Elo scale: expected score = 1 / (1 + exp(-SLOPE * (Ra - Rb))).
SLOPE = math.log(10) / 400
#: The rating every scale is pinned to (Full Greedy's).
PIN_RATING = 1000.0
#: Virtual draws against the pinned rating each fitted entrant gets (the weak prior).
PRIOR_GAMES = 1.0
#: Half the 95% quantile of chi-squared with one degree of freedom: the log-likelihood drop at a 95% profile bound.
PROFILE_DROP = 3.841458820694124 / 2
#: How far (Elo) from the estimate the interval search looks before giving up (a bound beyond it is reported there).
SEARCH_SPAN = 4000.0


@dataclass(frozen=True)
class PairTally:
    """Outcomes of a against b: `games` pairwise outcomes and a's `score` in them (wins + half the ties)."""

    a: str
    b: str
    games: float
    score: float


def expected(ra: float, rb: float) -> float:
    """The expected score of a player rated `ra` against one rated `rb`."""
    return 1.0 / (1.0 + 10.0 ** ((rb - ra) / 400.0))


def pairwise_outcomes(seats: Sequence[str], ranks: Sequence[int]) -> list[tuple[str, str, float]]:
    """(a, b, a's score) for every two seats of a game held by different entrants (0 is the best rank)."""
    out = []
    for i in range(len(seats)):
        for j in range(i + 1, len(seats)):
            if seats[i] != seats[j]:
                score = 1.0 if ranks[i] < ranks[j] else 0.5 if ranks[i] == ranks[j] else 0.0
                out.append((seats[i], seats[j], score))
    return out


def tally(outcomes: Iterable[tuple[str, str, float]]) -> list[PairTally]:
    """Outcomes summed per unordered pair (in first-seen order, each pair named once)."""
    sums: dict[tuple[str, str], list[float]] = {}
    for a, b, score in outcomes:
        key, own = ((a, b), score) if (b, a) not in sums else ((b, a), 1.0 - score)
        entry = sums.setdefault(key, [0.0, 0.0])
        entry[0] += 1
        entry[1] += own
    return [PairTally(a, b, n, s) for (a, b), (n, s) in sums.items()]


def fit_ratings(tallies: Sequence[PairTally], pinned: str, pin: float = PIN_RATING,
                prior_games: float = PRIOR_GAMES, iterations: int = 100) -> dict[str, dict[str, float]]:
    """Every entrant's maximum-likelihood rating, `pinned` held at `pin`.

    Args:
        tallies: Pairwise outcomes per pair (`tally`).
        pinned: The entrant whose rating is fixed.
        pin: Its rating.
        prior_games: Virtual draws of every other entrant against `pinned` (keeps all-wins finite).
        iterations: Newton steps at most (the log-likelihood is concave; it converges in a few).

    Returns:
        {name: {"rating", "se"}}: the rating and its standard error from the observed information (0 for the pin).

    Raises:
        ValueError: `pinned` plays in no tally.
    """
    names = sorted({t.a for t in tallies} | {t.b for t in tallies})
    if pinned not in names:
        raise ValueError(f"{pinned!r} plays no game here, so the scale cannot be pinned to it")
    free = [n for n in names if n != pinned]
    index = {n: i for i, n in enumerate(free)}
    rows = list(tallies) + [PairTally(n, pinned, prior_games, prior_games / 2) for n in free if prior_games > 0]
    ratings = np.full(len(free), float(pin))

    def rating(name: str) -> float:
        return pin if name == pinned else float(ratings[index[name]])

    hessian = np.zeros((len(free), len(free)))
    for _ in range(iterations):
        gradient = np.zeros(len(free))
        hessian = np.zeros((len(free), len(free)))
        for t in rows:
            p = expected(rating(t.a), rating(t.b))
            g = SLOPE * (t.score - t.games * p)
            h = SLOPE * SLOPE * t.games * p * (1 - p)
            for name, sign in ((t.a, 1.0), (t.b, -1.0)):
                if name in index:
                    gradient[index[name]] += sign * g
            ia, ib = index.get(t.a), index.get(t.b)
            if ia is not None:
                hessian[ia, ia] += h
            if ib is not None:
                hessian[ib, ib] += h
            if ia is not None and ib is not None:
                hessian[ia, ib] -= h
                hessian[ib, ia] -= h
        step = np.linalg.solve(hessian, gradient) if len(free) else gradient
        step = np.clip(step, -400.0, 400.0)
        ratings = ratings + step
        if len(free) == 0 or np.max(np.abs(step)) < 1e-9:
            break
    covariance = np.linalg.inv(hessian) if len(free) else hessian
    out = {pinned: {"rating": pin, "se": 0.0}}
    for name in free:
        i = index[name]
        out[name] = {"rating": float(ratings[i]), "se": float(math.sqrt(max(covariance[i, i], 0.0)))}
    return {name: out[name] for name in names}


def log_likelihood(rating: float, opponents: Sequence[tuple[float, float, float]]) -> float:
    """The log-likelihood of a player rated `rating` against (opponent rating, games, score) rows."""
    total = 0.0
    for other, games, score in opponents:
        x = SLOPE * (rating - other)
        # log p = -log(1 + e^-x), log(1 - p) = -log(1 + e^x), written to stay finite far from the opponent.
        total -= score * np.logaddexp(0.0, -x) + (games - score) * np.logaddexp(0.0, x)
    return float(total)


@dataclass(frozen=True)
class Estimate:
    """A rating against frozen opponents: the estimate and its 95% profile-likelihood interval."""

    rating: float
    low: float
    high: float
    games: float


def rate_against(opponents: Sequence[tuple[float, float, float]], pin: float = PIN_RATING,
                 prior_games: float = PRIOR_GAMES) -> Estimate:
    """The maximum-likelihood rating of one player against frozen ratings, by 1-D Newton.

    Args:
        opponents: (opponent rating, pairwise outcomes, the player's score in them) rows.
        pin: The rating of the prior's virtual opponent.
        prior_games: Virtual draws against `pin` (keeps a player that wins or loses everything finite).

    Returns:
        The estimate and its 95% interval: where the log-likelihood (prior included) falls `PROFILE_DROP` below
        its maximum (a likelihood-ratio interval, which stays sensible near 0% or 100% where Fisher's does not).
    """
    rows = [(float(r), float(n), float(s)) for r, n, s in opponents if n > 0]
    if prior_games > 0:
        rows.append((pin, prior_games, prior_games / 2))
    games = sum(n for _, n, _ in opponents)
    if not rows:
        return Estimate(pin, -math.inf, math.inf, 0.0)
    rating = pin
    for _ in range(200):
        gradient = hessian = 0.0
        for other, n, s in rows:
            p = expected(rating, other)
            gradient += SLOPE * (s - n * p)
            hessian += SLOPE * SLOPE * n * p * (1 - p)
        if hessian <= 0:
            break
        step = max(-400.0, min(400.0, gradient / hessian))
        rating += step
        if abs(step) < 1e-9:
            break
    top = log_likelihood(rating, rows) - PROFILE_DROP
    low = _crossing(rows, top, rating, rating - SEARCH_SPAN)
    high = _crossing(rows, top, rating, rating + SEARCH_SPAN)
    return Estimate(rating, low, high, games)


def _crossing(rows: Sequence[tuple[float, float, float]], level: float, inside: float, outside: float) -> float:
    """Where the log-likelihood crosses `level` between `inside` (above it) and `outside`, by bisection."""
    if log_likelihood(outside, rows) >= level:
        return outside
    for _ in range(60):
        middle = (inside + outside) / 2
        if log_likelihood(middle, rows) >= level:
            inside = middle
        else:
            outside = middle
    return (inside + outside) / 2


def ratings_table(fitted: Mapping[str, Mapping[str, float]]) -> list[tuple[str, float]]:
    """(name, rating) from strongest to weakest."""
    return sorted(((n, v["rating"]) for n, v in fitted.items()), key=lambda item: -item[1])
