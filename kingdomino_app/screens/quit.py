"""Quitting with a game in progress: Save (then quit), Quit without saving (the autosave goes too), or Cancel."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame

from ..match import Match
from ..ui import ACCENT, MUTED, WIDTH, Button, Canvas
from .base import Screen

if TYPE_CHECKING:
    from ..app import App


class QuitScreen(Screen):
    def __init__(self, app: App, match: Match, back: Screen):
        super().__init__(app)
        self.match = match
        self.back = back

    @property
    def title(self) -> str:
        """"Quit Kingdomino?", "Quit Queendomino?", "Quit the Royal Wedding?": the game being played."""
        return f"Quit {self.match.rules.title_in_text}?"

    def save(self) -> None:
        self.app.show_save(self.match, self.back, quit_after=True)

    def discard(self) -> None:
        self.app.clear_autosave()
        self.app.quit()

    def buttons(self) -> list[Button]:
        y, w, h = 420, 340, 64
        return [
            Button("Save", pygame.Rect(WIDTH // 2 - 530, y, w, h), self.save, key=pygame.K_s, size=32),
            Button("Quit without saving", pygame.Rect(WIDTH // 2 - 170, y, w, h), self.discard, key=pygame.K_q,
                   size=30),
            Button("Cancel", pygame.Rect(WIDTH // 2 + 190, y, w, h), lambda: self.app.go(self.back),
                   key=pygame.K_ESCAPE, size=32),
        ]

    def draw_content(self, canvas: Canvas) -> None:
        match = self.match
        what = f"{', '.join(match.names)} - {match.progress()}"
        canvas.block(what, pygame.Rect(60, 180, WIDTH - 120, 80), 30, ACCENT, minimum=16)
        canvas.text("This game is not saved under a name.", (WIDTH // 2, 290), 28, anchor="center")
        canvas.text("Save: name it, then quit.   Quit without saving: the game is lost.   Cancel: back to it.",
                    (WIDTH // 2, 340), 22, MUTED, anchor="center")
