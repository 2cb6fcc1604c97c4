"""Playing one work unit: all games of some deals, batched on the core, each agent moving where its seat is to move.

This function is what worker processes run, so it takes only picklable arguments and returns plain data. The
referee (`referee`) asks the agents; a game in which an agent faults is forfeited and ends there.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from agents import Agent, load
from kingdomino_env import core
from kingdomino_env.compilation import watch_compiles
from kingdomino_env.record import make_record
from kingdomino_env.rules import Rules

from .config import TournamentConfig
from .referee import Forfeit, HostedPlayer, LocalPlayer, agent_process, describe_error


@dataclass
class GameResult:
    """One finished game, as a line of games.jsonl (`to_dict`).

    Every figure is per seat; in team games each seat has its team's (kingdom's) score, rank and tie-breaks.

    Attributes:
        deal: The deal's index.
        seats: The entrant's name in each seat.
        scores: The final scores.
        ranks: The ranks, 0 for the winner(s).
        record: The game's record (`kingdomino_env.record`).
        largest: The largest territories (a tie-break).
        crowns: The crowns (a tie-break).
        match: In a dynasty tournament, the game's match.
        match_game: In a dynasty tournament, the game's place in its match (0, 1, 2).
        forfeit: Who forfeited the game and why (`referee.Forfeit`), None for a game played to its end. A
            forfeited game ends at the fault: its record holds the moves until then, its scores are the scores
            then, and the seat (team) that forfeited ranks last.
    """

    deal: int
    seats: tuple[str, ...]
    scores: tuple[int, ...]
    ranks: tuple[int, ...]
    record: dict
    largest: tuple[int, ...] = ()
    crowns: tuple[int, ...] = ()
    match: int | None = None
    match_game: int | None = None
    forfeit: Forfeit | None = None

    def to_dict(self) -> dict:
        out = {"deal": self.deal, "seats": list(self.seats), "scores": list(self.scores),
               "ranks": list(self.ranks), "record": self.record}
        if self.match is not None:
            out.update(match=self.match, match_game=self.match_game, largest=list(self.largest),
                       crowns=list(self.crowns))
        if self.forfeit is not None:
            out["forfeit"] = self.forfeit.to_dict()
        return out


@dataclass
class UnitResult:
    """The games of one unit, in schedule order, and each entrant's thinking time and move count."""

    unit: int
    games: list[GameResult]
    seconds: dict[str, float]
    moves: dict[str, int]


class PlannedGame(NamedTuple):
    """A game of a work unit before it is played: its deal, seats, and in a dynasty its match and place in it."""

    deal: int
    seats: tuple[str, ...]
    match: int | None
    match_game: int | None


def unit_plan(config: TournamentConfig, unit: int) -> list[PlannedGame]:
    """The games of a work unit, in schedule order: each deal of the unit in every seat order of its lineup (in a
    dynasty, the games of each match in turn)."""
    plan = []
    match = config.first_match(unit)
    for index, lineup in config.unit_deals(unit):
        for perm in config.seat_orders(lineup):
            for k in range(config.games_per_match):
                plan.append(PlannedGame(index, perm, match if config.dynasty else None, k if config.dynasty else None))
            match += 1
    return plan


def first_game(config: TournamentConfig, unit: int) -> int:
    """The index (in schedule order) of a work unit's first game."""
    return config.first_match(unit) * config.games_per_match


def _player(config: TournamentConfig, unit: int, name: str, make: Callable[[str, int], Agent],
            localise: Callable[[str], str]) -> LocalPlayer | HostedPlayer:
    """The player of an entrant in a unit: in its own process under the referee's clock (`config.refereed`), or
    in this process; an agent that cannot be made forfeits every game it is asked to move in."""
    seed = config.agent_seed(unit, name)
    if config.refereed(name):
        process = agent_process((name, config.spec_of(name)))
        entrant = config.entrant(name)
        error = process.make(localise(entrant) if isinstance(entrant, str) else entrant, seed, name, config.rules)
        return HostedPlayer(process, config.move_limit(name), error)
    try:
        return LocalPlayer(make(config.spec_of(name), seed))
    except Exception as err:  # noqa: BLE001 - the entrant forfeits instead of stopping the tournament
        return LocalPlayer(None, f"could not be made: {describe_error(err)}")


def _named(agent: Agent, name: str) -> Agent:
    agent.name = name
    return agent


def forfeit_ranks(rules: Rules, keys: tuple[np.ndarray, ...], seat: int) -> np.ndarray:
    """The seats' ranks of a game forfeited by `seat`: its kingdom last, the others by the game's rank keys
    (`keys`: the game's scores, largest territories and crowns per kingdom) at the moment of the forfeit."""
    kingdoms = np.asarray(rules.seat_kingdoms, dtype=np.int64)
    loser = int(kingdoms[seat])
    others = [k for k in range(len(keys[0])) if k != loser]
    by_kingdom = np.full(len(keys[0]), len(keys[0]) - 1, dtype=np.int64)
    by_kingdom[others] = core.rank_by(*(np.asarray(key)[others] for key in keys))
    return by_kingdom[kingdoms]


def play_unit(config: TournamentConfig, unit: int, load_agent: Callable[[str, int], Agent] | None = None,
              localise: Callable[[str], str] | None = None) -> UnitResult:
    """Play work unit `unit` of `config` and return its results.

    Args:
        config: The tournament.
        unit: The work unit's index.
        load_agent: Makes an entrant's agent that plays in this process from (spec, seed); default `agents.load`.
        localise: The spec an agent process loads for an entrant's spec (Ray workers point it at model and module
            files shipped to their node); default the spec itself.
    """
    plan = unit_plan(config, unit)
    rules = config.rules
    seats = [game.seats for game in plan]
    deal_of = [game.deal for game in plan]
    match_of = [None if game.match is None else (game.match, game.match_game) for game in plan]
    dealt = {key: config.deal(*key) for key in {(game.deal, game.match_game or 0) for game in plan}}
    games_dealt = [dealt[game.deal, game.match_game or 0] for game in plan]
    decks = np.array([d.deck for d in games_dealt])
    kings = np.array([d.kings for d in games_dealt])
    if rules.has_buildings:
        state = core.init(rules, decks, kings, buildings=np.array([d.buildings for d in games_dealt]))
    else:
        state = core.init(rules, decks, kings, quests=np.array([d.quests for d in games_dealt]))
    n_games = state.batch_size
    used = sorted({name for perm in seats for name in perm}, key=config.names.index)
    localise = localise or str
    make = load_agent or (lambda spec, seed: _named(load(localise(spec), seed=seed), spec))
    players = {name: _player(config, unit, name, make, localise) for name in used}
    seat_agent = np.array([[used.index(name) for name in perm] for perm in seats], dtype=np.int64)
    seconds = dict.fromkeys(used, 0.0)
    moves = dict.fromkeys(used, 0)
    history = np.full((n_games, rules.max_actions), -1, dtype=np.int64)
    played = np.zeros(n_games, dtype=np.int64)
    actions = np.zeros(n_games, dtype=np.int64)
    forfeits: list[Forfeit | None] = [None] * n_games
    forfeit_keys: dict[int, tuple[np.ndarray, ...]] = {}
    forfeit_records: dict[int, dict] = {}
    forfeited = np.zeros(n_games, dtype=bool)
    forfeits_seen = False
    with watch_compiles() as compiling:  # an agent's time per move leaves out numba compiling its kernels
        while True:
            live = np.flatnonzero(~state.is_over & ~forfeited)
            if live.size == 0:
                break
            mask = core.legal_action_mask(state)
            if forfeits_seen:  # a legal action for the games played on after a forfeit
                on = np.flatnonzero(forfeited & ~state.is_over)
                actions[on] = mask[on].argmax(axis=1)
            mover = seat_agent[live, state.current_player[live]]
            faulted: list[tuple[int, str, str]] = []
            for k, name in enumerate(used):
                games = live[mover == k]
                if games.size == 0:
                    continue
                player = players[name]
                obs = core.observe(state.take(games)) if player.needs_observation else None
                decided = player.decide(state, games, mask[games], obs, compiling)
                seconds[name] += decided.seconds
                moves[name] += games.size - len(decided.faults)
                actions[games] = decided.actions
                faulted += [(int(games[i]), name, reason) for i, reason in decided.faults.items()]
            if faulted:
                forfeits_seen = True
                keys = core.rank_keys(state)
                for game, name, reason in faulted:
                    forfeited[game] = True
                    actions[game] = mask[game].argmax()
                    forfeits[game] = Forfeit(int(state.current_player[game]), name, reason)
                    forfeit_keys[game] = tuple(np.array(key[game]) for key in keys)
                    forfeit_records[game] = make_record(state, game, history[game, :played[game]].tolist())
            moving = live[~forfeited[live]]
            history[moving, played[moving]] = actions[moving]
            played[moving] += 1
            core.step(state, actions)
    ranks = core.ranks(state)
    # Per seat: in team games the kingdom arrays are per team, and each seat shows its team's figures.
    # The game's rank keys (no crowns in Queendomino, which has no crown tie-break: its matches get none either).
    kingdom = np.asarray(rules.seat_kingdoms, dtype=np.int64)
    per_kingdom = core.rank_keys(state)
    results = []
    for g in range(n_games):
        forfeit = forfeits[g]
        record = forfeit_records[g] if forfeit is not None else make_record(state, g, history[g, :played[g]].tolist())
        keys = forfeit_keys[g] if forfeit is not None else tuple(key[g] for key in per_kingdom)
        scores, largest, crowns = (np.asarray(key)[kingdom] for key in keys)
        game_ranks = forfeit_ranks(rules, keys, forfeit.seat) if forfeit is not None else ranks[g]
        results.append(GameResult(
            deal=deal_of[g], seats=seats[g], scores=tuple(int(s) for s in scores),
            ranks=tuple(int(r) for r in game_ranks),
            record=record,
            largest=tuple(int(v) for v in largest), crowns=tuple(int(v) for v in crowns),
            match=None if match_of[g] is None else match_of[g][0],
            match_game=None if match_of[g] is None else match_of[g][1], forfeit=forfeit))
    return UnitResult(unit=unit, games=results, seconds=seconds, moves=moves)
