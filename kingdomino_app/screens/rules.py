"""Rules: the rules summary, scrollable with the mouse wheel, the arrow keys, Page Up/Down, Home and End."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame

from ..rules_text import RULES
from ..ui import ACCENT, HEIGHT, MUTED, WIDTH, Button, Canvas, wrap
from .base import Screen

if TYPE_CHECKING:
    from ..app import App

VIEW = pygame.Rect(90, 96, WIDTH - 200, HEIGHT - 200)
HEADING, BODY = 34, 26


def layout(width: int = VIEW.w) -> list[tuple[int, str, int, bool]]:
    """(y, text, size, bold) of every line of the rules, top at 0."""
    out: list[tuple[int, str, int, bool]] = []
    y = 0
    for heading, paragraphs in RULES:
        out.append((y, heading, HEADING, True))
        y += 42
        for paragraph in paragraphs:
            for line in wrap(paragraph, width, BODY):
                out.append((y, line, BODY, False))
                y += 28
            y += 10
        y += 14
    return out


class RulesScreen(Screen):
    title = "The rules"

    def __init__(self, app: App, back: Screen | None = None):
        super().__init__(app)
        self.back = back
        self.lines = layout()
        self.height = self.lines[-1][0] + 40
        self.offset = 0

    @property
    def max_offset(self) -> int:
        return max(0, self.height - VIEW.h)

    def scroll(self, pixels: int) -> None:
        self.offset = max(0, min(self.max_offset, self.offset + pixels))

    def leave(self) -> None:
        if self.back is None:
            self.app.show_menu()
        else:
            self.app.go(self.back)

    def buttons(self) -> list[Button]:
        return [Button("Back", pygame.Rect(40, 720, 160, 54), self.leave, key=pygame.K_ESCAPE)]

    def handle(self, event: pygame.event.Event) -> bool:
        if super().handle(event):
            return True
        if event.type == pygame.MOUSEWHEEL:
            self.scroll(-60 * event.y)
            return True
        if event.type == pygame.KEYDOWN:
            steps = {pygame.K_DOWN: 40, pygame.K_UP: -40, pygame.K_PAGEDOWN: VIEW.h - 40,
                     pygame.K_PAGEUP: -(VIEW.h - 40), pygame.K_SPACE: VIEW.h - 40, pygame.K_END: self.height,
                     pygame.K_HOME: -self.height}
            if event.key in steps:
                self.scroll(steps[event.key])
                return True
        return False

    def visible_lines(self) -> list[str]:
        return [t for y, t, size, _ in self.lines if self.offset <= y and y + size <= self.offset + VIEW.h]

    def draw_content(self, canvas: Canvas) -> None:
        canvas.surface.set_clip(VIEW)
        for y, value, size, bold in self.lines:
            top = VIEW.y + y - self.offset
            if VIEW.y - size < top < VIEW.bottom:
                canvas.text(value, (VIEW.x, top), size, ACCENT if bold else (40, 36, 32), bold)
        canvas.surface.set_clip(None)
        if self.max_offset:
            track = pygame.Rect(VIEW.right + 30, VIEW.y, 10, VIEW.h)
            pygame.draw.rect(canvas.surface, (220, 212, 196), track, border_radius=5)
            knob_h = max(40, VIEW.h * VIEW.h // self.height)
            knob_y = VIEW.y + (VIEW.h - knob_h) * self.offset // self.max_offset
            pygame.draw.rect(canvas.surface, ACCENT, (track.x, knob_y, 10, knob_h), border_radius=5)
        canvas.text("Wheel, arrow keys, Page Up/Down to scroll", (WIDTH - 40, HEIGHT - 40), 22, MUTED,
                    anchor="midright")
