"""Load Game: the saves (name, date, players, round), bad ones with the reason; Continue Game resumes one."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame

from .. import saves
from ..match import Match
from ..seats import AgentUnavailable
from ..ui import ERROR, MUTED, PANEL, SELECTED, WIDTH, Button, Canvas, wrap
from .base import Screen

if TYPE_CHECKING:
    from ..app import App

LIST_TOP, ROW_HEIGHT, VISIBLE = 96, 78, 7


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
        if self.selected is None:
            return
        data = self.saves[self.selected].data
        try:
            match = Match.from_save(data, self.app.agent_factory)
        except AgentUnavailable as err:
            self.error = f"Cannot continue: {err}"
            return
        self.app.show_play(match)

    def buttons(self) -> list[Button]:
        return [
            Button("Continue Game", pygame.Rect(WIDTH // 2 - 160, 660, 320, 64), self.resume,
                   enabled=self.selected is not None, key=pygame.K_RETURN, size=32),
            Button("Back", pygame.Rect(40, 720, 160, 54), self.app.show_menu, key=pygame.K_ESCAPE),
        ]

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
            canvas.text(f"No saves yet in {self.app.saves_dir}", (WIDTH // 2, 300), 30, MUTED, anchor="center")
        for i in range(self.offset, min(len(self.saves), self.offset + VISIBLE)):
            info = self.saves[i]
            rect = row_rect(i, self.offset)
            canvas.panel(rect, (214, 236, 218) if i == self.selected else PANEL)
            if i == self.selected:
                pygame.draw.rect(canvas.surface, SELECTED, rect, 3, border_radius=10)
            canvas.text(info.name, (rect.x + 16, rect.y + 8), 30, bold=True)
            canvas.text(saves.display_date(info.saved_at), (rect.right - 16, rect.y + 8), 24, MUTED,
                        anchor="topright")
            if info.error is None:
                canvas.text(f"{', '.join(info.players)}  -  {info.progress}", (rect.x + 16, rect.y + 36), 24, MUTED)
            else:
                lines = wrap(f"Cannot load {info.path.name}: {info.error}", rect.w - 32, 20)
                if len(lines) > 2:
                    lines = [lines[0], lines[1][:-3] + "..."]
                for k, line in enumerate(lines):
                    canvas.text(line, (rect.x + 16, rect.y + 36 + 18 * k), 20, ERROR)
        if len(self.saves) > VISIBLE:
            canvas.text(f"{self.offset + 1}-{min(len(self.saves), self.offset + VISIBLE)} of {len(self.saves)} "
                        "(scroll for more)", (WIDTH // 2, LIST_TOP + VISIBLE * ROW_HEIGHT), 22, MUTED,
                        anchor="midtop")
        if self.error:
            canvas.text(self.error, (WIDTH // 2, 745), 24, ERROR, anchor="center")
