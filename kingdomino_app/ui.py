"""Widgets and the drawing canvas: buttons, text fields, and a log of the texts drawn in a frame (for tests).

Text that comes from users or errors (names, messages) is drawn with `Canvas.fitted` (elided to a width),
`Canvas.wrapped` (wrapped to a box) or `Canvas.block` (wrapped and shrunk until it fits a box), so it never runs out
of its box. Every text drawn is recorded with its box and the whole text it stands for (`Canvas.drawn`), so that a
test can tell a text that was cut or runs out of its box.
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


@dataclass(frozen=True)
class Drawn:
    """A text as drawn: `value` (what shows), `full` (the whole text it stands for: longer when it was elided),
    where it went (`rect`) and the box it had to stay in (`box`: the surface unless a narrower one was given)."""

    value: str
    full: str
    rect: pygame.Rect
    box: pygame.Rect
    #: The font size it was drawn at.
    size: int = 0

    @property
    def fits(self) -> bool:
        """Whether it was drawn whole and inside its box."""
        return self.value == self.full and self.box.contains(self.rect)


@dataclass
class Canvas:
    """The surface a screen draws on, and the texts it drew this frame (`texts`) with their rects (`rects`) and
    their boxes (`drawn`)."""

    surface: pygame.Surface
    mouse: tuple[int, int] = (-1, -1)
    texts: list[str] = field(default_factory=list)
    rects: list[pygame.Rect] = field(default_factory=list)
    drawn: list[Drawn] = field(default_factory=list)

    def text(self, value: str, pos: tuple[int, int], size: int = 26, colour: Colour = INK, bold: bool = False,
             anchor: str = "topleft", box: pygame.Rect | None = None, full: str | None = None) -> pygame.Rect:
        """Draw `value`; `box` is where it must stay (default: the surface), `full` the text it stands for."""
        rect = drawing.text(self.surface, value, pos, size, colour, bold, anchor)
        self.texts.append(value)
        self.rects.append(rect)
        self.drawn.append(Drawn(value, value if full is None else full, rect,
                                self.surface.get_rect() if box is None else box, size))
        return rect

    def fitted(self, value: str, pos: tuple[int, int], width: int, size: int = 26, colour: Colour = INK,
               bold: bool = False, anchor: str = "topleft") -> pygame.Rect:
        """`text`, elided with "..." to at most `width` pixels (for names and other text of any length)."""
        shown = elide(value, width, size, bold)
        box = pygame.Rect(0, 0, width, 2 * size)
        setattr(box, anchor, pos)
        return self.text(shown, pos, size, colour, bold, anchor, box, value)

    def shrunk(self, value: str, pos: tuple[int, int], width: int, size: int = 26, colour: Colour = INK,
               bold: bool = False, anchor: str = "topleft", minimum: int = 14) -> pygame.Rect:
        """`fitted`, at the largest size from `size` down to `minimum` at which `value` fits `width` whole."""
        return self.fitted(value, pos, width, fit_size(value, width, size, bold, minimum), colour, bold, anchor)

    def block(self, value: str, rect: pygame.Rect, size: int = 22, colour: Colour = INK, minimum: int = 12,
              bold: bool = False) -> int:
        """`value` wrapped to `rect` at the largest size from `size` down to `minimum` at which all its lines fit
        the box's height (at `minimum` the lines that do not fit are left out, the last shown ending in "...");
        returns the y below the last line."""
        while size > minimum and len(wrap(value, rect.w, size, bold)) * line_height(size) > rect.h:
            size -= 1
        lines = wrap(value, rect.w, size, bold)
        room = max(1, rect.h // line_height(size))
        shown = lines[:room]
        if len(lines) > room:
            shown[-1] = elide(shown[-1] + " ...", rect.w, size, bold)
        y = rect.y
        for line in shown:
            self.text(line, (rect.x, y), size, colour, bold, box=rect,
                      full=line if len(lines) <= room else value)
            y += line_height(size)
        return y

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
        whole = wrap(value, rect.w, size)
        box = pygame.Rect(rect.x, rect.y, rect.w, max(rect.h, len(lines) * line_height(size)))
        for line in lines:
            self.text(line, (rect.x, y), size, colour, box=box, full=line if lines == whole else value)
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


#: Pixels a board's row and column labels take left of it and above it (`draw_labels`).
LABEL_ROOM = 16


def label_size(cell: int) -> int:
    """The font size of a board's row and column labels for squares of `cell` pixels."""
    return 16 if cell >= 34 else 14


def draw_labels(canvas: Canvas, origin: tuple[int, int], cell: int, rows: int, cols: int | None = None,
                first_row: int = 0, first_col: int = 0) -> None:
    """Number the rows (left of the board) and columns (above it) of a board drawn at `origin` with squares of
    `cell` pixels, counted from 1 as move texts name squares (`kingdomino_env.rules.square_name`); `first_row` and
    `first_col` are the frame's row and column of the board's top left square (a kingdom's window)."""
    size = label_size(cell)
    x, y = origin
    for r in range(rows):
        canvas.text(str(first_row + r + 1), (x - 4, y + r * cell + cell // 2), size, MUTED, anchor="midright")
    for c in range(rows if cols is None else cols):
        canvas.text(str(first_col + c + 1), (x + c * cell + cell // 2, y - LABEL_ROOM // 2), size, MUTED,
                    anchor="center")


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


def fit_size(value: str, width: int, size: int, bold: bool = False, minimum: int = 14) -> int:
    """The largest font size from `size` down to `minimum` at which `value` fits `width` pixels."""
    while size > minimum and drawing.font(size, bold).size(value)[0] > width:
        size -= 1
    return size


def wrap(value: str, width: int, size: int, bold: bool = False) -> list[str]:
    """`value` split into lines that fit `width` pixels in the default font at `size` (a word too long for a
    line, such as a path, is cut across lines)."""
    f = drawing.font(size, bold)
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
        width = self.rect.w - 20
        f = drawing.font(size)
        if f.size(shown)[0] > width:  # the field scrolls: the end, where typing goes on, stays in view
            while len(shown) > 1 and f.size("..." + shown)[0] > width:
                shown = shown[1:]
            shown = "..." + shown
        box = pygame.Rect(self.rect.x + 10, self.rect.y, width, self.rect.h)
        canvas.text(shown, (box.x, box.centery), size, INK, False, "midleft", box)


def click_event(pos: tuple[int, int], button: int = 1) -> pygame.event.Event:
    return pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=button)


__all__ = ["BACKGROUND", "Button", "Canvas", "Drawn", "HEIGHT", "INK", "LABEL_ROOM", "TextField", "WIDTH",
           "click_event", "draw_labels", "elide", "fit_size", "label_size", "line_height", "wrap"]
