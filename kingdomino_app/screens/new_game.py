"""New Game: 2-4 seats, each a named human or an agent; the variant options; Start Game, Browse Dominoes.

Only agents that can play the chosen variant are offered (`agents.supports`): the kind cycle skips the others,
and a change of the player count or of an option moves a seat whose agent cannot play it to one that can.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame

import agents
from kingdomino_env import drawing
from kingdomino_env.rules import Rules

from ..match import Match
from ..seats import HUMAN, KINDS, AgentUnavailable, Seat, default_name, distinct_names
from ..ui import ACCENT, ERROR, MUTED, WIDTH, Button, Canvas, TextField
from .base import Screen

if TYPE_CHECKING:
    from ..app import App

OPTIONS: tuple[tuple[str, str, str], ...] = (
    ("mighty_duel", "Mighty Duel", "2 players, all 48 dominoes, 7x7 kingdoms"),
    ("harmony", "Harmony", "+5 for a complete kingdom"),
    ("middle_kingdom", "Middle Kingdom", "+10 when the castle is in the centre"),
    ("dynasty", "Dynasty", "three games in a row, totals decide"),
)
#: Quest cards dealt per game when quests are on (the quest mod deals 2).
QUESTS_DEALT = 2
QUESTS_DESCRIPTION = f"{QUESTS_DEALT} quest cards dealt per game, bonus points"
SEAT_Y, SEAT_STEP = 180, 80
OPTION_X, OPTION_W, OPTION_STEP = 920, 300, 78
HINT_RECT = pygame.Rect(60, 500, 800, 54)
NOTE_RECT = pygame.Rect(60, 586, 1160, 54)
NOTE_SIZE = 22


def kind_label(kind: str) -> str:
    return "Human" if kind == HUMAN else f"Agent: {kind}"


def can_play(kind: str, rules: Rules) -> bool:
    """Whether a seat of `kind` can play `rules` (humans can play anything; an unknown spec cannot)."""
    if kind == HUMAN:
        return True
    try:
        return bool(agents.supports(kind, rules))
    except ValueError:
        return False


class NewGameScreen(Screen):
    title = "New Game"

    def __init__(self, app: App, kinds: tuple[str, ...] = (HUMAN, "greedy", "random", "mcts")):
        super().__init__(app)
        self.players = 2
        self.kinds = list(kinds)
        self.fields = [TextField(pygame.Rect(250, SEAT_Y + i * SEAT_STEP, 330, 50), default_name(kinds[i], i))
                       for i in range(4)]
        self.flags = {key: False for key, _, _ in OPTIONS}
        self.random_quests = 0
        self.error = ""
        self.note = ""

    # The variant as set.
    def rules(self) -> Rules:
        """The Rules of the player count and toggles as set (Dynasty is not a rule: see `dynasty`)."""
        return Rules(players=self.players, mighty_duel=self.flags["mighty_duel"], harmony=self.flags["harmony"],
                     middle_kingdom=self.flags["middle_kingdom"], random_quests=self.random_quests)

    @property
    def dynasty(self) -> bool:
        return self.flags["dynasty"]

    # Editing.
    def set_players(self, players: int) -> None:
        self.players = players
        if players != 2:
            self.flags["mighty_duel"] = False
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
    def buttons(self) -> list[Button]:
        out = [Button(f"{n} players", pygame.Rect(250 + (n - 2) * 150, 100, 140, 50), lambda n=n: self.set_players(n),
                      selected=self.players == n, size=26) for n in (2, 3, 4)]
        for i in range(self.players):
            out.append(Button(kind_label(self.kinds[i]), pygame.Rect(600, SEAT_Y + i * SEAT_STEP, 260, 50),
                              lambda i=i: self.cycle_kind(i), size=26))
        for k, (key, label, _) in enumerate(OPTIONS):
            enabled = key != "mighty_duel" or self.players == 2
            on = self.flags[key]
            out.append(Button(f"{label}: {'On' if on else 'Off'}",
                              pygame.Rect(OPTION_X, SEAT_Y + k * OPTION_STEP, OPTION_W, 50),
                              lambda key=key: self.toggle(key), enabled=enabled, selected=on, size=26))
        quests = f"{self.random_quests} random" if self.random_quests else "Off"
        out.append(Button(f"Quests: {quests}", pygame.Rect(OPTION_X, SEAT_Y + len(OPTIONS) * OPTION_STEP, OPTION_W, 50),
                          self.toggle_quests, selected=bool(self.random_quests), size=26))
        out.append(Button("Start Game", pygame.Rect(WIDTH // 2 - 330, 650, 310, 62), self.start,
                          key=pygame.K_RETURN, size=34))
        out.append(Button("Browse Dominoes", pygame.Rect(WIDTH // 2 + 20, 650, 310, 62),
                          lambda: self.app.show_dominoes(self), size=34))
        out.append(Button("Back", pygame.Rect(40, 720, 160, 54), self.app.show_menu, key=pygame.K_ESCAPE))
        return out

    def handle(self, event: pygame.event.Event) -> bool:
        focused = [f for f in self.fields[: self.players] if f.focused]
        if event.type in (pygame.TEXTINPUT, pygame.KEYDOWN) and focused:
            return focused[0].handle(event)
        if event.type == pygame.MOUSEBUTTONDOWN:
            hit = any(f.handle(event) for f in self.fields[: self.players])
            if hit:
                return True
        return super().handle(event)

    def draw_content(self, canvas: Canvas) -> None:
        canvas.text("Players", (60, 125), 30, bold=True, anchor="midleft")
        for i in range(self.players):
            y = SEAT_Y + i * SEAT_STEP
            drawing.draw_king(canvas.surface, (80, y + 25), 40, i)
            canvas.text(f"Player {i + 1}", (110, y + 25), 28, anchor="midleft")
            self.fields[i].draw(canvas)
        descriptions = [description for _, _, description in OPTIONS] + [QUESTS_DESCRIPTION]
        for k, description in enumerate(descriptions):
            canvas.fitted(description, (OPTION_X, SEAT_Y + k * OPTION_STEP + 53), WIDTH - OPTION_X - 10, 20, MUTED)
        canvas.wrapped("Click a name to type it; click Human or Agent to change who plays the seat. Only agents "
                       "that can play the chosen variant are offered.", HINT_RECT, 22, MUTED, max_lines=2)
        if self.error:
            canvas.wrapped(self.error, NOTE_RECT, NOTE_SIZE, ERROR, max_lines=2)
        elif self.note:
            canvas.wrapped(self.note, NOTE_RECT, NOTE_SIZE, ACCENT, max_lines=2)
