"""Dynasty matches: the three games a lineup plays in one seat order, ranked as the play app ranks a Dynasty.

The standing of a match comes from `kingdomino_env.dynasty.standing` (one implementation for the app and the
tournament): highest total score over the match, then the largest territories summed over its games, then crowns
summed; players still tied share the victory.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from kingdomino_env import dynasty

from .play import GameResult


@dataclass
class MatchResult:
    """One finished match: its seats, totals over its games, ranks (0 = winner), what decided first place
    ("score", "largest territory", "crowns" or "shared") and the indices of its games in the tournament."""

    match: int
    deal: int
    seats: tuple[str, ...]
    scores: tuple[int, ...]
    largest: tuple[int, ...]
    crowns: tuple[int, ...]
    ranks: tuple[int, ...]
    decided_by: str
    games: tuple[int, ...]

    def to_dict(self) -> dict:
        return {"match": self.match, "deal": self.deal, "seats": list(self.seats), "scores": list(self.scores),
                "largest": list(self.largest), "crowns": list(self.crowns), "ranks": list(self.ranks),
                "decided_by": self.decided_by, "games": list(self.games)}


def group_matches(games: Sequence[GameResult]) -> list[MatchResult]:
    """The matches of a dynasty tournament's games (each game carries its match index), in match order."""
    members: dict[int, list[int]] = {}
    for i, game in enumerate(games):
        if game.match is None:
            raise ValueError(f"game {i} belongs to no match: not a dynasty tournament")
        members.setdefault(game.match, []).append(i)
    out = []
    for match in sorted(members):
        indices = sorted(members[match], key=lambda i: games[i].match_game)
        first = games[indices[0]]
        if len({games[i].seats for i in indices}) != 1:
            raise ValueError(f"the games of match {match} do not share their seats")
        standing = dynasty.standing([dynasty.GameResult(games[i].scores, games[i].largest, games[i].crowns)
                                     for i in indices])
        out.append(MatchResult(match=match, deal=first.deal, seats=first.seats, scores=standing.scores,
                               largest=standing.largest, crowns=standing.crowns, ranks=standing.ranks,
                               decided_by=standing.decided_by, games=tuple(indices)))
    return out
