"""The screen interface: `handle(event)`, `update(dt)`, `draw(canvas)`, and the buttons of the moment."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pygame

from ..ui import BACKGROUND, Button, Canvas

if TYPE_CHECKING:
    from ..app import App
    from ..thinking import Job


class Screen:
    """A screen of the app. `buttons()` is recomputed whenever needed, so it always matches what is drawn."""

    title = ""

    def __init__(self, app: App):
        self.app = app

    def buttons(self) -> list[Button]:
        return []

    def handle(self, event: pygame.event.Event) -> bool:
        """Run the button under a left click, or the one whose key was pressed; True if one ran."""
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            for button in self.buttons():
                if button.enabled and button.rect.collidepoint(event.pos):
                    button.action()
                    return True
        elif event.type == pygame.KEYDOWN:
            for button in self.buttons():
                if button.enabled and button.key is not None and button.key == event.key:
                    button.action()
                    return True
        return False

    def update(self, dt: float) -> None:
        """Advance time by `dt` seconds."""

    def pending(self) -> Job[Any] | None:
        """The worker job the screen waits for (an agent thinking or loading), None when it waits for none."""
        return None

    def draw(self, canvas: Canvas) -> None:
        canvas.surface.fill(BACKGROUND)
        if self.title:
            canvas.title(self.title)
        self.draw_content(canvas)
        for button in self.buttons():
            canvas.button(button)

    def draw_content(self, canvas: Canvas) -> None:
        """What the screen shows besides its title and buttons."""
