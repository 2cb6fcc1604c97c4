"""Playing one work unit: all games of some deals, batched on the core, each agent moving where its seat is to move.

This function is what worker processes run, so it takes only picklable arguments and returns plain data.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from agents import Agent, load
from kingdomino_env import core
from kingdomino_env.compilation import watch_compiles
from kingdomino_env.record import make_record

from .config import Deal, TournamentConfig


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

    def to_dict(self) -> dict:
        out = {"deal": self.deal, "seats": list(self.seats), "scores": list(self.scores),
               "ranks": list(self.ranks), "record": self.record}
        if self.match is not None:
            out.update(match=self.match, match_game=self.match_game, largest=list(self.largest),
                       crowns=list(self.crowns))
        return out


@dataclass
class UnitResult:
    """The games of one unit, in schedule order, and each entrant's thinking time and move count."""

    unit: int
    games: list[GameResult]
    seconds: dict[str, float]
    moves: dict[str, int]


class IllegalAgentActionError(RuntimeError):
    """An agent returned an action that is not legal: a bug in that agent."""


def play_unit(config: TournamentConfig, unit: int, load_agent: Callable[[str, int], Agent] | None = None
              ) -> UnitResult:
    """Play work unit `unit` of `config` and return its results. `load_agent(spec, seed)` makes an entrant's
    agent (default `agents.load`; Ray workers pass one that reads model files shipped to their node)."""
    deals = config.unit_deals(unit)
    rules = config.rules
    seats: list[tuple[str, ...]] = []
    deal_of: list[int] = []
    match_of: list[tuple[int, int] | None] = []
    games_dealt: list[Deal] = []
    match = config.first_match(unit)
    for index, lineup in deals:
        dealt = [config.deal(index, k) for k in range(config.games_per_match)]
        for perm in config.seat_orders(lineup):
            for k, one in enumerate(dealt):
                seats.append(perm)
                deal_of.append(index)
                match_of.append((match, k) if config.dynasty else None)
                games_dealt.append(one)
            match += 1
    decks = np.array([d.deck for d in games_dealt])
    kings = np.array([d.kings for d in games_dealt])
    if rules.has_buildings:
        state = core.init(rules, decks, kings, buildings=np.array([d.buildings for d in games_dealt]))
    else:
        state = core.init(rules, decks, kings, quests=np.array([d.quests for d in games_dealt]))
    n_games = state.batch_size
    used = sorted({name for perm in seats for name in perm}, key=config.names.index)
    make = load if load_agent is None else load_agent
    agents = {name: make(config.spec_of(name), config.agent_seed(unit, name)) for name in used}
    seat_agent = np.array([[used.index(name) for name in perm] for perm in seats], dtype=np.int64)
    seconds = dict.fromkeys(used, 0.0)
    moves = dict.fromkeys(used, 0)
    history = np.full((n_games, rules.max_actions), -1, dtype=np.int64)
    played = np.zeros(n_games, dtype=np.int64)
    actions = np.zeros(n_games, dtype=np.int64)
    with watch_compiles() as compiling:  # an agent's time per move leaves out numba compiling its kernels
        while True:
            live = np.flatnonzero(~state.is_over)
            if live.size == 0:
                break
            mask = core.legal_action_mask(state)
            mover = seat_agent[live, state.current_player[live]]
            for k, name in enumerate(used):
                games = live[mover == k]
                if games.size == 0:
                    continue
                agent = agents[name]
                obs = core.observe(state.take(games)) if agent.needs_observation else None
                began, compiled = time.perf_counter(), compiling.seconds
                chosen = np.asarray(agent.act(state, games, mask[games], obs), dtype=np.int64)
                seconds[name] += time.perf_counter() - began - (compiling.seconds - compiled)
                moves[name] += games.size
                in_range = (chosen >= 0) & (chosen < mask.shape[1])
                if chosen.shape != games.shape or not in_range.all() or not mask[games, chosen].all():
                    raise IllegalAgentActionError(f"agent {name!r} ({config.spec_of(name)}) chose an illegal action")
                actions[games] = chosen
            history[live, played[live]] = actions[live]
            played[live] += 1
            core.step(state, actions)
    ranks = core.ranks(state)
    # Per seat: in team games the kingdom arrays are per team, and each seat shows its team's figures.
    # The game's rank keys (no crowns in Queendomino, which has no crown tie-break: its matches get none either).
    kingdom = np.asarray(rules.seat_kingdoms, dtype=np.int64)
    scores, largest, crowns = (key[:, kingdom] for key in core.rank_keys(state))
    results = [
        GameResult(deal=deal_of[g], seats=seats[g], scores=tuple(int(s) for s in scores[g]),
                   ranks=tuple(int(r) for r in ranks[g]),
                   record=make_record(state, g, history[g, :played[g]].tolist()),
                   largest=tuple(int(v) for v in largest[g]), crowns=tuple(int(v) for v in crowns[g]),
                   match=None if match_of[g] is None else match_of[g][0],
                   match_game=None if match_of[g] is None else match_of[g][1])
        for g in range(n_games)
    ]
    return UnitResult(unit=unit, games=results, seconds=seconds, moves=moves)
