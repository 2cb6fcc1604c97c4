"""The game controller: seats, agents and the games of a match around the PettingZoo AEC env. No pygame.

A `Match` holds one AEC env (`kingdomino_env.env`) for the game in progress and, in a Dynasty, the records of
the games already finished. All rules go through the env and the core: the legal actions are the core's mask,
actions are `env.step`, scores and ranks are the core's, and what an action would do (a knight's tax, a
building's cost after the Queen's discount) is read by `preview`, which plays it on a copy of the state with
`core.step`. Game k (0-based) of a match is dealt with `seed + k`, so the same seed and the same moves give the
same games.

Kingdomino, Queendomino and the Royal Wedding (up to 8 seats; in team games seats 2t and 2t + 1 share kingdom t).
The core's arrays with a player axis are per kingdom; seats and kingdoms are told apart by `rules.seat_kingdoms`.
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
from kingdomino_env.core import PICK, PLACE, State
from kingdomino_env.dynasty import DYNASTY_GAMES, GameResult, Standing, standing
from kingdomino_env.games.queendomino.kernels import BUILD, DRAGON, KNIGHT_STEP
from kingdomino_env.record import replay
from kingdomino_env.rendering.text import domino_text
from kingdomino_env.rules import Rules

from . import saves
from .placement import Cursor
from .seats import AgentUnavailable, Seat, SeatAgent, make_agent
from .thinking import is_loaded

#: The most seats a game has (the Royal Wedding for 8).
MAX_SEATS = 8


@dataclasses.dataclass(frozen=True)
class Move:
    """The last action: who made it (a seat), the domino it moved (id + 1, 0 for none), the kingdom cells it
    filled or used, a verb ("placed", "discarded", "picked", "sent a knight", "built", "sent the Dragon",
    "passed") and what it did, as text after the player's name."""

    player: int
    action: int
    domino: int
    cells: tuple[tuple[int, int], ...]
    verb: str
    text: str = ""
    #: Played for the player because it was their only legal action.
    forced: bool = False

    def describe(self, names: Sequence[str]) -> str:
        """E.g. "Greedy placed #31", "Ann sent a knight: +5 coins", "Ann picked #7 (only choice)"."""
        forced = " (only choice)" if self.forced else ""
        return f"{names[self.player]} {self.text or f'{self.verb} #{self.domino}'}{forced}"


@dataclasses.dataclass(frozen=True)
class Preview:
    """What an action would change for the mover's kingdom, read off a copy of the state stepped by the core:
    coins, unplaced knights, knights owned, towers and score gained (negative: paid or lost), and whether the
    kingdom hosts the Queen after it."""

    coins: int
    knights: int
    knights_owned: int
    towers: int
    score: int
    queen_after: bool
    queen_before: bool


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
        if not 2 <= len(seats) <= MAX_SEATS:
            raise ValueError(f"a game needs 2 to {MAX_SEATS} seats, got {len(seats)}")
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
        self.env = kingdomino_env.env(rules)
        if record is None:
            self.env.reset(seed=self.seed + len(self.finished))
        else:
            self.env.reset(options={"record": record})
        self.last_move: Move | None = None
        #: The moves of the game in progress, oldest first (the play screen's move log; a loaded game's come from
        #: its record, see `from_save`).
        self.moves: list[Move] = []
        #: The name the match was loaded from or last saved under (None for a game never saved under a name), and
        #: its position then (`position`): Save proposes the name, Quit says whether moves were made since.
        self.name: str | None = None
        self.saved_position: tuple[int, int] | None = None

    # What the screens read.
    @property
    def state(self) -> State:
        return self.env.unwrapped.state

    @property
    def names(self) -> list[str]:
        return [s.name for s in self.seats]

    @property
    def kingdoms(self) -> int:
        return self.rules.kingdoms

    def kingdom_of(self, seat: int) -> int:
        """The kingdom a seat plays (its team's in team games)."""
        return self.rules.seat_kingdoms[seat]

    def kingdom_names(self) -> list[str]:
        """Each kingdom's name: its player's, or "Ann & Bob" for a team."""
        return [" & ".join(self.names[p] for p in self.rules.kingdom_seats(k)) for k in range(self.kingdoms)]

    def kingdom_title(self, kingdom: int) -> str:
        """"Ann", or "Team 1: Ann & Bob" in team games."""
        name = self.kingdom_names()[kingdom]
        return f"Team {kingdom + 1}: {name}" if self.rules.shared_kingdoms else name

    def teammate(self, seat: int) -> int | None:
        """The other seat of `seat`'s team, None outside team games."""
        others = [p for p in self.rules.kingdom_seats(self.kingdom_of(seat)) if p != seat]
        return others[0] if others else None

    def domino_name(self, number: int) -> str:
        """"#31" for domino id + 1 `number`; in the Royal Wedding with its box ("#Q31", "#K31")."""
        return "#" + domino_text(self.rules, number - 1)

    @property
    def phase(self) -> int:
        """The core's phase of the game (PICK, PLACE, KNIGHT_STEP, BUILD, DRAGON or OVER)."""
        return int(self.state.phase[0])

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
        """Id + 1 of the domino the mover must place (its number 1..48 outside the Royal Wedding), 0 outside a
        placement."""
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

    # Queendomino's steps, read from the core.
    def placed_cells(self) -> tuple[tuple[int, int], tuple[int, int]] | None:
        """The first and second square of the domino placed this turn (None after a discard or outside a turn)."""
        r, c, r2, c2 = (int(v) for v in self.state.placed[0])
        return None if r < 0 else ((r, c), (r2, c2))

    def preview(self, action: int) -> Preview:
        """What legal `action` would change for the mover's kingdom: the core plays it on a copy of the state."""
        before = self.state.take([0])
        after = core.step(before.take([0]), np.array([int(action)]))
        k = self.kingdom_of(self.mover)

        def delta(name: str) -> int:
            return int(getattr(after, name)[0, k]) - int(getattr(before, name)[0, k])

        return Preview(delta("coins"), delta("knights"), delta("knights_owned"), delta("towers"), delta("scores"),
                       int(after.queen[0]) == k, int(before.queen[0]) == k)

    def slot_tile(self, slot: int) -> int:
        """The building tile (0-based) on Builders' Board slot `slot`, -1 when empty."""
        return int(self.state.slots[0, slot])

    def build_squares(self, slot: int) -> list[tuple[int, int]]:
        """The town squares where the mover may build slot `slot`'s tile now (the core's mask)."""
        r = self.rules
        cells = np.flatnonzero(self.mask()[r.build_action(slot, 0, 0):r.build_action(slot, 0, 0) + r.frame ** 2])
        return [(int(c) // r.frame, int(c) % r.frame) for c in cells]

    def buildable_slots(self) -> list[int]:
        """The Builders' Board slots the mover may build from now."""
        return [k for k in range(6) if self.build_squares(k)] if self.phase == BUILD else []

    def dragon_slots(self) -> list[int]:
        """The slots whose tile the mover may burn with the Dragon now."""
        if self.phase != DRAGON:
            return []
        mask = self.mask()
        return [k for k in range(6) if mask[self.rules.dragon_action(k)]]

    def knight_squares(self) -> list[int]:
        """Which squares (0 first, 1 second) of the domino just placed may take a knight now."""
        if self.phase != KNIGHT_STEP:
            return []
        mask = self.mask()
        return [i for i in (0, 1) if mask[self.rules.knight_action(i)]]

    def can_pass(self) -> bool:
        """Whether PASS (end an optional step) is legal now."""
        return self.rules.has_buildings and bool(self.mask()[self.rules.pass_action])

    # Playing.
    def describe_action(self, action: int) -> Move:
        """The move `action` (legal now) would be, described before it is played."""
        r = self.rules
        player = self.mover
        cells: tuple[tuple[int, int], ...] = ()
        domino, text = 0, ""
        if action < r.n_place_actions:
            cell, direction = divmod(action, 4)
            cells = Cursor(*divmod(cell, r.frame), direction).cells()
            domino, verb = self.held_domino, "placed"
        elif action == r.discard_action:
            domino, verb = self.held_domino, "discarded"
        elif action < r.first_pick_action + r.line_size:
            domino, verb = int(self.state.next_line[0, action - r.first_pick_action]) + 1, "picked"
        elif action == r.pass_action:
            step = {KNIGHT_STEP: "knights", BUILD: "building", DRAGON: "the Dragon"}.get(self.phase, "")
            verb, text = "passed", f"passed ({step})" if step else "passed"
        elif action >= r.first_dragon_action:
            tile = self.slot_tile(action - r.first_dragon_action)
            verb = "sent the Dragon"
            text = f"sent the Dragon to burn {r.building_deck.names[tile]}"
        elif action >= r.first_build_action:
            slot, cell = divmod(action - r.first_build_action, r.frame * r.frame)
            cells = (divmod(cell, r.frame),)
            tile = self.slot_tile(slot)
            cost = -self.preview(action).coins
            verb = "built"
            text = f"built {r.building_deck.names[tile]} ({cost} coin{'s' if cost != 1 else ''})"
        else:
            square = action - r.first_knight_action
            placed = self.placed_cells()
            cells = (placed[square],) if placed is not None else ()
            tax = self.preview(action).coins
            verb, text = "sent a knight", f"sent a knight: +{tax} coin{'s' if tax != 1 else ''}"
        if domino and not text:
            text = f"{verb} {self.domino_name(domino)}"
        return Move(player, action, domino, cells, verb, text)

    def forced_action(self) -> int | None:
        """The only legal action of the player to move, None when there is a choice (or the game is over)."""
        legal = np.flatnonzero(self.mask())
        return int(legal[0]) if not self.game_over and legal.size == 1 else None

    def play(self, action: int, forced: bool = False) -> None:
        """Play a legal action for the player to move (ValueError for an illegal one); `forced`: it was played for
        the player as their only legal action (the move log says so)."""
        action = int(action)
        mask = self.mask()
        if self.game_over or not 0 <= action < mask.size or not mask[action]:
            raise ValueError(f"action {action} is not legal now")
        move = dataclasses.replace(self.describe_action(action), forced=forced)
        self.env.step(action)
        self.last_move = move
        self.moves.append(move)

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
        """The core's rank of each kingdom in the game in progress (0 = winner), meaningful once it is over (the
        core ranks seats; a kingdom's is that of its first seat, which its teammate shares)."""
        seat_ranks = core.ranks(self.state)[0]
        return [int(seat_ranks[self.rules.kingdom_seats(k)[0]]) for k in range(self.kingdoms)]

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

    def saved(self, name: str) -> None:
        """Note that the match was saved (or loaded) under `name` at the position on the table."""
        self.name, self.saved_position = name, self.position

    def moves_since_saved(self) -> int | None:
        """Actions played since the match was saved or loaded under its name (None: never saved under one)."""
        if self.name is None or self.saved_position is None:
            return None
        game, steps = self.saved_position
        return int(self.state.n_steps[0]) - steps if game == self.game_number else int(self.state.n_steps[0])

    @classmethod
    def from_save(cls, data: saves.SaveData, agent_factory: Callable[[str, int | None], SeatAgent] = make_agent,
                  autosave: bool = False) -> Match:
        """The match of a checked save, exactly where it stopped, with the moves of its game in progress (replayed
        from the record's actions, each described as when it was played) and the save's name. From the `autosave`,
        the name of the game it continues (none for a game never saved under a name), whose save may hold an
        earlier position."""
        record = {key: value for key, value in data.record.items() if key not in ("actions", "scores")}
        match = cls(data.seats, data.state.rules, dynasty=data.dynasty, seed=data.seed, finished=data.finished,
                    record={**record, "actions": []}, agent_factory=agent_factory)
        for action in data.record["actions"]:
            forced = match.human_to_move() and match.phase == PICK and match.forced_action() is not None
            match.play(int(action), forced=forced)
        if not autosave:
            match.saved(data.name)
        elif data.name != saves.AUTOSAVE_NAME:
            match.name = data.name
        return match

__all__ = ["MAX_SEATS", "Match", "Move", "Preview", "new_seed"]
