"""What a tournament plays: its entrants, variant, game count and seed, and the schedule derived from them.

Entrants are agent specs (`agents.load`: the project's agents, an outside agent's `MODULE:ATTR` or `PATH.py:ATTR`,
an installed entry point), optionally named ``NAME=SPEC`` so one spec can enter twice or read better in tables, or
Python objects: an `agents.Agent`, an `Agent` subclass or factory, or a policy `policy(observation, action_mask) ->
int` (`agents.external`), named by their `name` attribute or their own name. Outside agents, and every agent when
`move_timeout` is set, play under the referee (`referee`): a fault forfeits the game.

Lineups (which entrants sit at one table):

* at least as many entrants as seats: every combination of `players` entrants (a round-robin of tables);
* fewer entrants than seats: one against the field: each entrant against `players - 1` copies of each other one;
* or explicit `lineups` (tuples of entrant names, repeats allowed), as the published-anchor runs use.

Duplicate format: deal i (its deck and starting king order) goes to lineup i mod L and is played once in every
distinct seat permutation of that lineup, so every entrant gets each seat with the same dominoes. `games` is
rounded up to whole deals, and further up, where needed, to a complete schedule: the fewest deals (in that order)
in which every entrant holds every seat that the lineups can give it and meets every entrant that the lineups can
seat against it (`complete_deals`; `rounding` says why a tournament plays more games than asked). Deals are
grouped into work units of a fixed size; each unit seeds its agents from (seed, unit), so results do not depend on
how many processes play the units.

Queendomino (`rules=Rules(game="queendomino", players=P)`): a deal is also its building pile (the core's
3-tuple deal, seeded per deal as Kingdomino's); every other feature is the same.

The Royal Wedding with teams (`rules=Rules(game="royal_wedding", players=6 or 8, teams=True)`): a team (seats 2t
and 2t + 1, one shared kingdom) is the unit. The generated lineups seat each entrant as a whole team (both seats),
so a lineup is K = P / 2 entrants: every combination of K entrants, or with fewer entrants one team of each against
K - 1 teams of each other one. Explicit `lineups` still name every seat (mixed teams allowed). The duplicate format
permutes teams, not seats (each team keeps its two seats in order), so every team plays every team position with
the same dominoes; `seat_orders` gives those orders.

Dynasty (`dynasty=True`): every game of that schedule becomes a match of `DYNASTY_GAMES` (3) games with the same
seats on three different deals, so `games` counts matches and the tournament plays three times as many games.
Match standings come from `kingdomino_env.dynasty` (the play app's Dynasty option): highest total score, then the
largest territories summed over the match, then crowns summed; players still tied share the victory.
"""

from __future__ import annotations

import itertools
import math
import pickle
import re
from collections import Counter
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from typing import NamedTuple

import numpy as np

from agents import AgentSpecError, check_supports, is_external
from agents.external import check_entrant_object
from kingdomino_env.core import deal, deal_quests
from kingdomino_env.dynasty import DYNASTY_GAMES
from kingdomino_env.pickling import PickledAsSnapshot
from kingdomino_env.rules import Rules, short_repr

_NAME = re.compile(r"^[A-Za-z0-9_.\-]+$")
#: Games per work unit (batched on the core together), when every agent is fast / when one searches or loads a
#: network (smaller units spread better over workers and report progress more often).
GAMES_PER_UNIT = 64
SEARCH_GAMES_PER_UNIT = 8
_FAST_SPECS = ("random", "greedy", "gprd", "heuristic")
#: The most games one tournament plays: every game's result and record is held in memory until the end (about 3 KB
#: a 2-player game, 6 KB a Mighty Duel game, measured), so this bounds it at about 1 GB (and games.jsonl at about as
#: much). Play more as several tournaments with different seeds.
MAX_GAMES = 200_000
#: Seeds are kept within int64, so they read back the same in any tool that loads results.json or results.csv.
MAX_SEED = 2**63 - 1
#: The longest time limit per decision a tournament takes, in seconds.
MAX_MOVE_TIMEOUT = 3600.0
#: The time limit per decision of an outside agent when the tournament sets none, so that an agent that hangs
#: forfeits its game instead of stopping the tournament.
OUTSIDE_MOVE_TIMEOUT = 60.0
#: How the spec of an entrant entered as a Python object begins (in results and tables).
OBJECT_PREFIX = "python:"


def _batches_well(spec: str) -> bool:
    """Whether an agent acts on many games at once cheaply: the fast baselines, and trained policies (one network
    pass for all their games), unlike search agents, whose time grows with every game."""
    spec = spec.lower()
    return (spec in _FAST_SPECS or spec == "ppo" or spec.startswith("ppo:") or spec == "az:0"
            or spec.startswith("az:0:"))


class Deal(NamedTuple):
    """One game's deal: deck (0-based domino ids in draw order), starting king order, quest flags (17,) and, in
    Queendomino, the building pile (0-based tile ids in draw order; None in Kingdomino)."""

    deck: np.ndarray
    kings: np.ndarray
    quests: np.ndarray
    buildings: np.ndarray | None = None


def _object_name(entry: object) -> str:
    """The name of an entrant entered as a Python object: its `name` attribute (an `Agent`'s), else its own
    `__name__` (a class or function), else its type's; characters a name cannot hold become '_'."""
    name = getattr(entry, "name", None)
    if not isinstance(name, str) or not name or name == "agent":
        name = getattr(entry, "__name__", None) or type(entry).__name__
    return re.sub(r"[^A-Za-z0-9_.\-]", "_", str(name))


def _pickled(name: str, entry: object) -> bytes:
    """An entrant object as bytes that worker and agent processes load: by value where cloudpickle can (objects
    defined in a script or a notebook), else by reference."""
    try:
        import cloudpickle

        return cloudpickle.dumps(entry)
    except Exception:  # noqa: BLE001 - fall back to the standard pickle, whose error is the one to show
        try:
            return pickle.dumps(entry)
        except Exception as err:  # noqa: BLE001 - pickling can fail in many ways
            raise ValueError(f"entrant {name!r} cannot be sent to a worker process ({type(err).__name__}: {err}); "
                             "define it in a module, or enter it as a MODULE:ATTR spec") from None


def parse_entrant(entry: str) -> tuple[str, str]:
    """`"NAME=SPEC"` or `"SPEC"` -> (name, spec); the name of a bare spec is the spec."""
    if not isinstance(entry, str) or not entry.strip():
        raise ValueError(f"an entrant is an agent spec or NAME=SPEC, got {entry!r}")
    name, eq, spec = entry.strip().partition("=")
    if not eq:
        return entry.strip(), entry.strip()
    name, spec = name.strip(), spec.strip()
    if not _NAME.match(name):
        raise ValueError(f"entrant name {name!r} (in {entry.strip()!r}) must be letters, digits, '_', '.' or '-'")
    if not spec:
        raise ValueError(f"entrant {name!r} has no agent spec: write NAME=SPEC, e.g. {name}=greedy")
    return name, spec


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def distinct_permutations(lineup: tuple[str, ...]) -> list[tuple[str, ...]]:
    """Every distinct ordering of `lineup` (a multiset), in sorted order."""
    return sorted(set(itertools.permutations(lineup)))


@lru_cache(maxsize=64)
def _kingdom_seats(seat_kingdoms: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """The seats of each kingdom, in order, from the kingdom of each seat (`Rules.seat_kingdoms`)."""
    kingdoms = sorted(set(seat_kingdoms))
    return tuple(tuple(p for p, k in enumerate(seat_kingdoms) if k == kingdom) for kingdom in kingdoms)


def _kingdoms_of(lineup: tuple[str, ...], seat_kingdoms: tuple[int, ...] | None) -> tuple[tuple[int, ...], ...]:
    """The seats of each kingdom of `lineup`; `seat_kingdoms` is the kingdom of each seat, None for one kingdom per
    seat."""
    return _kingdom_seats(tuple(range(len(lineup))) if seat_kingdoms is None else tuple(seat_kingdoms))


def _groups_of(lineup: tuple[str, ...], seat_kingdoms: tuple[int, ...] | None) -> list[tuple[str, ...]]:
    """The names of `lineup` kingdom by kingdom."""
    return [tuple(lineup[p] for p in seats) for seats in _kingdoms_of(lineup, seat_kingdoms)]


def kingdom_permutations(lineup: tuple[str, ...], seat_kingdoms: tuple[int, ...] | None = None
                         ) -> list[tuple[str, ...]]:
    """Every distinct ordering of the kingdoms of `lineup` (a kingdom's seats stay together, in order; one kingdom
    per seat without `seat_kingdoms`: `distinct_permutations`), flattened back to seats, in sorted order."""
    orders = set(itertools.permutations(_groups_of(lineup, seat_kingdoms)))
    return sorted(tuple(name for group in order for name in group) for order in orders)


def seat_order_count(lineup: tuple[str, ...], seat_kingdoms: tuple[int, ...] | None = None) -> int:
    """How many seat orders one deal of `lineup` is played in (`len` of `kingdom_permutations`), counted without
    listing them: the multinomial coefficient of its kingdoms."""
    groups = _groups_of(lineup, seat_kingdoms)
    count = math.factorial(len(groups))
    for repeats in Counter(groups).values():
        count //= math.factorial(repeats)
    return count


def lineup_meetings(lineup: tuple[str, ...], seat_kingdoms: tuple[int, ...] | None = None
                    ) -> frozenset[tuple[str, str | int]]:
    """What one deal of `lineup`, played in all its seat orders (`kingdom_permutations`), gives its entrants:
    (name, seat) for every seat an entrant holds in some order, and (a, b) (a < b) for every two entrants that play
    against each other in it (of different kingdoms: a kingdom keeps its seat order, so an entrant holds its own
    place among the seats of every kingdom position)."""
    kingdoms, groups = _kingdoms_of(lineup, seat_kingdoms), _groups_of(lineup, seat_kingdoms)
    seats = {(name, kingdom[i]) for group in groups for i, name in enumerate(group) for kingdom in kingdoms}
    pairs = {(min(a, b), max(a, b)) for first, second in itertools.combinations(groups, 2)
             for a in first for b in second if a != b}
    return frozenset(seats | pairs)


@dataclass(frozen=True)
class TournamentConfig(PickledAsSnapshot):
    """A tournament: who plays, in which variant, how many games. Everything is checked on construction, before
    any game is played, including that every agent can play the variant (`agents.check_supports`, which loads no
    model).

    Args:
        agents: Entrant strings, `NAME=SPEC` or `SPEC` (at least two unless `lineups` are given).
        rules: The variant every game is played in (players, bonuses, quests: a `Rules`, the one place a variant's
            options are defined).
        games: At least this many games (with `dynasty`, at least this many three-game matches), rounded up to
            whole deals and to a complete schedule: `total_games` is what is played, `rounding` says why it
            differs from `games`.
        seed: Seeds every deal and every agent.
        lineups: Explicit lineups (tuples of entrant names, one per seat, repeats allowed) instead of the generated
            ones.
        unit_games: Games per work unit (each unit seeds its agents from the seed and the unit); None for the
            default.
        dynasty: Play three-game matches (Dynasty), ranked on their totals.
        move_timeout: Seconds each decision may take, for every entrant (each then plays in a process of its
            own, one decision at a time); a slower decision forfeits its game. None: no limit for the project's
            agents, and `OUTSIDE_MOVE_TIMEOUT` for outside agents.

    Raises:
        ValueError: A bad entrant, variant, count or lineup, or an agent that cannot play the variant.
    """

    agents: tuple[str, ...]
    rules: Rules = Rules()
    games: int = 48
    seed: int = 0
    lineups: tuple[tuple[str, ...], ...] | None = None
    unit_games: int | None = None
    dynasty: bool = False
    move_timeout: float | None = None
    names: tuple[str, ...] = field(init=False)
    specs: tuple[str, ...] = field(init=False)
    objects: dict[str, bytes] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        """Check everything before any game is played: entrants, variant, counts, and that every agent can play
        the variant (`agents.check_supports`, which loads no model)."""
        if isinstance(self.agents, str) or not isinstance(self.agents, (tuple, list)):
            raise ValueError(f"agents must be a sequence of agent specs (or NAME=SPEC) or agent objects, got "
                             f"{self.agents!r:.200}")
        object.__setattr__(self, "agents", tuple(self.agents))
        if self.lineups is not None:
            if isinstance(self.lineups, str) or not all(isinstance(lu, (tuple, list)) for lu in self.lineups):
                raise ValueError(f"lineups must be a sequence of tuples of entrant names, got {self.lineups!r}")
            object.__setattr__(self, "lineups", tuple(tuple(lineup) for lineup in self.lineups))
        objects: dict[str, bytes] = {}
        entrants = []
        for entry in self.agents:
            if isinstance(entry, str):
                entrants.append(parse_entrant(entry))
                continue
            name = _object_name(entry)
            try:
                what = check_entrant_object(entry)
            except AgentSpecError as err:
                raise ValueError(f"an entrant is an agent spec (or NAME=SPEC) or an agent object: {err}") from None
            objects[name] = _pickled(name, entry)
            entrants.append((name, OBJECT_PREFIX + what))
        names = tuple(n for n, _ in entrants)
        if len(names) < 1 or (len(names) < 2 and self.lineups is None):
            raise ValueError(f"a tournament needs at least two agents, got {len(names)}; valid specs: "
                             "see `kingdomino agents`")
        duplicates = sorted({n for n in names if names.count(n) > 1})
        if duplicates:
            raise ValueError(f"agent(s) {', '.join(duplicates)} entered twice; name copies as NAME=SPEC")
        object.__setattr__(self, "names", names)
        object.__setattr__(self, "specs", tuple(s for _, s in entrants))
        object.__setattr__(self, "objects", objects)
        if self.move_timeout is not None and (isinstance(self.move_timeout, bool)
                                              or not isinstance(self.move_timeout, int | float)
                                              or not 0 < self.move_timeout <= MAX_MOVE_TIMEOUT):
            raise ValueError(f"move_timeout must be a number of seconds above 0 and at most {MAX_MOVE_TIMEOUT:g}, "
                             f"or None, got {self.move_timeout!r}")
        if not isinstance(self.rules, Rules):
            raise ValueError(f"rules must be a kingdomino_env.rules.Rules, e.g. Rules(players=4, harmony=True), got "
                             f"{short_repr(self.rules)}")
        if not isinstance(self.dynasty, bool):
            raise ValueError(f"dynasty must be True or False, got {self.dynasty!r}")
        per_match = self.games_per_match
        if not _is_int(self.games) or not 1 <= self.games * per_match <= MAX_GAMES:
            unit = "matches (of 3 games)" if self.dynasty else "games"
            raise ValueError(f"games must be an integer from 1 to {MAX_GAMES // per_match} {unit}, got "
                             f"{self.games!r}: every game's record is held in memory until the end (about 6 KB a "
                             "game); play more as several tournaments with different seeds")
        if not _is_int(self.seed) or not 0 <= self.seed <= MAX_SEED:
            raise ValueError(f"seed must be an integer from 0 to {MAX_SEED} (2**63 - 1), got {self.seed!r}")
        if self.unit_games is not None and (not _is_int(self.unit_games) or not 1 <= self.unit_games <= MAX_GAMES):
            raise ValueError(f"unit_games must be an integer from 1 to {MAX_GAMES}, got {self.unit_games!r}")
        if self.lineups is not None:
            if not self.lineups:
                raise ValueError("lineups, when given, must hold at least one lineup")
            for lineup in self.lineups:
                if len(lineup) != self.players or not set(lineup) <= set(names):
                    raise ValueError(f"lineup {lineup} must seat {self.players} of the agents {', '.join(names)}")
            seated = {name for lineup in self.lineups for name in lineup}
            missing = [name for name in names if name not in seated]
            if missing:
                raise ValueError(f"agent(s) {', '.join(missing)} sit in no lineup: every agent entered must sit in "
                                 "at least one (or leave it out of the agents)")
        for name, spec in entrants:
            if name in objects:
                continue
            try:
                check_supports(spec, self.rules)
            except AgentSpecError as err:
                raise ValueError(str(err) if name == spec else f"agent {name!r}: {err}") from None
        self._check_schedule_size()

    def _check_schedule_size(self) -> None:
        """Refuse a schedule that, once rounded up, plays more than MAX_GAMES games, naming what would fit."""
        if self.total_games <= MAX_GAMES:
            return
        per_match = self.games_per_match
        unit = "matches (of 3 games)" if self.dynasty else "games"
        complete = self._matches_in(self.complete_deals)
        if complete * per_match > MAX_GAMES:
            raise ValueError(f"these {len(self.names)} agents need at least {complete} {unit} for every agent to play "
                             f"every seat and meet every other one ({self.complete_deals} deals), more than the "
                             f"{MAX_GAMES} games a tournament plays: enter fewer agents")
        lineups = self._lineups
        fitting = 0
        for index in itertools.count():
            more = seat_order_count(lineups[index % len(lineups)], self.rules.seat_kingdoms)
            if (fitting + more) * per_match > MAX_GAMES:
                break
            fitting += more
        raise ValueError(f"games {self.games} rounds up to {self.total_matches} {unit} (whole deals, each played in "
                         f"every seat order of its table), more than the {MAX_GAMES} games a tournament plays: ask "
                         f"for at most {fitting}")

    @property
    def players(self) -> int:
        """Players per game (`rules.players`)."""
        return self.rules.players

    @property
    def kingdoms(self) -> tuple[int, ...] | None:
        """The kingdom of each seat where seats share kingdoms (`rules.seat_kingdoms`), None otherwise."""
        return self.rules.seat_kingdoms if self.rules.shared_kingdoms else None

    def table_lineups(self) -> list[tuple[str, ...]]:
        """The lineups deals cycle through (see the module docstring); in team games each entrant fills both seats
        of its team."""
        if self.lineups is not None:
            return [tuple(lineup) for lineup in self.lineups]
        units = self.rules.kingdoms
        if len(self.names) >= units:
            tables = list(itertools.combinations(self.names, units))
        else:
            tables = [(a,) + (b,) * (units - 1) for a in self.names for b in self.names if a != b]
        return [tuple(table[k] for k in self.rules.seat_kingdoms) for table in tables]

    def seat_orders(self, lineup: tuple[str, ...]) -> list[tuple[str, ...]]:
        """The seat orders one deal of a lineup is played in.

        Args:
            lineup: Entrant names, one per seat.

        Returns:
            Every distinct permutation of the lineup's kingdoms (of its seats, or in team games of its teams:
                `kingdom_permutations`).
        """
        return kingdom_permutations(lineup, self.rules.seat_kingdoms)

    @property
    def games_per_match(self) -> int:
        """Games in one match: `DYNASTY_GAMES` in a dynasty tournament, else 1."""
        return DYNASTY_GAMES if self.dynasty else 1

    @cached_property
    def _lineups(self) -> tuple[tuple[str, ...], ...]:
        return tuple(self.table_lineups())

    def _matches_in(self, deals: int) -> int:
        """Matches (games, outside a dynasty) played by the first `deals` deals."""
        lineups = self._lineups
        return sum(seat_order_count(lineups[i % len(lineups)], self.rules.seat_kingdoms) for i in range(deals))

    @cached_property
    def _deals_asked(self) -> int:
        """The fewest deals whose seat orders reach `games` matches."""
        lineups, deals, total = self._lineups, 0, 0
        while total < self.games:
            total += seat_order_count(lineups[deals % len(lineups)], self.rules.seat_kingdoms)
            deals += 1
        return deals

    @cached_property
    def complete_deals(self) -> int:
        """The fewest deals (in schedule order) in which every entrant holds every seat the lineups can give it and
        meets every entrant the lineups can seat against it (`lineup_meetings`), at least once."""
        meetings = [lineup_meetings(lineup, self.rules.seat_kingdoms) for lineup in self._lineups]
        wanted = frozenset().union(*meetings)
        covered = itertools.accumulate(meetings, frozenset.union)
        return next(deals for deals, seen in enumerate(covered, start=1) if seen == wanted)

    @cached_property
    def _schedule(self) -> tuple[tuple[int, tuple[str, ...]], ...]:
        lineups = self._lineups
        deals = max(self._deals_asked, self.complete_deals)
        return tuple((i, lineups[i % len(lineups)]) for i in range(deals))

    def schedule(self) -> list[tuple[int, tuple[str, ...]]]:
        """(deal index, lineup) of every deal: the fewest deals whose permutations reach `games` games (matches, in
        a dynasty tournament, where "deal" i stands for the `DYNASTY_GAMES` deals of its matches), and at least the
        `complete_deals`."""
        return list(self._schedule)

    @property
    def rounding(self) -> str | None:
        """Why the tournament plays `total_matches` rather than the `games` asked for; None when they are equal."""
        if self.total_matches == self.games:
            return None
        unit = "matches" if self.dynasty else "games"
        if self.complete_deals > self._deals_asked:
            return (f"every agent must play every seat and meet every agent it can meet, which takes "
                    f"{self.complete_deals} deals here")
        return f"{unit} come in whole deals, each played in every seat order of its table"

    @cached_property
    def _units(self) -> tuple[tuple[tuple[int, tuple[str, ...]], ...], ...]:
        deals = self._schedule
        orders = max(seat_order_count(lineup, self.rules.seat_kingdoms) for lineup in self._lineups)
        per_deal = orders * self.games_per_match
        target = self.unit_games
        if target is None:
            fast = all(_batches_well(spec) for spec in self.specs)
            target = GAMES_PER_UNIT if fast else SEARCH_GAMES_PER_UNIT
        size = max(1, target // per_deal)
        return tuple(deals[i:i + size] for i in range(0, len(deals), size))

    @cached_property
    def _first_matches(self) -> tuple[int, ...]:
        out, total = [], 0
        for unit in self._units:
            out.append(total)
            total += sum(seat_order_count(lineup, self.rules.seat_kingdoms) for _, lineup in unit)
        return tuple(out)

    def units(self) -> list[list[tuple[int, tuple[str, ...]]]]:
        """The schedule cut into work units of about `unit_games` games (a function of the config only; by default
        GAMES_PER_UNIT, or SEARCH_GAMES_PER_UNIT when an agent searches). Computed once per config, as every unit
        played asks for it."""
        return [list(unit) for unit in self._units]

    def unit_deals(self, unit: int) -> list[tuple[int, tuple[str, ...]]]:
        """The deals of one work unit, as `units()[unit]`, without copying the others.

        Args:
            unit: The work unit's index.
        """
        return list(self._units[unit])

    def first_match(self, unit: int) -> int:
        """The index of the first match (game, outside a dynasty) of a work unit.

        Args:
            unit: The work unit's index.
        """
        return self._first_matches[unit]

    @property
    def n_units(self) -> int:
        return len(self._units)

    def deal(self, index: int, game: int = 0) -> Deal:
        """The deck, starting king order, quest flags (and Queendomino's building pile) of a deal.

        Args:
            index: The deal's index.
            game: In a dynasty, the game of the deal's matches (0, 1, 2).
        """
        entropy = [self.seed, 0, index, game] if self.dynasty else [self.seed, 0, index]
        rng = np.random.default_rng(np.random.SeedSequence(entropy))
        deck, kings, *pile = deal(self.rules, rng)  # and the building pile, in the games with buildings
        return Deal(deck, kings, deal_quests(self.rules, rng), *pile)

    def agent_seed(self, unit: int, name: str) -> int:
        """The seed of an entrant in a work unit.

        Args:
            unit: The work unit's index.
            name: The entrant's name.
        """
        k = self.names.index(name)
        return int(np.random.SeedSequence([self.seed, 1, unit, k]).generate_state(1)[0])

    def spec_of(self, name: str) -> str:
        return self.specs[self.names.index(name)]

    def entrant(self, name: str) -> str | bytes:
        """What makes an entrant's agent: its spec, or its Python object pickled (`referee.make_entrant`)."""
        return self.objects.get(name, self.spec_of(name))

    def refereed(self, name: str) -> bool:
        """Whether an entrant plays in a process of its own (`referee.HostedPlayer`): an outside agent, or any
        agent when the tournament limits the time per move."""
        return self.move_timeout is not None or name in self.objects or is_external(self.spec_of(name))

    def move_limit(self, name: str) -> float | None:
        """The seconds a decision of an entrant may take: `move_timeout`, or `OUTSIDE_MOVE_TIMEOUT` for an outside
        agent in a tournament without one; None for no limit."""
        if self.move_timeout is not None:
            return float(self.move_timeout)
        return OUTSIDE_MOVE_TIMEOUT if self.refereed(name) else None

    @property
    def resumable(self) -> bool:
        """Whether the config can be rebuilt from its JSON form (`to_json`): no entrant is a Python object."""
        return not self.objects

    def to_json(self) -> dict[str, object]:
        """The arguments that make this config, as JSON (`from_json`); kept with a tournament's games so that an
        interrupted tournament can be resumed. An entrant entered as an object is written as its description."""
        return {"agents": [entry if isinstance(entry, str) else f"{name}={spec}"
                           for entry, name, spec in zip(self.agents, self.names, self.specs, strict=True)],
                "rules": self.rules.to_dict(), "games": self.games, "seed": self.seed,
                "lineups": None if self.lineups is None else [list(lineup) for lineup in self.lineups],
                "unit_games": self.unit_games, "dynasty": self.dynasty, "move_timeout": self.move_timeout}

    @classmethod
    def from_json(cls, data: object) -> TournamentConfig:
        """The config `to_json` wrote.

        Raises:
            ValueError: `data` is not such a config, or names an entrant entered as a Python object.
        """
        keys = {"agents", "rules", "games", "seed", "lineups", "unit_games", "dynasty", "move_timeout"}
        if not isinstance(data, dict) or set(data) != keys:
            raise ValueError(f"a tournament config must be an object with the keys {', '.join(sorted(keys))}")
        agents = data["agents"]
        if not isinstance(agents, list) or not all(isinstance(a, str) for a in agents):
            raise ValueError("the config's agents must be a list of entrant strings")
        for entry in agents:
            name, _, spec = entry.partition("=")
            if spec.startswith(OBJECT_PREFIX):
                raise ValueError(f"entrant {name!r} was entered as a Python object, which a saved config cannot "
                                 "make again: resume it from Python with the same config")
        lineups = data["lineups"]
        if lineups is not None and not isinstance(lineups, list):
            raise ValueError("the config's lineups must be a list of lists of entrant names, or null")
        return cls(agents=tuple(agents), rules=Rules.from_dict(data["rules"]), games=data["games"],
                   seed=data["seed"], lineups=None if lineups is None else tuple(tuple(lu) for lu in lineups),
                   unit_games=data["unit_games"], dynasty=data["dynasty"], move_timeout=data["move_timeout"])

    @property
    def total_matches(self) -> int:
        """Matches played (one per game outside a dynasty)."""
        return self._matches_in(len(self._schedule))

    @property
    def total_games(self) -> int:
        return self.total_matches * self.games_per_match

    def to_dict(self) -> dict[str, object]:
        out: dict[str, object] = {
            "agents": dict(zip(self.names, self.specs, strict=True)), "players": self.players,
            "games": self.total_games, "games_requested": self.games,
            "deals": len(self._schedule) * self.games_per_match, "rules": self.rules.to_dict(), "seed": self.seed,
            "lineups": [list(lineup) for lineup in self.table_lineups()],
        }
        if self.dynasty:
            out.update(dynasty=True, matches=self.total_matches, matches_requested=self.games,
                       games_requested=self.games * DYNASTY_GAMES)
        if self.move_timeout is not None:
            out["move_timeout"] = self.move_timeout
        return out
