"""Load Game: the autosave first, then the saves (name, date, players, round), bad ones with the reason; Continue
Game resumes one, Analysis looks at its game again with the advisor. Every text is fitted to its box, and a save
that cannot be continued says why."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame

from .. import saves
from ..match import Match
from ..seats import printable
from ..ui import ACCENT, ERROR, INK, MUTED, PANEL, SELECTED, WIDTH, Button, Canvas
from .base import Screen

if TYPE_CHECKING:
    from ..app import App

LIST_TOP, ROW_HEIGHT, VISIBLE = 96, 78, 7
#: Where the message of a failed Continue is drawn (two lines at most), between the Back and Continue buttons.
MESSAGE_RECT = pygame.Rect(220, 728, WIDTH - 440, 50)
DATE_WIDTH = 220
AUTOSAVE_FILL = (246, 226, 200)


def row_rect(index: int, offset: int = 0) -> pygame.Rect:
    """Where the `index`-th save is drawn, the list scrolled by `offset` rows."""
    return pygame.Rect(120, LIST_TOP + (index - offset) * ROW_HEIGHT, WIDTH - 240, ROW_HEIGHT - 8)


class LoadScreen(Screen):
    title = "Load Game"

    def __init__(self, app: App):
        super().__init__(app)
        self.saves = saves.list_saves(app.saves_dir)
        self.selected: int | None = next((i for i, s in enumerate(self.saves) if s.error is None), None)
        self.offset = 0
        self.error = ""

    def resume(self) -> None:
        """Continue the selected save; whatever stops it (an agent that cannot be made, ...) is shown, not raised."""
        if self.selected is None or self.saves[self.selected].data is None:
            return
        info = self.saves[self.selected]
        try:
            match = Match.from_save(info.data, self.app.agent_factory, autosave=info.autosave)
        except Exception as err:  # the save was checked; anything left is reported on this screen
            self.error = f"Cannot continue: {err}"
            return
        self.app.show_play(match)

    def buttons(self) -> list[Button]:
        return [
            Button("Continue Game", pygame.Rect(WIDTH // 2 - 160, 660, 320, 64), self.resume,
                   enabled=self.selected is not None, key=pygame.K_RETURN, size=32),
            Button("Back", pygame.Rect(40, 720, 160, 54), self.app.show_menu, key=pygame.K_ESCAPE),
            Button("Analysis", pygame.Rect(WIDTH - 220, 720, 180, 54), self.analyse, enabled=self.selected is not None,
                   key=pygame.K_a),
        ]

    def analyse(self) -> None:
        """The analysis view of the selected save's game (the game in progress, or the one just finished)."""
        if self.selected is None or self.saves[self.selected].data is None:
            return
        data = self.saves[self.selected].data
        self.app.show_analysis(data.record, data.seats, self)

    def handle(self, event: pygame.event.Event) -> bool:
        if super().handle(event):
            return True
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            for i in range(self.offset, min(len(self.saves), self.offset + VISIBLE)):
                if row_rect(i, self.offset).collidepoint(event.pos) and self.saves[i].error is None:
                    self.selected = i
                    self.error = ""
                    return True
        elif event.type == pygame.MOUSEWHEEL:
            self.offset = max(0, min(len(self.saves) - VISIBLE, self.offset - event.y))
            return True
        return False

    def draw_content(self, canvas: Canvas) -> None:
        if not self.saves:
            canvas.fitted(f"No saves yet in {printable(str(self.app.saves_dir))}", (WIDTH // 2, 300), WIDTH - 80,
                          30, MUTED, anchor="center")
        for i in range(self.offset, min(len(self.saves), self.offset + VISIBLE)):
            self.draw_entry(canvas, self.saves[i], row_rect(i, self.offset), i == self.selected)
        if len(self.saves) > VISIBLE:
            canvas.text(f"{self.offset + 1}-{min(len(self.saves), self.offset + VISIBLE)} of {len(self.saves)} "
                        "(scroll for more)", (WIDTH // 2, LIST_TOP + VISIBLE * ROW_HEIGHT), 22, MUTED,
                        anchor="midtop")
        if self.error:
            canvas.wrapped(self.error, MESSAGE_RECT, 22, ERROR, max_lines=2)

    def draw_entry(self, canvas: Canvas, info: saves.SaveInfo, rect: pygame.Rect, selected: bool) -> None:
        """One save: its name (the autosave's title, in colour) and date, then its players and progress or why it
        cannot be loaded."""
        canvas.panel(rect, (214, 236, 218) if selected else AUTOSAVE_FILL if info.autosave else PANEL)
        if selected:
            pygame.draw.rect(canvas.surface, SELECTED, rect, 3, border_radius=10)
        inner = rect.w - 32
        canvas.fitted(saves.display_date(info.saved_at), (rect.right - 16, rect.y + 8), DATE_WIDTH, 24, MUTED,
                      anchor="topright")
        title = saves.AUTOSAVE_TITLE if info.autosave else info.name
        canvas.fitted(title, (rect.x + 16, rect.y + 8), inner - DATE_WIDTH - 16, 30, ACCENT if info.autosave else INK,
                      bold=True)
        if info.error is None:
            players = pygame.Rect(rect.x + 16, rect.y + 36, inner, rect.h - 38)
            canvas.block(f"{', '.join(info.players)}  -  {info.progress}", players, 24, MUTED, minimum=13)
        else:
            message = f"Cannot load {printable(info.path.name)}: {info.error}"
            canvas.wrapped(message, pygame.Rect(rect.x + 16, rect.y + 31, inner, 36), 20, ERROR, max_lines=2)
