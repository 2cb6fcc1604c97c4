"""New Game: the game (Kingdomino, Queendomino, the Royal Wedding), 2-8 seats, each a named human or an agent; the
variant options (Kingdomino's Mighty Duel, Harmony, Middle Kingdom and quests; the Royal Wedding's teams; Dynasty
for all); Start Game, Browse Dominoes.

A seat's button cycles through Human, the levels of play (Easy to Master, each showing its agent spec) and
every agent by name; only agents that can play the chosen variant are offered (`agents.supports`), and a change of
the game, the player count or an option moves a seat whose agent cannot play it to one that can. The seat's Spec
button opens a field to type any agent spec (``mcts:2``, ``az:200``), checked against the variant on Enter.
In team games (the Royal Wedding with 6 or 8 players) seats 2t and 2t + 1 form team t and share a kingdom.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame

import agents
from kingdomino_env.rendering import pygame_drawing as drawing
from kingdomino_env.rules import RuleOption, Rules

from ..match import MAX_SEATS, Match
from ..seats import HUMAN, KINDS, MAX_KIND, AgentUnavailable, Seat, default_name, distinct_names, kind_label
from ..ui import ACCENT, ERROR, MUTED, WIDTH, Button, Canvas, TextField
from .base import Screen

if TYPE_CHECKING:
    from ..app import App

#: The games offered: (Rules.game, button label, what it is).
GAMES: tuple[tuple[str, str, str], ...] = (
    ("kingdomino", "Kingdomino", "2-4 players, 5x5 kingdoms of landscapes and crowns"),
    ("queendomino", "Queendomino", "2-4 players: towns, knights, buildings, the Queen and the Dragon"),
    ("royal_wedding", "Royal Wedding", "3-8 players, both boxes; teams of 2 with 6 or 8"),
)
#: The player counts of each game.
PLAYER_COUNTS: dict[str, tuple[int, ...]] = {"kingdomino": (2, 3, 4), "queendomino": (2, 3, 4),
                                             "royal_wedding": (3, 4, 5, 6, 7, 8)}
#: How the screen shows the on/off options of `Rules` (label, description); an option not listed here shows its
#: name and its `Rules` help text.
OPTION_TEXT: dict[str, tuple[str, str]] = {
    "mighty_duel": ("Mighty Duel", "2 players, all 48 dominoes, 7x7 kingdoms"),
    "harmony": ("Harmony", "+5 for a complete kingdom"),
    "middle_kingdom": ("Middle Kingdom", "+10 when the castle is in the centre"),
    "teams": ("Teams", "6 or 8 players: teams of 2 share a 7x7 kingdom"),
    "dynasty": ("Dynasty", "three games in a row, totals decide"),
}
#: On/off `Rules` options the screen does not offer (the older 3-player rule: the app plays the current one).
HIDDEN_OPTIONS = ("three_player_36",)
#: The on/off `Rules` options the screen offers, in field order; Dynasty (not a rule) comes after them.
RULE_FLAGS: tuple[RuleOption, ...] = tuple(o for o in Rules.options()
                                           if o.type is bool and o.name not in HIDDEN_OPTIONS)
#: Quest cards dealt per game when quests are on (the quest mod deals 2).
QUESTS_DEALT = 2
QUESTS_DESCRIPTION = f"{QUESTS_DEALT} quest cards dealt per game, bonus points"
GAME_Y, PLAYERS_Y = 76, 128
SEAT_Y, SEAT_STEP = 180, 80
#: Seat rows past four players (up to 8 fit above the notes).
MANY_SEAT_STEP, MANY_FIELD_H = 52, 44
OPTION_X, OPTION_W, OPTION_STEP = 920, 300, 78
HINT_RECT = pygame.Rect(60, 500, 800, 54)
NOTE_RECT = pygame.Rect(60, 604, 1160, 54)
NOTE_SIZE = 22
START_Y = 668
#: The seat's kind button and its Spec button (which opens a field for any agent spec in the kind button's place).
KIND_X, KIND_W, SPEC_X, SPEC_W = 600, 226, 832, 76
#: The seats' default kinds.
DEFAULT_KINDS = (HUMAN, "greedy", "random", "mcts", "greedy", "random", "greedy", "random")


def can_play(kind: str, rules: Rules) -> bool:
    """Whether a seat of `kind` can play `rules` (humans can play anything; an unknown spec cannot)."""
    if kind == HUMAN:
        return True
    try:
        return bool(agents.supports(kind, rules))
    except ValueError:
        return False


def seat_step(players: int) -> int:
    """Pixels from one seat row to the next."""
    return SEAT_STEP if players <= 4 else MANY_SEAT_STEP


def seat_rect(seat: int, players: int, x: int, width: int) -> pygame.Rect:
    """Where seat `seat`'s name field (x 250) or kind button (x 600) is, for `players` seats."""
    height = 50 if players <= 4 else MANY_FIELD_H
    return pygame.Rect(x, SEAT_Y + seat * seat_step(players), width, height)


class NewGameScreen(Screen):
    title = "New Game"

    def __init__(self, app: App, kinds: tuple[str, ...] = DEFAULT_KINDS):
        super().__init__(app)
        self.game = "kingdomino"
        self.players = 2
        self.kinds = list(kinds) + [DEFAULT_KINDS[i] for i in range(len(kinds), MAX_SEATS)]
        self.fields = [TextField(seat_rect(i, 2, 250, 330), default_name(self.kinds[i], i)) for i in range(MAX_SEATS)]
        self.flags = {o.name: False for o in RULE_FLAGS} | {"dynasty": False}
        self.random_quests = 0
        self.error = ""
        self.note = ""
        #: The seat whose agent spec is being typed (None: none), and its field.
        self.spec_seat: int | None = None
        self.spec_field = TextField(seat_rect(0, 2, KIND_X, KIND_W), max_length=MAX_KIND)

    # The variant as set.
    def rules(self) -> Rules:
        """The Rules of the game, player count and toggles as set (Dynasty is not a rule: see `dynasty`)."""
        return Rules.make(**self.rule_options())

    def rule_options(self, **changes: object) -> dict[str, object]:
        """The `Rules` options as set (with `changes`): the game's toggles, and its random quests where it has
        quests."""
        options: dict[str, object] = {"players": self.players, "game": self.game}
        options |= {o.name: self.flags[o.name] for o in RULE_FLAGS if self.game in o.games}
        if self.has_quests:
            options["random_quests"] = self.random_quests
        return options | changes

    @property
    def has_quests(self) -> bool:
        """Whether the game as set offers quests (the Quests toggle)."""
        return self.game in next(o.games for o in Rules.options() if o.name == "random_quests")

    @property
    def dynasty(self) -> bool:
        return self.flags["dynasty"]

    def option_enabled(self, key: str) -> bool:
        """Whether a toggle can be turned on with the game and player count as set (a rule whose `Rules` refuse it
        there, such as the Mighty Duel with 3 players, cannot)."""
        if key not in self.rule_options():
            return True
        try:
            Rules.make(**self.rule_options(**{key: True}))
        except ValueError:
            return False
        return True

    # Editing.
    def set_game(self, game: str) -> None:
        """Choose the game: the player count moves into its range, options it lacks are turned off."""
        self.game = game
        counts = PLAYER_COUNTS[game]
        self.players = min(max(self.players, counts[0]), counts[-1])
        for o in RULE_FLAGS:
            if game not in o.games:
                self.flags[o.name] = False
        if not self.has_quests:
            self.random_quests = 0
        self.set_players(self.players)

    def set_players(self, players: int) -> None:
        self.players = players
        self.spec_seat = None
        for key in self.flags:
            if not self.option_enabled(key):
                self.flags[key] = False
        for i, field in enumerate(self.fields):
            field.rect = seat_rect(i, players, 250, 330)
        self.refit()

    def set_kind(self, seat: int, kind: str) -> None:
        self.kinds[seat] = kind
        if not self.fields[seat].edited:
            self.fields[seat].value = default_name(kind, seat)

    def cycle_kind(self, seat: int) -> None:
        """The seat's next kind that can play the variant as set."""
        kinds = KINDS if self.kinds[seat] in KINDS else (*KINDS, self.kinds[seat])
        start = kinds.index(self.kinds[seat])
        rules = self.rules()
        for step in range(1, len(kinds) + 1):
            kind = kinds[(start + step) % len(kinds)]
            if can_play(kind, rules):
                self.set_kind(seat, kind)
                break
        self.error = ""
        self.note = ""

    def edit_spec(self, seat: int) -> None:
        """Open the field to type seat `seat`'s agent spec (it starts with the seat's agent, if any)."""
        self.spec_seat = seat
        kind = self.kinds[seat]
        self.spec_field = TextField(seat_rect(seat, self.players, KIND_X, KIND_W), "" if kind == HUMAN else kind,
                                    max_length=MAX_KIND, focused=True)
        pygame.key.start_text_input()
        self.error = ""

    def apply_spec(self) -> None:
        """Give the typed spec to its seat when its agent can play the variant as set; else say why and keep the
        field open."""
        seat, spec = self.spec_seat, self.spec_field.value.strip()
        if seat is None:
            return
        if not spec:
            self.error = "Type an agent spec (e.g. mcts:2 or az:200), or press Escape."
            self.spec_field.focused = True
            return
        try:
            if spec.lower() != HUMAN:
                agents.check_supports(spec, self.rules())
        except agents.AgentSpecError as err:
            self.error = f"Agent spec {err}" if str(err).startswith(repr(spec)) else f"Agent spec {spec!r}: {err}"
            self.spec_field.focused = True
            return
        self.spec_seat = None
        self.note = ""
        self.error = ""
        self.set_kind(seat, HUMAN if spec.lower() == HUMAN else spec)

    def close_spec(self) -> None:
        self.spec_seat = None
        self.error = ""

    def toggle(self, key: str) -> None:
        self.flags[key] = not self.flags[key]
        self.refit()

    def toggle_quests(self) -> None:
        self.random_quests = 0 if self.random_quests else QUESTS_DEALT
        self.refit()

    def replacement(self, kind: str, rules: Rules) -> str:
        """The kind a seat of `kind` that cannot play `rules` moves to: the next agent in the cycle that can."""
        kinds = KINDS if kind in KINDS else (*KINDS, kind)
        start = kinds.index(kind)
        for step in range(1, len(kinds)):
            candidate = kinds[(start + step) % len(kinds)]
            if candidate != HUMAN and can_play(candidate, rules):
                return candidate
        return HUMAN

    def refit(self) -> None:
        """Move every seat whose agent cannot play the variant as set to one that can, and say so."""
        rules = self.rules()
        moved = []
        for seat in range(self.players):
            kind = self.kinds[seat]
            if not can_play(kind, rules):
                new = self.replacement(kind, rules)
                self.set_kind(seat, new)
                moved.append(f"Player {seat + 1} is now {new}: {kind} cannot play this variant.")
        self.error = ""
        self.note = " ".join(moved)

    def seats(self) -> list[Seat]:
        """The seats as set; a name already taken gets a number ("Greedy 2")."""
        return distinct_names([Seat(self.fields[i].value.strip() or default_name(self.kinds[i], i), self.kinds[i])
                               for i in range(self.players)])

    def start(self) -> None:
        """Start the game as set; a seat that cannot play it or an agent that cannot be made is reported here."""
        rules = self.rules()
        seats = self.seats()
        try:
            for seat in seats:
                if not seat.is_human:
                    agents.check_supports(seat.kind, rules)
            match = Match(seats, rules, dynasty=self.dynasty, seed=self.app.seed, agent_factory=self.app.agent_factory)
        except (AgentUnavailable, agents.AgentSpecError) as err:
            self.note = ""
            self.error = f"Cannot start: {err}"
            return
        self.app.show_play(match)

    # Screen.
    def option_rows(self) -> list[tuple[str, str, str]]:
        """The option rows of the game as set: (key, label, description); "quests" is the quest toggle."""
        rows = [(o.name, *OPTION_TEXT.get(o.name, (o.name.replace("_", " ").title(), o.help.rstrip(".")))) for o in
                RULE_FLAGS if self.game in o.games]
        rows.append(("dynasty", *OPTION_TEXT["dynasty"]))
        if self.has_quests:
            rows.append(("quests", "Quests", QUESTS_DESCRIPTION))
        return rows

    def buttons(self) -> list[Button]:
        out = [Button(label, pygame.Rect(250 + k * 210, GAME_Y, 200, 44), lambda g=choice: self.set_game(g),
                      selected=choice == self.game, size=26) for k, (choice, label, _) in enumerate(GAMES)]
        counts = PLAYER_COUNTS[self.game]
        width = 140 if len(counts) <= 4 else 104
        out += [Button(f"{n} players", pygame.Rect(250 + k * (width + 8), PLAYERS_Y, width, 42),
                       lambda n=n: self.set_players(n), selected=self.players == n, size=26 if width > 120 else 22)
                for k, n in enumerate(counts)]
        for i in range(self.players):
            if i != self.spec_seat:
                out.append(Button(kind_label(self.kinds[i]), seat_rect(i, self.players, KIND_X, KIND_W),
                                  lambda i=i: self.cycle_kind(i), size=24 if self.players <= 4 else 22))
            out.append(Button("Spec", seat_rect(i, self.players, SPEC_X, SPEC_W), lambda i=i: self.edit_spec(i),
                              selected=i == self.spec_seat, size=22))
        for k, (key, label, _) in enumerate(self.option_rows()):
            rect = pygame.Rect(OPTION_X, SEAT_Y + k * OPTION_STEP, OPTION_W, 50)
            if key == "quests":
                quests = f"{self.random_quests} random" if self.random_quests else "Off"
                out.append(Button(f"Quests: {quests}", rect, self.toggle_quests, selected=bool(self.random_quests),
                                  size=26))
                continue
            on = self.flags[key]
            out.append(Button(f"{label}: {'On' if on else 'Off'}", rect, lambda key=key: self.toggle(key),
                              enabled=self.option_enabled(key), selected=on, size=26))
        out.append(Button("Start Game", pygame.Rect(WIDTH // 2 - 330, START_Y, 310, 62), self.start,
                          key=pygame.K_RETURN, size=34))
        out.append(Button("Browse Dominoes", pygame.Rect(WIDTH // 2 + 20, START_Y, 310, 62),
                          lambda: self.app.show_dominoes(self, self.game), size=34))
        out.append(Button("Back", pygame.Rect(40, 720, 160, 54), self.app.show_menu, key=pygame.K_ESCAPE))
        return out

    def handle(self, event: pygame.event.Event) -> bool:
        if self.spec_seat is not None and self.handle_spec(event):
            return True
        focused = [f for f in self.fields[: self.players] if f.focused]
        if event.type in (pygame.TEXTINPUT, pygame.KEYDOWN) and focused:
            return focused[0].handle(event)
        if event.type == pygame.MOUSEBUTTONDOWN:
            hit = any(f.handle(event) for f in self.fields[: self.players])
            if hit:
                return True
        return super().handle(event)

    def handle_spec(self, event: pygame.event.Event) -> bool:
        """The spec field's events: typing, Enter applies, Escape closes it; a click elsewhere leaves it open."""
        field = self.spec_field
        if event.type == pygame.KEYDOWN and field.focused:
            if event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
                field.focused = False
                self.apply_spec()
                return True
            if event.key == pygame.K_ESCAPE:
                self.close_spec()
                return True
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1 and not field.rect.collidepoint(event.pos):
            field.focused = False
            return False
        return field.handle(event)

    def draw_content(self, canvas: Canvas) -> None:
        canvas.text("Game", (60, GAME_Y + 22), 30, bold=True, anchor="midleft")
        canvas.text("Players", (60, PLAYERS_Y + 21), 30, bold=True, anchor="midleft")
        teams = self.rules().shared_kingdoms
        many = self.players > 4
        for i in range(self.players):
            rect = seat_rect(i, self.players, 0, 0)
            y = rect.centery
            drawing.draw_king(canvas.surface, (80, y), 40 if not many else 32, i)
            label = f"Team {i // 2 + 1}" if teams else f"Player {i + 1}"
            canvas.text(label, (110, y), 28 if not many else 26, anchor="midleft")
            if teams and i % 2 == 0:
                bottom = seat_rect(i + 1, self.players, 0, 0).centery
                pygame.draw.line(canvas.surface, ACCENT, (56, y), (56, bottom), 3)
            self.fields[i].draw(canvas, 28 if not many else 26)
        if self.spec_seat is not None:
            self.spec_field.draw(canvas, 24 if not many else 22)
        for k, (_, _, description) in enumerate(self.option_rows()):
            canvas.fitted(description, (OPTION_X, SEAT_Y + k * OPTION_STEP + 53), WIDTH - OPTION_X - 10, 20, MUTED)
        game_text = next(text for choice, _, text in GAMES if choice == self.game)
        x = 250 + 3 * 210 + 10
        canvas.block(game_text, pygame.Rect(x, GAME_Y, WIDTH - x - 20, 44), 20, MUTED, minimum=13)
        if not many:
            canvas.block("Click a name to type it. The seat's button cycles Human, the levels of play (Easy to Master, "
                         "with the agent each uses) and every agent that can play the chosen variant; Spec types any "
                         "agent spec.", HINT_RECT, 22, MUTED, minimum=16)
        if self.error:
            canvas.block(self.error, NOTE_RECT, NOTE_SIZE, ERROR, minimum=13)
        elif self.note:
            canvas.block(self.note, NOTE_RECT, NOTE_SIZE, ACCENT, minimum=13)
