"""Leaving a game in progress: Save (then quit), Main menu (the game is written to the autosave, which Load Game
continues; if it cannot be written the dialog stays and says so), Quit without saving (the autosave goes too), or
Cancel. It says whether the game is saved under its name."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame

from ..match import Match
from ..seats import printable
from ..ui import ACCENT, ERROR, MUTED, WIDTH, Button, Canvas
from .base import Screen

if TYPE_CHECKING:
    from ..app import App


class QuitScreen(Screen):
    def __init__(self, app: App, match: Match, back: Screen):
        super().__init__(app)
        self.match = match
        self.back = back
        #: Why Main menu could not keep the game ("" until it fails).
        self.message = ""

    @property
    def title(self) -> str:
        """"Quit Kingdomino?", "Quit Queendomino?", "Quit the Royal Wedding?": the game being played."""
        return f"Quit {self.match.rules.title_in_text}?"

    def save(self) -> None:
        self.app.show_save(self.match, self.back, quit_after=True)

    def discard(self) -> None:
        self.app.clear_autosave()
        self.app.quit()

    def main_menu(self) -> None:
        """Write the game to the autosave, then go back to the main menu saying where it is kept. A game loaded or
        saved under a name and not played since has no autosave yet, so it is written here whatever came before;
        if it cannot be written, the dialog stays open and says so (the game can still be saved under a name)."""
        error = self.app.keep_in_autosave(self.match)
        if error is not None:
            self.message = f"{error}. The game is not kept: Save it under a name, or Cancel."
            return
        self.app.notice = ("The game is kept as the autosave: Load Game continues it.\n"
                           f"Its file: {printable(str(self.app.autosave_path))}")
        self.app.show_menu()

    def buttons(self) -> list[Button]:
        y, w, h, gap = 420, 260, 64, 20
        x = WIDTH // 2 - 2 * w - 3 * gap // 2
        entries = (("Save", self.save, pygame.K_s, 32), ("Main menu", self.main_menu, pygame.K_m, 32),
                   ("Quit without saving", self.discard, pygame.K_q, 26),
                   ("Cancel", lambda: self.app.go(self.back), pygame.K_ESCAPE, 32))
        return [Button(label, pygame.Rect(x + k * (w + gap), y, w, h), action, key=key, size=size)
                for k, (label, action, key, size) in enumerate(entries)]

    def saved_text(self) -> str:
        """Whether the game is saved under its name, and with its latest moves."""
        match = self.match
        if match.name is None:
            return "This game is not saved under a name."
        since = match.moves_since_saved()
        if since == 0:
            return f"This game is saved as '{match.name}'."
        if since is None:
            return f"This game is '{match.name}'; that save may not hold its latest moves."
        return f"This game is saved as '{match.name}', without its last {since} move{'s' if since != 1 else ''}."

    def draw_content(self, canvas: Canvas) -> None:
        match = self.match
        what = f"{', '.join(match.names)} - {match.progress()}"
        canvas.block(what, pygame.Rect(60, 180, WIDTH - 120, 80), 30, ACCENT, minimum=16)
        canvas.block(self.saved_text(), pygame.Rect(60, 274, WIDTH - 120, 40), 28, minimum=16)
        canvas.text("Save: name it, then quit.   Main menu: the autosave keeps the game.   Quit without saving: "
                    "the game is lost.   Cancel: back to it.", (WIDTH // 2, 340), 20, MUTED, anchor="center")
        if self.message:
            canvas.block(self.message, pygame.Rect(60, 510, WIDTH - 120, 80), 24, ERROR, minimum=14)
