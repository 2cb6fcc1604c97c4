"""Queendomino's Builders' Board in the app: each slot's cost, its tile's picture, name and effects, fitted to the
slot (names wrap and shrink, never cutting a word; effects that do not fit are counted, "3 effects"), and the
whole description of the tile under the mouse in a box above it.
"""

from __future__ import annotations

import pygame

from kingdomino_env.core import State
from kingdomino_env.rendering import pygame_drawing as drawing
from kingdomino_env.rendering.text import building_effects

from .ui import MUTED, Canvas, line_height, wrap

#: The smallest text size of a slot's name (bold), and of its effects (both readable on a laptop's scaled window).
SLOT_TEXT_MIN, EFFECTS_MIN = 13, 16
#: The largest text size of a slot's name and effects.
SLOT_TEXT_MAX = 17
#: The description box of the tile under the mouse.
DETAILS_WIDTH, DETAILS_SIZE = 300, 20


def draw_slot(canvas: Canvas, state: State, slot: int, rect: pygame.Rect, cell: int) -> None:
    """Builders' Board slot `slot` in `rect`: its cost and coin, then its tile (picture, name, effects) or "empty"."""
    surface = canvas.surface
    pygame.draw.rect(surface, drawing.BADGE, rect, border_radius=4)
    pygame.draw.rect(surface, drawing.INK, rect, 1, border_radius=4)
    cost = canvas.text(str(slot), (rect.x + 4, rect.y + 3), max(12, cell * 2 // 3), bold=True)
    drawing.draw_coin(surface, (cost.right + cell // 4 + 2, cost.centery), max(8, cell // 2))
    tile = int(state.slots[0, slot])
    if tile < 0:
        canvas.text("empty", rect.center, SLOT_TEXT_MIN + 3, MUTED, anchor="center", box=rect)
        return
    icon = pygame.Rect(rect.right - cell - 4, rect.y + 3, cell, cell)
    drawing.draw_building(surface, icon, state, tile)
    inner = pygame.Rect(rect.x + 4, icon.bottom + 2, rect.w - 8, rect.bottom - icon.bottom - 4)
    name = state.rules.building_deck.names[tile]
    size = SLOT_TEXT_MAX
    while size > SLOT_TEXT_MIN and not fits_lines(name, inner.w, size, 2, True):
        size -= 1
    y = canvas.block(name, pygame.Rect(inner.x, inner.y, inner.w, 2 * line_height(size)), size,
                     minimum=SLOT_TEXT_MIN, bold=True)
    box = pygame.Rect(inner.x, y, inner.w, inner.bottom - y)
    effects = building_effects(state.rules.building_deck, tile, short=True)
    text = ", ".join(effects)
    size = SLOT_TEXT_MAX
    while size > EFFECTS_MIN and not fits_lines(text, box.w, size, box.h // line_height(size)):
        size -= 1
    if not fits_lines(text, box.w, size, box.h // line_height(size)):
        text = f"{len(effects)} effects"
    canvas.block(text, box, size, minimum=size)


def fits_lines(text: str, width: int, size: int, lines: int, bold: bool = False) -> bool:
    """Whether `text` wraps into at most `lines` lines of `width` at `size` without cutting a word."""
    f = drawing.font(size, bold)
    return (all(f.size(word)[0] <= width for word in text.split())
            and len(wrap(text, width, size, bold)) <= lines)


def draw_details(canvas: Canvas, state: State, slot: int, rect: pygame.Rect, bounds: pygame.Rect) -> None:
    """The whole name and effects of the tile in slot `slot` (drawn in `rect`) in a box above it, kept inside
    `bounds`."""
    tile = int(state.slots[0, slot])
    if tile < 0:
        return
    deck = state.rules.building_deck
    text = f"{deck.names[tile]} (costs {slot}): " + ", ".join(building_effects(deck, tile)) + "."
    lines = len(wrap(text, DETAILS_WIDTH - 16, DETAILS_SIZE))
    box = pygame.Rect(0, 0, DETAILS_WIDTH, lines * line_height(DETAILS_SIZE) + 12)
    box.midbottom = (rect.centerx, rect.y - 4)
    box.clamp_ip(bounds)
    canvas.panel(box, (255, 250, 232))
    canvas.wrapped(text, box.inflate(-16, -12), DETAILS_SIZE)


__all__ = ["draw_details", "draw_slot", "fits_lines"]
