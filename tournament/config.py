"""What a tournament plays: its entrants, variant, game count and seed, and the schedule derived from them.

Entrants are agent specs (`agents.load`), optionally named ``NAME=SPEC`` so one spec can enter twice or read
better in tables. Lineups (which entrants sit at one table):

* at least as many entrants as seats: every combination of `players` entrants (a round-robin of tables);
* fewer entrants than seats: one against the field: each entrant against `players - 1` copies of each other one;
* or explicit `lineups` (tuples of entrant names, repeats allowed), as the published-anchor runs use.

Duplicate format: deal i (its deck and starting king order) goes to lineup i mod L and is played once in every
distinct seat permutation of that lineup, so every entrant gets each seat with the same dominoes. `games` is
rounded up to whole deals. Deals are grouped into work units of a fixed size; each unit seeds its agents from
(seed, unit), so results do not depend on how many processes play the units.

Dynasty (`dynasty=True`): every game of that schedule becomes a match of `DYNASTY_GAMES` (3) games with the same
seats on three different deals, so `games` counts matches and the tournament plays three times as many games.
Match standings come from `kingdomino_env.dynasty` (the play app's Dynasty option): highest total score, then the
largest territories summed over the match, then crowns summed; players still tied share the victory.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass, field

import numpy as np

from agents import AgentSpecError, load
from kingdomino_env.core import deal, deal_quests
from kingdomino_env.dynasty import DYNASTY_GAMES
from kingdomino_env.rules import Rules

_NAME = re.compile(r"^[A-Za-z0-9_.\-]+$")
#: Games per work unit (batched on the core together), when every agent is fast / when one searches or loads a
#: network (smaller units spread better over workers and report progress more often).
GAMES_PER_UNIT = 64
SEARCH_GAMES_PER_UNIT = 8
_FAST_SPECS = ("random", "greedy", "gprd", "heuristic")


def _batches_well(spec: str) -> bool:
    """Whether an agent acts on many games at once cheaply: the fast baselines, and trained policies (one network
    pass for all their games), unlike search agents, whose time grows with every game."""
    spec = spec.lower()
    return spec in _FAST_SPECS or spec == "ppo" or spec.startswith("ppo:")


def parse_entrant(entry: str) -> tuple[str, str]:
    """`"NAME=SPEC"` or `"SPEC"` -> (name, spec); the name of a bare spec is the spec."""
    name, eq, spec = entry.strip().partition("=")
    if not eq:
        return entry.strip(), entry.strip()
    name, spec = name.strip(), spec.strip()
    if not _NAME.match(name):
        raise ValueError(f"entrant name {name!r} must use letters, digits, '_', '.' or '-'")
    return name, spec


def distinct_permutations(lineup: tuple[str, ...]) -> list[tuple[str, ...]]:
    """Every distinct ordering of `lineup` (a multiset), in sorted order."""
    return sorted(set(itertools.permutations(lineup)))


@dataclass(frozen=True)
class TournamentConfig:
    """A tournament. `agents`: entrant strings (`NAME=SPEC` or `SPEC`); `games`: at least this many games (with
    `dynasty`, at least this many three-game matches)."""

    agents: tuple[str, ...]
    players: int = 2
    games: int = 48
    mighty_duel: bool = False
    harmony: bool = False
    middle_kingdom: bool = False
    three_player_36: bool = False
    quests: tuple[str, ...] = ()
    random_quests: int = 0
    seed: int = 0
    lineups: tuple[tuple[str, ...], ...] | None = None
    unit_games: int | None = None
    dynasty: bool = False
    names: tuple[str, ...] = field(init=False)
    specs: tuple[str, ...] = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "agents", tuple(self.agents))
        if self.lineups is not None:
            object.__setattr__(self, "lineups", tuple(tuple(lineup) for lineup in self.lineups))
        entrants = [parse_entrant(a) for a in self.agents]
        names = tuple(n for n, _ in entrants)
        if len(names) < 1 or (len(names) < 2 and self.lineups is None):
            raise ValueError("a tournament needs at least two agents")
        duplicates = sorted({n for n in names if names.count(n) > 1})
        if duplicates:
            raise ValueError(f"agent(s) {', '.join(duplicates)} entered twice; name copies as NAME=SPEC")
        object.__setattr__(self, "names", names)
        object.__setattr__(self, "specs", tuple(s for _, s in entrants))
        self.rules()
        if not isinstance(self.games, int) or self.games < 1:
            raise ValueError(f"games must be at least 1, got {self.games}")
        if not isinstance(self.seed, int) or self.seed < 0:
            raise ValueError(f"seed must be a non-negative integer, got {self.seed!r}")
        if self.unit_games is not None and self.unit_games < 1:
            raise ValueError(f"unit_games must be at least 1, got {self.unit_games}")
        if self.lineups is not None:
            for lineup in self.lineups:
                if len(lineup) != self.players or not set(lineup) <= set(names):
                    raise ValueError(f"lineup {lineup} must seat {self.players} of the agents {', '.join(names)}")
        for name, spec in entrants:
            try:
                load(spec, seed=0)
            except AgentSpecError as err:
                raise ValueError(str(err) if name == spec else f"agent {name!r}: {err}") from None

    def rules(self) -> Rules:
        return Rules(players=self.players, mighty_duel=self.mighty_duel, harmony=self.harmony,
                     middle_kingdom=self.middle_kingdom, three_player_36=self.three_player_36,
                     quests=tuple(self.quests), random_quests=self.random_quests)

    def table_lineups(self) -> list[tuple[str, ...]]:
        """The lineups deals cycle through (see the module docstring)."""
        if self.lineups is not None:
            return [tuple(lineup) for lineup in self.lineups]
        if len(self.names) >= self.players:
            return list(itertools.combinations(self.names, self.players))
        return [(a,) + (b,) * (self.players - 1) for a in self.names for b in self.names if a != b]

    @property
    def games_per_match(self) -> int:
        """Games in one match: `DYNASTY_GAMES` in a dynasty tournament, else 1."""
        return DYNASTY_GAMES if self.dynasty else 1

    def schedule(self) -> list[tuple[int, tuple[str, ...]]]:
        """(deal index, lineup) of every deal: the fewest deals whose permutations reach `games` games (matches, in
        a dynasty tournament, where "deal" i stands for the `DYNASTY_GAMES` deals of its matches)."""
        lineups = self.table_lineups()
        out: list[tuple[int, tuple[str, ...]]] = []
        total = 0
        while total < self.games:
            lineup = lineups[len(out) % len(lineups)]
            out.append((len(out), lineup))
            total += len(distinct_permutations(lineup))
        return out

    def units(self) -> list[list[tuple[int, tuple[str, ...]]]]:
        """The schedule cut into work units of about `unit_games` games (a function of the config only; by default
        GAMES_PER_UNIT, or SEARCH_GAMES_PER_UNIT when an agent searches)."""
        deals = self.schedule()
        per_deal = max(len(distinct_permutations(lineup)) for _, lineup in deals) * self.games_per_match
        target = self.unit_games
        if target is None:
            fast = all(_batches_well(spec) for spec in self.specs)
            target = GAMES_PER_UNIT if fast else SEARCH_GAMES_PER_UNIT
        size = max(1, target // per_deal)
        return [deals[i:i + size] for i in range(0, len(deals), size)]

    def deal(self, index: int, game: int = 0) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The deck, starting king order and quest flags of deal `index` (of game `game` of its matches, in a
        dynasty)."""
        entropy = [self.seed, 0, index, game] if self.dynasty else [self.seed, 0, index]
        rng = np.random.default_rng(np.random.SeedSequence(entropy))
        rules = self.rules()
        deck, kings = deal(rules, rng)
        return deck, kings, deal_quests(rules, rng)

    def agent_seed(self, unit: int, name: str) -> int:
        """The seed of entrant `name` in work unit `unit`."""
        k = self.names.index(name)
        return int(np.random.SeedSequence([self.seed, 1, unit, k]).generate_state(1)[0])

    def spec_of(self, name: str) -> str:
        return self.specs[self.names.index(name)]

    @property
    def total_matches(self) -> int:
        """Matches played (one per game outside a dynasty)."""
        return sum(len(distinct_permutations(lineup)) for _, lineup in self.schedule())

    @property
    def total_games(self) -> int:
        return self.total_matches * self.games_per_match

    def to_dict(self) -> dict[str, object]:
        out: dict[str, object] = {
            "agents": dict(zip(self.names, self.specs, strict=True)), "players": self.players,
            "games": self.total_games, "games_requested": self.games,
            "deals": len(self.schedule()) * self.games_per_match, "rules": self.rules().to_dict(), "seed": self.seed,
            "lineups": [list(lineup) for lineup in self.table_lineups()],
        }
        if self.dynasty:
            out.update(dynasty=True, matches=self.total_matches, matches_requested=self.games,
                       games_requested=self.games * DYNASTY_GAMES)
        return out
