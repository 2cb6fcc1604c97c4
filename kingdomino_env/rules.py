"""Game variants and the action layout: the fixed numbers every other module derives its shapes from.

A `Rules` value names one variant (players, Mighty Duel, bonuses, quests, the older 3-player rule) and derives the sizes
of that variant: kingdom size N, frame size S = 2N - 1, deck size, line size, kings, rounds and the number of
action ids. It validates its options, so a bad variant fails here, before any game exists.

Action layout (a public contract, see the documentation's "action layout" page):

* ``a = (r * S + c) * 4 + d`` places the domino's first square at (r, c) of the S x S frame (castle at
  (N - 1, N - 1)) and its second square at the neighbour in direction d: 0 east (c + 1), 1 south (r + 1),
  2 west (c - 1), 3 north (r - 1).
* ``a = S * S * 4`` discards the domino (legal only when no placement is).
* ``a = S * S * 4 + 1 + i`` picks the i-th domino (ascending number) of the next line.

Queendomino (`game="queendomino"`) appends, after the picks (K = 4S^2 + 1 + L): ``K``, ``K + 1`` a knight on the
first / second square of the domino just placed; ``B + k * S^2 + r * S + c`` (B = K + 2) build the tile of
Builders' Board slot k (0..5) on the town square (r, c); ``D + k`` (D = B + 6S^2) the Dragon burns slot k;
``D + 6`` PASS, ending the current optional step. The Royal Wedding (`game="royal_wedding"`) has the same layout
with its own S and L.
"""

from __future__ import annotations

import difflib
import os
import reprlib
from dataclasses import asdict, dataclass, field, fields
from functools import cache, cached_property
from typing import Any, NamedTuple, get_type_hints

import numpy as np

from .games import kingdomino as _kingdomino
from .games import queendomino as _queendomino
from .games.dominoes import DOMINO_CROWNS, DOMINO_TERRAIN, N_DOMINOES, QUEEN_DOMINO_CROWNS, QUEEN_DOMINO_TERRAIN
from .games.kingdomino import quests as _quests
from .games.protocol import Game
from .games.queendomino import buildings as _buildings
from .games.records import QueendominoVariant, Variant, kernel_table
from .observation import ObservationLayout
from .pickling import PickledAsSnapshot

#: Row and column offsets of the second square for directions 0 east, 1 south, 2 west, 3 north.
DIRECTIONS: tuple[tuple[int, int], ...] = ((0, 1), (1, 0), (0, -1), (-1, 0))
DIRECTION_NAMES: tuple[str, ...] = ("east", "south", "west", "north")
GAMES: tuple[str, ...] = ("kingdomino", "queendomino", "royal_wedding")
#: The rules engine of each game (the Royal Wedding is a variant of Queendomino's).
ENGINES: dict[str, Game] = {"kingdomino": _kingdomino.GAME, "queendomino": _queendomino.GAME,
                            "royal_wedding": _queendomino.GAME}
#: Each game's name for people.
GAME_TITLES: dict[str, str] = {"kingdomino": "Kingdomino", "queendomino": "Queendomino",
                               "royal_wedding": "Royal Wedding"}
#: Builders' Board slots (slot k costs k coins).
BOARD_SLOTS = 6
#: The games of Kingdomino's own options (Queendomino's rulebook has none of them).
KINGDOMINO: tuple[str, ...] = ("kingdomino",)


class RuleOption(NamedTuple):
    """One option of `Rules`, as adapters, the command line and the app list it."""

    name: str
    type: Any
    default: Any
    help: str
    #: The games that take the option (any other refuses a value other than the default).
    games: tuple[str, ...]


def square_name(row: int, col: int) -> str:
    """How a person reads square (row, col) of a kingdom's frame (0-based, from the top left): "row 5, column 6",
    counted from 1, as the app labels its boards and as every move text (app, CLI, analysis) names squares."""
    return f"row {row + 1}, column {col + 1}"


def option(default: Any, help: str, games: tuple[str, ...] = GAMES) -> Any:
    """A `Rules` field with its help text and the games that take it, declared once for every adapter.

    Args:
        default: The field's default.
        help: One line for people (the command line's flag help, the app's option list).
        games: The games that take the option; any other refuses a value other than the default.

    Returns:
        A dataclass field carrying `help` and `games` in its metadata.
    """
    return field(default=default, metadata={"help": help, "games": games})


@dataclass(frozen=True)
class Rules(PickledAsSnapshot):
    """One Kingdomino, Queendomino or Royal Wedding variant.

    Queendomino takes only `players` and `buildings`; it has no Mighty Duel, Harmony, Middle Kingdom, older
    3-player rule or quests (its rulebook offers none of them), and plays 7x7 kingdoms with 2 kings each in 2-player
    games, 5x5 in 3-4 players, all 48 dominoes in lines of 4.

    The Royal Wedding (the rules page of the documentation) plays every Queendomino rule with both boxes (96
    dominoes, lines alternating boxes) and one king per player: 3-4 players on 7x7 in lines of 4 (24 rounds), 5-8 on
    5x5 in lines of 8 (12 rounds).

    A bad value or combination raises ValueError naming what is allowed. `Rules.options()` lists the options with
    their help text, and `Rules.make` builds a variant from an adapter's keywords.

    Args:
        players: 2, 3 or 4 (Kingdomino, Queendomino); 3 to 8 (the Royal Wedding).
        mighty_duel: 2 players only: all 48 dominoes, 7x7 kingdoms.
        harmony: +5 for a complete N x N kingdom.
        middle_kingdom: +10 when the castle is centred in an N x N kingdom.
        three_player_36: The older 3-player rule (36 dominoes in lines of 3) instead of the current one (48 in
            lines of 4, the leftover discarded).
        quests: Names from `quests.QUESTS`, active in every game. A Harmony or Middle Kingdom quest with the same
            base option on counts once.
        random_quests: k distinct quests drawn per game at deal time, instead of `quests` (not both).
        game: `"kingdomino"`, `"queendomino"` or `"royal_wedding"`.
        buildings: Queendomino and the Royal Wedding: None for the shipped building deck, or the path of a CSV in
            the same format (see `games.queendomino.buildings`).
        teams: The Royal Wedding with 6 or 8 players: seats 2t and 2t + 1 share kingdom t (7x7, castle, purse and
            knights), each with their own king; scores, ranks and rewards are per team.
    """

    players: int = option(2, "Players per game: 2-4 (Kingdomino, Queendomino), 3-8 (the Royal Wedding).")
    mighty_duel: bool = option(False, "7x7 kingdoms, all 48 dominoes (2 players).", KINGDOMINO)
    harmony: bool = option(False, "+5 for a complete kingdom.", KINGDOMINO)
    middle_kingdom: bool = option(False, "+10 for a centred castle.", KINGDOMINO)
    three_player_36: bool = option(False, "The older 3-player rule: 36 dominoes, lines of 3.", KINGDOMINO)
    quests: tuple[str, ...] = option((), "Quests active in every game (docs: rules page), e.g. "
                                         "lost_corner,bleak_king.", KINGDOMINO)
    random_quests: int = option(0, "Quests drawn at random per deal (the mod deals 2).", KINGDOMINO)
    game: str = option("kingdomino", "The game: kingdomino, queendomino or royal_wedding.")
    buildings: str | None = option(None, "Queendomino, the Royal Wedding: a corrected building deck (CSV, the "
                                         "format of the shipped one).", ("queendomino", "royal_wedding"))
    teams: bool = option(False, "The Royal Wedding in teams of two (6 or 8 players; seats 2t and 2t + 1 share a "
                                "kingdom).", ("royal_wedding",))

    def __post_init__(self) -> None:
        if not isinstance(self.game, str) or self.game not in GAMES:
            raise ValueError(f"game must be one of {', '.join(GAMES)}, got {short_repr(self.game)}")
        allowed, text = (range(3, 9), "3 to 8 in the Royal Wedding") if self.game == "royal_wedding" else (
            range(2, 5), "2, 3 or 4")
        if not isinstance(self.players, int) or isinstance(self.players, bool) or self.players not in allowed:
            raise ValueError(f"players must be {text}, got {short_repr(self.players)}")
        for name in ("mighty_duel", "harmony", "middle_kingdom", "three_player_36", "teams"):
            if not isinstance(getattr(self, name), bool):
                raise ValueError(f"{name} must be True or False, got {short_repr(getattr(self, name))}")
        if self.mighty_duel and self.players != 2:
            raise ValueError(f"mighty_duel is a 2-player variant, got players={self.players}")
        if self.three_player_36 and self.players != 3:
            raise ValueError(f"three_player_36 is a 3-player rule, got players={self.players}")
        if self.teams and (self.game != "royal_wedding" or self.players not in (6, 8)):
            raise ValueError(f"teams are a Royal Wedding option for 6 or 8 players (game='royal_wedding'), got "
                             f"game={self.game!r}, players={self.players}")
        self._check_quests()
        if self.is_queendomino:
            self._check_queendomino()
        elif self.buildings is not None:
            raise ValueError("buildings= is a Queendomino option (game='queendomino'); Kingdomino has no buildings")

    def __deepcopy__(self, memo: dict) -> Rules:
        """Rules are immutable: a deep copy of a state or game shares them (copying their cached tables is slow)."""
        return self

    @classmethod
    def options(cls) -> tuple[RuleOption, ...]:
        """The options, in field order, with their type, default, help text and the games that take them: the one
        list that adapters' keywords, the command line's flags and the app's option list are built from."""
        return _options(cls)

    @classmethod
    def make(cls, rules: Rules | None = None, **options: Any) -> Rules:
        """The one way adapters turn their `rules=` and option keywords into a variant.

        Args:
            rules: A whole variant, or None to build one from `options`.
            **options: `Rules` fields as keywords (`players=3, harmony=True`).

        Returns:
            `rules` as it is, or `Rules(**options)`.

        Raises:
            ValueError: Both `rules` and options were given, `rules` is not a `Rules`, or an option is not a field
                of `Rules` (the message names the close match and the allowed ones).
        """
        names = [o.name for o in cls.options()]
        for key in options:
            if key not in names:
                close = difflib.get_close_matches(str(key), names, n=1)
                hint = f" (did you mean {close[0]!r}?)" if close else ""
                raise ValueError(f"unknown rules option {short_repr(key)}{hint}; allowed: {', '.join(names)}")
        if rules is None:
            return cls(**options)
        if not isinstance(rules, Rules):
            raise ValueError(f"rules must be a Rules or None, got {short_repr(rules)}")
        if options:
            raise ValueError(f"give either rules= or the options {', '.join(sorted(options))}, not both")
        return rules

    def _check_queendomino(self) -> None:
        refused = [name for name in ("mighty_duel", "harmony", "middle_kingdom", "three_player_36")
                   if getattr(self, name)]
        if self.has_quests:
            refused.append("quests" if self.quests else "random_quests")
        if refused:
            name = "The Royal Wedding" if self.is_royal_wedding else "Queendomino"
            raise ValueError(f"{name} has no option {', '.join(refused)} (its rulebook offers none); "
                             "Queendomino takes players (2-4) and buildings (None or a CSV path), the Royal Wedding "
                             "players (3-8), teams (6 or 8 players) and buildings")
        if self.buildings is not None:
            if not isinstance(self.buildings, str | os.PathLike):
                raise ValueError(f"buildings must be None or a path to a CSV file, got {short_repr(self.buildings)}")
            object.__setattr__(self, "buildings", os.fspath(self.buildings))
        _ = self.building_deck  # a malformed buildings file fails here, before any game exists

    @property
    def is_queendomino(self) -> bool:
        """Whether Queendomino's rules apply: Queendomino itself and the Royal Wedding (both boxes together)."""
        return self.game != "kingdomino"

    @property
    def is_royal_wedding(self) -> bool:
        return self.game == "royal_wedding"

    @cached_property
    def engine(self) -> Game:
        """The game's rules engine (`games.protocol.Game`): `core` plays every game through it."""
        return ENGINES[self.game]

    @cached_property
    def observation_layout(self) -> ObservationLayout:
        """The variant's observation: its named blocks (declared by the game) and their slices."""
        return ObservationLayout(self)

    # Capabilities: what callers ask for instead of naming a game.
    @property
    def title(self) -> str:
        """The game's name for people: "Kingdomino", "Queendomino" or "Royal Wedding"."""
        return GAME_TITLES[self.game]

    @property
    def title_in_text(self) -> str:
        """The name as it reads inside a sentence ("the Royal Wedding")."""
        return f"the {self.title}" if self.is_royal_wedding else self.title

    @property
    def variant_title(self) -> str:
        """The title with the way seats play: "Royal Wedding in teams" in team games, else `title`."""
        return f"{self.title} in teams" if self.teams else self.title

    @property
    def has_buildings(self) -> bool:
        """Whether kingdoms have Queendomino's economy: coins, knights, towers, buildings, the Queen and the Dragon,
        with their optional steps (knights, build, Dragon) and the PASS action after the picks."""
        return self.engine.has_buildings

    @property
    def crown_tiebreak(self) -> bool:
        """Whether crowns break a tie of score and largest territory (Kingdomino's rule; Queendomino has none)."""
        return self.engine.crown_tiebreak

    @property
    def two_boxes(self) -> bool:
        """Whether the dominoes come from both boxes (ids 0-47 Kingdomino's, 48-95 Queendomino's): labels then
        name the box."""
        return self.is_royal_wedding

    @cached_property
    def deck_boxes(self) -> np.ndarray:
        """(deck_size,) int64: the box each deck position is drawn from (box k holds the ids 48 * k .. 48 * k + 47):
        all 0, but in the Royal Wedding, whose lines alternate boxes (`queendomino.game.queen_box_positions`). What
        is hidden of the deck is reordered within each box."""
        if not self.two_boxes:
            return np.zeros(self.deck_size, dtype=np.int64)
        return _queendomino.game.queen_box_positions(self.line_size).astype(np.int64)

    @property
    def shared_kingdoms(self) -> bool:
        """Whether two seats play one kingdom (the Royal Wedding's teams): K = `kingdoms` < `players`."""
        return self.teams

    @cached_property
    def kingdoms(self) -> int:
        """K: kingdoms in play, one per player, or one per team of two in team games."""
        return self.players // 2 if self.teams else self.players

    @cached_property
    def seat_kingdoms(self) -> tuple[int, ...]:
        """The kingdom of each seat: seats 2t and 2t + 1 share kingdom t in team games, else seat p has kingdom p."""
        return tuple(p // 2 if self.teams else p for p in range(self.players))

    def kingdom_seats(self, kingdom: int) -> tuple[int, ...]:
        """The seats that play a kingdom.

        Args:
            kingdom: The kingdom, 0 to `kingdoms` - 1.

        Returns:
            Its seats: one, or two in team games.
        """
        if not 0 <= kingdom < self.kingdoms:
            raise ValueError(f"kingdom must be in 0..{self.kingdoms - 1}, got {short_repr(kingdom)}")
        return tuple(p for p, k in enumerate(self.seat_kingdoms) if k == kingdom)

    @cached_property
    def n_domino_ids(self) -> int:
        """Domino ids of the variant: 48, or 96 in the Royal Wedding (0-47 Kingdomino's box, 48-95 Queendomino's)."""
        return 96 if self.is_royal_wedding else N_DOMINOES

    @cached_property
    def domino_terrain(self) -> np.ndarray:
        """(n_domino_ids, 2) terrain code of each square of each domino id (see `dominoes`)."""
        return _domino_tables(self.game)[0]

    @cached_property
    def domino_crowns(self) -> np.ndarray:
        """(n_domino_ids, 2) crowns on each square of each domino id."""
        return _domino_tables(self.game)[1]

    def domino_label(self, domino: int) -> tuple[str, int]:
        """Where a domino id comes from.

        Args:
            domino: A domino id, 0 to `n_domino_ids` - 1.

        Returns:
            `(box, number)`: the box (`"kingdomino"` or `"queendomino"`) and the domino's number 1..48 there.
        """
        if not is_integer(domino) or not 0 <= domino < self.n_domino_ids:
            raise ValueError(f"domino id must be in 0..{self.n_domino_ids - 1}, got {short_repr(domino)}")
        if self.is_royal_wedding:
            return ("kingdomino", int(domino) + 1) if domino < N_DOMINOES else ("queendomino", int(domino) - 47)
        return self.game, int(domino) + 1

    @cached_property
    def building_deck(self) -> _buildings.BuildingDeck:
        """Queendomino's 32 building tiles (the shipped deck, or the CSV at `buildings`)."""
        if not self.is_queendomino:
            raise ValueError("Kingdomino has no building deck")
        return _buildings.load(self.buildings)

    def _check_quests(self) -> None:
        if isinstance(self.quests, str) or not isinstance(self.quests, (tuple, list)):
            raise ValueError(f"quests must be a sequence of quest names, got {short_repr(self.quests)}; "
                             f"valid quests: {', '.join(_quests.QUESTS)}")
        object.__setattr__(self, "quests", _quests.check_names(self.quests))
        k = self.random_quests
        if not isinstance(k, int) or isinstance(k, bool) or not 0 <= k <= _quests.N_QUESTS:
            raise ValueError(f"random_quests must be an integer in 0..{_quests.N_QUESTS}, got {short_repr(k)}")
        if k and self.quests:
            raise ValueError("give either quests (fixed) or random_quests (drawn per game), not both")

    @cached_property
    def has_quests(self) -> bool:
        """Whether games of this variant have quests (fixed or random)."""
        return bool(self.quests) or self.random_quests > 0

    # Sizes derived from the variant (cached: the hot paths read them every step).
    @cached_property
    def grid(self) -> int:
        """N: the kingdom's side (5, or 7 in the Mighty Duel, 2-player Queendomino, the 3-4 player and the team
        Royal Wedding)."""
        if self.is_royal_wedding:
            return 7 if self.players <= 4 or self.teams else 5
        if self.is_queendomino:
            return 7 if self.players == 2 else 5
        return 7 if self.mighty_duel else 5

    @cached_property
    def frame(self) -> int:
        """S = 2N - 1: the side of the frame a kingdom lives in, castle at the centre."""
        return 2 * self.grid - 1

    @cached_property
    def castle(self) -> int:
        """Row and column of the castle in the frame (N - 1)."""
        return self.grid - 1

    @cached_property
    def deck_size(self) -> int:
        if self.is_royal_wedding:
            return 2 * N_DOMINOES
        if self.is_queendomino:
            return 48
        if self.players == 2 and not self.mighty_duel:
            return 24
        if self.three_player_36:
            return 36
        return 48

    @cached_property
    def line_size(self) -> int:
        if self.is_royal_wedding and self.players > 4:
            return 8
        return 3 if self.three_player_36 else 4

    @cached_property
    def kings(self) -> int:
        """Kings in play: 2 per player in 2-player games, 1 otherwise (a team has its two players' kings)."""
        return 4 if self.players == 2 else self.players

    @cached_property
    def kings_per_player(self) -> int:
        return self.kings // self.players

    @cached_property
    def rounds(self) -> int:
        """Rounds after the starting round; each places one line."""
        return self.deck_size // self.line_size

    @cached_property
    def max_actions(self) -> int:
        """Actions in a whole game: one pick and one placement (or discard) per king per line. In Queendomino
        the most a game can take: besides those, per king's turn up to 2 knight actions (2 knights, or 1 and
        PASS), 1 build (or PASS) and 1 Dragon (or PASS)."""
        if self.is_queendomino:
            return 2 * self.rounds * self.kings + 4 * self.rounds * self.kings
        return 2 * self.rounds * self.kings

    # The action layout.
    @cached_property
    def n_place_actions(self) -> int:
        return self.frame * self.frame * 4

    @cached_property
    def discard_action(self) -> int:
        return self.n_place_actions

    @cached_property
    def first_pick_action(self) -> int:
        return self.n_place_actions + 1

    @cached_property
    def n_actions(self) -> int:
        if self.is_queendomino:
            return self.pass_action + 1
        return self.n_place_actions + 1 + self.line_size

    # Queendomino's actions (after the picks).
    @cached_property
    def first_knight_action(self) -> int:
        """K: a knight on the first square of the domino just placed; K + 1 on the second (Queendomino)."""
        self._queendomino_only("knight actions")
        return self.first_pick_action + self.line_size

    @cached_property
    def first_build_action(self) -> int:
        """B = K + 2: build slot k's tile on (r, c) is B + k * S^2 + r * S + c (Queendomino)."""
        return self.first_knight_action + 2

    @cached_property
    def first_dragon_action(self) -> int:
        """D = B + 6 S^2: the Dragon burns slot k's tile with D + k (Queendomino)."""
        return self.first_build_action + BOARD_SLOTS * self.frame * self.frame

    @cached_property
    def pass_action(self) -> int:
        """D + 6: PASS, ending the current optional step (Queendomino)."""
        return self.first_dragon_action + BOARD_SLOTS

    @cached_property
    def constants(self) -> Variant | QueendominoVariant:
        """The variant's constants as the numba kernels read them, computed once: `games.records.Variant`, and in
        Queendomino `QueendominoVariant`, which adds the domino and building tables."""
        variant = Variant(grid=self.grid, rounds=self.rounds, line=self.line_size, harmony=self.harmony,
                          middle_kingdom=self.middle_kingdom, n_place=self.n_place_actions)
        if not self.is_queendomino:
            return variant
        return QueendominoVariant(
            *variant, players=self.players, shift=1 if self.teams else 0, first_knight=self.first_knight_action,
            first_build=self.first_build_action, first_dragon=self.first_dragon_action, pass_action=self.pass_action,
            domino_terrain=kernel_table(self.domino_terrain, np.int8),
            domino_crowns=kernel_table(self.domino_crowns, np.int8),
            building_table=kernel_table(self.building_deck.table, np.int64))

    @cached_property
    def kernel_constants(self) -> tuple:
        """`constants` as the plain tuple every kernel call takes (numba types a plain tuple fastest), built once per
        variant rather than once per state."""
        return tuple(self.constants)

    def _queendomino_only(self, what: str) -> None:
        if not self.is_queendomino:
            raise ValueError(f"{what} exist only in Queendomino (Rules(game='queendomino'))")

    def knight_action(self, square: int) -> int:
        """The action id that puts a knight on a square of the domino just placed (Queendomino).

        Args:
            square: 0 for the domino's first square, 1 for its second.
        """
        if square not in (0, 1):
            raise ValueError(f"knight square must be 0 (first) or 1 (second), got {short_repr(square)}")
        return self.first_knight_action + square

    def build_action(self, slot: int, row: int, col: int) -> int:
        """The action id that builds a tile of the Builders' Board on a town square (Queendomino).

        Args:
            slot: The Builders' Board slot, 0..5.
            row: The square's row in the kingdom's frame.
            col: The square's column in the kingdom's frame.
        """
        s = self.frame
        self._queendomino_only("build actions")
        if not (0 <= slot < BOARD_SLOTS and 0 <= row < s and 0 <= col < s):
            raise ValueError(f"build ({slot}, {row}, {col}) needs slot 0..{BOARD_SLOTS - 1} and a square of the "
                             f"{s}x{s} frame")
        return self.first_build_action + (slot * s + row) * s + col

    def dragon_action(self, slot: int) -> int:
        """The action id with which the Dragon burns a tile of the Builders' Board (Queendomino).

        Args:
            slot: The Builders' Board slot, 0..5.
        """
        self._queendomino_only("Dragon actions")
        if not 0 <= slot < BOARD_SLOTS:
            raise ValueError(f"Dragon slot must be in 0..{BOARD_SLOTS - 1}, got {short_repr(slot)}")
        return self.first_dragon_action + slot

    def place_action(self, row: int, col: int, direction: int) -> int:
        """The action id that places the domino to place.

        Args:
            row: The row of its first square in the kingdom's frame.
            col: The column of its first square.
            direction: Where its second square lies: 0 east, 1 south, 2 west, 3 north (`DIRECTIONS`).
        """
        s = self.frame
        if not (0 <= row < s and 0 <= col < s and 0 <= direction < 4):
            raise ValueError(f"placement ({row}, {col}, {direction}) is outside the {s}x{s} frame or directions 0-3")
        return (row * s + col) * 4 + direction

    def pick_action(self, index: int) -> int:
        """The action id that picks a domino of the next line.

        Args:
            index: The slot in the next line, dominoes in ascending number.
        """
        if not 0 <= index < self.line_size:
            raise ValueError(f"pick index must be in 0..{self.line_size - 1}, got {index}")
        return self.first_pick_action + index

    def describe_action(self, action: int, domino: str = "") -> str:
        """How a person reads an action id.

        Squares are named by row and column counted from 1 at the frame's top left (`square_name`), the line's
        positions from 1, Builders' Board slots by their cost 0..5.

        Args:
            action: An action id, 0 to `n_actions` - 1.
            domino: The domino a placement, discard or pick moves (e.g. ``'#12'``), named in the text if given.

        Returns:
            For example ``'place at row 5, column 6, second half east'``, ``'pick line position 2'``,
            ``'build slot 3 at row 2, column 7'``, ``'discard'``.
        """
        if not 0 <= action < self.n_actions:
            raise ValueError(f"action must be in 0..{self.n_actions - 1}, got {action}")
        named = f" {domino}" if domino else ""
        if action == self.discard_action:
            return f"discard{named}"
        if self.is_queendomino and action >= self.first_knight_action:
            if action == self.pass_action:
                return "pass"
            if action >= self.first_dragon_action:
                return f"dragon burns slot {action - self.first_dragon_action}"
            if action >= self.first_build_action:
                slot, cell = divmod(action - self.first_build_action, self.frame * self.frame)
                return f"build slot {slot} at {square_name(*divmod(cell, self.frame))}"
            return f"knight on the {('first', 'second')[action - self.first_knight_action]} square"
        if action >= self.first_pick_action:
            position = action - self.first_pick_action + 1
            return f"pick{named} (line position {position})" if domino else f"pick line position {position}"
        cell, direction = divmod(action, 4)
        return f"place{named} at {square_name(*divmod(cell, self.frame))}, second half {DIRECTION_NAMES[direction]}"

    # Records.
    def to_dict(self) -> dict[str, Any]:
        """The `rules` object of a game record (the grid is included for readers; it follows mighty_duel).

        "quests" and "random_quests" appear only in variants with quests, so records without quests keep the
        format they had before quests existed. Queendomino's: {"game", "players", "grid", "buildings"}; the Royal
        Wedding's adds "teams"."""
        if self.is_queendomino:
            out = {"game": self.game, "players": self.players, "grid": self.grid, "buildings": self.buildings}
            if self.is_royal_wedding:
                out["teams"] = self.teams
            return out
        out = asdict(self)
        del out["game"], out["buildings"], out["teams"]
        if self.has_quests:
            out["quests"] = list(self.quests)
        else:
            del out["quests"], out["random_quests"]
        out["grid"] = self.grid
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Rules:
        """The variant of a record's `rules` object: the inverse of `to_dict`.

        Args:
            data: A `to_dict` object. The quest keys and `"game"` (default `"kingdomino"`) are optional.

        Raises:
            ValueError: `data` has an unknown key, a bad value, or a grid that contradicts the variant.
        """
        if not isinstance(data, dict):
            raise ValueError(f"rules must be an object, got {type(data).__name__}")
        known = {"players", "mighty_duel", "harmony", "middle_kingdom", "three_player_36", "quests", "random_quests",
                 "grid", "game", "buildings", "teams"}
        unknown = [key for key in data if key not in known]
        if unknown:
            raise ValueError(f"unknown rules keys {sorted(map(short_repr, unknown))}; allowed: {sorted(known)}")
        args = {k: v for k, v in data.items() if k != "grid"}
        if isinstance(args.get("quests"), list):
            args["quests"] = tuple(args["quests"])
        rules = cls(**args)
        grid = data.get("grid", rules.grid)
        if not is_integer(grid) or grid != rules.grid:
            raise ValueError(f"rules say grid={short_repr(grid)} but the variant has a {rules.grid}x{rules.grid} grid")
        return rules


@cache
def _options(cls: type) -> tuple[RuleOption, ...]:
    hints = get_type_hints(cls)
    return tuple(RuleOption(f.name, hints[f.name], f.default, f.metadata["help"], f.metadata["games"])
                 for f in fields(cls))


_ROYAL_TERRAIN = np.concatenate([DOMINO_TERRAIN, QUEEN_DOMINO_TERRAIN])
_ROYAL_CROWNS = np.concatenate([DOMINO_CROWNS, QUEEN_DOMINO_CROWNS])
_ROYAL_TERRAIN.flags.writeable = False
_ROYAL_CROWNS.flags.writeable = False


def _domino_tables(game: str) -> tuple[np.ndarray, np.ndarray]:
    """(terrain, crowns) tables by domino id of a game (the Royal Wedding's: Kingdomino's box, then Queendomino's)."""
    if game == "kingdomino":
        return DOMINO_TERRAIN, DOMINO_CROWNS
    if game == "queendomino":
        return QUEEN_DOMINO_TERRAIN, QUEEN_DOMINO_CROWNS
    return _ROYAL_TERRAIN, _ROYAL_CROWNS


def is_integer(value: Any) -> bool:
    """Whether a value is an integer: a Python int (not a bool), a numpy integer or a 0-d numpy integer array.

    Args:
        value: Anything.
    """
    if isinstance(value, bool):
        return False
    if isinstance(value, int | np.integer):
        return True
    return isinstance(value, np.ndarray) and value.shape == () and np.issubdtype(value.dtype, np.integer)


def short_repr(value: Any) -> str:
    """A short repr for messages: a huge integer or a long list stays short.

    Args:
        value: Anything.
    """
    try:
        return reprlib.repr(value)
    except ValueError:  # an integer with more digits than Python will print
        if isinstance(value, int):
            return f"an integer of about {int(value.bit_length() * 0.30103) + 1} digits"
        return f"a {type(value).__name__} holding an integer too large to show"
