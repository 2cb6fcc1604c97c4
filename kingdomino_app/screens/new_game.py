"""New Game: 2-4 seats, each a named human or an agent; the variant options; Start Game, Browse Dominoes."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame

from kingdomino_env import drawing

from ..match import Match, Options
from ..seats import HUMAN, KINDS, AgentUnavailable, Seat, default_name
from ..ui import ERROR, MUTED, WIDTH, Button, Canvas, TextField
from .base import Screen

if TYPE_CHECKING:
    from ..app import App

OPTIONS: tuple[tuple[str, str, str], ...] = (
    ("mighty_duel", "Mighty Duel", "2 players, all 48 dominoes, 7x7 kingdoms"),
    ("harmony", "Harmony", "+5 for a complete kingdom"),
    ("middle_kingdom", "Middle Kingdom", "+10 when the castle is in the centre"),
    ("dynasty", "Dynasty", "three games in a row, totals decide"),
)
SEAT_Y, SEAT_STEP = 180, 80


def kind_label(kind: str) -> str:
    return "Human" if kind == HUMAN else f"Agent: {kind}"


class NewGameScreen(Screen):
    title = "New Game"

    def __init__(self, app: App, kinds: tuple[str, ...] = (HUMAN, "greedy", "random", "mcts")):
        super().__init__(app)
        self.players = 2
        self.kinds = list(kinds)
        self.fields = [TextField(pygame.Rect(250, SEAT_Y + i * SEAT_STEP, 330, 50), default_name(kinds[i], i))
                       for i in range(4)]
        self.flags = {key: False for key, _, _ in OPTIONS}
        self.error = ""

    # Editing.
    def set_players(self, players: int) -> None:
        self.players = players
        if players != 2:
            self.flags["mighty_duel"] = False

    def cycle_kind(self, seat: int) -> None:
        kinds = KINDS if self.kinds[seat] in KINDS else (*KINDS, self.kinds[seat])
        self.kinds[seat] = kinds[(kinds.index(self.kinds[seat]) + 1) % len(kinds)]
        if not self.fields[seat].edited:
            self.fields[seat].value = default_name(self.kinds[seat], seat)
        self.error = ""

    def toggle(self, key: str) -> None:
        self.flags[key] = not self.flags[key]

    def seats(self) -> list[Seat]:
        """The seats as set; a name already taken gets a number ("Greedy 2")."""
        out: list[Seat] = []
        for i in range(self.players):
            base = self.fields[i].value.strip() or default_name(self.kinds[i], i)
            name, k = base, 2
            while name in [s.name for s in out]:
                name, k = f"{base} {k}", k + 1
            out.append(Seat(name, self.kinds[i]))
        return out

    def start(self) -> None:
        options = Options(**self.flags)
        try:
            match = Match(self.seats(), options, self.app.seed, agent_factory=self.app.agent_factory)
        except AgentUnavailable as err:
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
            out.append(Button(f"{label}: {'On' if on else 'Off'}", pygame.Rect(920, SEAT_Y + k * 90, 300, 50),
                              lambda key=key: self.toggle(key), enabled=enabled, selected=on, size=26))
        out.append(Button("Start Game", pygame.Rect(WIDTH // 2 - 330, 640, 310, 66), self.start,
                          key=pygame.K_RETURN, size=34))
        out.append(Button("Browse Dominoes", pygame.Rect(WIDTH // 2 + 20, 640, 310, 66),
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
        for k, (_, _, description) in enumerate(OPTIONS):
            canvas.text(description, (920, SEAT_Y + k * 90 + 54), 20, MUTED)
        canvas.text("Click a name to type it; click Human or Agent to change who plays the seat.", (60, 600), 22, MUTED)
        if self.error:
            canvas.wrapped(self.error, pygame.Rect(60, 560, 1160, 40), 22, ERROR)
