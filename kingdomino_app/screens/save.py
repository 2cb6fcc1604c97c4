"""Save & Quit: name the save, write it, back to the main menu, or out of the app when asked on quitting
(Back to Game cancels). A save under a name replaces the autosave, which is removed."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import pygame

from .. import saves
from ..match import Match
from ..seats import printable
from ..ui import ACCENT, ERROR, MUTED, WIDTH, Button, Canvas, TextField
from .base import Screen

if TYPE_CHECKING:
    from ..app import App

MAX_NAME = 40


def suggested_name(match: Match) -> str:
    """"Alice vs Greedy", or "Alice + 3" when all the names do not fit."""
    name = " vs ".join(match.names)
    return name if len(name) <= MAX_NAME else f"{match.names[0][:MAX_NAME - 4]} + {len(match.names) - 1}"


class SaveScreen(Screen):
    title = "Save & Quit"

    def __init__(self, app: App, match: Match, back: Screen, quit_after: bool = False):
        super().__init__(app)
        self.match = match
        self.back = back
        self.quit_after = quit_after
        self.field = TextField(pygame.Rect(WIDTH // 2 - 330, 260, 660, 60), match.name or suggested_name(match),
                               MAX_NAME, focused=True)
        self.confirm: str | None = None
        self.message = ""

    def save(self) -> None:
        name = self.field.value.strip()
        if not name:
            self.message = "Type a name for the save."
            return
        target = saves.path_for(self.app.saves_dir, name)
        # The game's own save is replaced without asking; any other file of that name only once confirmed.
        overwrite = self.confirm == name or (name == self.match.name and self.own_save(target))
        if target.exists() and not overwrite:
            self.confirm = name
            self.message = f"A save named like '{name}' exists ({target.name}). Press Replace & Quit to replace it."
            return
        try:
            saves.write(self.app.saves_dir, self.match.to_save(name), overwrite=overwrite)
        except OSError as err:
            self.message = f"Could not save: {err}"
            return
        self.match.saved(name)
        self.app.clear_autosave()
        self.app.notice = f"Saved '{name}'."
        if self.quit_after:
            self.app.quit()
        else:
            self.app.show_menu()

    def own_save(self, target: Path) -> bool:
        """Whether `target` is a save of this match (same seats, seed and deal), which saving it again replaces."""
        try:
            data = saves.read(target)
        except saves.SaveError:
            return False
        mine = self.match.to_save(data.name)
        return (data.seed == self.match.seed and [s.to_dict() for s in data.seats] == mine["seats"]
                and {k: v for k, v in data.record.items() if k not in ("actions", "scores")}
                == {k: v for k, v in mine["record"].items() if k not in ("actions", "scores")})

    def buttons(self) -> list[Button]:
        replacing = self.confirm is not None and self.confirm == self.field.value.strip()
        return [
            Button("Replace & Quit" if replacing else "Save & Quit", pygame.Rect(WIDTH // 2 - 330, 360, 320, 64),
                   self.save, key=pygame.K_RETURN, size=32),
            Button("Back to Game", pygame.Rect(WIDTH // 2 + 10, 360, 320, 64), lambda: self.app.go(self.back),
                   key=pygame.K_ESCAPE, size=32),
        ]

    def handle(self, event: pygame.event.Event) -> bool:
        if event.type == pygame.KEYDOWN and event.key in (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_ESCAPE):
            return super().handle(event)
        if self.field.handle(event):
            return True
        return super().handle(event)

    def draw_content(self, canvas: Canvas) -> None:
        canvas.text("Name of Game", (WIDTH // 2 - 330, 220), 30, bold=True)
        self.field.draw(canvas, 32)
        canvas.block(f"{', '.join(self.match.names)} - {self.match.progress()}", pygame.Rect(80, 110, WIDTH - 160, 70),
                     28, MUTED, minimum=16)
        canvas.block(f"Saves are kept in {printable(str(self.app.saves_dir))}", pygame.Rect(80, 446, WIDTH - 160, 50),
                     22, MUTED, minimum=14)
        if self.message:
            canvas.wrapped(self.message, pygame.Rect(WIDTH // 2 - 330, 500, 660, 80), 24,
                           ACCENT if self.confirm else ERROR)
