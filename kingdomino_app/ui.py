"""Widgets and the drawing canvas: buttons, text fields, and a log of the texts drawn in a frame (for tests).

Text that comes from users or errors (names, messages) is drawn with `Canvas.fitted` (elided to a width) or
`Canvas.wrapped` (wrapped to a box), so it never runs out of its box.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import pygame

from kingdomino_env.rendering import pygame_drawing as drawing

Colour = tuple[int, int, int]

WIDTH, HEIGHT = 1280, 800
BACKGROUND = drawing.BACKGROUND
INK = drawing.INK
MUTED: Colour = (120, 112, 100)
ACCENT: Colour = (150, 40, 60)
ERROR: Colour = (190, 30, 30)
PANEL: Colour = (236, 228, 210)
BUTTON: Colour = (122, 38, 56)
BUTTON_HOVER: Colour = (160, 56, 76)
BUTTON_OFF: Colour = (196, 188, 176)
SELECTED: Colour = (40, 120, 70)


@dataclass
class Button:
    """A clickable rect with a label; `action` runs on a left click (or its `key`) while `enabled`."""

    label: str
    rect: pygame.Rect
    action: Callable[[], None]
    enabled: bool = True
    selected: bool = False
    key: int | None = None
    size: int = 28


@dataclass
class Canvas:
    """The surface a screen draws on, and the texts it drew this frame (`texts`) with their rects (`rects`)."""

    surface: pygame.Surface
    mouse: tuple[int, int] = (-1, -1)
    texts: list[str] = field(default_factory=list)
    rects: list[pygame.Rect] = field(default_factory=list)

    def text(self, value: str, pos: tuple[int, int], size: int = 26, colour: Colour = INK, bold: bool = False,
             anchor: str = "topleft") -> pygame.Rect:
        rect = drawing.text(self.surface, value, pos, size, colour, bold, anchor)
        self.texts.append(value)
        self.rects.append(rect)
        return rect

    def fitted(self, value: str, pos: tuple[int, int], width: int, size: int = 26, colour: Colour = INK,
               bold: bool = False, anchor: str = "topleft") -> pygame.Rect:
        """`text`, elided with "..." to at most `width` pixels (for names and other text of any length)."""
        return self.text(elide(value, width, size, bold), pos, size, colour, bold, anchor)

    def wrapped(self, value: str, rect: pygame.Rect, size: int = 24, colour: Colour = INK,
                max_lines: int | None = None) -> int:
        """Draw `value` wrapped to `rect`'s width from its top; returns the y below the last line.

        With `max_lines`, the lines beyond it are left out and the last one shown ends in "...".
        """
        lines = wrap(value, rect.w, size)
        if max_lines is not None and len(lines) > max_lines:
            lines = lines[:max_lines]
            lines[-1] = elide(lines[-1] + " ...", rect.w, size)
        y = rect.y
        for line in lines:
            self.text(line, (rect.x, y), size, colour)
            y += line_height(size)
        return y

    def button(self, button: Button) -> None:
        hover = button.rect.collidepoint(self.mouse)
        if not button.enabled:
            fill, ink = BUTTON_OFF, (245, 240, 232)
        elif button.selected:
            fill, ink = SELECTED, (255, 255, 255)
        else:
            fill, ink = (BUTTON_HOVER if hover else BUTTON), (255, 255, 255)
        pygame.draw.rect(self.surface, fill, button.rect, border_radius=8)
        pygame.draw.rect(self.surface, INK, button.rect, 2, border_radius=8)
        self.fitted(button.label, button.rect.center, button.rect.w - 12, button.size, ink, True, "center")

    def panel(self, rect: pygame.Rect, colour: Colour = PANEL) -> None:
        pygame.draw.rect(self.surface, colour, rect, border_radius=10)
        pygame.draw.rect(self.surface, (200, 190, 170), rect, 1, border_radius=10)

    def title(self, value: str) -> None:
        self.fitted(value, (WIDTH // 2, 44), WIDTH - 80, 60, ACCENT, True, "center")


def line_height(size: int) -> int:
    """Pixels from one wrapped line to the next at font `size`."""
    return int(size * 1.15)


def elide(value: str, width: int, size: int, bold: bool = False) -> str:
    """`value` cut to fit `width` pixels in the default font at `size`, ending in "..." when cut."""
    f = drawing.font(size, bold)
    if f.size(value)[0] <= width:
        return value
    cut = value
    while cut and f.size(cut + "...")[0] > width:
        cut = cut[:-1]
    return cut.rstrip() + "..."


def wrap(value: str, width: int, size: int) -> list[str]:
    """`value` split into lines that fit `width` pixels in the default font at `size` (a word too long for a
    line, such as a path, is cut across lines)."""
    f = drawing.font(size)
    lines: list[str] = []
    for paragraph in value.split("\n"):
        line = ""
        for word in paragraph.split(" "):
            candidate = f"{line} {word}" if line else word
            if f.size(candidate)[0] <= width:
                line = candidate
                continue
            if line:
                lines.append(line)
            while len(word) > 1 and f.size(word)[0] > width:
                cut = len(word) - 1
                while cut > 1 and f.size(word[:cut])[0] > width:
                    cut -= 1
                lines.append(word[:cut])
                word = word[cut:]
            line = word
        lines.append(line)
    return lines


@dataclass
class TextField:
    """A one-line text input: click to focus, type, Backspace deletes, Enter or a click elsewhere ends."""

    rect: pygame.Rect
    value: str = ""
    max_length: int = 16
    focused: bool = False
    edited: bool = False

    def handle(self, event: pygame.event.Event) -> bool:
        """Handle an event; True when it was the field's."""
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            was = self.focused
            self.focused = self.rect.collidepoint(event.pos)
            if self.focused and not was:
                pygame.key.start_text_input()
            return self.focused
        if not self.focused:
            return False
        if event.type == pygame.TEXTINPUT:
            self.value = (self.value + event.text)[: self.max_length]
            self.edited = True
            return True
        if event.type == pygame.KEYDOWN:
            if event.key == pygame.K_BACKSPACE:
                self.value = self.value[:-1]
                self.edited = True
            elif event.key in (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_TAB, pygame.K_ESCAPE):
                self.focused = False
            return True
        return False

    def draw(self, canvas: Canvas, size: int = 28) -> None:
        pygame.draw.rect(canvas.surface, (255, 253, 247), self.rect, border_radius=6)
        pygame.draw.rect(canvas.surface, ACCENT if self.focused else MUTED, self.rect, 2, border_radius=6)
        shown = self.value + ("|" if self.focused else "")
        canvas.fitted(shown, (self.rect.x + 10, self.rect.centery), self.rect.w - 20, size, INK, False, "midleft")


def click_event(pos: tuple[int, int], button: int = 1) -> pygame.event.Event:
    return pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=button)


__all__ = ["BACKGROUND", "Button", "Canvas", "HEIGHT", "INK", "TextField", "WIDTH", "click_event", "elide",
           "line_height", "wrap"]
