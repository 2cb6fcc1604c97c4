"""The game controller: seats, agents and the games of a match around the PettingZoo AEC env. No pygame.

A `Match` holds one AEC env (`kingdomino_env.env`) for the game in progress and, in a Dynasty, the records of
the games already finished. All rules go through the env and the core: the legal actions are the core's mask,
actions are `env.step`, scores and ranks are the core's. Game k (0-based) of a match is dealt with `seed + k`,
so the same seed and the same moves give the same games.
"""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

import agents
import kingdomino_env
from kingdomino_env import core
from kingdomino_env.core import PLACE, State
from kingdomino_env.dynasty import DYNASTY_GAMES, GameResult, Standing, standing
from kingdomino_env.record import replay
from kingdomino_env.rules import Rules

from . import saves
from .placement import Cursor
from .seats import AgentUnavailable, Seat, SeatAgent, make_agent
from .thinking import is_loaded


@dataclasses.dataclass(frozen=True)
class Move:
    """The last action: who made it, the domino it moved (1..48), and the kingdom cells it filled."""

    player: int
    action: int
    domino: int
    cells: tuple[tuple[int, int], ...]
    verb: str

    def describe(self, names: Sequence[str]) -> str:
        """E.g. "Greedy placed #31"."""
        return f"{names[self.player]} {self.verb} #{self.domino}"


def new_seed() -> int:
    return int(np.random.SeedSequence().entropy % (2**31))


class Match:
    """One game, or a Dynasty of three, between the given seats. Raises AgentUnavailable for a bad agent seat.

    `rules` is the variant of every game (for as many players as seats); `dynasty` plays three games of it, totals
    decide. Every agent seat is checked against the variant first (`agents.check_supports`, cheap), then its agent
    is made by `agent_factory` (the app's makes `thinking.LazyAgent`s, loaded later in a worker thread).
    """

    def __init__(self, seats: Sequence[Seat], rules: Rules, *, dynasty: bool = False, seed: int | None = None,
                 finished: Sequence[dict[str, Any]] = (), record: dict[str, Any] | None = None,
                 agent_factory: Callable[[str, int | None], SeatAgent] = make_agent):
        if len(seats) not in (2, 3, 4):
            raise ValueError(f"a game needs 2 to 4 seats, got {len(seats)}")
        if not isinstance(rules, Rules):
            raise TypeError(f"rules must be a kingdomino_env.rules.Rules, got {type(rules).__name__}")
        if rules.players != len(seats):
            raise ValueError(f"the rules are for {rules.players} players but {len(seats)} seats were given")
        if not isinstance(dynasty, bool):
            raise TypeError(f"dynasty must be True or False, got {type(dynasty).__name__}")
        self.seats = list(seats)
        self.rules = rules
        self.dynasty = dynasty
        self.seed = new_seed() if seed is None else int(seed)
        for seat in self.seats:
            if not seat.is_human:
                try:
                    agents.check_supports(seat.kind, self.rules)
                except ValueError as err:
                    raise AgentUnavailable(f"{seat.name}: {err}") from None
        self.agents: dict[int, SeatAgent] = {
            i: agent_factory(seat.kind, int(np.random.SeedSequence([self.seed, i]).generate_state(1)[0]))
            for i, seat in enumerate(self.seats) if not seat.is_human
        }
        self.finished = [dict(r) for r in finished]
        self.results = [GameResult.from_state(replay(r)[0]) for r in self.finished]
        self.env = kingdomino_env.env(**dataclasses.asdict(rules))
        if record is None:
            self.env.reset(seed=self.seed + len(self.finished))
        else:
            self.env.reset(options={"record": record})
        self.last_move: Move | None = None
        #: The moves played since this match was made or loaded, oldest first (the play screen's move log).
        self.moves: list[Move] = []

    # What the screens read.
    @property
    def state(self) -> State:
        return self.env.unwrapped.state

    @property
    def names(self) -> list[str]:
        return [s.name for s in self.seats]

    @property
    def games_total(self) -> int:
        return DYNASTY_GAMES if self.dynasty else 1

    @property
    def game_number(self) -> int:
        """1-based number of the game in progress."""
        return len(self.finished) + 1

    @property
    def mover(self) -> int:
        """The player to move, -1 once the game is over."""
        return int(self.state.current_player[0])

    @property
    def placing(self) -> bool:
        return int(self.state.phase[0]) == PLACE

    @property
    def held_domino(self) -> int:
        """Number (1..48) of the domino the mover must place, 0 outside a placement."""
        return int(self.state.held_domino[0]) + 1

    @property
    def game_over(self) -> bool:
        return bool(self.state.is_over[0])

    @property
    def match_over(self) -> bool:
        return self.game_over and self.game_number == self.games_total

    @property
    def position(self) -> tuple[int, int]:
        """Which position the game is at: (game number, actions taken); a worker's result is for one position."""
        return self.game_number, int(self.state.n_steps[0])

    @property
    def humans(self) -> list[int]:
        return [i for i, seat in enumerate(self.seats) if seat.is_human]

    def human_to_move(self) -> bool:
        return not self.game_over and self.seats[self.mover].is_human

    def next_human(self) -> int | None:
        """The human seat to move next (the mover if human; else in this round's turn order, then the next
        round's, which is the order of the kings on the next line); the last human to move when unknown."""
        humans = self.humans
        if not humans:
            return None
        if self.human_to_move():
            return self.mover
        state = self.state
        upcoming = [int(p) for p in state.order_player[0, int(state.turn[0]):]]
        upcoming += [int(p) for p in state.next_owner[0]]
        for p in upcoming:
            if p in humans:
                return p
        last = next((m.player for m in reversed(self.moves) if m.player in humans), None)
        return humans[0] if last is None else last

    def agents_loaded(self) -> bool:
        """Whether every agent seat is ready to act (see `thinking.LazyAgent`)."""
        return all(is_loaded(agent) for agent in self.agents.values())

    def unloaded_agents(self) -> list[int]:
        return [i for i, agent in self.agents.items() if not is_loaded(agent)]

    def mask(self) -> np.ndarray:
        """(n_actions,) bool: the legal actions of the player to move (the core's mask)."""
        return core.legal_action_mask(self.state)[0]

    def progress(self) -> str:
        return saves.progress_text(self.state, self.game_number, self.games_total)

    def record(self) -> dict[str, Any]:
        return self.env.unwrapped.record()

    # Playing.
    def play(self, action: int) -> None:
        """Play a legal action for the player to move (ValueError for an illegal one)."""
        action = int(action)
        mask = self.mask()
        if self.game_over or not 0 <= action < mask.size or not mask[action]:
            raise ValueError(f"action {action} is not legal now")
        player = self.mover
        cells: tuple[tuple[int, int], ...] = ()
        if action < self.rules.n_place_actions:
            cell, direction = divmod(action, 4)
            cells = Cursor(*divmod(cell, self.rules.frame), direction).cells()
            domino, verb = self.held_domino, "placed"
        elif action == self.rules.discard_action:
            domino, verb = self.held_domino, "discarded"
        else:
            domino, verb = int(self.state.next_line[0, action - self.rules.first_pick_action]) + 1, "picked"
        self.env.step(action)
        self.last_move = Move(player, action, domino, cells, verb)
        self.moves.append(self.last_move)

    def snapshot(self) -> Any:
        """A copy of the AEC env of the game in progress, for an agent to think on in another thread."""
        return copy.deepcopy(self.env)

    def agent_action(self, env: Any = None) -> int:
        """The action the agent of the seat to move chooses, computed on `env` (default: the match's own env)."""
        return int(self.agents[self.mover].act(self.env if env is None else env))

    def play_agent(self) -> int:
        action = self.agent_action()
        self.play(action)
        return action

    # Results and the match.
    def game_result(self) -> GameResult:
        return GameResult.from_state(self.state)

    def ranks(self) -> list[int]:
        """The core's ranks of the game in progress (0 = winner), meaningful once it is over."""
        return [int(r) for r in core.ranks(self.state)[0]]

    def standing(self) -> Standing:
        """Match totals over the finished games and the current one once it is over."""
        results = self.results + ([self.game_result()] if self.game_over else [])
        return standing(results)

    def next_game(self) -> None:
        """Start the next game of a Dynasty (the current one must be over)."""
        if not self.game_over or self.match_over:
            raise ValueError("the next game starts only after a finished game of an unfinished match")
        self.finished.append(self.record())
        self.results.append(self.game_result())
        self.env.reset(seed=self.seed + len(self.finished))
        self.last_move = None
        self.moves = []

    # Saving.
    def to_save(self, name: str) -> dict[str, Any]:
        """The save file content (format in `kingdomino_app.saves`). Between two games of a Dynasty the finished
        game is the "record" (so the save reopens on its scores, with the next game to come)."""
        dynasty = {"games": DYNASTY_GAMES, "finished": self.finished} if self.dynasty else None
        return {"format": saves.FORMAT, "name": name, "saved_at": saves.now(),
                "seats": [s.to_dict() for s in self.seats], "seed": self.seed, "dynasty": dynasty,
                "record": self.record()}

    @classmethod
    def from_save(cls, data: saves.SaveData,
                  agent_factory: Callable[[str, int | None], SeatAgent] = make_agent) -> Match:
        """The match of a checked save, exactly where it stopped."""
        return cls(data.seats, data.state.rules, dynasty=data.dynasty, seed=data.seed, finished=data.finished,
                   record=data.record, agent_factory=agent_factory)


__all__ = ["Match", "Move", "new_seed"]
